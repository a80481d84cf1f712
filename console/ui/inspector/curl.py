"""Copy as curl: the exact request as a shell command (masked unless revealed)."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.core.signing import SignedRequest


def curl_command(signed: SignedRequest) -> str:
    """A POSIX shell ``curl`` line that sends ``signed`` as it is (headers and body).

    A masked request gives a masked command: it documents the request but will not verify.
    """
    lines = [f"curl -X {signed.method} {shlex.quote(signed.url)}"]
    for name, value in signed.headers.items():
        lines.append(f"  -H {shlex.quote(f'{name}: {value}')}")
    lines.append(f"  --data-raw {shlex.quote(signed.body)}")
    return " \\\n".join(lines)
