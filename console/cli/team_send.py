"""``send``'s last step, team mode included: the front of :mod:`console.core.team.approvals.held`.
Where the approval policy holds a request back, the pipeline's conversation asked to submit it
instead of the production confirmation; it is submitted (exit status 12), or, with ``--wait``,
sent from here once approved; one carrying card data needs ``--wait`` (only this process holds
it).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from console.cli.failures import EXIT_SUBMITTED
from console.cli.request_args import UsageError
from console.core.pipeline import Refused, Sent
from console.core.team.approvals.held import SENDER_WAIT
from console.core.team.errors import CardDataNeedsWaitingError

if TYPE_CHECKING:
    from console.core.pipeline import Pipeline, Ready, Refused, Sent
    from console.core.team.approvals.held import Awaiting


def go(args: argparse.Namespace, pipeline: Pipeline, ready: Ready) -> int | Sent | Refused:
    """Send what the conversation let through; a held request is submitted instead: the
    exit status when it was submitted and not sent, or what was sent once approved
    (``--wait``)."""

    wait = float(getattr(args, "wait", 0.0) or 0.0)
    try:
        done = pipeline.go(ready, waiting=wait > 0)
    except CardDataNeedsWaitingError as exc:
        raise UsageError(
            f"{exc.message} Add --wait SECONDS so this console sends it when the approval arrives."
        ) from exc
    if isinstance(done, Sent | Refused):
        return done
    awaiting: Awaiting = done
    if awaiting.via_sender:
        return _through_sender(args, ready, awaiting, wait)
    fresh = awaiting.submitted.earlier is None
    why = f": {ready.held.text}" if ready.held is not None and fresh else "."
    print(f"{awaiting.submitted_text}{why} Not sent.", file=sys.stderr)
    if wait <= 0:
        print(_next_step(awaiting), file=sys.stderr)
        return EXIT_SUBMITTED
    print(f"Waiting up to {wait:g} s for a checker's decision...", file=sys.stderr)
    decided = awaiting.wait(wait)
    if decided.state == "approved":
        print(f"Approved by {decided.decided_by}; sending.", file=sys.stderr)
    return awaiting.send()  # not approved: the core's error says why


def _through_sender(
    args: argparse.Namespace, ready: Ready, awaiting: Awaiting, wait: float
) -> int | Sent:
    """A request the team sender sends: its outcome, waited for (``--wait``, by default
    :data:`~console.core.team.approvals.held.SENDER_WAIT`), or the submission number (``--no-wait``,
    or a checker's decision awaited without ``--wait``)."""

    held = ready.held
    approval = held is not None and held.approval
    why = f": {held.text}" if held is not None and awaiting.submitted.earlier is None else "."
    print(f"{awaiting.submitted_text}{why}", file=sys.stderr)
    if getattr(args, "no_wait", False) or (approval and wait <= 0):
        print(awaiting.id)  # the submission number, for a script
        if approval:
            print(
                f"A checker approves it with `gateway-console team approve {awaiting.id}`; the "
                "team sender then sends it (the history shows the outcome).",
                file=sys.stderr,
            )
        return EXIT_SUBMITTED
    timeout = wait if wait > 0 else SENDER_WAIT
    print(f"Waiting up to {timeout:g} s for the team sender's outcome...", file=sys.stderr)
    return awaiting.outcome(timeout)  # no outcome in time: the core's error says where it is


def _next_step(awaiting: Awaiting) -> str:
    """Who does what next with a submission this process does not wait for."""
    earlier = awaiting.submitted.earlier
    if earlier is None or earlier.state == "pending":
        return f"A checker approves it with `gateway-console team approve {awaiting.id}`."
    if earlier.card_data:  # only a console holding the card data sends it: this one can
        return "Run this send again with --wait SECONDS to send it from here."
    return f"Send it with `gateway-console team send {awaiting.id}`."
