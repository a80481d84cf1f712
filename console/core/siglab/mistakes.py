"""Every mistake the lab can name: its stable code, what it means, and the one-line fix.

The words are the ones a verdict, ``verify`` and the sandbox's log use. A fix says what to
change in the client's code, naming the usual function where one client family is known
for the mistake.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mistake:
    """What went wrong (``what``) and how to fix it in the client (``fix``)."""

    what: str
    fix: str


_M = Mistake
MISTAKES: dict[str, Mistake] = {
    # percent-encoding of names and values
    "plus-for-space": _M(
        "the client encoded spaces as + (form encoding) instead of %20 (RFC 3986)",
        "encode with RFC 3986: Python quote(v, safe='~'), PHP rawurlencode(), Java "
        'URLEncoder.encode(v, UTF_8).replace("+", "%20").replace("*", "%2A")'
        '.replace("%7E", "~")',
    ),
    "js-encodeuricomponent": _M(
        "the client left ! ' ( ) * unencoded (JavaScript's encodeURIComponent) instead of "
        "RFC 3986 encoding",
        "encode ! ' ( ) * too: encodeURIComponent(v).replace(/[!'()*]/g, "
        "c => '%' + c.charCodeAt(0).toString(16).toUpperCase())",
    ),
    "star-not-encoded": _M(
        "the client left * unencoded (Java's URLEncoder, URLSearchParams)",
        "encode * as %2A",
    ),
    "slash-not-encoded": _M(
        "the client left / unencoded (Python's quote() default safe='/')",
        "call quote(v, safe='~') so that / becomes %2F",
    ),
    "tilde-encoded": _M(
        "the client encoded ~ as %7E; RFC 3986 keeps ~ as it is",
        "keep ~ unencoded: PHP rawurlencode(), not urlencode() or http_build_query()",
    ),
    "sub-delims-not-encoded": _M(
        "the client left $ & + : = @ unencoded (Go's url.PathEscape) instead of RFC 3986 encoding",
        "encode every byte but A-Z a-z 0-9 - . _ ~ as %XX (Go: url.PathEscape is for paths; "
        'write the RFC 3986 encoder, or strings.ReplaceAll(url.QueryEscape(v), "+", "%20"))',
    ),
    "charset-not-utf8": _M(
        "the client percent-encoded the bytes of another charset than UTF-8 (characters it "
        "cannot hold become ?, Java's URLEncoder.encode(v) on the platform charset)",
        "encode the UTF-8 bytes: Java URLEncoder.encode(v, StandardCharsets.UTF_8), PHP "
        "rawurlencode() of UTF-8 text",
    ),
    "lowercase-hex": _M(
        "the client wrote percent escapes in lower-case hex (%2f); they must be upper case (%2F)",
        "write escapes with upper-case hex digits (%2F, not %2f)",
    ),
    # the order of the parameters
    "not-sorted": _M(
        "the client did not sort the parameters by name and value",
        "sort the encoded name=value pairs by name, then by value",
    ),
    "sorted-before-encoding": _M(
        "the client sorted the parameters before percent-encoding them; they are sorted by "
        "their encoded form",
        "percent-encode names and values first, then sort",
    ),
    "sorted-by-value": _M(
        "the client sorted the parameters by value instead of by name",
        "sort by the encoded name first, the value only among equal names",
    ),
    "sorted-as-joined": _M(
        "the client sorted the joined name=value strings, which puts amount-from= before amount=",
        "sort the (name, value) pairs, not the joined strings",
    ),
    "repeated-name-order": _M(
        "the client left a repeated name's values in the order sent; equal names are sorted "
        "by value",
        "sort by name, then by value (values of a repeated name too)",
    ),
    "parameter-repeated": _M(
        "a field is sent more than once; the gateway refuses it (validation error 150) even "
        "with a signature that verifies",
        "send each field once",
    ),
    "value-not-utf8": _M(
        "a field's bytes are not UTF-8 text (another charset's bytes, %FC for ü); the "
        "gateway refuses it (validation error 151) even with a signature that verifies",
        "percent-encode the UTF-8 bytes of each value: Java URLEncoder.encode(v, "
        "StandardCharsets.UTF_8), PHP rawurlencode() of UTF-8 text",
    ),
    "duplicate-kept-once": _M(
        "a field is sent twice but the client signed one copy (a dict or array keeps one)",
        "sign every name=value pair as sent, repeated names included (a list of pairs, not "
        "a dict), or send the field once",
    ),
    # which parameters are signed
    "oauth-token-empty": _M(
        "the client sent or signed an oauth_token; this API has none",
        "leave oauth_token out of the header and the signature (no token in the client)",
    ),
    "oauth-signature-signed": _M(
        "the client put oauth_signature itself into the signed parameters",
        "sign the parameters without oauth_signature, then add it to the header",
    ),
    "realm-signed": _M(
        "the client signed realm; it goes in the header only, never in the signature",
        "leave realm out of the signed parameters",
    ),
    "oauth-body-hash": _M(
        "the client added oauth_body_hash (and then signs no body fields); this API signs "
        "the body fields themselves",
        "drop oauth_body_hash (oauth-1.0a: no includeBodyHash) and sign the body fields",
    ),
    "body-fields-in-header": _M(
        "the Authorization header repeats body fields; it holds only the oauth_ parameters",
        "put only oauth_* parameters (and realm) in the header; fields go in the body",
    ),
    "header-unquoted": _M(
        "the Authorization header's values are not in double quotes; the gateway cannot "
        "read it and refuses the request before checking the signature",
        'write each parameter as name="value"',
    ),
    "header-separator": _M(
        "the Authorization header's parameters are joined with ; instead of commas; the "
        "gateway cannot read it and refuses the request before checking the signature",
        'join the parameters with ", " (Java String.join(", ", parts))',
    ),
    "oauth-params-in-body": _M(
        "the oauth parameters were sent in the body (authlib's SIGNATURE_TYPE_BODY), not in "
        "an Authorization header; the gateway reads them only from the header and refuses "
        "the request",
        "send them in an 'Authorization: OAuth ...' header and leave them out of the body "
        "(authlib: signature_type='HEADER', its default)",
    ),
    "oauth-params-in-query": _M(
        "the oauth parameters were sent in the URL's query (authlib's SIGNATURE_TYPE_QUERY), "
        "not in an Authorization header; the gateway reads them only from the header and "
        "refuses the request",
        "send them in an 'Authorization: OAuth ...' header and leave them out of the URL "
        "(authlib: signature_type='HEADER', its default)",
    ),
    "header-param-twice": _M(
        "a parameter is given twice in the Authorization header",
        "write each oauth_ parameter once",
    ),
    "oauth-param-missing": _M(
        "the Authorization header lacks an oauth parameter the gateway requires",
        "send oauth_consumer_key, oauth_nonce, oauth_signature_method, oauth_timestamp, "
        "oauth_version and oauth_signature, none empty",
    ),
    "oauth-version": _M(
        "oauth_version is not 1.0",
        'send oauth_version="1.0"',
    ),
    "login-in-body": _M(
        "login belongs in oauth_consumer_key only, never in the body",
        "drop login from the body and from the signed parameters",
    ),
    "query-not-signed": _M(
        "the client left the URL's query parameters out of the signature",
        "sign the query parameters together with the body parameters",
    ),
    "query-double-encoded": _M(
        "a query value was percent-encoded twice: once more on the wire or in the signature "
        "than the other",
        "encode query values once (requests: pass params= raw values, not quote()d ones)",
    ),
    "body-not-signed": _M(
        "the client left the body parameters out of the signature",
        "sign the body fields (oauth-1.0a: pass them as data; requests-oauthlib: send a "
        "form body with Content-Type application/x-www-form-urlencoded)",
    ),
    "body-double-encoded": _M(
        "the body values were percent-encoded twice: once more in the signature or in the "
        "body than the other",
        "sign the decoded values and encode each value once in the body",
    ),
    "value-trimmed": _M(
        "the client trimmed spaces around values before signing but sent them untrimmed",
        "sign exactly the values sent (trim before both, or neither)",
    ),
    "plus-literal": _M(
        "a + was sent unencoded: the gateway reads it as a space, the client signed a plus",
        "encode + in values as %2B on the wire",
    ),
    "unencoded-ampersand": _M(
        "an & inside a value was sent unencoded, which splits the value into two fields",
        "percent-encode every value in the body (& becomes %26)",
    ),
    "line-feed-not-signed": _M(
        "the body sent ends with a line feed the client did not sign",
        "send the body without the final line feed (printf '%s', echo -n, curl -d "
        "instead of --data-binary @file), or sign what is sent",
    ),
    "line-feed-not-sent": _M(
        "the client signed a line feed at the end of the last value that was not sent",
        "strip the final line feed before signing (read the body without it)",
    ),
    "json-body": _M(
        "the body is JSON; the gateway reads only form bodies, so the client signed no body "
        "fields (requests' json=)",
        "send the fields as a form body: requests data= (not json=), Content-Type "
        "application/x-www-form-urlencoded",
    ),
    "json-body-form-signed": _M(
        "the client signed the fields as form parameters but sent them as JSON",
        "send the body form-encoded (name=value&...), as signed, with Content-Type "
        "application/x-www-form-urlencoded",
    ),
    # the base string URI and the method
    "method-differs": _M(
        "the client signed another HTTP method than the one it sent (GET signed, POST sent)",
        "sign with the method sent: POST",
    ),
    "scheme-differs": _M(
        "the client signed another scheme than the one the request went over (https "
        "signed, http sent, or the other way)",
        "sign the URL the request is sent to, scheme included",
    ),
    "scheme-case": _M(
        "the client signed the scheme as written; it is signed in lower case",
        "lower-case the scheme in the base string URI",
    ),
    "host-case": _M(
        "the client signed the host name as written; it is signed in lower case",
        "lower-case the host in the base string URI",
    ),
    "default-port-kept": _M(
        "the client kept the default port in the signed URL; it is dropped",
        "drop :443 for https and :80 for http from the base string URI",
    ),
    "port-left-out": _M(
        "the client left the port out of the signed URL; a port other than the default is signed",
        "keep the port in the base string URI when it is not 80 (http) or 443 (https)",
    ),
    "path-differs": _M(
        "the client signed a different path than the one the request went to",
        "sign the full request path, /group/<id> and the prefix before /api/v4 included",
    ),
    "query-in-uri": _M(
        "the client signed the URL with its query string; the base string URI ends before ?",
        "cut the query off the base string URI and sign its parameters instead",
    ),
    # the signature itself
    "sha1-instead-of-sha256": _M(
        "the client signed with RSA-SHA1 instead of RSA-SHA256",
        "sign with SHA-256: PHP openssl_sign(..., OPENSSL_ALGO_SHA256) (its default is "
        "SHA-1), openssl dgst -sha256, crypto.createSign('RSA-SHA256')",
    ),
    "hmac-sha1": _M(
        "the client signed with HMAC-SHA1 (a shared secret); this API takes RSA-SHA256 only",
        'sign with the RSA private key, oauth_signature_method="RSA-SHA256" (oauth-1.0a: '
        "a hash_function that uses crypto.createSign('RSA-SHA256'))",
    ),
    "hmac-sha256": _M(
        "the client signed with HMAC-SHA256 (a shared secret); this API takes RSA-SHA256 only",
        'sign with the RSA private key, oauth_signature_method="RSA-SHA256" (HMAC-SHA256 is '
        "not RSA-SHA256: an RSA signature is as long as the key, 256 bytes for 2048 bits)",
    ),
    "signature-method": _M(
        "oauth_signature_method is not RSA-SHA256 (PLAINTEXT is oauth-1.0a's default)",
        "set oauth_signature_method to RSA-SHA256 and sign with the RSA private key",
    ),
    "pss-padding": _M(
        "the client used RSA-PSS padding instead of PKCS#1 v1.5",
        "sign with PKCS#1 v1.5 padding (cryptography: padding.PKCS1v15())",
    ),
    "hex-signature": _M(
        "the client sent the signature in hex (a debug form) instead of base64",
        "send base64 of the signature bytes",
    ),
    "signature-base64url": _M(
        "the client sent the signature in base64url (- and _); the gateway reads standard "
        "base64 (+ and /, with = padding)",
        "encode with standard base64 (Node: sign(..., 'base64'), not 'base64url')",
    ),
    "signature-base64-twice": _M(
        "the signature was base64-encoded twice (its text decodes to base64 text, 344 "
        "characters for a 2048-bit key)",
        "base64-encode the signature bytes once",
    ),
    "signature-mime-base64": _M(
        "the signature's base64 has line breaks in it (MIME base64, a break every 76 "
        "characters: Java's Base64.getMimeEncoder())",
        "encode without line breaks: Java Base64.getEncoder(), not getMimeEncoder()",
    ),
    "signature-unpadded": _M(
        "the signature's base64 lacks its = padding",
        "keep the = padding at the end of the base64 signature",
    ),
    "signature-not-url-decoded": _M(
        "the signature in the header was percent-encoded twice, or its percent-encoding "
        "was not undone",
        "percent-encode the base64 signature exactly once in the header",
    ),
    "base-string-newline": _M(
        "the client signed the base string with a line feed after it (echo without -n)",
        "sign the base string's bytes alone: printf '%s' \"$base\" | openssl dgst ...",
    ),
    "wrong-key": _M(
        "the request was signed with another key than the one it was checked with",
        "sign with the private key whose public half the gateway holds",
    ),
    "timestamp-millis": _M(
        "oauth_timestamp is in milliseconds; the gateway wants Unix seconds",
        "send whole seconds: Math.floor(Date.now() / 1000), int(time.time())",
    ),
    "timestamp-invalid": _M(
        "oauth_timestamp is not whole Unix seconds",
        "send oauth_timestamp as whole Unix seconds, digits only",
    ),
}

# Notes beside the verdict: they never make a request invalid.
NOTES = frozenset(("timestamp-stale", "scheme-assumed"))


def sentence(code: str) -> str:
    """The mistake's meaning as a sentence (the code itself for an unknown one)."""
    text = MISTAKES[code].what if code in MISTAKES else code
    return text[0].upper() + text[1:] + "."


def fix(code: str) -> str | None:
    """The one-line fix for the client's code, or None."""
    return MISTAKES[code].fix if code in MISTAKES else None
