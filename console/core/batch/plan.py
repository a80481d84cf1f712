"""What a batch run will send, whether it may, and the one confirmation a production batch
needs.

A production batch is confirmed once, as a whole: the row count, the total per currency and
the largest payout (:class:`BatchSummary`). The confirmed summary travels in the
:class:`BatchDecision`; the runner refuses to start unless it is the summary of the plan it
runs, and only then answers every row's production question yes. A row's answers to the
pipeline's questions are the batch's own decisions (:meth:`Plan.authorize`: production
confirmed, resend after an unknown outcome, card numbers failing their check digit), so
``batch validate``, a dry run and a run agree on what is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from console.core.batch.checking import (
    CheckedRow,
    RowState,
    Validation,
    receiver_text,
    totals_of,
)
from console.core.batch.limits import BatchLimits
from console.core.batch.totals import Total, count_row
from console.core.errors import SendRefusedError
from console.core.pipeline import Decision


class BatchRefusedError(SendRefusedError):
    """A batch that may not start; nothing was sent. ``code`` is one of :class:`Refused`.

    ``message`` names the command line's ways out (its options), ``in_window`` the window's
    (its buttons): each front says only what its person can do. ``{how}`` and ``{check}`` in
    ``text`` stand for the option and the status check.
    """

    def __init__(
        self,
        code: str,
        text: str,
        *,
        option: tuple[str, str] = ("", ""),
        check: tuple[str, str] = ("", ""),
    ) -> None:
        def words(which: int) -> str:
            return text.replace("{how}", option[which]).replace("{check}", check[which])

        super().__init__(words(0))
        self.code = code
        self.in_window = words(1)


class Refused:
    INVALID = "invalid"  # rows with errors, and the person did not leave them out
    UNKNOWN_OUTCOME = "unknown-outcome"  # rows whose last send has an unknown outcome
    OVER_LIMIT = "over-limit"  # more rows or money than the environment allows
    NOT_CONFIRMED = "not-confirmed"  # production, and this batch was not confirmed


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """What a person confirms for a whole batch (equal summaries: the same batch)."""

    environment: str
    production: bool
    rows: int
    totals: tuple[tuple[str, int, str], ...]  # currency, count, sum
    largest: tuple[tuple[str, str, int, str], ...]  # currency, amount, row, masked receiver
    source: str  # the file

    def lines(self) -> list[str]:
        where = "PRODUCTION (real money)" if self.production else "sandbox"
        out = [f"{self.rows} payouts from {self.source} to {where} environment {self.environment}"]
        for currency, count, total in self.totals:
            out.append(f"Total {currency}: {total} in {count} payouts")
        for currency, amount, row, to in self.largest:
            out.append(f"Largest {currency} payout: {amount} {currency} (row {row}, {to})")
        return out


@dataclass(frozen=True, slots=True)
class BatchDecision:
    """What the person decided for the whole batch.

    Attributes:
        confirmed: the summary the person confirmed (production batches need it).
        resend_unknown: resend rows whose last send has an unknown outcome, with the same
            client_orderid (after checking their status).
    """

    confirmed: BatchSummary | None = None
    resend_unknown: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked file, for one environment, with the person's choices."""

    validation: Validation
    environment: str
    production: bool
    limits: BatchLimits
    skip_invalid: bool = False
    resend_unknown: bool = False
    confirm_card_numbers: bool = False  # send card numbers failing their check digit

    @property
    def to_run(self) -> list[CheckedRow]:
        """The rows a run takes in turn, in file order: what it sends, and the rows whose
        card number needs a decision the batch did not make (refused at their turn, by the
        pipeline's own question, and reported as skipped)."""
        if self.validation.counted:
            raise ValueError("a file checked as a stream is shown, never run: check it whole")
        return self._kept_to_run

    @property
    def _kept_to_run(self) -> list[CheckedRow]:
        states = {RowState.READY, RowState.CARD_NUMBER}
        if self.resend_unknown:
            states.add(RowState.UNKNOWN)
        return [r for r in self.validation.rows if r.state in states]

    @property
    def to_send(self) -> list[CheckedRow]:
        """The rows a run sends (what a production batch confirms, what a team approves)."""
        return [r for r in self.to_run if self.confirm_card_numbers or not r.card_question]

    @property
    def send_count(self) -> int:
        """How many rows a run sends (``len(to_send)``, also of a file checked as a
        stream, whose ready rows are counted)."""
        kept = self._kept_to_run
        return self.validation.counted + sum(
            1 for r in kept if self.confirm_card_numbers or not r.card_question
        )

    @property
    def undecided(self) -> list[CheckedRow]:
        """Rows whose card number fails its check digit, not sent without the batch's
        decision (``confirm_card_numbers``)."""
        return [r for r in self._kept_to_run if r.card_question and not self.confirm_card_numbers]

    @property
    def totals(self) -> dict[str, Total]:
        """Count, sum and largest payout per currency of the rows a run sends."""
        if not self.validation.counted:
            return totals_of(self.to_send)
        totals = {c: replace(t) for c, t in self.validation.totals.items()}  # the ready rows
        for checked in self._kept_to_run:  # and the others it sends
            sent = self.confirm_card_numbers or not checked.card_question
            if checked.state is not RowState.READY and sent:
                count_row(totals, checked.row)
        return totals

    @property
    def summary(self) -> BatchSummary:
        rows = {r.row.number: r for r in self.to_send}
        totals = sorted(self.totals.values(), key=lambda t: t.currency)
        return BatchSummary(
            environment=self.environment,
            production=self.production,
            rows=len(rows),
            totals=tuple((t.currency, t.count, t.total_text) for t in totals),
            largest=tuple(
                (
                    t.currency,
                    t.largest_text,
                    t.largest_row,
                    receiver_text(rows[t.largest_row].row),
                )
                for t in totals
            ),
            source=self.validation.batch.path.name,
        )

    def refusal(self) -> BatchRefusedError | None:
        """Why this batch may not start (None: it may)."""
        v = self.validation
        if v.header_broken:
            return BatchRefusedError(
                Refused.INVALID,
                "The file cannot be used as it is (its header, a column, or a part that "
                "cannot be read): fix the problems listed, then run it again; no row is sent.",
            )
        bad = v.error_rows
        if bad and not self.skip_invalid:
            return BatchRefusedError(
                Refused.INVALID,
                f"{_rows(len(bad))} {'has' if len(bad) == 1 else 'have'} errors "
                f"({_rows_text(bad)}): fix them, or leave them out ({{how}}).",
                option=("--skip-invalid", "Leave out rows with errors"),
            )
        unknown = v.rows_in(RowState.UNKNOWN)
        if unknown and not self.resend_unknown:
            return BatchRefusedError(
                Refused.UNKNOWN_OUTCOME,
                f"{_count(unknown, _ONE_UNKNOWN, _MANY_UNKNOWN)} an unknown outcome "
                f"({_rows_text([r.row.number for r in unknown])}): check their status first "
                "({check}); rows the gateway holds are then skipped. Rows it does not know "
                "can be resent with the same client_orderid ({how}).",
                option=(
                    "--resend-unknown",
                    "Resend rows with an unknown outcome",
                ),
                check=("`gateway-console batch status FILE --check`", "Check status"),
            )
        return self._over_limit()

    def _over_limit(self) -> BatchRefusedError | None:
        count = self.send_count
        where = f"environment {self.environment}"
        if count > self.limits.max_rows:
            return BatchRefusedError(
                Refused.OVER_LIMIT,
                f"{count} payouts exceed the batch limit of {where} ({self.limits.max_rows} "
                "rows): split the file, or raise the limit with `gateway-console batch "
                "limits`.",
            )
        cap = self.limits.max_total
        for total in self.totals.values():
            if cap is not None and total.total > cap:
                return BatchRefusedError(
                    Refused.OVER_LIMIT,
                    f"The {total.currency} total {total.total_text} exceeds the batch limit of "
                    f"{where} ({cap} per currency): split the file, or raise the limit with "
                    "`gateway-console batch limits`.",
                )
        return None

    def authorize(self, decision: BatchDecision) -> Callable[[CheckedRow], Decision]:
        """The pipeline's per-send decision for each row of this batch.

        Raises:
            BatchRefusedError: a production batch whose summary was not confirmed.
        """
        confirmed = self.production and decision.confirmed == self.summary
        if self.production and not confirmed:
            raise BatchRefusedError(
                Refused.NOT_CONFIRMED,
                "Not sent: this is a production environment and this batch (its rows, "
                "totals and largest payout) was not confirmed.",
            )

        def for_row(checked: CheckedRow) -> Decision:
            resend = decision.resend_unknown and checked.state is RowState.UNKNOWN
            return Decision(
                production_confirmed=confirmed,
                resend_after_unknown=resend,
                card_number_confirmed=self.confirm_card_numbers,
            )

        return for_row


def _rows(count: int) -> str:
    return f"{count} row{'' if count == 1 else 's'}"


_ONE_UNKNOWN, _MANY_UNKNOWN = "row's last send has", "rows' last sends have"


def _count(items: Sequence[object], one: str, many: str) -> str:
    """``1 row has`` / ``3 rows have``: the count with its words in number."""
    return f"{len(items)} {one if len(items) == 1 else many}"


def _rows_text(numbers: list[int], most: int = 10) -> str:
    """``row 4`` or ``rows 4, 7 and 3 more``."""
    shown = ", ".join(str(n) for n in numbers[:most])
    more = f" and {len(numbers) - most} more" if len(numbers) > most else ""
    return f"{'row' if len(numbers) == 1 else 'rows'} {shown}{more}"
