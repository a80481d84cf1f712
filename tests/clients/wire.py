"""A request as an independent client put it on the wire, and the forms it is handed on in:
a curl line, raw HTTP text, the bytes for a socket.

The corpus's cases: which client made the request, and the mistake codes the lab must
name (none: the request is correct and must be valid).
"""

from __future__ import annotations

import base64
import shlex
from dataclasses import dataclass
from urllib.parse import urlsplit

FORM = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class WireRequest:
    """What went over the wire: the URL's host part is the Host header."""

    method: str
    url: str
    authorization: str
    body: bytes
    content_type: str | None = FORM

    @property
    def target(self) -> str:
        parts = urlsplit(self.url)
        return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc

    def curl(self) -> str:
        """The curl line that sends these bytes (--data-binary keeps line feeds)."""
        words = ["curl", "-X", self.method, self.url, "-H", f"Authorization: {self.authorization}"]
        if self.content_type:
            words += ["-H", f"Content-Type: {self.content_type}"]
        if self.body:
            words += ["--data-binary", self.body.decode()]
        return " ".join(shlex.quote(w) for w in words)

    def http(self) -> str:
        """Raw HTTP text as a capture shows it, with Content-Length."""
        return self.raw().decode()

    def raw(self) -> bytes:
        lines = [
            f"{self.method} {self.target} HTTP/1.1",
            f"Host: {self.host}",
            f"Authorization: {self.authorization}",
        ]
        if self.content_type:
            lines.append(f"Content-Type: {self.content_type}")
        lines += [f"Content-Length: {len(self.body)}", "Connection: close", "", ""]
        return "\r\n".join(lines).encode() + self.body

    @classmethod
    def from_json(cls, data: dict[str, str]) -> WireRequest:
        """From a client script's output: body in base64."""
        return cls(
            data["method"],
            data["url"],
            data["authorization"],
            base64.b64decode(data["body"]),
            data.get("content_type") or None,
        )


@dataclass(frozen=True)
class Case:
    """One request of the corpus: the client, the case's name, the codes the lab must name
    (empty: correct, must be valid), the request."""

    client: str
    name: str
    expect: frozenset[str]
    wire: WireRequest

    @property
    def id(self) -> str:
        return f"{self.client}:{self.name}"


@dataclass(frozen=True)
class Target:
    """Where the corpus's requests go: base URL (scheme, host, port, prefix), ids, login."""

    base: str
    endpoint: str
    group: str
    login: str
    now: int

    def url(self, command: str = "payout-check", *, group: bool = False) -> str:
        tail = f"group/{self.group}" if group else self.endpoint
        return f"{self.base}/api/v4/{command}/{tail}"
