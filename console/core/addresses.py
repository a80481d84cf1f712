"""Addresses on this computer: the one place that says what "local" means (localhost,
127.0.0.0/8, ::1), for the environment rules, the send pipeline and the confirmation."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` (and ``*.localhost``), 127.0.0.0/8 and ``::1``."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_local_address(url: str) -> bool:
    """True for an absolute address whose host is on this computer."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return False
    return bool(host) and is_loopback_host(host)
