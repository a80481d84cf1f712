"""Decoding every answer the gateway can give into one typed result.

The contract (section 1 and 7) names four shapes: a form-urlencoded body (``name=value`` pairs
joined with ``&``, each value followed by a line feed) whose ``type`` is a success type,
``validation-error`` or ``error``, or whose ``status`` says declined; an HTTP 403 HTML page when
the signature is refused; an HTTP 500 plain-text body ending in a bracketed unique id. Anything
else (empty, cut off, binary, JSON, an HTML page on 200, an unknown ``type``) is a
:attr:`Kind.MALFORMED` result that keeps the raw bytes, so the person at the console can still
see what came back. :func:`decode` never raises: network garbage is a result, not a crash.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from html import unescape

from console.core.response_form import (
    MalformedError,
    clip,
    decode_text,
    lenient_text,
    media_and_charset,
    parse_form,
)


class Kind(StrEnum):
    """What an answer means for the person who sent the request."""

    SUCCESS = "success"
    VALIDATION_ERROR = "validation-error"
    ERROR = "error"
    DECLINED = "declined"
    ACCESS_DENIED = "access-denied"
    SERVER_ERROR = "server-error"
    MALFORMED = "malformed"


SUCCESS_TYPES = frozenset(
    {
        "create-card-ref-response",
        "async-response",
        "create-recurring-payment-response",
        "status-response",  # field notes: the status command
    }
)
# Field notes: "filtered" means declined by the gateway's fraud control.
DECLINED_STATUSES = frozenset({"declined", "filtered"})
ACCEPTED_CONTENT_TYPES = frozenset(
    # the contract's own type, plus the two a form body is plausibly labelled with
    {"text/html", "text/plain", "application/x-www-form-urlencoded"}
)
ACCESS_DENIED_SUMMARY = (
    "Access denied: the gateway refused the signature. Check the key (the gateway must have "
    "its public key), the login and the URL (the whole path is signed)."
)
_FALLBACK_SUMMARY = "The answer could not be read. The raw bytes are kept as they came."

_ERROR_ID = re.compile(r"\[([^\[\]\s]{1,200})\]")
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class DecodedResponse:
    """One answer, decoded.

    Attributes:
        http_status: the HTTP status code.
        kind: what the answer means (see :class:`Kind`).
        type: the ``type`` field of a form body, else ``None``.
        status: the ``status`` field of a form body, else ``None``.
        fields: (name, value) pairs in body order, trailing line feeds stripped; repeated
            names are kept.
        headers: the response headers.
        raw: the body exactly as received.
        summary: plain words for the person at the console: what happened, what to check next.
        error_message: ``error-message`` of a form body, or the text of a 403 / 500 page.
        error_code: ``error-code`` of a form body.
        error_id: the bracketed unique id of an HTTP 500 answer, to quote to support.
    """

    http_status: int
    kind: Kind
    type: str | None = None
    status: str | None = None
    fields: tuple[tuple[str, str], ...] = ()
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes = b""
    summary: str = ""
    error_message: str | None = None
    error_code: str | None = None
    error_id: str | None = None

    def get(self, name: str) -> str | None:
        """Return the first value of the field ``name``, or ``None`` when it is absent."""
        for n, v in self.fields:
            if n == name:
                return v
        return None

    def to_json(self) -> dict[str, object]:
        """A JSON-ready object; ``fields`` maps a name to its value, or to a list of values
        when the name is repeated; ``raw`` is the body as text (undecodable bytes replaced)."""
        fields: dict[str, object] = {}
        for n, v in self.fields:
            if n not in fields:
                fields[n] = v
            else:
                previous = fields[n]
                fields[n] = [*previous, v] if isinstance(previous, list) else [previous, v]
        return {
            "http_status": self.http_status,
            "kind": str(self.kind),
            "type": self.type,
            "status": self.status,
            "fields": fields,
            "raw": lenient_text(self.raw, media_and_charset(self.headers)[1]),
            "summary": self.summary,
            "error_message": self.error_message,
            "error_code": self.error_code,
            "error_id": self.error_id,
        }


def decode(
    http_status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    expected_type: str | None = None,
) -> DecodedResponse:
    """Decode one answer. Never raises.

    Args:
        http_status: the HTTP status code.
        headers: the response headers (any letter case).
        body: the body bytes.
        expected_type: the success ``type`` of the command that was sent (for example
            ``async-response``); any other known success type is accepted too.
    """
    try:
        raw = bytes(body)
        hdrs = {str(k): str(v) for k, v in dict(headers).items()}
    except Exception:  # a caller bug must not take the console down either
        raw, hdrs = b"", {}
    base = DecodedResponse(http_status=http_status, kind=Kind.MALFORMED, headers=hdrs, raw=raw)
    try:
        return _decode(base, expected_type)
    except Exception:  # last line of defence: garbage from the network is a result
        return replace(base, summary=_FALLBACK_SUMMARY)


def _decode(base: DecodedResponse, expected_type: str | None) -> DecodedResponse:
    content_type, charset = media_and_charset(base.headers)
    text = decode_text(base.raw, charset)
    if base.http_status == 403:
        page = _page_text(text or "")
        return replace(
            base, kind=Kind.ACCESS_DENIED, summary=ACCESS_DENIED_SUMMARY, error_message=page
        )
    if base.http_status >= 500:
        return _server_error(base, _page_text(text or ""))
    try:
        if text is None:
            raise MalformedError(f"it is not readable {charset} text")
        if content_type and content_type not in ACCEPTED_CONTENT_TYPES:
            raise MalformedError(f'its content type is "{content_type}", not a form body')
        fields = parse_form(text, charset)
    except MalformedError as why:
        return replace(base, summary=_malformed_summary(base, str(why)))
    return _classify(replace(base, fields=fields), expected_type)


def _classify(base: DecodedResponse, expected_type: str | None) -> DecodedResponse:
    rtype, status = base.get("type"), base.get("status")
    message, code = base.get("error-message"), base.get("error-code")
    base = replace(base, type=rtype, status=status, error_message=message, error_code=code)
    kind, summary = _judge(base, rtype, _reason(message, code), expected_type)
    return replace(base, kind=kind, summary=summary)


def _judge(
    base: DecodedResponse, rtype: str | None, reason: str, expected_type: str | None
) -> tuple[Kind, str]:
    """The kind of a form answer and its summary for the person at the console."""
    status_l = (base.status or "").strip().lower()
    if rtype == "validation-error":
        return Kind.VALIDATION_ERROR, (
            f"The gateway rejected the request as invalid{reason}. The order was not accepted: "
            "correct the field it names and send again."
        )
    if rtype == "error":
        return Kind.ERROR, (
            f"The gateway refused the request with an error{reason}. Check the message; if it "
            "is unclear, quote the serial-number to the gateway's support."
        )
    if rtype is None or (rtype != expected_type and rtype not in SUCCESS_TYPES):
        what = "has no type field" if rtype is None else f'has the unknown type "{rtype}"'
        return Kind.MALFORMED, _malformed_summary(base, f"it {what}")
    if status_l in DECLINED_STATUSES:
        by = " by the gateway's fraud control" if status_l == "filtered" else ""
        return Kind.DECLINED, (
            f"The transaction was declined{by} (status {status_l}){reason}. Check the reason "
            "given; sending the same data again will most likely be declined again."
        )
    if status_l == "error":
        return Kind.ERROR, (
            f"The gateway answered with status error{reason}. Check the order status before "
            "sending again; resend only with the same client_orderid."
        )
    if not 200 <= base.http_status < 300:
        why = f"it is a success answer but came with HTTP {base.http_status}"
        return Kind.MALFORMED, _malformed_summary(base, why)
    summary = _success_summary(base, rtype)
    if expected_type and rtype != expected_type:
        summary += f' Note: this command normally answers with type "{expected_type}".'
    return Kind.SUCCESS, summary


def _success_summary(r: DecodedResponse, rtype: str) -> str:
    def ids(*names: str) -> str:
        found = [f"{n} {r.get(n)}" for n in names if r.get(n)]
        return f" ({', '.join(found)})" if found else ""

    if rtype == "async-response":
        return (
            "The gateway accepted the payout check order"
            f"{ids('gateway-order-id', 'merchant-order-id')}. It is processed later: the "
            "final status comes by callback or from the status command."
        )
    if rtype == "create-card-ref-response":
        return (
            f"The card reference was created{ids('card-ref-id', 'recurring-payment-id')}. "
            "Use these ids for later recurring payments."
        )
    if rtype == "create-recurring-payment-response":
        return f"The recurring payment profile was created{ids('recurring-payment-id')}."
    status = (r.status or "").strip().lower() or "not given"
    hint = {
        "approved": " The transaction is approved.",
        "processing": " It is still being processed: check again later or wait for the callback.",
        "unknown": " The gateway does not know the outcome yet: check again later.",
    }.get(status, "")
    return f"The order status is {status}{ids('orderid', 'merchant-order-id')}.{hint}"


def _server_error(base: DecodedResponse, text: str) -> DecodedResponse:
    match = _ERROR_ID.search(text)
    error_id = match.group(1) if match else None
    what = f"an internal error (HTTP {base.http_status})"
    if base.http_status != 500:
        what = f"a server error (HTTP {base.http_status}), possibly from a proxy in between"
    quote = (
        f"Quote the error id {error_id} to the gateway's support."
        if error_id
        else "The answer carries no error id; give support the time of the request."
    )
    summary = (
        f"The gateway had {what}. {quote} The request may or may not have been processed: "
        "check the order status before sending again, and resend only with the same "
        "client_orderid."
    )
    return replace(
        base, kind=Kind.SERVER_ERROR, summary=summary, error_message=text or None, error_id=error_id
    )


def _malformed_summary(base: DecodedResponse, why: str) -> str:
    status = base.http_status
    if 300 <= status < 400:
        location = next((v for k, v in base.headers.items() if k.lower() == "location"), "")
        where = f" to {location}" if location else ""
        return (
            f"The gateway redirected the request{where} (HTTP {status}); it was not followed. "
            "Check the base URL (scheme, host and prefix) of the environment."
        )
    return (
        f"The answer (HTTP {status}) is not one the contract describes: {why}. Check the base "
        "URL and the path; the raw answer is kept below. If money may have moved, check the "
        "order status before sending again."
    )


def _reason(message: str | None, code: str | None) -> str:
    parts = [f'"{message.strip()}"' if message and message.strip() else ""]
    if code and code.strip():
        parts.append(f"code {code.strip()}")
    text = ", ".join(p for p in parts if p)
    return f": {text}" if text else ""


def _page_text(text: str) -> str:
    """The words of an HTML or plain-text page, on one line, short enough to show."""
    return clip(_SPACE.sub(" ", unescape(_TAG.sub(" ", text))).strip(), 500)
