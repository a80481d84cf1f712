"""``send`` in team mode: where the environment's approval policy holds a request back, it is
submitted for a checker instead of sent (exit status 12), or, with ``--wait``, sent from here
once approved. A request carrying card data needs ``--wait``: the card number and CVV2 never
reach the shared database, so only this process can send it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from console.cli.failures import EXIT_APPROVAL_REFUSED, EXIT_SUBMITTED
from console.cli.request_args import UsageError

if TYPE_CHECKING:
    from console.core.pipeline import Check, Pipeline


def submit_if_held(args: argparse.Namespace, pipeline: Pipeline, check: Check) -> int | None:
    """Submit ``check``'s request when the policy holds it back; None: send it as usual."""
    from console.core.team.journal import TeamJournal

    journal = pipeline.journal
    if not isinstance(journal, TeamJournal):
        return None
    from console.core.team.approval import Approvals, carries_card_data

    approvals = Approvals(journal)
    prepared = check.prepared
    if not approvals.needs_approval(pipeline.environment, prepared):
        return None
    if check.blocked:  # nothing to approve: it would be refused anyway
        return None
    wait = float(getattr(args, "wait", 0.0) or 0.0)
    if carries_card_data(prepared) and wait <= 0:
        raise UsageError(
            f"the approval policy of {pipeline.environment} needs a checker's approval, and "
            "this request carries card data, which never goes to the team database: add "
            "--wait SECONDS so this console sends it when the approval arrives"
        )
    submitted = approvals.submit(pipeline.environment, prepared)
    print(
        f"Submitted for approval as #{submitted.id} ({pipeline.environment}: "
        f"{approvals.policy(pipeline.environment).describe()}); not sent.",
        file=sys.stderr,
    )
    if wait <= 0:
        print(
            f"A checker approves it with `gateway-console team approve {submitted.id}`.",
            file=sys.stderr,
        )
        return EXIT_SUBMITTED
    print(f"Waiting up to {wait:g} s for a checker's decision...", file=sys.stderr)
    decided = approvals.wait_for_decision(submitted.id, wait)
    if decided.state == "approved":
        print(f"Approved by {decided.decided_by}; sending.", file=sys.stderr)
        sent = approvals.send_approved(pipeline, submitted.id, prepared, submitted.salt)
        from console.cli.request_cmds import report_sent

        return report_sent(args, sent)
    if decided.state == "pending":
        lost = (
            " This console no longer holds its card data: submit it again."
            if (decided.card_data)
            else ""
        )
        print(f"No decision yet on #{submitted.id}; not sent.{lost}", file=sys.stderr)
        return EXIT_SUBMITTED
    why = f": {decided.reason}" if decided.reason else ""
    who = f" by {decided.decided_by}" if decided.decided_by else ""
    print(f"#{submitted.id} was {decided.state}{who}{why}. Nothing was sent.", file=sys.stderr)
    return EXIT_APPROVAL_REFUSED
