"""A curl command line as the values of the matching command's form.

The command is the one whose path template matches the end of the URL's path (the
contract's templates, or an environment's own); what comes before is the base URL. The
body's parameters become the form's fields; ``login`` and ``oauth_*`` are not fields (the
login is the OAuth consumer key), so they are reported apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from console.core.masking import mask_params
from console.core.siglab.capture import Capture, CaptureError
from console.core.siglab.curl import parse_curl
from console.core.spec import COMMANDS

_PLACEHOLDER = re.compile(r"[{<](endpoint_id|endpoint_group_id)[}>]")


@dataclass(frozen=True)
class CurlImport:
    """What a curl line fills in."""

    command: str
    base_url: str
    endpoint_id: str | None
    endpoint_group_id: str | None
    login: str | None
    fields: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]

    def to_json(self, *, reveal: bool = False) -> dict[str, object]:
        fields = self.fields if reveal else tuple(mask_params(self.fields))
        return {
            "command": self.command,
            "base_url": self.base_url,
            "endpoint_id": self.endpoint_id,
            "endpoint_group_id": self.endpoint_group_id,
            "login": self.login,
            "fields": dict(fields),
            "notes": list(self.notes),
        }


def import_curl(text: str, templates: Mapping[str, Mapping[str, str]] | None = None) -> CurlImport:
    """Read a curl line and find its command.

    Args:
        text: the curl command line.
        templates: an environment's path templates per command, tried before the contract's.

    Raises:
        CaptureError: the line cannot be read, or its URL matches no command.
    """
    return from_capture(parse_curl(text), templates)


def from_capture(
    capture: Capture, templates: Mapping[str, Mapping[str, str]] | None = None
) -> CurlImport:
    parts = urlsplit(capture.url)
    for name, command in COMMANDS.items():
        merged = {**command.path_templates, **((templates or {}).get(name, {}))}
        for template in merged.values():
            match = _template_regex(template).search(parts.path)
            if match is None:
                continue
            ids = match.groupdict()
            base = f"{parts.scheme}://{parts.netloc}{parts.path[: match.start()]}"
            return _result(name, base, ids, capture)
    raise CaptureError(
        f"The URL path {parts.path!r} matches none of the commands "
        f"({', '.join(COMMANDS)}): it should end like /api/v4/payout-check/<endpoint_id>."
    )


def _template_regex(template: str) -> re.Pattern[str]:
    pattern, pos = "", 0
    for m in _PLACEHOLDER.finditer(template):
        pattern += re.escape(template[pos : m.start()]) + f"(?P<{m.group(1)}>[^/]+)"
        pos = m.end()
    return re.compile(pattern + re.escape(template[pos:]) + "/?$")


def _result(command: str, base: str, ids: dict[str, str], capture: Capture) -> CurlImport:
    notes: list[str] = []
    try:
        pairs = parse_qsl(capture.body, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise CaptureError("The body has percent escapes that are not UTF-8 text.") from None
    login = None
    if capture.authorization and "oauth_consumer_key" in capture.authorization:
        m = re.search(r'oauth_consumer_key="([^"]*)"', capture.authorization)
        login = m.group(1) if m else None
    fields: dict[str, str] = {}
    for name, value in pairs:
        if name == "login":
            login = login or value
            notes.append("login was in the body; it is the OAuth consumer key, not a field.")
        elif name.startswith("oauth_"):
            notes.append(f"{name} was in the body; the console signs the request itself.")
        elif name in fields:
            notes.append(f"{name} was given twice; the last value is kept.")
            fields[name] = value
        else:
            fields[name] = value
    if capture.method != "POST":
        notes.append(f"The curl line uses {capture.method}; the API takes POST.")
    return CurlImport(
        command=command,
        base_url=base,
        endpoint_id=ids.get("endpoint_id"),
        endpoint_group_id=ids.get("endpoint_group_id"),
        login=login,
        fields=tuple(fields.items()),
        notes=tuple(notes),
    )
