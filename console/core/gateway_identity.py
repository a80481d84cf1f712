"""Which gateway a request goes to, whatever name or spelling was used to reach it.

The double-payout guard asks "was this client_orderid sent to this gateway before?". An
environment's name is only a label: the same gateway can be reached through two environments
with the same settings, through connection options on the command line, or through one
address written several ways. So the guard is keyed on the gateway's identity: the request
URL (which carries the endpoint or group and the command) normalised, plus the login.

Normalised: scheme and host in lower case, a trailing dot on the host dropped, the port
always written (80 for http, 443 for https), user information, query and fragment dropped,
repeated and trailing slashes in the path removed. Every loopback host (``localhost``,
127.0.0.0/8, ``::1``) is one host, this computer, and its port is left out: a local gateway
(the built-in sandbox) takes a new port each time it starts, and the same id sent to two
local gateways with the same login and endpoint is refused, which is the safe side.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from console.core.addresses import is_loopback_host
from console.core.spec import command_url

_DEFAULT_PORTS = {"http": 80, "https": 443}
_THIS_COMPUTER = "localhost"


def normalised_url(url: str) -> str:
    """``url`` in the one spelling the guard compares (see the module's docstring).

    Raises:
        ValueError: not an absolute http(s) address.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        raise ValueError(f"Not an http(s) address: {url!r}")
    port = parts.port or _DEFAULT_PORTS[scheme]
    if is_loopback_host(host):
        return f"{scheme}://{_THIS_COMPUTER}{_path(parts.path)}"
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}{_path(parts.path)}"


def _path(path: str) -> str:
    """The path with dot segments resolved and no repeated or trailing slashes."""
    if not path.strip("/"):
        return "/"
    return "/" + posixpath.normpath("/" + unquote(path)).strip("/")


def gateway_identity(url: str, login: str) -> str:
    """The gateway (and merchant account) a request to ``url`` signed for ``login`` reaches.

    Raises:
        ValueError: ``url`` is not an absolute http(s) address.
    """
    return f"{normalised_url(url)} {login.strip()}"


def gateway_for(
    command: str,
    *,
    base_url: str,
    login: str,
    endpoint_id: str | None = None,
    endpoint_group_id: str | None = None,
    path_templates: Mapping[str, str] | None = None,
    **_signing: Any,
) -> str:
    """The identity of the gateway ``command`` goes to with these connection settings (the
    keyword arguments of ``console.core.prepared.prepare``).

    Raises:
        ValueError: the address or the endpoint settings cannot make a request URL.
        KeyError: unknown command.
    """
    url = command_url(
        base_url,
        command,
        endpoint_id=endpoint_id,
        endpoint_group_id=endpoint_group_id,
        templates=path_templates,
    )
    return gateway_identity(url, login)
