"""The request as a Python program (requests and cryptography)."""

from __future__ import annotations

from console.core.exports import literals
from console.core.exports.program import Program, render_program

NAME = "python"
SUFFIX = ".py"

_TEMPLATE = '''\
#!/usr/bin/env python3
@NOT_SENT@\
"""@COMMAND@: signed with OAuth 1.0a RSA-SHA256 when it runs, then sent; prints the answer.

Needs Python 3.8+ with requests and cryptography (pip install requests cryptography).
The private key is never in this file: the PEM text in $@KEY_VARIABLE@, else the file named
by $@KEY_FILE_VARIABLE@, else KEY_FILE below.
"""
@NEEDS@
import base64
import os
import secrets
import sys
import time
from urllib.parse import quote

import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

URL = @URL@
LOGIN = @LOGIN@
KEY_FILE = @KEY_FILE@


def from_env(name):
    """A value kept out of this file (card data), read from the environment."""
    value = os.environ.get(name)
    if value is None:
        sys.exit(f"Set {name} in the environment.")
    return value


FIELDS = [
@FIELDS@]


def enc(text):
    """RFC 3986 over UTF-8: only A-Z a-z 0-9 - . _ ~ stay as they are, a space is %20."""
    return quote(text, safe="~")


def private_key():
    pem = os.environ.get(@KEY_VARIABLE_LITERAL@)
    if not pem:
        with open(os.environ.get(@KEY_FILE_VARIABLE_LITERAL@) or KEY_FILE, "rb") as f:
            pem = f.read()
    elif isinstance(pem, str):
        pem = pem.encode("ascii")
    return serialization.load_pem_private_key(pem, password=None)


def main():
    oauth = [
        ("oauth_consumer_key", LOGIN),
        ("oauth_nonce", secrets.token_hex(16)),  # fresh for every request
        ("oauth_signature_method", "RSA-SHA256"),
        ("oauth_timestamp", str(int(time.time()))),
        ("oauth_version", "1.0"),
    ]
    # Signed: body and oauth parameters, encoded, sorted by name then value, joined.
    pairs = sorted((enc(name), enc(value)) for name, value in FIELDS + oauth)
    normalized = "&".join(f"{name}={value}" for name, value in pairs)
    base_string = "&".join(["POST", enc(URL), enc(normalized)])
    signature = private_key().sign(base_string.encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
    oauth.append(("oauth_signature", base64.b64encode(signature).decode("ascii")))
    header = "OAuth " + ", ".join(f'{name}="{enc(value)}"' for name, value in oauth)
    body = "&".join(f"{enc(name)}={enc(value)}" for name, value in FIELDS)
    answer = requests.post(
        URL,
        data=body.encode("ascii"),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Authorization": header},
        timeout=(10, 60),
    )
    print(answer.status_code)
    print(answer.content.decode("utf-8", "replace"))
    return 0 if answer.status_code == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
'''


def render(program: Program) -> str:
    """The program's source text."""
    return render_program(
        program,
        _TEMPLATE,
        lit=literals.python,
        row=lambda name, value: f"    ({name}, {value}),\n",
        from_env="from_env",
        comment="#",
    )
