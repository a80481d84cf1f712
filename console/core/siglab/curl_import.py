"""A curl command line as the values of the matching command's form.

The command is the one whose path template matches the end of the URL's path (the
contract's templates, or an environment's own); what comes before is the base URL. The
body's parameters (and the query's: the gateway signs both alike) become the form's fields;
``login`` and ``oauth_*`` are not fields (the login is the OAuth consumer key), so they are
reported apart. Whatever cannot be carried over is said (``notes``), and when the console
would send another request than the line's (another base string), ``refusals`` says why,
so that no send line is offered that changes the request unseen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, unquote_plus, urlsplit

from console.core.masking import mask_params
from console.core.siglab.capture import Capture, CaptureError
from console.core.siglab.curl import parse_curl
from console.core.siglab.received import header_params
from console.core.spec import COMMANDS
from console.core.spec.hidden import hidden_character, is_id_field

_PLACEHOLDER = re.compile(r"[{<](endpoint_id|endpoint_group_id)[}>]")
_HEADER_PARAM = re.compile(r'([^\s=,"]+)\s*=\s*"([^"]*)"')


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
    refusals: tuple[str, ...] = ()

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
            "send_refused": list(self.refusals),
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
    refusals: list[str] = []
    header = _header_params(capture.authorization)
    login = header.get("oauth_consumer_key")
    query = _pairs(urlsplit(capture.url).query, "query")
    body, body_notes, body_refusals = _body(capture)
    notes += body_notes
    refusals += body_refusals
    if capture.left_out:
        notes.append(
            f"Not carried over: {'; '.join(capture.left_out)}. The console signs the request "
            "with OAuth itself and sends no cookies, credentials or other headers."
        )
    if query:
        names = ", ".join(dict.fromkeys(n for n, _ in query))
        notes.append(
            f"The URL's query ({names}) was carried into the fields: the gateway signs query "
            "and body parameters alike, and the console sends fields in the body."
        )
    fields: dict[str, str] = {}
    for name, value in (*query, *body):
        if name == "login":
            login = login or value
            notes.append("login was in the body; it is the OAuth consumer key, not a field.")
            refusals.append("login is in the body: the gateway reads and signs it there.")
        elif name.startswith("oauth_"):
            notes.append(f"{name} was in the body; the console signs the request itself.")
            refusals.append(f"{name} is in the body: the gateway reads and signs it there.")
        elif name in fields:
            notes.append(f"{name} was given twice; the form holds one value.")
            refusals.append(f"{name} is given twice: the console sends each field once.")
        else:
            fields[name] = value
        hidden = hidden_character(value, id_field=is_id_field(name))
        if hidden is not None:
            refusals.append(
                f"{name} holds {hidden.code_point} at position {hidden.position}: the console "
                "refuses it in this field (remove it)."
            )
    for name in header:
        if not name.startswith("oauth_") and name != "realm":
            where = "the body too" if name in fields else "not in the body"
            notes.append(
                f"{name} was in the Authorization header ({where}); it was not carried over "
                "from there: the header holds only oauth_ parameters."
            )
        elif name in ("realm", "oauth_token", "oauth_body_hash"):
            notes.append(f"{name} in the header was not carried over; the console sends none.")
    if capture.method != "POST":
        notes.append(f"The curl line uses {capture.method}; the API takes POST.")
        refusals.append(f"The line sends {capture.method}; the console sends POST.")
    if urlsplit(capture.url).path.endswith("/"):
        refusals.append("The URL ends with /; the console's URL does not.")
    return CurlImport(
        command=command,
        base_url=base,
        endpoint_id=ids.get("endpoint_id"),
        endpoint_group_id=ids.get("endpoint_group_id"),
        login=login,
        fields=tuple(fields.items()),
        notes=tuple(dict.fromkeys(notes)),
        refusals=tuple(dict.fromkeys(refusals)),
    )


def _body(capture: Capture) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """The body's fields, and what was said about them (notes, refusals)."""
    text = capture.body
    if "json" in (capture.content_type or "").lower() or text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            fields = [(str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in data.items()]
            return (
                fields,
                ["The body is JSON: its fields were read from it."],
                [
                    "The body is JSON; the gateway reads form bodies only, and the console "
                    "sends the fields form-encoded, which is another request."
                ],
            )
    notes, refusals = [], []
    segments = [s for s in text.split("&") if s]
    loose = [s for s in segments[1:] if "=" not in s]
    if loose:
        said = ", ".join(repr(unquote_plus(s)) for s in loose)
        notes.append(
            f"The body has parts without '=' ({said}): most likely an & inside a value was "
            "sent unencoded (encode it as %26)."
        )
        refusals.append(f"The body splits a value at an unencoded & ({said}).")
    try:
        return _pairs(text, "body"), notes, refusals
    except CaptureError:  # another charset's bytes: shown, but not sent as they are
        refusals.append(
            "The body has percent escapes that are not UTF-8 text (another charset, such as "
            "%FC for ü); the gateway refuses such values, and the console sends UTF-8."
        )
        return parse_qsl(text, keep_blank_values=True, errors="replace"), notes, refusals


def _pairs(text: str, where: str) -> list[tuple[str, str]]:
    try:
        return parse_qsl(text, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise CaptureError(f"The {where} has percent escapes that are not UTF-8 text.") from None


def _header_params(authorization: str | None) -> dict[str, str]:
    try:  # read as the lab reads it: unquoted values and ; separators too
        params, _problems = header_params(authorization or "")
    except CaptureError:
        params = [(m.group(1), m.group(2)) for m in _HEADER_PARAM.finditer(authorization or "")]
    return {unquote(n): unquote(v) for n, v in params}
