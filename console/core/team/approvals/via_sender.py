"""Sends through the team sender: the maker's side.

Where a team sender serves an environment (``team sender --env NAME`` is running, or ran:
``gateway.senders``), no console of the team signs for it: the request is submitted to the
sender, which holds the key. The maker's console still prepares the request (to validate it,
show it and hash it), signed with a throwaway key of this process (:func:`placeholder_key`)
whose signature never leaves it. A request without card data is stored with its fields; card
fields are sealed to the sender's public key (:mod:`~console.core.team.storage.sealing`), never
readable in the database. The maker then waits for the sender's outcome
(:func:`wait_for_outcome`), read back from the shared journal as the
:class:`~console.core.pipeline.Sent` every front shows.
"""

from __future__ import annotations

import functools
import threading
import time
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.client import Outcome
from console.core.errors import NetworkError, NotSentError, OutcomeUnknownError
from console.core.pipeline import Sent
from console.core.pipeline.guard import NEW
from console.core.responses import DecodedResponse, Kind
from console.core.team.approvals.approval import approved_row, recorded
from console.core.team.approvals.submissions import Submitted, decision_text
from console.core.team.errors import (
    ApprovalPendingError,
    NotApprovedError,
    TeamSetupError,
)
from console.core.team.hashing import carries_card_data
from console.core.team.storage.gateways import Target
from console.core.team.storage.sealing import seal

if TYPE_CHECKING:
    from console.core.prepared import PreparedRequest
    from console.core.team.approvals.approval import Approvals
    from console.core.team.storage.journal import TeamJournal

ENDED = ("rejected", "expired", "void", "refused")


def serving(journal: TeamJournal, environment: str) -> str | None:
    """The login of the team sender serving ``environment`` (None: no sender serves it)."""
    with journal.reading() as db:
        found = db.execute(
            "SELECT sender FROM gateway.senders WHERE environment = %s", (environment,)
        ).fetchone()
    return str(found[0]) if found else None


@functools.cache
def placeholder_key() -> rsa.RSAPrivateKey:
    """This process's throwaway key: a request for the sender is prepared (validated,
    hashed, shown) with it; the sender signs it again with the team's key."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def submit_to_sender(
    approvals: Approvals,
    environment: str,
    prepared: PreparedRequest,
    batch: int | None = None,
    *,
    after_rejection: bool = False,
) -> Submitted:
    """Queue ``prepared`` for the team sender (for a checker first, where the policy of its
    registered gateway holds it back; ``batch``: a row of that batch, approved as a whole and
    claimed by this person); an identical submission still waiting is given instead of a
    new one.

    Raises:
        UnregisteredGatewayError: it goes to a gateway the team has not registered (and not
            on this computer); nothing was submitted.
        RejectedBeforeError: the same request was rejected before and ``after_rejection``
            is not set; nothing was submitted.
    """
    journal = approvals.journal
    target = Target.of(prepared)
    card = carries_card_data(prepared)
    row = approved_row(environment, prepared, journal.hash_key)
    sealed: bytes | None = None
    sealed_to: str | None = None
    if card:
        with journal.reading() as db:
            key = db.execute("SELECT public_pem, fingerprint FROM gateway.sender_key").fetchone()
        if key is None:
            raise TeamSetupError(
                "The team sender has not published its key yet (it does when it starts), so "
                "card data cannot be sealed to it: nothing was submitted."
            )
        sealed, sealed_to = seal(key[0], prepared.params, row["content_hash"]), str(key[1])
    with approvals.submitting(environment, row["content_hash"]) as (db, earlier):
        if earlier is not None:
            return Submitted(earlier.id, environment, prepared, earlier)
        if batch is None:  # a batch's rows were checked when the batch was submitted
            approvals.refuse_after_rejection(
                row["content_hash"], prepared.command, [row["client_orderid"]], after_rejection
            )
        sid = db.execute(
            "SELECT gateway.submit_to_sender(%s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s,"
            " %s, %s, %s, %s)",
            (
                *recorded(environment, prepared, row, card),
                target.url,
                target.login,
                sealed_to,
                sealed,
                batch,
                after_rejection,
            ),
        ).fetchone()[0]
    return approvals.made(sid, environment, prepared)


def wait_for_outcome(
    approvals: Approvals, sid: int, prepared: PreparedRequest, timeout: float
) -> Sent:
    """The sender's outcome of submission ``sid``, read from the shared journal once its
    row is answered (woken by LISTEN/NOTIFY, checked every second anyway).

    Raises:
        NotApprovedError: rejected, expired, void, or refused by the sender (nothing sent).
        ApprovalPendingError: no outcome within ``timeout`` seconds (a decision, or the
            sender, is still awaited; the history shows the outcome when it comes).
    """
    journal = approvals.journal
    heard = threading.Event()
    mine: list[int] = []  # the sender's row of it, once written

    def hear(_event: str, row_id: int) -> None:
        # before its row is written any row may be it; then only its own row's changes
        # count (a batch's waiting rows would otherwise wake each other at every row)
        if not mine or row_id == mine[0]:
            heard.set()

    # the journal's own listening connection (one per console, whatever the rows waited
    # for): the sender's rows wake it; a refusal is seen within a second anyway
    unsubscribe = journal.subscribe(hear)
    try:
        end = time.monotonic() + timeout
        while True:
            found = approvals.submission(sid)
            if found.state in ENDED:
                raise NotApprovedError(decision_text(found), found.state)
            if found.request_id is not None:
                mine[:] = [found.request_id]
                row = journal.get(found.request_id)
                if row.outcome != "pending":
                    return _sent(journal, found.request_id, prepared)
            left = end - time.monotonic()
            if left <= 0:
                raise ApprovalPendingError(_not_yet(found.state, sid), sid)
            heard.wait(min(1.0, left))
            heard.clear()
    finally:
        unsubscribe()


def _not_yet(state: str, sid: int) -> str:
    if state == "pending":
        return (
            f"No decision on #{sid} yet; nothing was sent. The team sender sends it once approved."
        )
    if state in ("approved", "sending"):
        return f"#{sid} waits for the team sender; nothing was sent yet."
    return f"#{sid} was sent by the team sender and its answer has not come yet: see the history."


def _sent(journal: TeamJournal, row_id: int, prepared: PreparedRequest) -> Sent:
    """The send as the sender journalled it (masked), as every front shows a send."""
    detail = journal.details(row_id)
    row = detail.row
    answer: dict[str, Any] = detail.response or {}
    response: DecodedResponse | None = None
    error: NetworkError | None = None
    if "kind" in answer:
        fields = answer.get("fields") or {}
        response = DecodedResponse(
            http_status=int(answer.get("http_status") or 0),
            kind=Kind(str(answer["kind"])),
            type=answer.get("type"),
            status=answer.get("status"),
            fields=tuple(
                (str(n), str(v))
                for n, values in fields.items()
                for v in (values if isinstance(values, list) else [values])
            ),
            raw=str(answer.get("raw") or "").encode(),
            summary=str(answer.get("summary") or row.summary or ""),
            error_message=answer.get("error_message"),
            error_code=answer.get("error_code"),
            error_id=answer.get("error_id"),
        )
    elif answer.get("error_class") == "NotSentError":
        error = NotSentError(str(answer.get("error") or row.summary or ""), row.url)
    else:  # unknown: answered so, or the sender stopped while it was on its way
        error = OutcomeUnknownError(
            str(answer.get("error") or row.summary or "The outcome is unknown.")
            + " The team sender asks its status; it never sends it again.",
            row.url,
        )
    outcome = Outcome(prepared, response, error, float(row.elapsed or 0.0), masked=True)
    return Sent(outcome, outcome, NEW)
