"""A recording Asker: which of the pipeline's questions were asked, in order."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from console.core.pipeline import Asker, Check

# The situation every front meets in the same order: a production send whose last send's
# outcome is unknown, with a card number failing its check digit.
ORDER = ["resend_unknown", "card_number", "production"]
TEAM_ORDER = ["resend_unknown", "card_number", "submit_for_approval"]  # the approval confirms
MISTYPED = "4444444444444441"  # one digit off the sandbox's card: fails the Luhn check


class Recording:
    """Notes each question asked in ``asked`` and answers it: by ``inner`` when given,
    else yes unless its name is in ``no``."""

    def __init__(
        self, inner: Asker | None = None, *, no: Iterable[str] = (), asked: list[str] | None = None
    ) -> None:
        self.inner = inner
        self.no = set(no)
        self.asked: list[str] = [] if asked is None else asked

    def _answer(self, name: str, inner: Callable[[], bool]) -> bool:
        self.asked.append(name)
        return inner() if self.inner is not None else name not in self.no

    def resend_unknown(self, check: Check) -> bool:
        return self._answer("resend_unknown", lambda: self._inner.resend_unknown(check))

    def card_number(self, check: Check) -> bool:
        return self._answer("card_number", lambda: self._inner.card_number(check))

    def submit_for_approval(self, held: Any) -> bool:
        return self._answer("submit_for_approval", lambda: self._inner.submit_for_approval(held))

    def production(self, check: Check) -> bool:
        return self._answer("production", lambda: self._inner.production(check))

    @property
    def _inner(self) -> Asker:
        assert self.inner is not None
        return self.inner
