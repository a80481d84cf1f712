"""Callbacks: the fields their ``control`` covers, and callback addresses nobody listens at.

``control`` is the SHA-1 of ``status + orderid + client_orderid + merchant_control`` (field
notes), joined without separators: a callback that lacks one of those fields, or leaves it
blank, can carry another field's characters under a genuine control (``approved`` +
``10000043`` + ``po-1`` reads the same as ``approved10000043`` + ``""`` + ``po-1``). So every
covered field is required, and ``status`` must be one of the field notes' values.

A draft kept from an earlier run, or an address typed by hand, can point the gateway at
``127.0.0.1:PORT`` where this console's listener no longer runs: the callbacks are refused
and the final status never arrives. The form is told so, with what to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from console.core.addresses import is_local_address

from .checks import WARNING
from .codes import Code
from .model import Problem
from .status import STATUS_VALUES

CALLBACK_FIELDS = ("server_callback_url", "notify_url")
# The callback fields ``control`` covers, in the order they are joined.
CONTROL_FIELDS = ("status", "orderid", "client_orderid")


def missing_control_fields(values: Mapping[str, str]) -> list[str]:
    """The fields ``control`` covers that a callback lacks or leaves blank."""
    return [name for name in CONTROL_FIELDS if not values.get(name, "").strip()]


def is_status_value(status: str) -> bool:
    """Whether ``status`` is one of the transaction status values, spelled as the gateway
    sends them (``approved``, ``declined``, ``filtered``, ``processing``, ``error``,
    ``unknown``)."""
    return status in STATUS_VALUES


def _host_port(url: str) -> tuple[str, int | None] | None:
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if port is None:
        port = {"http": 80, "https": 443}.get(parts.scheme.lower())
    return (host, port) if host else None


def loopback_without_listener(values: Mapping[str, str], listener_url: str) -> list[Problem]:
    """A warning for each callback address on this computer that is not where this
    console's listener runs (``listener_url``, "" when none runs)."""
    listening = _host_port(listener_url) if listener_url else None
    out: list[Problem] = []
    for name in CALLBACK_FIELDS:
        url = (values.get(name) or "").strip()
        if not url or not is_local_address(url):
            continue
        where = _host_port(url)
        if where is None or (listening is not None and where[1] == listening[1]):
            continue
        here = (
            f"this console's listener runs at {listener_url}"
            if listener_url
            else "no callback listener of this console runs"
        )
        out.append(
            Problem(
                (name,),
                WARNING,
                f"{name} points at this computer ({url}), but {here}: the callbacks will be "
                "refused and the final status will not arrive. Choose \"This console's "
                'callback listener" as the callback, or check the status after sending.',
                Code.CALLBACK_UNHEARD,
            )
        )
    return out
