"""What the team database keeps of approvals, as the console reads it: policies,
submissions and their decisions in a person's words, role changes and audit entries.
:mod:`console.core.team.approvals.approval` takes the steps; this module only describes them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from console.core.prepared import PreparedRequest

MODES = ("none", "all", "above")
ROLES = ("maker", "checker", "admin", "sender")


@dataclass(frozen=True, slots=True)
class Policy:
    """The approval policy of a registered gateway (``gateway``: its name)."""

    gateway: str
    mode: str  # none, all, above
    thresholds: dict[str, str] = field(default_factory=dict)  # currency -> amount
    expiry: timedelta = timedelta(hours=24)

    def describe(self) -> str:
        if self.mode == "none":
            return "no approval"
        if self.mode == "all":
            return "every payout and recurring profile needs approval"
        limits = ", ".join(f"{a} {c}" for c, a in sorted(self.thresholds.items()))
        return f"approval above {limits or '(no currency listed: every amount)'}"


@dataclass(frozen=True, slots=True)
class Submission:
    """One request waiting for (or past) a checker's decision, as the database keeps it."""

    id: int
    environment: str
    command: str
    client_orderid: str | None
    amount: str | None
    currency: str | None
    receiver: str | None
    card_data: bool
    params: tuple[tuple[str, str], ...] | None  # only without card data
    maker: str
    created: datetime
    expires: datetime
    state: str
    decided_by: str | None
    reason: str | None
    sender: str | None
    request_id: int | None
    batch_rows: int | None = None  # a batch file approved as a whole: its rows
    rows_sent: int = 0
    shown: str = ""  # what the checker reads: the masked fields, or a batch's summary
    via_sender: bool = False  # submitted to the team sender, which alone sends it
    # the identity of the gateway it goes to (its URL normalised by the database, and the
    # login): the journal row that sends it must go there
    gateway: str | None = None
    gateway_name: str | None = None  # the registered gateway it goes to (None: this computer)
    after_rejection_of: int | None = None  # submitted again after this one's rejection
    decided_at: datetime | None = None

    @property
    def values(self) -> dict[str, str]:
        return dict(self.params or ())

    @property
    def is_batch(self) -> bool:
        return self.batch_rows is not None

    @property
    def batch_lines(self) -> list[str]:
        """A batch's summary for the checker: rows, totals per currency, largest payouts
        (none for a single request, whose masked fields are a list, nor for a summary that
        is not the console's)."""
        try:
            return [str(line) for line in json.loads(self.shown).get("lines", [])]
        except (ValueError, AttributeError, TypeError):
            return []


SUBMISSION_COLUMNS = (
    "id, environment, command, client_orderid, amount, currency, receiver, card_data,"
    " params, maker, created, expires, state, decided_by, reason, sender, request_id,"
    " batch_rows, rows_sent, request_json, via_sender, gateway, gateway_name,"
    " after_rejection_of, decided_at"
)
SUBMISSION_SQL = f"SELECT {SUBMISSION_COLUMNS} FROM gateway.submissions"  # noqa: S608 (ours)


def submission_of(r: tuple[Any, ...]) -> Submission:
    """The :class:`Submission` of a row selected with :data:`SUBMISSION_SQL` (or
    :data:`SUBMISSION_COLUMNS` first)."""
    values = list(r)
    values[8] = tuple(tuple(p) for p in values[8]) if values[8] is not None else None
    return Submission(*values)


def waiting(db: Any, environment: str, digest: str, *, batch: bool) -> Submission | None:
    """The newest submission of exactly this content (a batch, or a single request) still
    waiting for a decision, or approved and unsent (None: there is none)."""
    row = db.execute(
        f"{SUBMISSION_SQL} WHERE environment = %s AND content_hash = %s"
        f" AND batch_rows IS {'NOT ' if batch else ''}NULL"
        " AND state IN ('pending', 'approved') AND expires > now() ORDER BY id DESC LIMIT 1",
        (environment, digest),
    ).fetchone()
    return submission_of(tuple(row)) if row is not None else None


def rejection_text(s: Submission) -> str:
    """A rejection, as the maker and the checkers read it when the same request comes again
    ("#24 was rejected before by bob at 2026-11-28 15:20: wrong month")."""
    when = f" at {s.decided_at.astimezone():%Y-%m-%d %H:%M}" if s.decided_at else ""
    return f"#{s.id} was rejected before by {s.decided_by}{when}: {s.reason or 'no reason given'}"


def resubmitted_text(s: Submission, earlier: Submission) -> str:
    """What a checker reads of a submission made again after ``earlier``'s rejection."""
    return f"{rejection_text(earlier)}; {s.maker} submitted it again"


def decision_text(s: Submission) -> str:
    """What became of a submission, in a person's words."""
    who = f" by {s.decided_by}" if s.decided_by else ""
    if s.state == "approved":
        return f"#{s.id} was approved{who}."
    if s.state == "pending":
        return f"#{s.id} waits for a checker's decision; nothing was sent."
    if s.state == "rejected":
        why = f": {s.reason}" if s.reason else ""
        return f"#{s.id} was rejected{who}{why}. Nothing was sent."
    if s.state == "expired":
        return f"#{s.id} expired before it was approved and sent. Nothing was sent."
    if s.state == "void":
        return f"#{s.id}'s approval is void: the request changed after it. Nothing was sent."
    if s.state == "refused":
        why = f": {s.reason.rstrip('.')}" if s.reason else ""
        return f"#{s.id} was approved{who}, but its send was refused{why}. Nothing was sent."
    sender = f" by {s.sender}" if s.sender else ""
    return f"#{s.id} is {s.state}{sender}: it is not sent again."


@dataclass(frozen=True, slots=True)
class RoleChange:
    """What ``add_user`` did: the person's team roles before (None: a new login) and after."""

    name: str
    role: str
    before: tuple[str, ...] | None
    after: tuple[str, ...]

    def describe(self) -> str:
        now = " and ".join(self.after) or "nothing"
        if self.before is None:
            said = f"{self.name} is a new login, now {_a(now)}."
        elif set(self.before) == set(self.after):
            said = f"{self.name} was already {_a(now)}: nothing changed."
        else:
            was = " and ".join(self.before) or "no team role"
            said = f"{self.name} was {_a(was)}; now {_a(now)}."
        if {"maker", "checker"} <= set(self.after):
            said += (
                f" {self.name} now both submits and approves: the database still refuses "
                "anyone deciding their own submission, but two such people can approve each "
                f"other's. If that is not wanted, take a role back in psql (REVOKE "
                f"gateway_maker FROM {self.name})."
            )
        return said


def _a(roles: str) -> str:
    article = "an" if roles.startswith(("a", "e", "i", "o", "u")) else "a"  # an admin
    return roles if roles in ("nothing", "no team role") else f"{article} {roles}"


@dataclass(frozen=True, slots=True)
class Submitted:
    """The maker's side of a submission: the request, card data included, in memory."""

    id: int
    environment: str
    prepared: PreparedRequest = field(repr=False)
    # the identical request's submission found waiting (a decision, or its send): none new
    earlier: Submission | None = None


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: datetime
    actor: str
    role: str
    action: str
    submission_id: int | None
    request_id: int | None
    environment: str | None
    detail: str
