"""Callback ``control`` checks: valid, or which field order or value form explains it.

The field notes give ``control`` = lower-case hex SHA-1 of ``status + orderid +
client_orderid + merchant_control``. Receivers get it wrong in a few known ways; each
alternative is tried so the answer can say which one the sender (or the receiver's own
check) used. A callback the console's listener would not trust whatever its control (a
covered field missing or blank, a status that is not a transaction status value) is said to
be so first (:mod:`console.core.spec.callbacks`).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from itertools import permutations
from urllib.parse import parse_qsl

from console.core.spec.callbacks import CONTROL_FIELDS, is_status_value, missing_control_fields
from console.core.spec.status import STATUS_VALUES

_FIELDS = CONTROL_FIELDS


@dataclass(frozen=True)
class ControlVerdict:
    """``valid``; otherwise ``code`` and ``message`` name what explains the control value
    (``code`` ``unexplained`` when nothing does); ``expected`` is the right control."""

    valid: bool
    code: str
    message: str
    expected: str


def check_control(query: str, merchant_control: str) -> ControlVerdict:
    """Check the ``control`` of a callback's query string (with or without the leading ``?``).

    Raises:
        ValueError: the query lacks ``control`` or a field it is made of (or leaves it blank).
    """
    query = query.strip().split("?", 1)[-1]
    raw = dict(_raw_pairs(query))
    values = dict(parse_qsl(query, keep_blank_values=True))
    missing = [] if values.get("control", "").strip() else ["control"]
    missing += missing_control_fields(values)
    if missing:
        raise ValueError(
            f"The callback query lacks {', '.join(missing)} (or leaves it empty): paste the "
            "whole query string the gateway called with. The console trusts no callback "
            "without every field the control covers."
        )
    control = values["control"].strip()
    expected = _sha1(values, _FIELDS, merchant_control)
    if not is_status_value(values["status"]):
        return ControlVerdict(
            False,
            "status-not-a-value",
            f"The status {values['status']!r} is not a transaction status value "
            f"({', '.join(STATUS_VALUES)}): the console records such a callback and changes "
            "no status with it, whatever its control.",
            expected,
        )
    if hmac.compare_digest(control, expected):
        return ControlVerdict(True, "", "The control value is valid.", expected)
    for code, message in _explanations(control, values, raw, merchant_control):
        return ControlVerdict(False, code, message, expected)
    return ControlVerdict(
        False,
        "unexplained",
        "No known field order or value form gives this control value: check the "
        "merchant_control secret (it differs per endpoint or environment).",
        expected,
    )


def _explanations(
    control: str, values: dict[str, str], raw: dict[str, str], secret: str
) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if control == _sha1(values, _FIELDS, secret).upper():
        found.append(("control-uppercase-hex", "The control is upper-case hex; it is lower case."))
    for order in permutations(_FIELDS):
        for secret_first in (False, True):
            if order == _FIELDS and not secret_first:
                continue
            if control == _sha1(values, order, secret, secret_first=secret_first):
                names = list(order)
                names.insert(0 if secret_first else 3, "merchant_control")
                found.append(
                    (
                        "control-field-order",
                        f"The control was made in the order {' + '.join(names)}; it is "
                        "status + orderid + client_orderid + merchant_control.",
                    )
                )
    if "merchant_order" in values:
        swapped = {**values, "client_orderid": values["merchant_order"]}
        if control == _sha1(swapped, _FIELDS, secret):
            found.append(
                (
                    "control-merchant-order",
                    "The control was made with merchant_order instead of client_orderid.",
                )
            )
    if raw != {k: values[k] for k in raw if k in values} and control == _sha1(raw, _FIELDS, secret):
        found.append(
            (
                "control-encoded-values",
                "The control was made of the values still percent-encoded as they stand in "
                "the query; it is made of the decoded values.",
            )
        )
    stripped = {k: v.strip() for k, v in values.items()}
    if stripped != values and control == _sha1(stripped, _FIELDS, secret):
        found.append(("control-value-trimmed", "The control was made of trimmed values."))
    return found


def _sha1(
    values: dict[str, str], order: tuple[str, ...], secret: str, *, secret_first: bool = False
) -> str:
    parts = [values[n] for n in order]
    text = secret + "".join(parts) if secret_first else "".join(parts) + secret
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def _raw_pairs(query: str) -> list[tuple[str, str]]:
    return [
        (name, value)
        for segment in query.split("&")
        if segment
        for name, _, value in [segment.partition("=")]
    ]
