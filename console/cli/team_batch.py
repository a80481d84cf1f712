"""``batch run`` in team mode: the front of :mod:`console.core.team.approvals.held_batch`, which
says when a batch is held for one checker's approval of the whole batch. A held batch is
submitted instead of run (exit status 12); once approved, running the same file again runs it,
or, with ``--wait``, this process waits for the decision and runs it (needed for card rows,
which only this process holds).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from console.cli.failures import EXIT_SUBMITTED
from console.cli.request_args import UsageError
from console.core.team.errors import CardDataNeedsWaitingError

if TYPE_CHECKING:
    from console.core.team.approvals.held_batch import AwaitingBatch, HeldBatch


def submit_or_approved(args: argparse.Namespace, held: HeldBatch) -> AwaitingBatch | int:
    """The approved batch to run, or the exit status: submitted, not run."""

    for line in held.lines:
        print(line, file=sys.stderr)
    wait = float(getattr(args, "wait", 0.0) or 0.0)
    try:
        awaiting = held.submit(
            waiting=wait > 0, after_rejection=bool(getattr(args, "after_rejection", False))
        )
    except CardDataNeedsWaitingError as exc:
        raise UsageError(
            f"{exc.message} Add --wait SECONDS so this console runs it when the approval arrives."
        ) from exc
    found = awaiting.current()
    if awaiting.new:
        print(f"Submitted for approval as #{awaiting.id}: {held.text} Not sent.", file=sys.stderr)
    if found.state == "pending":
        if wait <= 0:
            waits = "" if awaiting.new else f"Batch #{awaiting.id} waits for a checker. "
            print(
                f"{waits}A checker approves it with `gateway-console team approve "
                f"{awaiting.id}`; then run this command again (any change to the file needs "
                "a new approval).",
                file=sys.stderr,
            )
            return EXIT_SUBMITTED
        print(f"Waiting up to {wait:g} s for a checker's decision...", file=sys.stderr)
        found = awaiting.wait(wait)
    if found.state == "approved":
        print(f"Batch #{awaiting.id} approved by {found.decided_by}; sending.", file=sys.stderr)
    return awaiting  # not approved: running it raises the core's error, which says why
