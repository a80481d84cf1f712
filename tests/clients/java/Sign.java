// Requests signed by hand in Java with java.security.Signature and URLEncoder, the way Java
// integrations sign them, correct ones and ones with the mistakes Java code makes.
// Argument: a JSON object {base, endpoint, group, login, now, key, other_key}.
// Output: one JSON object a line {name, expect, method, url, authorization, content_type,
// body (base64)}. Run as a single source file: java Sign.java '{...}' (JDK 11 or later).

import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Sign {
    record P(String k, String v) {}

    static String cfg(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\"([^\"]*)\"|(\\d+))").matcher(json);
        if (!m.find()) throw new IllegalArgumentException(name);
        return m.group(2) != null ? m.group(2) : m.group(3);
    }

    // The encoder OAuth wants, the way Java answers on Stack Overflow write it.
    static String rfc3986(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8)
                .replace("+", "%20").replace("*", "%2A").replace("%7E", "~");
    }

    static String enc(String v, Charset cs) {
        return URLEncoder.encode(v, cs).replace("+", "%20").replace("*", "%2A").replace("%7E", "~");
    }

    // The test writes PKCS#1 PEM; Java reads PKCS#8, so the key is wrapped as users do with
    // openssl pkcs8 -topk8 (here: the fixed PKCS#8 prefix for an RSA key).
    static PrivateKey loadKey(String path) throws Exception {
        String pem = Files.readString(Path.of(path));
        String b64 = pem.replaceAll("-----[^-]+-----", "").replaceAll("\\s", "");
        byte[] pkcs1 = Base64.getDecoder().decode(b64);
        byte[] algo = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7,
            0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
        byte[] octet = concat(new byte[] {0x04}, length(pkcs1.length), pkcs1);
        byte[] body = concat(new byte[] {0x02, 0x01, 0x00}, algo, octet);
        byte[] pkcs8 = concat(new byte[] {0x30}, length(body.length), body);
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    }

    static byte[] length(int n) {
        if (n < 128) return new byte[] {(byte) n};
        if (n < 256) return new byte[] {(byte) 0x81, (byte) n};
        return new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
    }

    static byte[] concat(byte[]... parts) {
        int size = 0;
        for (byte[] p : parts) size += p.length;
        byte[] out = new byte[size];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    static List<P> fields(String order) {
        List<P> out = new ArrayList<>();
        out.add(new P("client_orderid", order));
        out.add(new P("amount", "10.50"));
        out.add(new P("currency", "EUR"));
        out.add(new P("order_desc", "M\u00fcller * Erstattung (5 \u20ac) ~ a/b"));
        out.add(new P("credit_card_number", "4444444444444448"));
        out.add(new P("card_printed_name", "JOHN SMITH"));
        out.add(new P("expire_month", "12"));
        out.add(new P("expire_year", "2030"));
        out.add(new P("cvv2", "123"));
        return out;
    }

    // The hooks where Java code goes wrong; null keeps the correct behaviour.
    static class Opts {
        Function<String, String> encode = Sign::rfc3986;
        String signedUrl;
        Function<byte[], String> sign;
        String method = "RSA-SHA256";
        String timestamp;
        String separator = ", ";
        String oauthIn = "header";
        boolean sorted = true;
        boolean bodyWithEncoder = false; // the body built with the same encoder as the signature
    }

    final String login;
    final long now;
    final PrivateKey key;
    final PrivateKey other;
    final SecureRandom random = new SecureRandom();

    Sign(String login, long now, PrivateKey key, PrivateKey other) {
        this.login = login;
        this.now = now;
        this.key = key;
        this.other = other;
    }

    static Function<byte[], String> rsa(PrivateKey key, String algorithm) {
        return base -> {
            try {
                Signature s = Signature.getInstance(algorithm);
                if (algorithm.equals("RSASSA-PSS")) {
                    s.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
                }
                s.initSign(key);
                s.update(base);
                return Base64.getEncoder().encodeToString(s.sign());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        };
    }

    static String form(List<P> ps) {
        return form(ps, Sign::rfc3986);
    }

    static String form(List<P> ps, Function<String, String> enc) {
        return ps.stream().map(p -> enc.apply(p.k()) + "=" + enc.apply(p.v())).collect(Collectors.joining("&"));
    }

    String[] request(String url, List<P> sent, Opts o) {
        byte[] n = new byte[12];
        random.nextBytes(n);
        List<P> oauth = List.of(
                new P("oauth_consumer_key", login),
                new P("oauth_nonce", HexFormat.of().formatHex(n)),
                new P("oauth_signature_method", o.method),
                new P("oauth_timestamp", o.timestamp != null ? o.timestamp : Long.toString(now)),
                new P("oauth_version", "1.0"));
        List<String> pairs = new ArrayList<>();
        for (P p : sent) pairs.add(o.encode.apply(p.k()) + "=" + o.encode.apply(p.v()));
        for (P p : oauth) pairs.add(o.encode.apply(p.k()) + "=" + o.encode.apply(p.v()));
        if (o.sorted) pairs.sort(null); // names are unique: the joined pairs sort by name
        String signedUrl = o.signedUrl != null ? o.signedUrl : url;
        String base = "POST&" + o.encode.apply(signedUrl) + "&" + o.encode.apply(String.join("&", pairs));
        Function<byte[], String> sign = o.sign != null ? o.sign : rsa(key, "SHA256withRSA");
        String signature = sign.apply(base.getBytes(StandardCharsets.UTF_8));
        if (o.oauthIn.equals("query")) {
            List<P> q = new ArrayList<>(oauth);
            q.add(new P("oauth_signature", signature));
            return new String[] {url + "?" + form(q), "", form(sent)};
        }
        List<String> parts = new ArrayList<>();
        for (P p : oauth) parts.add(p.k() + "=\"" + rfc3986(p.v()) + "\"");
        parts.add("oauth_signature=\"" + rfc3986(signature) + "\"");
        String body = o.bodyWithEncoder ? form(sent, o.encode) : form(sent);
        return new String[] {url, "OAuth " + String.join(o.separator, parts), body};
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static void emit(String name, List<String> expect, String[] r) {
        String codes = expect.stream().map(Sign::json).collect(Collectors.joining(","));
        System.out.println("{\"name\":" + json(name) + ",\"expect\":[" + codes + "],\"method\":\"POST\""
                + ",\"url\":" + json(r[0]) + ",\"authorization\":" + json(r[1])
                + ",\"content_type\":\"application/x-www-form-urlencoded\",\"body\":"
                + json(Base64.getEncoder().encodeToString(r[2].getBytes(StandardCharsets.UTF_8))) + "}");
    }

    static Opts opts(java.util.function.Consumer<Opts> set) {
        Opts o = new Opts();
        set.accept(o);
        return o;
    }

    public static void main(String[] args) throws Exception {
        String c = args[0];
        Sign s = new Sign(cfg(c, "login"), Long.parseLong(cfg(c, "now")), loadKey(cfg(c, "key")),
                loadKey(cfg(c, "other_key")));
        String url = cfg(c, "base") + "/api/v4/payout-check/" + cfg(c, "endpoint");
        String group = cfg(c, "base") + "/api/v4/payout-check/group/" + cfg(c, "group");
        String otherScheme = url.startsWith("https:") ? "http:" + url.substring(6) : "https:" + url.substring(5);
        String pem = Files.readString(Path.of(cfg(c, "key")));

        emit("ok", List.of(), s.request(url, fields("jv-ok"), new Opts()));
        emit("ok-group", List.of(), s.request(group, fields("jv-ok-group"), new Opts()));
        // URLEncoder.encode(v, UTF_8) as it is: + for a space, ~ escaped, * kept
        emit("urlencoder", List.of("plus-for-space", "tilde-encoded", "star-not-encoded"),
                s.request(url, fields("jv-urlenc"), opts(o -> o.encode = v -> URLEncoder.encode(v, StandardCharsets.UTF_8))));
        // .replace("+", "%20") without the * and ~ fixes
        emit("urlencoder-space-fixed", List.of("tilde-encoded", "star-not-encoded"),
                s.request(url, fields("jv-space"), opts(o -> o.encode =
                        v -> URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20"))));
        // the * fix but not the ~ one
        emit("urlencoder-tilde-left", List.of("tilde-encoded"),
                s.request(url, fields("jv-tilde"), opts(o -> o.encode =
                        v -> URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A"))));
        // URLEncoder.encode(v) on a JVM whose platform charset is ASCII (LANG=C before Java
        // 18): u-umlaut and the euro sign signed as ?, the body sent in UTF-8
        emit("platform-charset-ascii", List.of("charset-not-utf8"),
                s.request(url, fields("jv-ascii"), opts(o -> o.encode = v -> enc(v, StandardCharsets.US_ASCII))));
        // the same on a Windows server (windows-1252)
        emit("platform-charset-1252", List.of("charset-not-utf8"),
                s.request(url, fields("jv-1252"), opts(o -> o.encode = v -> enc(v, Charset.forName("windows-1252")))));
        // ISO-8859-1 for the signature and the body alike: the signature verifies, but the
        // gateway refuses values that are not UTF-8
        emit("latin1-throughout", List.of("value-not-utf8"), s.request(url, fields("jv-latin1"), opts(o -> {
            o.encode = v -> enc(v, StandardCharsets.ISO_8859_1);
            o.bodyWithEncoder = true;
        })));
        emit("sha1withrsa", List.of("sha1-instead-of-sha256"),
                s.request(url, fields("jv-sha1"), opts(o -> o.sign = rsa(s.key, "SHA1withRSA"))));
        emit("pss", List.of("pss-padding"),
                s.request(url, fields("jv-pss"), opts(o -> o.sign = rsa(s.key, "RSASSA-PSS"))));
        // Base64.getMimeEncoder(): a line break every 76 characters
        emit("mime-base64", List.of("signature-mime-base64"), s.request(url, fields("jv-mime"), opts(o -> o.sign =
                base -> Base64.getMimeEncoder().encodeToString(Base64.getDecoder().decode(rsa(s.key, "SHA256withRSA").apply(base))))));
        // HMAC-SHA1 keyed with the PEM text (an HMAC example with the key file read in)
        emit("hmac-with-pem", List.of("hmac-sha1"), s.request(url, fields("jv-hmacpem"), opts(o -> {
            o.method = "HMAC-SHA1";
            o.sign = base -> {
                try {
                    Mac mac = Mac.getInstance("HmacSHA1");
                    mac.init(new SecretKeySpec(pem.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
                    return Base64.getEncoder().encodeToString(mac.doFinal(base));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            };
        })));
        emit("wrong-key", List.of("wrong-key"),
                s.request(url, fields("jv-key"), opts(o -> o.sign = rsa(s.other, "SHA256withRSA"))));
        // String.join("; ", parts): the header's parameters joined with semicolons
        emit("semicolons", List.of("header-separator"), s.request(url, fields("jv-semi"), opts(o -> o.separator = "; ")));
        // the oauth parameters in the query string, no Authorization header
        emit("oauth-in-query", List.of("oauth-params-in-query"),
                s.request(url, fields("jv-oquery"), opts(o -> o.oauthIn = "query")));
        // System.currentTimeMillis()
        emit("millis", List.of("timestamp-millis"),
                s.request(url, fields("jv-ms"), opts(o -> o.timestamp = Long.toString(s.now * 1000))));
        // a LinkedHashMap walked in insertion order, never sorted
        emit("not-sorted", List.of("not-sorted"), s.request(url, fields("jv-nosort"), opts(o -> o.sorted = false)));
        // signed for the endpoint's path, sent to the group's
        emit("endpoint-signed-group-sent", List.of("path-differs"),
                s.request(group, fields("jv-path"), opts(o -> o.signedUrl = url)));
        emit("scheme", List.of("scheme-differs"), s.request(url, fields("jv-scheme"), opts(o -> o.signedUrl = otherScheme)));
        // a field sent twice (a list of pairs with a repeated name), both copies signed
        List<P> twice = fields("jv-twice");
        twice.add(new P("merchant_data", "b"));
        twice.add(new P("merchant_data", "a"));
        emit("field-twice", List.of("parameter-repeated"), s.request(url, twice, new Opts()));
    }
}
