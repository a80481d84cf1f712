"""Addresses on this computer: the one place that says what "local" means, for the environment
rules, the send pipeline, the confirmation and the transport.

Only names that cannot leave this computer count: ``localhost`` itself and literal loopback
addresses (127.0.0.0/8, ``::1``). ``*.localhost`` names do not: RFC 6761 asks resolvers to
keep them local, but many hand them to DNS, where anyone may answer.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from urllib.parse import urlsplit


@lru_cache(maxsize=256)  # asked of every row of a batch, twice: the answer never changes
def is_loopback_host(host: str) -> bool:
    """True for ``localhost``, 127.0.0.0/8 and ``::1`` (written as addresses)."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@lru_cache(maxsize=256)  # asked of every row of a batch, all sent to one address
def base_url_problem(url: str) -> str | None:
    """What is wrong with the shape of a gateway's base address, in words that say the fix;
    None: nothing. One rule for an environment's address and ``--base-url``: absolute http(s)
    with a host (a well-formed IPv6 address and port), no user name or password, no ?query or
    #fragment (the command's path is put after the address, so a query would end up in the
    middle of the path)."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (raises ValueError on a bad port)
    except ValueError as exc:
        return f"{url!r} is not a valid address ({exc})."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{url!r} is not an address: write https://HOST/PATH."
    if parts.username or parts.password:
        return (
            "Remove the user name and password from the address: the gateway takes none "
            "there, and secrets are never kept in settings."
        )
    if parts.query or parts.fragment or url.strip().endswith(("?", "#")):
        return "Remove the ?query or #fragment from the address."
    return None


@lru_cache(maxsize=256)
def is_local_address(url: str) -> bool:
    """True for an absolute address whose host is on this computer."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return False
    return bool(host) and is_loopback_host(host)
