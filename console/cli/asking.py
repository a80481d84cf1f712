"""The command line's answers to the pipeline's questions (``console.core.pipeline.Asker``):
the flags say them (``--resend-unknown``, ``--confirm-card-number``, ``--yes``), or, for a
production send on a terminal, a prompt. The order of the questions is the core's.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from console.cli.request_args import UsageError
from console.core.pipeline import Refusal, RefusedError, resend_note
from console.core.team.errors import RejectedBeforeError

if TYPE_CHECKING:
    from console.core.pipeline import Check, Refused
    from console.core.pipeline.asking import Hold


class CommandLineAsker:
    """``send``'s answers: its flags, and a prompt for production on a terminal."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args

    def resend_unknown(self, check: Check) -> bool:
        if self.args.resend_unknown:
            print(resend_note(check.verdict), file=sys.stderr)
        return bool(self.args.resend_unknown)

    def card_number(self, check: Check) -> bool:
        return bool(self.args.confirm_card_number)

    def submit_for_approval(self, held: Hold) -> bool:
        """Held back by the team's policy: submitted, and said so (exit 12); one a checker
        rejected before only with ``--after-rejection``."""
        if held.rejection and not getattr(self.args, "after_rejection", False):
            raise RejectedBeforeError(
                f"Not submitted: {held.rejection} Pass --after-rejection to submit it again."
            )
        return True

    def production(self, check: Check) -> bool:
        for line in check.summary.lines():
            print(line, file=sys.stderr)
        if self.args.yes:
            return True
        if not sys.stdin.isatty():
            raise UsageError("this is a production environment: add --yes to send without asking")
        return input("Send it? [y/N] ").strip().lower() in ("y", "yes")


def refused_error(refused: Refused) -> RefusedError:
    """The refusal in the command line's words: what to run or pass to go on."""
    hint = ""
    if refused.code == Refusal.UNKNOWN_OUTCOME:
        hint = (
            " Check it with `gateway-console send status -f client_orderid="
            f"{refused.verdict.client_orderid} ...`, or pass --resend-unknown."
        )
    elif refused.code == Refusal.CARD_NUMBER:
        hint = " Nothing was sent; pass --confirm-card-number to send it."
    return RefusedError(refused.code, refused.message + hint, refused.verdict)
