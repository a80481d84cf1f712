"""``send`` in team mode: the front of :mod:`console.core.team.held`, which decides whether a
request is held for a checker's approval. A held request is submitted instead of sent (exit
status 12), or, with ``--wait``, sent from here once approved; one carrying card data needs
``--wait`` (only this process holds it).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from console.cli.failures import EXIT_SUBMITTED
from console.cli.request_args import UsageError

if TYPE_CHECKING:
    from console.core.pipeline import Check, Pipeline, Sent


def submit_if_held(args: argparse.Namespace, pipeline: Pipeline, check: Check) -> int | Sent | None:
    """Submit ``check``'s request when the policy holds it back: the exit status when it was
    submitted and not sent, or what was sent once approved (``--wait``); None: send it as
    usual."""
    from console.core.pipeline import Decision
    from console.core.team.errors import CardDataNeedsWaitingError
    from console.core.team.held import hold

    held = hold(pipeline, check)
    if held is None:
        return None
    wait = float(getattr(args, "wait", 0.0) or 0.0)
    decision = Decision(
        resend_after_unknown=bool(getattr(args, "resend_unknown", False)),
        card_number_confirmed=bool(getattr(args, "confirm_card_number", False)),
    )
    try:
        awaiting = held.submit(waiting=wait > 0, decision=decision)
    except CardDataNeedsWaitingError as exc:
        raise UsageError(
            f"{exc.message} Add --wait SECONDS so this console sends it when the approval arrives."
        ) from exc
    print(f"Submitted for approval as #{awaiting.id}: {held.text} Not sent.", file=sys.stderr)
    if wait <= 0:
        print(
            f"A checker approves it with `gateway-console team approve {awaiting.id}`.",
            file=sys.stderr,
        )
        return EXIT_SUBMITTED
    print(f"Waiting up to {wait:g} s for a checker's decision...", file=sys.stderr)
    decided = awaiting.wait(wait)
    if decided.state == "approved":
        print(f"Approved by {decided.decided_by}; sending.", file=sys.stderr)
    return awaiting.send()  # not approved: the core's error says why
