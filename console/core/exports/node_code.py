"""The request as a Node program (18 or later: built-in crypto and fetch, no packages)."""

from __future__ import annotations

from console.core.exports import literals
from console.core.exports.program import Program, render_program

NAME = "node"
SUFFIX = ".js"

_TEMPLATE = """\
#!/usr/bin/env node
@NOT_SENT@\
// @COMMAND@: signed with OAuth 1.0a RSA-SHA256 when it runs, then sent; prints the answer.
// Needs Node 18 or later, no packages. The private key is never in this file: the PEM text
// in $@KEY_VARIABLE@, else the file named by $@KEY_FILE_VARIABLE@, else KEY_FILE below.
@NEEDS@"use strict";
const crypto = require("crypto");
const fs = require("fs");

const URL = @URL@;
const LOGIN = @LOGIN@;
const KEY_FILE = @KEY_FILE@;

function fromEnv(name) {
  // A value kept out of this file (card data), read from the environment.
  const value = process.env[name];
  if (value === undefined) {
    console.error(`Set ${name} in the environment.`);
    process.exit(2);
  }
  return value;
}

const FIELDS = [
@FIELDS@];

// RFC 3986 over UTF-8: only A-Z a-z 0-9 - . _ ~ stay as they are, a space is %20.
// encodeURIComponent leaves ! ' ( ) * alone, so those are escaped here.
function enc(text) {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()
  );
}

function privateKey() {
  const pem =
    process.env[@KEY_VARIABLE_LITERAL@] ||
    fs.readFileSync(process.env[@KEY_FILE_VARIABLE_LITERAL@] || KEY_FILE, "utf8");
  return crypto.createPrivateKey(pem);
}

function byNameThenValue(a, b) {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

async function main() {
  const oauth = [
    ["oauth_consumer_key", LOGIN],
    ["oauth_nonce", crypto.randomBytes(16).toString("hex")], // fresh for every request
    ["oauth_signature_method", "RSA-SHA256"],
    ["oauth_timestamp", String(Math.floor(Date.now() / 1000))],
    ["oauth_version", "1.0"],
  ];
  // Signed: body and oauth parameters, encoded, sorted by name then value, joined.
  const pairs = FIELDS.concat(oauth).map(([name, value]) => [enc(name), enc(value)]);
  pairs.sort(byNameThenValue);
  const normalized = pairs.map(([name, value]) => `${name}=${value}`).join("&");
  const baseString = ["POST", enc(URL), enc(normalized)].join("&");
  const signature = crypto.sign("sha256", Buffer.from(baseString, "ascii"), privateKey());
  oauth.push(["oauth_signature", signature.toString("base64")]);
  const header = "OAuth " + oauth.map(([name, value]) => `${name}="${enc(value)}"`).join(", ");
  const body = FIELDS.map(([name, value]) => `${enc(name)}=${enc(value)}`).join("&");
  const answer = await fetch(URL, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: header },
    body,
    signal: AbortSignal.timeout(60000),
  });
  console.log(answer.status);
  console.log(await answer.text());
  process.exitCode = answer.status === 200 ? 0 : 1;
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
"""


def render(program: Program) -> str:
    """The program's source text."""
    return render_program(
        program,
        _TEMPLATE,
        lit=literals.javascript,
        row=lambda name, value: f"  [{name}, {value}],\n",
        from_env="fromEnv",
        comment="//",
    )
