"""The outcome every front shows and the journal stores: card data already masked.

The answer's fields, summary, error message and raw body go through the one masking policy
(``console.core.masking``), with the request's own card data as secrets: a gateway that
echoes the card shows ``444444******4448`` in the window, the journal, the log and the
command line alike. The outcome as it came is kept apart for a deliberate reveal only.
The pipeline masks each answer here once; the journals store what this gives (an outcome
masked already is given back as it is).
"""

from __future__ import annotations

import dataclasses

from console.core.client import Outcome
from console.core.masking import answer_ids, is_sensitive, mask_answer, mask_text
from console.core.responses import DecodedResponse


def secrets_of(outcome: Outcome) -> list[tuple[str, str]]:
    """The request's sensitive (name, value) pairs."""
    return [(n, v) for n, v in outcome.prepared.params if v and is_sensitive(n)]


def masked_outcome(outcome: Outcome) -> Outcome:
    """``outcome`` with every card number and CVV2 in its answer masked (and marked so)."""
    if outcome.masked:
        return outcome
    secrets = secrets_of(outcome)
    response = outcome.response
    error = outcome.error
    if error is not None:
        message = mask_text(error.message, secrets)
        if message != error.message:
            error = type(error)(message, error.url)
    masked: DecodedResponse | None = None
    if response is not None:
        keep = answer_ids(response.fields) | ({response.error_id} if response.error_id else set())
        raw_text = response.raw.decode("utf-8", "surrogateescape")
        masked = dataclasses.replace(
            response,
            fields=tuple(mask_answer(response.fields, secrets)),
            summary=mask_text(response.summary, secrets, keep=keep),
            error_message=(
                mask_text(response.error_message, secrets, keep=keep)
                if response.error_message
                else response.error_message
            ),
            raw=mask_text(raw_text, secrets, keep=keep).encode("utf-8", "surrogateescape"),
        )
    return dataclasses.replace(outcome, response=masked, error=error, masked=True)
