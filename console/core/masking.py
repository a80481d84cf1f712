"""The one masking policy for card data (PCI DSS, field notes "Card data").

At most the first six and last four digits of a card number are ever shown or stored, and a
card verification code never is. Every front, the journal, the logs, exports and the command
line mask through this module, so they agree.

What is card data:

- a parameter the contract marks sensitive (``Field.sensitive``: ``"pan"`` for card numbers,
  ``"cvv"`` for verification codes), by its wire name;
- in free text (answers, error messages, raw bodies, logs), the value written after such a
  name (``credit_card_number=...``, ``"cvv2": "..."``), and a card-number-shaped digit run:
  13 to 19 digits that pass the Luhn check, written together or grouped by spaces, dots,
  dashes, ``+`` or their percent-encoded forms (``%20``, ``%2D``, ``%2B``, also encoded
  twice), in any script's decimal digits (full-width ``５``, Arabic-Indic ...), raw or
  percent-encoded as UTF-8;
- in every other parameter's value (a description, a callback's message) such a digit run,
  as in free text, except in id fields;
- the values the request itself carried in sensitive parameters, wherever and however
  encoded they are echoed (a CVV2 only where it stands as a parameter's value: a short code
  also occurs inside unrelated ids).

What is not: identifiers. Order ids, serial numbers, card reference and recurring payment
ids that merely contain digits are kept readable: a digit run that fails the Luhn check is
left as it is, and the values of an answer's own id fields (and the error id a failed
answer names) are never masked, in their field or where the free text repeats them, also
where a digit run inside such an id would pass the Luhn check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from urllib.parse import quote, quote_plus, unquote

from console.core.spec.sensitive import CARD_NUMBER_FIELDS, CVV_FIELDS

CVV_MASK = "***"

# Any script's decimal digit (str patterns match Unicode digits: "５" as well as "5").
_DIGIT = re.compile(r"\d")
# One digit in text: raw, or a non-ASCII one percent-encoded as UTF-8 (``%EF%BC%95``).
_DIGIT_IN_TEXT = r"(?:\d|%[c-fC-F][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){1,3})"
# A separator between digit groups: any one space (also no-break and ideographic), a dot, a
# dash or plus (also their Unicode and full-width forms), or a space, dash, plus or dot
# percent-encoded once or twice.
_SEP = r"(?:[\s.+\-\u2010-\u2015\u2212\u30fb\uff0b\uff0d\uff0e]|%(?:25)?(?:20|2[dDbBeE]))"
# Not inside a number nor a percent escape; right after an encoded space is a start.
_PAN_IN_TEXT = re.compile(
    rf"(?:(?<![\d%])|(?<=%20))(?:{_DIGIT_IN_TEXT}{_SEP}?){{12,18}}{_DIGIT_IN_TEXT}(?!\d)"
)
# A parameter written in free text: its name, an optional closing quote, a separator (=, :,
# a tuple's comma, or = percent-encoded once or twice), then the value: quoted up to its
# closing quote, or bare up to the next delimiter (also a percent-encoded &).
_PARAM_SEP = r"""["']?\s*(?:=|:|,|%3D|%253D)\s*"""
_PARAM_VALUE = r"""(?:(["'])(.*?)\2|((?:(?!%26|%2526)[^\s&"',;)\]}])+))"""
# What ``quote`` and ``quote_plus`` never change (the characters they always keep).
_KEPT_BY_QUOTE = re.compile(r"[A-Za-z0-9_.~-]*")
# Answer fields that carry identifiers: ``gateway-order-id``, ``orderid``, ``serial-number``...
_ID_NAME = re.compile(r"(?:^|[-_])(?:id|orderid|order|serial-number)$")


@cache
def _sensitive_fields() -> dict[str, str]:
    """Wire name -> ``"pan"`` or ``"cvv"``, from the spec's one list (not its tables)."""

    return {**dict.fromkeys(CARD_NUMBER_FIELDS, "pan"), **dict.fromkeys(CVV_FIELDS, "cvv")}


@cache
def pan_fields() -> frozenset[str]:
    """The wire names of card number parameters."""
    return frozenset(n for n, kind in _sensitive_fields().items() if kind == "pan")


@cache
def cvv_fields() -> frozenset[str]:
    """The wire names of card verification code parameters."""
    return frozenset(n for n, kind in _sensitive_fields().items() if kind == "cvv")


def is_sensitive(name: str) -> bool:
    """True for parameters whose values must not be shown or stored in full."""
    return name in _sensitive_fields()


def digits_of(text: str) -> str:
    """The decimal digits in ``text``, in any script, as ASCII digits (``５`` -> ``5``)."""
    found = _DIGIT.findall(text)
    digits = "".join(found)
    return digits if digits.isascii() else "".join(str(int(ch)) for ch in found)


def mask_pan(value: str) -> str:
    """Mask a card number to first six + last four digits, e.g. ``444444******4448``.

    Non-digits are dropped first, and digits of other scripts become ASCII digits. Numbers
    too short to keep ten digits safely keep only the last four; four digits or fewer are
    masked entirely.
    """
    digits = digits_of(value)
    if not digits:
        return "*" * len(value) if value else ""
    if len(digits) <= 4:
        return "*" * len(digits)
    if len(digits) < 13:
        return "*" * (len(digits) - 4) + digits[-4:]
    return digits[:6] + "*" * (len(digits) - 10) + digits[-4:]


def mask_value(name: str, value: str) -> str:
    """Mask one parameter value according to its wire name: card data fields whole, ids
    kept, any other value scanned as free text (a card number typed into a description)."""
    kind = _sensitive_fields().get(name)
    if kind == "cvv":
        return CVV_MASK if value else ""
    if kind == "pan":
        return mask_pan(value)
    return value if is_id_field(name) else mask_text(value)


def mask_params(params: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Mask every sensitive value in a list of (name, value) pairs."""
    return [(n, mask_value(n, v)) for n, v in params]


@lru_cache(maxsize=1024)  # a few names, asked of every field of every answer
def is_id_field(name: str) -> bool:
    """True for answer fields that carry identifiers (never masked)."""
    return not is_sensitive(name) and bool(_ID_NAME.search(name.lower()))


def named_parameter(names: str) -> re.Pattern[str]:
    """A pattern for ``NAME=value`` (also ``"NAME": "value"``, ``NAME: value``, encoded)
    in free text, for the names matched by the regular expression ``names``."""
    return re.compile(rf"((?:{names}){_PARAM_SEP}){_PARAM_VALUE}", re.IGNORECASE)


def replace_value(match: re.Match[str], mask: Callable[[str], str]) -> str:
    """Replace the value a :func:`named_parameter` match found with ``mask(value)``."""
    quote = match.group(2) or ""
    value = match.group(3) if quote else match.group(4)
    if not quote and match.group(1).rstrip()[-1] in ",:" and not value[:1].isdigit():
        # Plain words ("credit_card_number, card_printed_name and ..."): a bare word after a
        # comma or colon that does not start with a digit is the next word of a sentence.
        return match.group(0)
    return f"{match.group(1)}{quote}{mask(value)}{quote}"


# Card data written as a parameter in free text, by the contract's names and the usual
# spellings of a verification code.
_PAN_PARAM = named_parameter(r"credit[_-]card[_-]number")
_CVV_PARAM = named_parameter(r"cvv2?|cvc2?")


def _mask_encoded_pan(value: str) -> str:
    if "*" in value:
        return value  # masked already
    # A body may be written percent-encoded once or more (a space becomes %20 or %2520);
    # each decoding that changes it makes it shorter, so this ends.
    while (decoded := unquote(value)) != value:
        value = decoded
    return mask_pan(value)


def mask_text(
    text: str, secrets: Sequence[tuple[str, str]] = (), *, keep: Iterable[str] = ()
) -> str:
    """Mask card data in free text.

    Args:
        text: a message, a raw body, a log line.
        secrets: (name, value) pairs of the request; the values of sensitive names must not
            appear, in any of their encodings.
        keep: identifiers that must stay readable even when they look like a card number
            (the values of an answer's id fields).
    """
    for name, value in secrets:
        text = _mask_secret(text, name, value)
    text = _CVV_PARAM.sub(lambda m: replace_value(m, lambda _: CVV_MASK), text)
    text = _PAN_PARAM.sub(lambda m: replace_value(m, _mask_encoded_pan), text)
    kept: set[str] | None = None  # worked out at the first card-shaped run, if there is one
    kept_spans: list[tuple[int, int]] = []

    def card(match: re.Match[str]) -> str:
        nonlocal kept
        run = match.group(0)
        digits = digits_of(unquote(unquote(run), errors="replace"))
        if not 13 <= len(digits) <= 19:
            return run
        if kept is None:
            kept = {d for d in (digits_of(k) for k in keep) if d}
            kept_spans.extend(_spans_of(keep, text))
        if digits in kept or any(
            start <= match.start() and match.end() <= end for start, end in kept_spans
        ):
            return run  # an identifier, or a digit run inside one ("9cfb...e95492994219...")
        # the contract's one Luhn check, loaded on the first card-shaped run (not at start-up)
        from console.core.spec.formats import luhn_valid

        return mask_pan(digits) if luhn_valid(digits) else run

    return _PAN_IN_TEXT.sub(card, text)


def _spans_of(keep: Iterable[str], text: str) -> list[tuple[int, int]]:
    """Where the identifiers in ``keep`` are written in ``text`` (each place, left to right,
    not overlapping: what a search for the literal text finds). Looked up with ``str.find``:
    a pattern made of each answer's new ids missed the regular expression cache every time
    (compiling them was most of the cost of masking a batch row's answer)."""
    spans: list[tuple[int, int]] = []
    for k in filter(None, keep):  # an empty id is found everywhere: none is kept
        start = text.find(k)
        while start != -1:
            spans.append((start, start + len(k)))
            start = text.find(k, start + len(k))
    return spans


def mask_answer(
    fields: Iterable[tuple[str, str]], secrets: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """An answer's fields as they may be shown or stored: sensitive names masked, ids kept,
    every other value scanned as free text."""
    pairs = list(fields)
    keep = answer_ids(pairs)
    out = []
    for name, value in pairs:
        if is_sensitive(name):
            out.append((name, mask_value(name, value)))
        elif is_id_field(name):
            out.append((name, value))
        else:
            out.append((name, mask_text(value, secrets, keep=keep)))
    return out


def answer_ids(fields: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The values of an answer's id fields, to keep readable in its free text."""
    return frozenset(v for n, v in fields if v and is_id_field(n))


def _mask_secret(text: str, name: str, value: str) -> str:
    kind = _sensitive_fields().get(name)
    if not value or kind is None:
        return text
    # Every form replaced below holds the value's leading run of characters that percent-
    # encoding keeps as they are: where that run is absent, so is each form (the usual case,
    # asked of every text of every answer).
    kept = _KEPT_BY_QUOTE.match(value.strip() if kind == "pan" else value)
    if kept and kept.group(0) and kept.group(0) not in text:
        return text
    if kind == "cvv":
        # a CVV2 is short: replaced only where it stands as the parameter's value
        pattern = rf"({re.escape(name)}(?:=|%3D|%253D|\s*[:=]\s*)[\"']?){re.escape(value)}(?![0-9])"
        return re.sub(pattern, lambda m: m.group(1) + CVV_MASK, text)
    masked = mask_pan(value)
    encoded = quote(value, safe="")
    for form in sorted(
        {value, value.strip(), encoded, quote(encoded, safe=""), quote_plus(value)} - {""},
        key=len,
        reverse=True,
    ):
        text = text.replace(form, masked)
    return text
