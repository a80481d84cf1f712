"""Copy as curl: the request as a shell command, as an unsigned template.

A copied command never carries a working signature: a request the person cancelled at the
production confirmation, or one already sent and journalled, must not leave the console as a
command that pays out from a terminal, past the confirmation and the journal. The command
keeps the URL, headers and body (masked unless revealed) and puts a placeholder where the
signature goes; ``gateway-console sign`` makes a fresh, journal-free signature on purpose.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.core.signing import SignedRequest

SIGNATURE_PLACEHOLDER = "SIGN-ME"
_SIGNATURE = re.compile(r'oauth_signature="[^"]*"')


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
    lines = [f"curl -X {signed.method} {shlex.quote(signed.url)}"]
    for name, value in signed.headers.items():
        if name.lower() == "authorization":
            value = _SIGNATURE.sub(f'oauth_signature="{SIGNATURE_PLACEHOLDER}"', value)
        lines.append(f"  -H {shlex.quote(f'{name}: {value}')}")
    lines.append(f"  --data-raw {shlex.quote(signed.body)}")
    return "\n".join(notes) + "\n" + " \\\n".join(lines)
