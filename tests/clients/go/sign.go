// Requests signed by hand in Go with the standard library (crypto/rsa, net/url), the way
// Go integrations sign them, correct ones and ones with the mistakes Go code makes.
// Argument: a JSON object {base, endpoint, group, login, now, key, other_key}.
// Output: one JSON object a line {name, expect, method, url, authorization, content_type,
// body (base64)}.
package main

import (
	"crypto"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"hash"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
)

type config struct {
	Base     string `json:"base"`
	Endpoint string `json:"endpoint"`
	Group    string `json:"group"`
	Login    string `json:"login"`
	Now      int64  `json:"now"`
	Key      string `json:"key"`
	OtherKey string `json:"other_key"`
}

type pair struct{ k, v string }

// rfc3986 is the encoder the contract asks for: only A-Z a-z 0-9 - . _ ~ kept.
func rfc3986(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func loadKey(path string) *rsa.PrivateKey {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	block, _ := pem.Decode(data)
	key, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	if err != nil {
		panic(err)
	}
	return key
}

func nonce() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func fields(order string, extra ...pair) []pair {
	out := []pair{
		{"client_orderid", order},
		{"amount", "10.50"},
		{"currency", "EUR"},
		{"order_desc", "Rückzahlung (teilweise) 5 € ~ a/b"},
		{"credit_card_number", "4444444444444448"},
		{"card_printed_name", "JOHN SMITH"},
		{"expire_month", "12"},
		{"expire_year", "2030"},
		{"cvv2", "123"},
	}
	return append(out, extra...)
}

// opts are the hooks where Go code goes wrong.
type opts struct {
	encode    func(string) string // names and values, and the base string's parts
	signedURL string              // the URL signed, when not the one sent
	sign      func([]byte) string // the signature text before percent-encoding
	method    string              // oauth_signature_method in the header
	timestamp string
	header    func([]pair, string) string
	oauthIn   string // "", "body" or "query": where the oauth parameters go
	signed    []pair // the fields signed, when not the ones sent
}

type client struct {
	cfg   config
	key   *rsa.PrivateKey
	other *rsa.PrivateKey
}

func (c client) rsaSign(key *rsa.PrivateKey, h crypto.Hash) func([]byte) string {
	return func(base []byte) string {
		var digest []byte
		if h == crypto.SHA1 {
			d := sha1.Sum(base)
			digest = d[:]
		} else {
			d := sha256.Sum256(base)
			digest = d[:]
		}
		sig, err := rsa.SignPKCS1v15(rand.Reader, key, h, digest)
		if err != nil {
			panic(err)
		}
		return base64.StdEncoding.EncodeToString(sig)
	}
}

func standardHeader(params []pair, signature string) string {
	parts := make([]string, 0, len(params)+1)
	for _, p := range params {
		parts = append(parts, fmt.Sprintf(`%s="%s"`, p.k, rfc3986(p.v)))
	}
	parts = append(parts, fmt.Sprintf(`oauth_signature="%s"`, rfc3986(signature)))
	return "OAuth " + strings.Join(parts, ", ")
}

func form(ps []pair) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = rfc3986(p.k) + "=" + rfc3986(p.v)
	}
	return strings.Join(out, "&")
}

// request signs and builds one request; it returns the URL, header and body sent.
func (c client) request(target string, sent []pair, o opts) (string, string, string) {
	enc := o.encode
	if enc == nil {
		enc = rfc3986
	}
	sign := o.sign
	if sign == nil {
		sign = c.rsaSign(c.key, crypto.SHA256)
	}
	method := o.method
	if method == "" {
		method = "RSA-SHA256"
	}
	ts := o.timestamp
	if ts == "" {
		ts = strconv.FormatInt(c.cfg.Now, 10)
	}
	oauth := []pair{
		{"oauth_consumer_key", c.cfg.Login},
		{"oauth_nonce", nonce()},
		{"oauth_signature_method", method},
		{"oauth_timestamp", ts},
		{"oauth_version", "1.0"},
	}
	signedFields := sent
	if o.signed != nil {
		signedFields = o.signed
	}
	all := append(append([]pair{}, signedFields...), oauth...)
	encoded := make([]string, len(all))
	for i, p := range all {
		encoded[i] = enc(p.k) + "=" + enc(p.v)
	}
	sort.Strings(encoded) // names are unique here: sorting name=value is sorting by name
	signedURL := target
	if o.signedURL != "" {
		signedURL = o.signedURL
	}
	base := "POST&" + enc(signedURL) + "&" + enc(strings.Join(encoded, "&"))
	signature := sign([]byte(base))
	header := o.header
	if header == nil {
		header = standardHeader
	}
	switch o.oauthIn {
	case "body":
		withOauth := append(append([]pair{}, sent...), oauth...)
		withOauth = append(withOauth, pair{"oauth_signature", signature})
		return target, "", form(withOauth)
	case "query":
		query := append(append([]pair{}, oauth...), pair{"oauth_signature", signature})
		return target + "?" + form(query), "", form(sent)
	}
	return target, header(oauth, signature), form(sent)
}

func emit(name string, expect []string, target, auth, body string) {
	line := map[string]interface{}{
		"name": name, "expect": expect, "method": "POST", "url": target,
		"authorization": auth, "content_type": "application/x-www-form-urlencoded",
		"body": base64.StdEncoding.EncodeToString([]byte(body)),
	}
	out, err := json.Marshal(line)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
}

func main() {
	var cfg config
	if err := json.Unmarshal([]byte(os.Args[1]), &cfg); err != nil {
		panic(err)
	}
	c := client{cfg, loadKey(cfg.Key), loadKey(cfg.OtherKey)}
	endpointURL := cfg.Base + "/api/v4/payout-check/" + cfg.Endpoint
	group := cfg.Base + "/api/v4/payout-check/group/" + cfg.Group
	hmacOf := func(h func() hash.Hash, secret string) func([]byte) string {
		return func(base []byte) string {
			m := hmac.New(h, []byte(secret))
			m.Write(base)
			return base64.StdEncoding.EncodeToString(m.Sum(nil))
		}
	}
	type tc struct {
		name   string
		expect []string
		target string
		sent   []pair
		o      opts
	}
	cases := []tc{
		{"ok", nil, endpointURL, fields("go-ok"), opts{}},
		{"ok-group", nil, group, fields("go-ok-group"), opts{}},
		// url.QueryEscape: a space as +
		{"query-escape", []string{"plus-for-space"}, endpointURL, fields("go-qe"),
			opts{encode: queryEscape}},
		// url.PathEscape: $ & + : = @ left as they are
		{"path-escape", []string{"sub-delims-not-encoded"}, endpointURL, fields("go-pe"),
			opts{encode: pathEscape}},
		// crypto.SHA1 handed to SignPKCS1v15
		{"sha1", []string{"sha1-instead-of-sha256"}, endpointURL, fields("go-sha1"),
			opts{sign: c.rsaSign(c.key, crypto.SHA1)}},
		// signed with SHA-256 but the header copied from an RSA-SHA1 example
		{"header-says-sha1", []string{"signature-method"}, endpointURL, fields("go-hs1"),
			opts{method: "RSA-SHA1"}},
		// rsa.SignPSS
		{"pss", []string{"pss-padding"}, endpointURL, fields("go-pss"), opts{sign: func(base []byte) string {
			d := sha256.Sum256(base)
			sig, err := rsa.SignPSS(rand.Reader, c.key, crypto.SHA256, d[:], nil)
			if err != nil {
				panic(err)
			}
			return base64.StdEncoding.EncodeToString(sig)
		}}},
		// base64.RawStdEncoding, base64.URLEncoding, hex.EncodeToString
		{"raw-std-encoding", []string{"signature-unpadded"}, endpointURL, fields("go-raw"),
			opts{sign: reencode(c.rsaSign(c.key, crypto.SHA256), base64.RawStdEncoding.EncodeToString)}},
		{"url-encoding", []string{"signature-base64url"}, endpointURL, fields("go-b64url"),
			opts{sign: reencode(c.rsaSign(c.key, crypto.SHA256), base64.URLEncoding.EncodeToString)}},
		{"hex", []string{"hex-signature"}, endpointURL, fields("go-hex"),
			opts{sign: reencode(c.rsaSign(c.key, crypto.SHA256), hex.EncodeToString)}},
		// the base64 text base64-encoded once more
		{"base64-twice", []string{"signature-base64-twice"}, endpointURL, fields("go-b64x2"),
			opts{sign: func(base []byte) string {
				return base64.StdEncoding.EncodeToString([]byte(c.rsaSign(c.key, crypto.SHA256)(base)))
			}}},
		// HMAC from an OAuth example, the header still saying RSA-SHA256
		{"hmac-sha1-as-rsa", []string{"hmac-sha1"}, endpointURL, fields("go-hmac1"),
			opts{sign: hmacOf(sha1.New, "secret&")}},
		{"hmac-sha256", []string{"hmac-sha256"}, endpointURL, fields("go-hmac256"),
			opts{sign: hmacOf(sha256.New, "secret&"), method: "HMAC-SHA256"}},
		// the other key from the key store
		{"wrong-key", []string{"wrong-key"}, endpointURL, fields("go-key"),
			opts{sign: c.rsaSign(c.other, crypto.SHA256)}},
		// time.Now().UnixMilli()
		{"millis", []string{"timestamp-millis"}, endpointURL, fields("go-ms"),
			opts{timestamp: strconv.FormatInt(cfg.Now*1000, 10)}},
		// signed for the endpoint's path, sent to the group's
		{"endpoint-signed-group-sent", []string{"path-differs"}, group, fields("go-path"),
			opts{signedURL: endpointURL}},
		// the base URL signed without its https (http in the config, https in the client)
		{"scheme", []string{"scheme-differs"}, endpointURL, fields("go-scheme"),
			opts{signedURL: swapScheme(endpointURL)}},
		// the header built with fmt.Sprintf without quotes
		{"unquoted", []string{"header-unquoted"}, endpointURL, fields("go-unq"),
			opts{header: func(ps []pair, sig string) string {
				parts := []string{}
				for _, p := range ps {
					parts = append(parts, p.k+"="+rfc3986(p.v))
				}
				return "OAuth " + strings.Join(append(parts, "oauth_signature="+rfc3986(sig)), ",")
			}}},
		// the oauth parameters put into the form with the fields (no Authorization header)
		{"oauth-in-body", []string{"oauth-params-in-body"}, endpointURL, fields("go-obody"),
			opts{oauthIn: "body"}},
		// a field added twice with url.Values.Add, both copies signed
		{"field-twice", []string{"parameter-repeated"}, endpointURL,
			fields("go-twice", pair{"merchant_data", "a"}, pair{"merchant_data", "b"}), opts{}},
		// the amount changed after signing: nothing explains it
		{"changed", []string{"unexplained"}, endpointURL, replaceField(fields("go-changed"), "amount", "100.50"),
			opts{signed: fields("go-changed")}},
	}
	for _, t := range cases {
		u, auth, body := c.request(t.target, t.sent, t.o)
		if t.expect == nil {
			t.expect = []string{}
		}
		emit(t.name, t.expect, u, auth, body)
	}
}

func queryEscape(s string) string { return url.QueryEscape(s) }

func pathEscape(s string) string { return url.PathEscape(s) }

// reencode turns a base64 signature into another text form of the same bytes.
func reencode(sign func([]byte) string, form func([]byte) string) func([]byte) string {
	return func(base []byte) string {
		raw, err := base64.StdEncoding.DecodeString(sign(base))
		if err != nil {
			panic(err)
		}
		return form(raw)
	}
}

func swapScheme(u string) string {
	if strings.HasPrefix(u, "https://") {
		return "http://" + strings.TrimPrefix(u, "https://")
	}
	return "https://" + strings.TrimPrefix(u, "http://")
}

func replaceField(ps []pair, name, value string) []pair {
	out := append([]pair{}, ps...)
	for i := range out {
		if out[i].k == name {
			out[i].v = value
		}
	}
	return out
}
