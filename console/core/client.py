"""Sending one prepared request (``console.core.prepared``) once, and decoding the answer.

Fronts do not call :class:`Client` directly: they go through ``console.core.pipeline``, which
adds the double-payout guard, the confirmation, the journal and masking around it.

Nothing here retries: a payout POST is not idempotent, so a failed send is reported as
"not sent" or "outcome unknown" and the person decides (field notes, "Sending money safely").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from console.core.errors import InputError, NetworkError, NotSentError, OutcomeUnknownError
from console.core.prepared import PreparedRequest
from console.core.responses import DecodedResponse, Kind, decode
from console.core.spec import get_command

if TYPE_CHECKING:  # the HTTP library loads with the transport a front hands in
    from console.core.transport import Transport


class Result(StrEnum):
    """What one send came to, from the person's point of view."""

    ACCEPTED = "accepted"  # the gateway accepted the request (success type)
    REJECTED = "rejected"  # validation-error, error or declined: the gateway said no
    ACCESS_DENIED = "access-denied"  # 403: signature, key, login or URL
    GATEWAY_FAILED = "gateway-failed"  # 500 or an answer that could not be read
    NOT_SENT = "not-sent"  # the request never arrived; safe to send again
    UNKNOWN = "unknown"  # it may have arrived: check the status before resending


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to one send: a decoded response or a transport failure."""

    prepared: PreparedRequest
    response: DecodedResponse | None
    error: NetworkError | None
    elapsed: float
    started_at: float = field(default=0.0)
    # True once ``console.core.outcome_view.masked_outcome`` masked its card data (asked
    # again, by the journal, it gives the outcome back as it is)
    masked: bool = field(default=False)

    @property
    def result(self) -> Result:
        if self.error is not None:
            return Result.NOT_SENT if isinstance(self.error, NotSentError) else Result.UNKNOWN
        assert self.response is not None
        return _RESULT_BY_KIND[self.response.kind]

    @property
    def may_have_arrived(self) -> bool:
        """The request may be at the gateway: answered, or lost on the way back (a request
        that never arrived is the only one the gateway cannot have)."""
        return self.result is not Result.NOT_SENT

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


class BlockJournalHooks(JournalHooks, Protocol):
    """Hooks of a journal that writes many pending rows at once (a batch's next rows)."""

    def before_send_each(
        self, requests: Sequence[tuple[PreparedRequest, Admit | None]]
    ) -> list[Any]:
        """:meth:`before_send` of each request in one transaction: each one's record, or
        the exception that refused it (its ``admit``'s, or the journal's)."""

    def withdraw(self, records: Sequence[object], summary: str) -> None:
        """Rows written by :meth:`before_send_each` whose requests were never sent: "not
        sent", with ``summary`` saying why."""


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
