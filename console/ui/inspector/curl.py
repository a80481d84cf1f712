"""Copy as curl: the request as a shell command, as an unsigned template.

A copied command never carries a working signature: a request the person cancelled at the
production confirmation, or one already sent and journalled, must not leave the console as a
command that pays out from a terminal, past the confirmation and the journal. The command
keeps the URL, headers and body (masked unless revealed) and puts a placeholder where the
signature goes; ``gateway-console sign`` makes a fresh, journal-free signature on purpose.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.core.signing import SignedRequest


def curl_command(signed: SignedRequest) -> str:
    """A POSIX shell ``curl`` template of ``signed``: everything but a valid signature."""
    notes = [
        "# An unsigned template: oauth_signature is a placeholder, so this command sends no "
        "payout as it is.",
        "# Sign a fresh request with: gateway-console sign ... (every intermediate value shown).",
    ]
    if signed.is_masked:
        notes.append(
            "# Card data is masked here: the body documents the request, it will not verify."
        )
    unsigned = signed.unsigned()  # the core's one way to take the signature out
    lines = [f"curl -X {signed.method} {shlex.quote(signed.url)}"]
    for name, value in unsigned.headers.items():
        lines.append(f"  -H {shlex.quote(f'{name}: {value}')}")
    lines.append(f"  --data-raw {shlex.quote(signed.body)}")
    return "\n".join(notes) + "\n" + " \\\n".join(lines)
