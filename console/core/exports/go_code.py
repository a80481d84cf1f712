"""The request as a Go program (standard library only: net/http and crypto/rsa)."""

from __future__ import annotations

from console.core.exports import literals
from console.core.exports.program import Program, render_program

NAME = "go"
SUFFIX = ".go"

_TEMPLATE = """\
@NOT_SENT@\
// @COMMAND@: signed with OAuth 1.0a RSA-SHA256 when it runs, then sent; prints the answer.
// Needs Go 1.16 or later, standard library only: go run gateway_request.go
// The private key is never in this file: the PEM text in $@KEY_VARIABLE@, else the file
// named by $@KEY_FILE_VARIABLE@, else keyFile below (PKCS#1 or PKCS#8, unencrypted).
@NEEDS@
package main

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

const requestURL = @URL@
const login = @LOGIN@
const keyFile = @KEY_FILE@

// fromEnv reads a value kept out of this file (card data) from the environment.
func fromEnv(name string) string {
	value, ok := os.LookupEnv(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "Set %s in the environment.\\n", name)
		os.Exit(2)
	}
	return value
}

var fields = [][2]string{
@FIELDS@}

// enc percent-encodes by RFC 3986 over UTF-8: only A-Z a-z 0-9 - . _ ~ stay as they are, a
// space is %20 (url.QueryEscape would write "+").
func enc(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func privateKey() (*rsa.PrivateKey, error) {
	text := []byte(os.Getenv(@KEY_VARIABLE_LITERAL@))
	if len(text) == 0 {
		path := os.Getenv(@KEY_FILE_VARIABLE_LITERAL@)
		if path == "" {
			path = keyFile
		}
		var err error
		if text, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	block, _ := pem.Decode(text)
	if block == nil {
		return nil, errors.New("no PEM block in the private key")
	}
	if key, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return key, nil
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	key, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("the private key is not an RSA key")
	}
	return key, nil
}

func fail(what string, err error) {
	fmt.Fprintln(os.Stderr, what+":", err)
	os.Exit(2)
}

func main() {
	key, err := privateKey()
	if err != nil {
		fail("private key", err)
	}
	nonce := make([]byte, 16) // fresh for every request
	if _, err := rand.Read(nonce); err != nil {
		fail("nonce", err)
	}
	oauth := [][2]string{
		{"oauth_consumer_key", login},
		{"oauth_nonce", hex.EncodeToString(nonce)},
		{"oauth_signature_method", "RSA-SHA256"},
		{"oauth_timestamp", strconv.FormatInt(time.Now().Unix(), 10)},
		{"oauth_version", "1.0"},
	}
	// Signed: body and oauth parameters, encoded, sorted by name then value, joined.
	var pairs [][2]string
	for _, p := range append(append([][2]string{}, fields...), oauth...) {
		pairs = append(pairs, [2]string{enc(p[0]), enc(p[1])})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	joined := make([]string, len(pairs))
	for i, p := range pairs {
		joined[i] = p[0] + "=" + p[1]
	}
	baseString := "POST&" + enc(requestURL) + "&" + enc(strings.Join(joined, "&"))
	digest := sha256.Sum256([]byte(baseString))
	signature, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest[:])
	if err != nil {
		fail("signing", err)
	}
	encoded := base64.StdEncoding.EncodeToString(signature)
	oauth = append(oauth, [2]string{"oauth_signature", encoded})
	items := make([]string, len(oauth))
	for i, p := range oauth {
		items[i] = p[0] + "=\\"" + enc(p[1]) + "\\""
	}
	body := make([]string, len(fields))
	for i, p := range fields {
		body[i] = enc(p[0]) + "=" + enc(p[1])
	}
	request, err := http.NewRequest("POST", requestURL, strings.NewReader(strings.Join(body, "&")))
	if err != nil {
		fail("request", err)
	}
	request.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	request.Header.Set("Authorization", "OAuth "+strings.Join(items, ", "))
	answer, err := (&http.Client{Timeout: 60 * time.Second}).Do(request)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer answer.Body.Close()
	text, _ := io.ReadAll(answer.Body)
	fmt.Println(answer.StatusCode)
	fmt.Println(string(text))
	if answer.StatusCode != 200 {
		os.Exit(1)
	}
}
"""


def render(program: Program) -> str:
    """The program's source text."""
    return render_program(
        program,
        _TEMPLATE,
        lit=literals.go,
        row=lambda name, value: f"\t{{{name}, {value}}},\n",
        from_env="fromEnv",
        comment="//",
    )
