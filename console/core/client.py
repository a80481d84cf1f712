"""Preparing and sending one request: validate -> sign, then send once -> decode.

Fronts do not call :class:`Client` directly: they go through ``console.core.pipeline``, which
adds the double-payout guard, the confirmation, the journal and masking around it.

Nothing here retries: a payout POST is not idempotent, so a failed send is reported as
"not sent" or "outcome unknown" and the person decides (field notes, "Sending money safely").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from console.core.errors import InputError, NetworkError
from console.core.gateway_identity import gateway_identity
from console.core.request_inputs import check_request_inputs
from console.core.responses import DecodedResponse, Kind, decode
from console.core.signing import SignedRequest, sign
from console.core.spec import command_url, get_command, request_fields, validate
from console.core.spec.model import Problem, Severity
from console.core.transport import NotSentError, OutcomeUnknownError, Transport


class Result(StrEnum):
    """What one send came to, from the person's point of view."""

    ACCEPTED = "accepted"  # the gateway accepted the request (success type)
    REJECTED = "rejected"  # validation-error, error or declined: the gateway said no
    ACCESS_DENIED = "access-denied"  # 403: signature, key, login or URL
    GATEWAY_FAILED = "gateway-failed"  # 500 or an answer that could not be read
    NOT_SENT = "not-sent"  # the request never arrived; safe to send again
    UNKNOWN = "unknown"  # it may have arrived: check the status before resending


@dataclass(frozen=True, slots=True)
class PreparedRequest:
    """A request ready to send, with everything the inspector shows.

    Attributes:
        command: the command name.
        url: the full request URL (the whole path is signed).
        params: the body parameters in send order.
        problems: validation findings (errors and warnings).
        signed: the signed request, or None when errors block signing.
    """

    command: str
    url: str
    params: tuple[tuple[str, str], ...]
    problems: tuple[Problem, ...]
    signed: SignedRequest | None

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    def value(self, name: str) -> str | None:
        """The first body value sent under ``name``, if any."""
        return next((v for n, v in self.params if n == name), None)

    @property
    def gateway(self) -> str:
        """The identity of the gateway and login it goes to (the double-payout guard's key,
        :mod:`console.core.gateway_identity`), whatever environment or spelling named it."""
        login = self.signed.oauth.get("oauth_consumer_key", "") if self.signed else ""
        return gateway_identity(self.url, login)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to one send: a decoded response or a transport failure."""

    prepared: PreparedRequest
    response: DecodedResponse | None
    error: NetworkError | None
    elapsed: float
    started_at: float = field(default=0.0)

    @property
    def result(self) -> Result:
        if self.error is not None:
            return Result.NOT_SENT if isinstance(self.error, NotSentError) else Result.UNKNOWN
        assert self.response is not None
        return _RESULT_BY_KIND[self.response.kind]

    @property
    def summary(self) -> str:
        """One paragraph in plain words: what happened and what to do next."""
        if self.error is not None:
            return self.error.message
        assert self.response is not None
        return self.response.summary


_RESULT_BY_KIND: dict[Kind, Result] = {
    Kind.SUCCESS: Result.ACCEPTED,
    Kind.VALIDATION_ERROR: Result.REJECTED,
    Kind.ERROR: Result.REJECTED,
    Kind.DECLINED: Result.REJECTED,
    Kind.ACCESS_DENIED: Result.ACCESS_DENIED,
    Kind.SERVER_ERROR: Result.GATEWAY_FAILED,
    Kind.MALFORMED: Result.GATEWAY_FAILED,
}


Admit = Callable[[Sequence[Any]], None]  # earlier sends of an order id -> None, or raises


class JournalHooks(Protocol):
    """What the history journal offers the send pipeline: a row before sending, an update
    after (see ``console.core.pipeline``)."""

    def before_send(self, prepared: PreparedRequest, admit: Admit | None = None) -> object:
        """Write (and commit) a pending row; return something that identifies it.

        ``admit`` is called inside the same transaction with the earlier sends of the
        request's order id to its gateway (newest first) and raises to refuse: the check
        and the claim are one step, so two processes can never both send one order id."""

    def after_answer(self, record: object, outcome: Outcome) -> None:
        """Update the row written by :meth:`before_send` with the (masked) outcome."""


def prepare(
    command: str,
    values: Mapping[str, str],
    *,
    base_url: str,
    login: str,
    private_key: RSAPrivateKey,
    endpoint_id: str | None = None,
    endpoint_group_id: str | None = None,
    path_templates: Mapping[str, str] | None = None,
    nonce: str | None = None,
    timestamp: int | None = None,
    skip_validation: bool = False,
) -> PreparedRequest:
    """Validate and sign one request. Sends nothing.

    Raises:
        InputError: unknown command, no endpoint id or group id for the URL, an unusable
            base URL or path template, an empty login, or ``login`` given as a field.
    """
    check_request_inputs(command, values, login)
    try:
        url = command_url(
            base_url,
            command,
            endpoint_id=endpoint_id,
            endpoint_group_id=endpoint_group_id,
            templates=path_templates,
        )
    except ValueError as exc:  # the contract's path rules name what is missing
        raise InputError(str(exc)) from None
    problems = tuple(validate(command, values))
    params = tuple(request_fields(command, values))
    blocked = any(p.severity is Severity.ERROR for p in problems) and not skip_validation
    signed = None
    if not blocked:
        try:
            signed = sign(
                url,
                params,
                consumer_key=login,
                private_key=private_key,
                nonce=nonce,
                timestamp=timestamp,
            )
        except ValueError as exc:  # an address the signer cannot use: the person's to fix
            raise InputError(str(exc)) from None
    return PreparedRequest(command, url, params, problems, signed)


class Client:
    """Sends prepared requests through a transport, once each. Journalling, the guard and
    masking are the pipeline's (``console.core.pipeline``), which every front uses."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def send(self, prepared: PreparedRequest) -> Outcome:
        """Send once. Never retries; transport failures come back in the outcome."""
        signed = prepared.signed
        if signed is None:
            raise InputError("This request has errors and was not signed; fix them before sending.")
        started_at = time.time()
        t0 = time.perf_counter()
        response: DecodedResponse | None = None
        error: NetworkError | None = None
        try:
            raw = self.transport.post(
                signed.url, headers=dict(signed.headers), body=signed.body.encode("utf-8")
            )
        except (NotSentError, OutcomeUnknownError) as exc:
            error = exc
        else:
            response = decode(
                raw.status,
                raw.headers,
                raw.body,
                expected_type=get_command(prepared.command).success_type,
            )
        return Outcome(prepared, response, error, time.perf_counter() - t0, started_at)
