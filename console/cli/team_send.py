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
    text = ready.held.text if ready.held is not None else ""
    print(f"Submitted for approval as #{awaiting.id}: {text} Not sent.", file=sys.stderr)
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
