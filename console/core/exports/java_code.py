"""The request as a Java program (17 or later: java.net.http and java.security only)."""

from __future__ import annotations

from console.core.exports import literals
from console.core.exports.program import Program, render_program

NAME = "java"
SUFFIX = ".java"
CLASS_NAME = "GatewayRequest"

_TEMPLATE = """\
@NOT_SENT@\
// @COMMAND@: signed with OAuth 1.0a RSA-SHA256 when it runs, then sent; prints the answer.
// Needs Java 17 or later, no libraries: java @CLASS@.java
// The private key is never in this file: the PEM text in $@KEY_VARIABLE@, else the file
// named by $@KEY_FILE_VARIABLE@, else KEY_FILE below (PKCS#1 or PKCS#8, unencrypted).
@NEEDS@
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

public class @CLASS@ {
    static final String URL = @URL@;
    static final String LOGIN = @LOGIN@;
    static final String KEY_FILE = @KEY_FILE@;

    // A value kept out of this file (card data), read from the environment.
    static String fromEnv(String name) {
        String value = System.getenv(name);
        if (value == null) {
            System.err.println("Set " + name + " in the environment.");
            System.exit(2);
        }
        return value;
    }

    static List<String[]> fields() {
        List<String[]> fields = new ArrayList<>();
@FIELDS@        return fields;
    }

    // RFC 3986 over UTF-8: only A-Z a-z 0-9 - . _ ~ stay as they are, a space is %20.
    // URLEncoder writes the HTML form encoding (a space as "+", "*" kept, "~" escaped).
    static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8)
            .replace("+", "%20").replace("*", "%2A").replace("%7E", "~");
    }

    static PrivateKey privateKey() throws Exception {
        String pem = System.getenv(@KEY_VARIABLE_LITERAL@);
        if (pem == null || pem.isEmpty()) {
            String path = System.getenv(@KEY_FILE_VARIABLE_LITERAL@);
            pem = Files.readString(Path.of(path == null || path.isEmpty() ? KEY_FILE : path));
        }
        boolean pkcs1 = pem.contains("BEGIN RSA PRIVATE KEY");
        String base64 = pem.replaceAll("-----[^-]+-----", "").replaceAll("\\\\s", "");
        byte[] der = Base64.getDecoder().decode(base64);
        return KeyFactory.getInstance("RSA")
            .generatePrivate(new PKCS8EncodedKeySpec(pkcs1 ? pkcs8(der) : der));
    }

    // A PKCS#1 key wrapped as PKCS#8, the one form java.security reads.
    static byte[] pkcs8(byte[] pkcs1) {
        byte[] head = {
            0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
        };
        ByteArrayOutputStream inner = new ByteArrayOutputStream();
        inner.writeBytes(head);
        inner.writeBytes(derHeader(0x04, pkcs1.length));
        inner.writeBytes(pkcs1);
        ByteArrayOutputStream outer = new ByteArrayOutputStream();
        outer.writeBytes(derHeader(0x30, inner.size()));
        outer.writeBytes(inner.toByteArray());
        return outer.toByteArray();
    }

    static byte[] derHeader(int tag, int length) {
        if (length < 0x80) {
            return new byte[] {(byte) tag, (byte) length};
        }
        if (length < 0x100) {
            return new byte[] {(byte) tag, (byte) 0x81, (byte) length};
        }
        if (length < 0x10000) {
            return new byte[] {(byte) tag, (byte) 0x82, (byte) (length >> 8), (byte) length};
        }
        return new byte[] {
            (byte) tag, (byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length
        };
    }

    public static void main(String[] args) throws Exception {
        List<String[]> fields = fields();
        byte[] nonce = new byte[16];
        new SecureRandom().nextBytes(nonce); // fresh for every request
        List<String[]> oauth = new ArrayList<>();
        oauth.add(new String[] {"oauth_consumer_key", LOGIN});
        oauth.add(new String[] {"oauth_nonce", HexFormat.of().formatHex(nonce)});
        oauth.add(new String[] {"oauth_signature_method", "RSA-SHA256"});
        long now = System.currentTimeMillis() / 1000;
        oauth.add(new String[] {"oauth_timestamp", Long.toString(now)});
        oauth.add(new String[] {"oauth_version", "1.0"});
        // Signed: body and oauth parameters, encoded, sorted by name then value, joined.
        List<String[]> pairs = new ArrayList<>();
        for (List<String[]> list : List.of(fields, oauth)) {
            for (String[] p : list) {
                pairs.add(new String[] {enc(p[0]), enc(p[1])});
            }
        }
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        String normalized = pairs.stream()
            .map(p -> p[0] + "=" + p[1]).collect(Collectors.joining("&"));
        String baseString = "POST&" + enc(URL) + "&" + enc(normalized);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(privateKey());
        signer.update(baseString.getBytes(StandardCharsets.US_ASCII));
        String signature = Base64.getEncoder().encodeToString(signer.sign());
        oauth.add(new String[] {"oauth_signature", signature});
        String header = "OAuth " + oauth.stream()
            .map(p -> p[0] + "=\\"" + enc(p[1]) + "\\"").collect(Collectors.joining(", "));
        String body = fields.stream()
            .map(p -> enc(p[0]) + "=" + enc(p[1])).collect(Collectors.joining("&"));
        HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(URL))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Authorization", header)
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.US_ASCII))
            .build();
        HttpResponse<String> answer = client.send(
            request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        System.out.println(answer.statusCode());
        System.out.println(answer.body());
        System.exit(answer.statusCode() == 200 ? 0 : 1);
    }
}
"""


def render(program: Program) -> str:
    """The program's source text (its class is ``GatewayRequest``)."""
    return render_program(
        program,
        _TEMPLATE,
        lit=literals.java,
        row=lambda name, value: f"        fields.add(new String[] {{{name}, {value}}});\n",
        from_env="fromEnv",
        comment="//",
        extra={"CLASS": CLASS_NAME},
    )
