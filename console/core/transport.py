"""Sending one signed request over HTTPS, and saying in plain words what went wrong.

A payout POST is not idempotent (field notes, "Sending money safely"), so nothing here ever
retries, and every network failure lands in one of two classes:

- :class:`NotSentError`: the request never reached the gateway (host name not found,
  connection refused, connect timeout, TLS set-up failed, invalid URL). Sending again is safe.
- :class:`OutcomeUnknownError`: the request may have arrived (no answer within the read
  timeout, connection dropped or reset after sending, answer cut off). The person must check
  the order status before sending again, and resend only with the same ``client_orderid``.

Both derive from :class:`console.core.errors.NetworkError`, which carries ``message``
(plain words) and ``url``.
When in doubt a failure is classed as outcome unknown: a needless status check is cheap, a
double payout is not.
"""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import requests
import urllib3.exceptions as u3
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from console.core.addresses import is_local_address
from console.core.errors import NetworkError, NotSentError, OutcomeUnknownError

SAFE_TO_RESEND = "Nothing was sent; it is safe to send again."
CHECK_STATUS = (
    "The request may have been accepted: check the order status before sending again, and "
    "resend only with the same client_orderid."
)


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds to wait for the connection, and then for each read of the answer."""

    connect: float = 10.0
    read: float = 60.0


@dataclass(frozen=True, slots=True)
class RawResponse:
    """An answer as it came: status, headers, body, and seconds from sending to the last byte."""

    status: int
    headers: dict[str, str]
    body: bytes
    elapsed: float


def _no_retry_adapter() -> HTTPAdapter:
    # Zero on every counter: a POST that reached the gateway and is sent again can move
    # money twice, and a stale pooled connection retried silently is exactly that case.
    # requests' own default is close to this, but defaults change and a session handed in
    # may carry adapters that retry.
    retry = Retry(
        total=0,
        connect=0,
        read=0,
        redirect=0,
        status=0,
        other=0,
        raise_on_redirect=False,
        raise_on_status=False,
        respect_retry_after_header=False,
    )
    return HTTPAdapter(max_retries=retry)


class Transport:
    """Posts bodies with a :class:`requests.Session`: timeouts always, TLS verified, no retries.

    Proxies (``HTTPS_PROXY``, ``NO_PROXY`` ...) and ``REQUESTS_CA_BUNDLE`` from the
    environment are honoured, as requests does by default, except for addresses on this
    computer (:mod:`console.core.addresses`), which never go through a proxy: plain http is
    allowed for them only, and a proxy would read the card data in clear. A ``~/.netrc``
    login is never used: the Authorization header is the signature. Redirects are not
    followed: the signature covers the URL, and a re-sent POST could move money twice. No
    cookies are kept or sent: each request stands on its signature alone.

    Args:
        timeouts: connect and read timeouts in seconds.
        verify: ``True`` to verify TLS against the system bundle, or the path of a CA bundle
            file (for a gateway with a private CA). ``False`` turns verification off and is
            meant for local test servers only.
        session: a session to use instead of a new one (its http:// and https:// adapters are
            replaced by no-retry adapters; more specific mounts are the caller's concern). Its
            headers, proxies and CA settings apply; its cookies, hooks and auth do not.
    """

    def __init__(
        self,
        *,
        timeouts: Timeouts = Timeouts(),  # frozen, so one shared default is safe
        verify: bool | str = True,
        session: requests.Session | None = None,
    ) -> None:
        self.timeouts = timeouts
        self.verify = verify
        self.session = session if session is not None else requests.Session()
        for prefix in ("http://", "https://"):
            self.session.mount(prefix, _no_retry_adapter())
        self._by_origin: dict[tuple[str, str], dict[str, Any]] = {}

    def post(self, url: str, *, headers: Mapping[str, str], body: bytes) -> RawResponse:
        """Send one POST and return the answer, whatever its HTTP status.

        Raises:
            NotSentError: the request did not reach the gateway.
            OutcomeUnknownError: it may have reached it; the answer did not come back whole.
        """
        if isinstance(self.verify, str) and not os.path.isfile(self.verify):
            raise NotSentError(
                f"The request was not sent: the CA bundle file {self.verify} does not exist. "
                f"Check the environment's CA bundle setting. {SAFE_TO_RESEND}",
                url,
            )
        started = time.monotonic()
        try:
            # requests' two steps below Session.send: prepare the request, then the no-retry
            # adapter sends it. Session.send's cookie jar, hooks and redirects are left out
            # (the signature covers the URL and nothing else), and so is the ~/.netrc login
            # Session.prepare_request would add: the Authorization header is the signature.
            request = requests.PreparedRequest()
            request.prepare(
                method="POST",
                url=url,
                headers={**self.session.headers, **headers},
                data=body,
                auth=_signed_already,  # never a login from the URL in its place
            )
            target = request.url or url  # as the adapter sees it
            response = self.session.get_adapter(target).send(
                request,
                timeout=(self.timeouts.connect, self.timeouts.read),
                **self._settings(target),
            )
            content = response.content  # read it all here, so a broken body is caught here
        except (
            requests.RequestException,
            u3.HTTPError,
            http.client.HTTPException,
            OSError,
            UnicodeError,
        ) as exc:
            raise _classify(exc, url, self.timeouts) from exc
        return RawResponse(
            status=response.status_code,
            headers=dict(response.headers),
            body=content,
            elapsed=time.monotonic() - started,
        )

    def _settings(self, url: str) -> dict[str, Any]:
        """The adapter's proxies, verify, cert and stream for ``url``: the session's and
        the environment's, as ``Session.request`` merges them, worked out once per scheme
        and host (the environment is read once: proxies set later are not seen)."""
        parts = urlsplit(url)
        key = (parts.scheme.lower(), parts.netloc.lower())
        settings = self._by_origin.get(key)
        if settings is None:
            # requests documents a None value as "leave this key out" (no proxy for it)
            proxies = _no_proxy_for_this_computer(url) or {}
            merged = self.session.merge_environment_settings(
                url,
                proxies,  # type: ignore[arg-type]
                False,
                self.verify,
                None,
            )
            settings = self._by_origin[key] = dict(merged)
        return {**settings, "proxies": dict(settings["proxies"])}  # each send its own copy

    def close(self) -> None:
        """Close pooled connections."""
        self.session.close()

    def __enter__(self) -> Transport:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _signed_already(request: requests.PreparedRequest) -> requests.PreparedRequest:
    """The request as it is: its Authorization header is the OAuth signature. Without an
    ``auth`` requests would put a login written in the URL (``https://user:pass@host``)
    there instead, and send that password to whoever the URL names."""
    return request


def _no_proxy_for_this_computer(url: str) -> dict[str, str | None] | None:
    """Proxy settings that switch off every proxy for an address on this computer (a None
    value removes what the environment or the session would add); None for other addresses:
    the environment's and the session's proxies apply."""
    if not is_local_address(url):
        return None
    parts = urlsplit(url.strip())
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    # every key requests looks a proxy up by (requests.utils.select_proxy)
    return dict.fromkeys((scheme, "all", f"{scheme}://{host}", f"all://{host}"), None)


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception and everything it wraps (requests and urllib3 nest them in args)."""
    seen: set[int] = set()
    todo = [exc]
    while todo and len(seen) < 50:
        e = todo.pop(0)
        if id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        nested = [getattr(e, "reason", None), e.__cause__, e.__context__, *e.args]
        todo.extend(n for n in nested if isinstance(n, BaseException))


def _classify(exc: BaseException, url: str, timeouts: Timeouts) -> NetworkError:
    chain = list(_causes(exc))

    def has(*types: type[BaseException]) -> bool:
        return any(isinstance(e, types) for e in chain)

    parts = urlsplit(url) if "://" in url else None
    host = (parts.hostname or "?") if parts else "?"
    try:
        port = (parts.port if parts else None) or (443 if parts and parts.scheme == "https" else 80)
    except ValueError:
        port = 0
    where = f"{host}:{port}"
    detail = _detail(exc)

    def not_sent(what: str, check: str = "") -> NotSentError:
        text = f"The request did not reach the gateway: {what}. {check}".rstrip()
        return NotSentError(f"{text} {SAFE_TO_RESEND}", url)

    def unknown(what: str) -> OutcomeUnknownError:
        return OutcomeUnknownError(f"{what} {CHECK_STATUS}", url)

    if isinstance(exc, requests.exceptions.InvalidURL | requests.exceptions.MissingSchema) or has(
        requests.exceptions.InvalidSchema, u3.LocationValueError
    ):
        return not_sent(f"the URL {url!r} is not valid ({detail})", "Check the base URL.")
    if isinstance(exc, requests.exceptions.InvalidHeader | UnicodeEncodeError):
        return not_sent(f"a header could not be sent ({detail})", "Check the login and fields.")
    if has(requests.exceptions.ReadTimeout, u3.ReadTimeoutError):
        return unknown(f"The gateway did not answer within {timeouts.read:g} s.")
    if has(requests.exceptions.ConnectTimeout) and not has(u3.NewConnectionError):
        return not_sent(
            f"no connection to {where} within {timeouts.connect:g} s",
            "Check the network, VPN or proxy.",
        )
    if has(u3.NameResolutionError, socket.gaierror):
        return not_sent(
            f"the host name {host} could not be found (DNS)", "Check the base URL and the network."
        )
    if has(ConnectionRefusedError):
        return not_sent(f"connection refused at {where}", "Check the base URL and port.")
    if has(requests.exceptions.ProxyError):
        return not_sent(f"the proxy failed ({detail})", "Check the HTTPS_PROXY setting.")
    if has(ssl.SSLCertVerificationError, ssl.CertificateError):
        return not_sent(
            f"the TLS certificate of {where} could not be verified ({detail})",
            "Check the URL and the environment's CA bundle.",
        )
    if has(ssl.SSLError) and not has(ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError):
        # Protocol, version and alert errors come from the handshake, before any HTTP is sent.
        # A TLS stream that simply ends may have ended after the request: handled below.
        return not_sent(f"the secure connection to {where} could not be set up ({detail})")
    if has(u3.NewConnectionError) or (
        isinstance(exc, requests.exceptions.ConnectTimeout) and not has(u3.ProtocolError)
    ):
        return not_sent(f"no connection to {where} ({detail})", "Check the base URL and network.")
    if has(ConnectionResetError, ConnectionAbortedError, BrokenPipeError, u3.ProtocolError):
        return unknown(
            f"The connection to {where} broke after the request was sent, before a complete "
            f"answer arrived ({_what_broke(chain, detail)})."
        )
    return unknown(f"The exchange with {where} failed ({detail}).")


def _detail(exc: BaseException) -> str:
    """The innermost readable reason, short."""
    innermost = exc
    for e in _causes(exc):
        if not isinstance(e, requests.RequestException | u3.MaxRetryError):
            innermost = e
            break
    text = str(innermost) or type(innermost).__name__
    return text if len(text) <= 160 else text[:159] + "…"


def _what_broke(chain: list[BaseException], detail: str) -> str:
    """Plain words for a connection that failed mid-exchange."""
    for types, words in (
        (http.client.RemoteDisconnected, "the gateway hung up without answering"),
        (http.client.IncompleteRead, "the answer was cut short"),  # also InvalidChunkLength
        (http.client.BadStatusLine, "what came back is not an HTTP answer"),
        (ConnectionResetError, "the connection was reset"),
    ):
        if any(isinstance(e, types) for e in chain):
            return words
    return detail
