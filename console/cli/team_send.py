"""``send``'s last step, team mode included: the front of :mod:`console.core.team.held`. Where
the approval policy holds a request back, the pipeline's conversation asked to submit it
instead of the production confirmation; it is submitted (exit status 12), or, with
``--wait``, sent from here once approved; one carrying card data needs ``--wait`` (only this
process holds it).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from console.cli.failures import EXIT_SUBMITTED
from console.cli.request_args import UsageError

if TYPE_CHECKING:
    from console.core.pipeline import Pipeline, Ready, Refused, Sent
    from console.core.team.held import Awaiting


def go(args: argparse.Namespace, pipeline: Pipeline, ready: Ready) -> int | Sent | Refused:
    """Send what the conversation let through; a held request is submitted instead: the
    exit status when it was submitted and not sent, or what was sent once approved
    (``--wait``)."""
    from console.core.pipeline import Refused, Sent
    from console.core.team.errors import CardDataNeedsWaitingError

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


def _next_step(awaiting: Awaiting) -> str:
    """Who does what next with a submission this process does not wait for."""
    earlier = awaiting.submitted.earlier
    if earlier is None or earlier.state == "pending":
        return f"A checker approves it with `gateway-console team approve {awaiting.id}`."
    if earlier.card_data:  # only a console holding the card data sends it: this one can
        return "Run this send again with --wait SECONDS to send it from here."
    return f"Send it with `gateway-console team send {awaiting.id}`."
