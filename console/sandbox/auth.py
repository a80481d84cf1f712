"""Request authentication, as a real gateway does it (contract section 5).

Checks, in order: an ``OAuth`` Authorization header that can be read; every oauth parameter
present and no others; ``oauth_signature_method`` RSA-SHA256; ``oauth_version`` 1.0; no
``login`` body parameter; a known consumer key; a timestamp within the window of real time;
a base64 signature; the RSA-SHA256 signature over the body and oauth parameters and the full
request URL; a nonce not used before within the window. Any failure is an
:class:`AuthError` whose ``reason`` goes to the sandbox log (the answer itself is only 403).
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from console.core.masking import mask_params
from console.sandbox.oauth import (
    HeaderError,
    base_string_uri,
    parse_authorization,
    signature_base_string,
)

SIGNED_OAUTH = (
    "oauth_consumer_key",
    "oauth_nonce",
    "oauth_signature_method",
    "oauth_timestamp",
    "oauth_version",
)
DEFAULT_WINDOW = 300.0
log = logging.getLogger("console.sandbox")
_LOGIN = re.compile(r'oauth_consumer_key\s*=\s*"?([^",;\s]*)')


class AuthError(Exception):
    """Authentication failed; ``reason`` says which check, for the sandbox's log."""

    def __init__(self, reason: str, login: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.login = login


@dataclass(frozen=True, slots=True)
class SignedRequest:
    """What authentication looks at: the request as it arrived."""

    method: str
    scheme: str
    host: str
    path: str
    authorization: str | None
    params: list[tuple[str, str]]  # query parameters, then body parameters
    query: bytes = b""  # the query and body as they came, for the signature lab's verdict
    body: bytes = b""
    content_type: str | None = None


def lab_verdict(
    request: SignedRequest, key: RSAPublicKey, now: float, ids: tuple[str, ...] = ()
) -> str:
    """The signature lab's verdict on the same bytes, for the log beside the sandbox's own
    reason (the lab only explains; the sandbox's check above decides). ``ids``: the login's
    endpoint and group ids, so that a path signed for another of them is named."""
    # boundary: the signature lab's diagnosis, only for a signature that fails
    from console.core.siglab.capture import CaptureError
    from console.core.siglab.diagnose import diagnose  # boundary: as above
    from console.core.siglab.received import from_wire  # boundary: as above

    try:
        received = from_wire(
            request.method,
            request.scheme,
            request.host,
            request.path,
            request.query,
            request.authorization,
            request.body,
            request.content_type,
        )
        verdict = diagnose(received, key, now=now, ids=ids)
    except (CaptureError, ValueError) as exc:
        return f"; signature lab: cannot read the request ({exc})"
    except Exception:  # the lab only explains: a fault in it never turns a 403 into a 500
        log.exception("the signature lab could not judge a refused request")
        return "; signature lab: no verdict (an internal fault, logged)"
    return f"; signature lab: {verdict.summary()}"


def _login_hint(request: SignedRequest) -> str | None:
    """The consumer key of a header that could not be read as a whole (values unquoted,
    ; between them), or of oauth parameters sent in the query or body instead."""
    match = _LOGIN.search(request.authorization or "")
    if match:
        return match.group(1)
    return next((v for n, v in request.params if n == "oauth_consumer_key"), None)


class NonceCache:
    """Nonces seen per consumer key, forgotten once their timestamp leaves the window."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()
        self._next_purge = 0.0

    def add(self, login: str, nonce: str, timestamp: float, now: float, window: float) -> bool:
        """Record a nonce; False when it was already used within the window."""
        key = (login, nonce)
        with self._lock:
            if now >= self._next_purge:
                self._seen = {k: t for k, t in self._seen.items() if now - t <= window}
                self._next_purge = now + window / 10
            if key in self._seen:
                return False
            self._seen[key] = timestamp
            return True


class Authenticator:
    """Verifies signed requests against the merchants' public keys.

    Args:
        public_key: returns the RSA public key of a login, or None when it is unknown.
        ids: returns a login's endpoint and group ids (for the lab's verdict in the log).
        window: accepted distance in seconds between oauth_timestamp and real time.
        wall: the real-time source (tests pass their own).
    """

    def __init__(
        self,
        public_key: Callable[[str], RSAPublicKey | None],
        *,
        ids: Callable[[str], tuple[str, ...]] | None = None,
        window: float = DEFAULT_WINDOW,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._public_key = public_key
        self._ids = ids or (lambda _login: ())
        self.window = window
        self._wall = wall
        self._nonces = NonceCache()
        self.verify_seconds = 0.0  # time spent in RSA verification, for the benchmark
        self._stats_lock = threading.Lock()

    def check(self, request: SignedRequest) -> str:
        """Return the authenticated login, or raise :class:`AuthError` (whose reason ends
        with the signature lab's verdict on the same bytes when the login's key is known)."""
        try:
            return self._check(request)
        except AuthError as exc:
            login = exc.login or _login_hint(request)
            key = self._public_key(login) if login else None
            if key is None or login is None:
                raise
            reason = exc.reason + lab_verdict(request, key, self._wall(), self._ids(login))
            raise AuthError(reason, exc.login) from None

    def _check(self, request: SignedRequest) -> str:
        oauth = self._header(request.authorization)
        login = oauth["oauth_consumer_key"]
        if oauth["oauth_signature_method"] != "RSA-SHA256":
            raise AuthError(
                f"oauth_signature_method is {oauth['oauth_signature_method']!r}; "
                "only RSA-SHA256 is accepted",
                login,
            )
        if oauth["oauth_version"] != "1.0":
            raise AuthError(f"oauth_version is {oauth['oauth_version']!r}, not 1.0", login)
        if any(name == "login" for name, _ in request.params):
            raise AuthError(
                "login was sent as a body parameter; it belongs in oauth_consumer_key only",
                login,
            )
        key = self._public_key(login)
        if key is None:
            raise AuthError(f"unknown consumer key (login) {login!r}", login)
        timestamp = self._timestamp(oauth["oauth_timestamp"], login)
        try:
            signature = base64.b64decode(oauth["oauth_signature"], validate=True)
        except (binascii.Error, ValueError):
            raise AuthError("oauth_signature is not valid base64", login) from None
        pairs = [*request.params, *((n, oauth[n]) for n in SIGNED_OAUTH)]
        uri = base_string_uri(request.scheme, request.host, request.path)
        base = signature_base_string(request.method, uri, pairs)
        started = time.perf_counter()
        try:
            key.verify(
                signature,
                base.encode("utf-8", "surrogateescape"),
                padding.PKCS1v15(),
                hashes.SHA256(),
            )
        except InvalidSignature:
            shown = signature_base_string(request.method, uri, mask_params(pairs))
            raise AuthError(
                "the signature does not match the request; the sandbox signed this base "
                f"string (card data masked here): {shown}",
                login,
            ) from None
        finally:
            with self._stats_lock:
                self.verify_seconds += time.perf_counter() - started
        if not self._nonces.add(login, oauth["oauth_nonce"], timestamp, self._wall(), self.window):
            raise AuthError(
                f"oauth_nonce {oauth['oauth_nonce']!r} was already used within the last "
                f"{self.window:g} s (a replayed request)",
                login,
            )
        return login

    def _header(self, authorization: str | None) -> dict[str, str]:
        if not authorization:
            raise AuthError("no Authorization header")
        try:
            params = parse_authorization(authorization)
        except HeaderError as exc:
            raise AuthError(str(exc)) from None
        login = params.get("oauth_consumer_key")
        missing = [n for n in (*SIGNED_OAUTH, "oauth_signature") if not params.get(n)]
        if missing:
            raise AuthError(f"the Authorization header lacks {', '.join(missing)}", login or None)
        extra = sorted(n for n in params if n not in (*SIGNED_OAUTH, "oauth_signature", "realm"))
        if extra:
            raise AuthError(
                f"the Authorization header has parameters this API does not use: "
                f"{', '.join(extra)} (there is no oauth_token in this API)",
                login,
            )
        return params

    def _timestamp(self, text: str, login: str) -> float:
        if not (text.isascii() and text.isdigit()):
            raise AuthError(f"oauth_timestamp {text!r} is not Unix seconds", login)
        timestamp = float(text)
        skew = timestamp - self._wall()
        if abs(skew) > self.window:
            side = "ahead of" if skew > 0 else "behind"
            raise AuthError(
                f"oauth_timestamp is {abs(skew):.0f} s {side} real time; the window is "
                f"{self.window:g} s (check the computer's clock)",
                login,
            )
        return timestamp
