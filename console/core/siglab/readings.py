"""A form body or query read the ways clients and gateways read it: ``+`` as a space or
not, values as sent or decoded, an unencoded ``&`` glued back, a JSON object's fields."""

from __future__ import annotations

import json
from urllib.parse import unquote, unquote_plus

from console.core.siglab.received import Pairs, Received


def decode(raw: str, *, plus: bool = True) -> str:
    """A percent-encoded text decoded (``+`` as a space unless ``plus`` is False)."""
    return (unquote_plus if plus else unquote)(raw, errors="surrogateescape")


def form(text: str, *, plus: bool = True) -> Pairs:
    """``name=value&...`` decoded into pairs, empty segments skipped, as the gateway does."""
    out = []
    for segment in text.split("&"):
        if segment:
            name, _, value = segment.partition("=")
            out.append((decode(name, plus=plus), decode(value, plus=plus)))
    return tuple(out)


def raw_values(text: str) -> Pairs:
    """Names decoded, values as sent (a signer that encoded them once more)."""
    out = []
    for segment in text.split("&"):
        if segment:
            name, _, value = segment.partition("=")
            out.append((decode(name), value))
    return tuple(out)


def glued(text: str) -> Pairs | None:
    """The form read with each segment that has no ``=`` glued back to the value before
    it with an ``&`` (a value whose ``&`` was sent unencoded)."""
    segments = [s for s in text.split("&") if s]
    if not any("=" not in s for s in segments[1:]):
        return None
    out: list[str] = []
    for segment in segments:
        if out and "=" not in segment:
            out[-1] += "&" + segment
        else:
            out.append(segment)
    return form("&".join(s.replace("&", "%26") for s in out))


def json_fields(r: Received) -> Pairs | None:
    """The fields of a JSON object body as a client that signs them as form fields sees
    them, or None when the body is not a JSON object."""
    text = r.body_text.strip()
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return tuple((str(k), json_text(v)) for k, v in data.items())


def json_text(value: object) -> str:
    """A JSON value as the text a client signs for it (strings as they are)."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, separators=(",", ":"))


def is_json(r: Received) -> bool:
    """The body is JSON: by its Content-Type or by its text."""
    return "json" in (r.content_type or "").lower() or json_fields(r) is not None
