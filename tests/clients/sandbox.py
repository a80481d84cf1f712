"""A corpus request sent to a running sandbox byte for byte, and the sandbox's verdict."""

from __future__ import annotations

import socket
from urllib.parse import parse_qsl

from console.sandbox import SandboxHandle
from console.sandbox.codes import VALIDATION_CODES
from tests.clients.wire import Case

# refused before the contract's own checks: a field sent twice, a value that is not UTF-8
REFUSED_BEFORE_THE_CONTRACT = {VALIDATION_CODES["repeated"], VALIDATION_CODES["encoding"]}


def sandbox_answer(handle: SandboxHandle, case: Case) -> tuple[bool, int, str]:
    """Whether the sandbox takes the request's bytes, its HTTP status, and its answer in
    short ("403", "200 validation-error 150", "200 async-response")."""
    port = int(handle.base_url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(case.wire.raw())
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        return False, status, str(status)
    fields = dict(parse_qsl(body.decode("utf-8", "replace").strip()))
    kind, code = fields.get("type", "?").strip(), fields.get("error-code", "").strip()
    refused = kind == "validation-error" and code.isdigit()
    refused = refused and int(code) in REFUSED_BEFORE_THE_CONTRACT
    return not refused, status, f"200 {kind} {code}".rstrip()
