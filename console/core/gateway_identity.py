"""Which gateway a request goes to, whatever name or spelling was used to reach it.

The double-payout guard asks "was this client_orderid sent to this gateway before?". An
environment's name is only a label: the same gateway can be reached through two environments
with the same settings, through connection options on the command line, or through one
address written several ways. So the guard is keyed on the gateway's identity: the request
URL (which carries the endpoint or group and the command) normalised, plus the login.

Normalised: scheme and host in lower case, a trailing dot on the host dropped, an
internationalised host name in its ASCII form (IDNA with the UTS-46 mapping, through the
``idna`` package: ``gatewäy.example`` is ``xn--gatewy-fua.example``, as the transport sends
it), the port always written (80 for http, 443 for https), user information, query and
fragment dropped, repeated and trailing slashes in the path removed. Every loopback host
(``localhost``, 127.0.0.0/8, ``::1``) is one host, this computer, and its port is left out:
a local gateway (the built-in sandbox) takes a new port each time it starts, and the same id
sent to two local gateways with the same login and endpoint is refused, which is the safe side.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import idna

from console.core.addresses import is_loopback_host
from console.core.spec import command_url

_DEFAULT_PORTS = {"http": 80, "https": 443}
_THIS_COMPUTER = "localhost"


@lru_cache(maxsize=256)  # a batch asks it of every row, and its rows share one address
def normalised_url(url: str) -> str:
    """``url`` in the one spelling the guard compares (see the module's docstring).

    Raises:
        ValueError: not an absolute http(s) address.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = ascii_host(parts.hostname or "")
    if scheme not in _DEFAULT_PORTS or not host:
        raise ValueError(f"Not an http(s) address: {url!r}")
    port = parts.port or _DEFAULT_PORTS[scheme]
    if is_loopback_host(host):
        return f"{scheme}://{_THIS_COMPUTER}{_path(parts.path)}"
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}{_path(parts.path)}"


def ascii_host(host: str) -> str:
    """``host`` as DNS is asked for it: lower case, no trailing dot, an internationalised
    name in its ASCII (``xn--``) form.

    Raises:
        ValueError: a name that IDNA cannot write in ASCII.
    """
    host = host.strip()
    if not host.isascii():
        try:
            host = idna.encode(host.rstrip(".\u3002\uff0e\uff61"), uts46=True).decode("ascii")
        except idna.IDNAError as exc:
            raise ValueError(f"Not a valid host name: {host!r} ({exc})") from exc
    return host.rstrip(".").lower()


def ascii_url(url: str) -> str:
    """``url`` with its host in ASCII (:func:`ascii_host`), the rest as written: the address
    the transport reaches, in the spelling the team database can read."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if host.isascii():
        return url.strip()
    netloc = ascii_host(host)
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if parts.port is not None:
        netloc = f"{netloc}:{parts.port}"
    if "@" in parts.netloc:
        netloc = f"{parts.netloc.rsplit('@', 1)[0]}@{netloc}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


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
