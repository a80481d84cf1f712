"""The request as a PHP program (openssl and curl extensions)."""

from __future__ import annotations

from console.core.exports import literals
from console.core.exports.program import Program, render_program

NAME = "php"
SUFFIX = ".php"

_TEMPLATE = """\
<?php
@NOT_SENT@\
// @COMMAND@: signed with OAuth 1.0a RSA-SHA256 when it runs, then sent; prints the answer.
// Needs PHP 7.4 or later with the openssl and curl extensions. The private key is never in
// this file: the PEM text in $@KEY_VARIABLE@, else the file named by $@KEY_FILE_VARIABLE@,
// else KEY_FILE below.
@NEEDS@
const URL = @URL@;
const LOGIN = @LOGIN@;
const KEY_FILE = @KEY_FILE@;

// A value kept out of this file (card data), read from the environment.
function from_env(string $name): string
{
    $value = getenv($name);
    if ($value === false) {
        fwrite(STDERR, "Set $name in the environment.\\n");
        exit(2);
    }
    return $value;
}

$fields = [
@FIELDS@];

// RFC 3986 over UTF-8: only A-Z a-z 0-9 - . _ ~ stay as they are, a space is %20.
// (rawurlencode does exactly this; urlencode would write a space as "+".)
function enc(string $text): string
{
    return rawurlencode($text);
}

$pem = getenv(@KEY_VARIABLE_LITERAL@);
if (!$pem) {
    $pem = file_get_contents(getenv(@KEY_FILE_VARIABLE_LITERAL@) ?: KEY_FILE);
}
$key = $pem === false ? false : openssl_pkey_get_private($pem);
if ($key === false) {
    fwrite(STDERR, "The private key cannot be read.\\n");
    exit(2);
}

$oauth = [
    ["oauth_consumer_key", LOGIN],
    ["oauth_nonce", bin2hex(random_bytes(16))], // fresh for every request
    ["oauth_signature_method", "RSA-SHA256"],
    ["oauth_timestamp", (string) time()],
    ["oauth_version", "1.0"],
];
// Signed: body and oauth parameters, encoded, sorted by name then value, joined.
$pairs = array_map(fn ($p) => [enc($p[0]), enc($p[1])], array_merge($fields, $oauth));
usort($pairs, fn ($a, $b) => strcmp($a[0], $b[0]) ?: strcmp($a[1], $b[1]));
$normalized = implode("&", array_map(fn ($p) => $p[0] . "=" . $p[1], $pairs));
$baseString = "POST&" . enc(URL) . "&" . enc($normalized);
if (!openssl_sign($baseString, $signature, $key, OPENSSL_ALGO_SHA256)) {
    fwrite(STDERR, "Signing failed: " . openssl_error_string() . "\\n");
    exit(2);
}
$oauth[] = ["oauth_signature", base64_encode($signature)];
$header = "OAuth " . implode(", ", array_map(fn ($p) => $p[0] . '="' . enc($p[1]) . '"', $oauth));
$body = implode("&", array_map(fn ($p) => enc($p[0]) . "=" . enc($p[1]), $fields));

$curl = curl_init(URL);
curl_setopt_array($curl, [
    CURLOPT_POST => true,
    CURLOPT_POSTFIELDS => $body,
    CURLOPT_HTTPHEADER => [
        "Content-Type: application/x-www-form-urlencoded",
        "Authorization: " . $header,
    ],
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_CONNECTTIMEOUT => 10,
    CURLOPT_TIMEOUT => 60,
]);
$answer = curl_exec($curl);
if ($answer === false) {
    fwrite(STDERR, curl_error($curl) . "\\n");
    exit(1);
}
$status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
echo $status, "\\n", $answer, "\\n";
exit($status === 200 ? 0 : 1);
"""


def render(program: Program) -> str:
    """The program's source text."""
    return render_program(
        program,
        _TEMPLATE,
        lit=literals.php,
        row=lambda name, value: f"    [{name}, {value}],\n",
        from_env="from_env",
        comment="//",
    )
