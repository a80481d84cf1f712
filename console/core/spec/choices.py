"""What a form's choices add to the rules: a person who chose a kind of receiver or a
callback said which fields they mean to fill, so the problems name those fields.

The command line has no such choices: its rules are the contract's alone (``validate``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .checks import ERROR
from .codes import Code
from .command_rules import RECEIVER_KINDS
from .labels import label_for
from .model import Problem

_KIND_WORDS = {
    "card": "the card details",
    "card-ref": "the stored card",
    "rpi": "the recurring payment id",
    "bank": "the account number",
    "ewallet": "the e-wallet id",
    "crypto": "the crypto wallet address",
}
CALLBACK_FIELDS = ("server_callback_url", "notify_url")


def for_receiver(problems: Sequence[Problem], kind: str) -> list[Problem]:
    """``problems`` with the no-receiver error narrowed to the chosen kind of receiver: it
    names that kind's fields only, not every other kind's."""
    fields = RECEIVER_KINDS.get(kind)
    if not fields:
        return list(problems)
    narrowed = Problem(
        fields,
        ERROR,
        f"No receiver is given: fill {_KIND_WORDS[kind]} ({', '.join(fields)}).",
        Code.RECEIVER.value,
    )
    return [narrowed if p.code == Code.RECEIVER.value else p for p in problems]


def for_callback(
    problems: Sequence[Problem], given: Mapping[str, str], chosen: str
) -> list[Problem]:
    """``problems`` when a callback address was chosen (``server_callback_url`` or
    ``notify_url``): left empty it is an error on that field (the person asked for a
    callback that would never come), instead of the warning that none is given."""
    if chosen not in CALLBACK_FIELDS or given.get(chosen):
        return list(problems)
    kept = [p for p in problems if set(p.fields) != set(CALLBACK_FIELDS)]
    kept.append(
        Problem(
            (chosen,),
            ERROR,
            f"{chosen} is empty: fill in the address ({label_for(chosen)}), or choose "
            "another callback.",
            Code.REQUIRED.value,
        )
    )
    return kept
