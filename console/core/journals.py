"""The one journal interface, and which implementation a console writes to.

:class:`JournalStore` is what the send pipeline, the history pane and the command line use
of a journal. Two implementations: the embedded SQLite journal
(:class:`console.core.history.History`, one person, the default) and the team's PostgreSQL
journal (:class:`console.core.team.TeamJournal`), chosen by this profile's team DSN
(``GATEWAY_CONSOLE_TEAM_DSN``, or the one ``team init`` saved).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from console.core.client import JournalHooks
    from console.core.history import History, HistoryDetail, HistoryFilter, HistoryRow
    from console.core.history.callback_log import OrderRow
    from console.core.team.storage.journal import TeamJournal


class Journal(Protocol):
    """What the send pipeline needs of a journal: hooks around each send, the earlier sends
    of an order id (the double-payout guard) and final statuses."""

    @property
    def shared(self) -> bool:
        """True for the team's shared journal (team mode: approval policies apply), False
        for one person's. The one way to know team mode."""
        ...

    @property
    def claims_in_blocks(self) -> bool:
        """True where :meth:`journal`'s hooks are
        :class:`~console.core.client.BlockJournalHooks` (pending rows written many at once)."""
        ...

    def journal(
        self, environment: str, *, connect_timeout: float = ..., read_timeout: float = ...
    ) -> JournalHooks: ...

    def sent_before(
        self, gateway: str | None, command: str, client_orderid: str, environment: str = ""
    ) -> list[Any]: ...  # rows with the attributes of pipeline.guard.SentRow

    def sent_before_each(
        self,
        gateway: str | None,
        command: str,
        client_orderids: Iterable[str],
        environment: str = "",
    ) -> dict[str, list[Any]]: ...  # sent_before of each id (stripped) sent before

    def set_final_status(
        self,
        environment: str,
        client_orderid: str,
        status: str,
        *,
        orderid: str | None = None,
        source: str,
        control: str | None = None,
    ) -> list[int]: ...


class JournalStore(Journal, Protocol):
    """A journal: sends written before they leave, answers after, rows for the pane."""

    def recover_interrupted(self) -> list[int]: ...

    def order_row(self, environment: str, column: str, value: str) -> OrderRow | None: ...

    def interrupted_count(self) -> int: ...

    def count(self, filter: HistoryFilter | None = None) -> int: ...

    def fetch(
        self, filter: HistoryFilter | None = None, offset: int = 0, limit: int = 100
    ) -> list[HistoryRow]: ...

    def fetch_after(
        self, filter: HistoryFilter | None, after: HistoryRow | None, limit: int = 100
    ) -> list[HistoryRow]: ...

    def iter_rows(
        self, filter: HistoryFilter | None = None, batch: int = 1000
    ) -> Iterator[HistoryRow]: ...

    def get(self, row_id: int) -> HistoryRow: ...

    def rows(self, ids: Iterable[int]) -> list[HistoryRow]: ...

    def details(self, row_id: int) -> HistoryDetail: ...

    def distinct(self, column: str) -> list[str]: ...

    def subscribe(self, listener: Callable[[str, int], None]) -> Callable[[], None]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...


def team_dsn() -> str | None:
    """This profile's team DSN, or None: one person, the SQLite journal."""
    # boundary: the team's modules load only to read the team DSN
    from console.core.team.storage.dsn import configured_dsn

    return configured_dsn()


def open_journal(*, connections: int = 1) -> History | TeamJournal:
    """The journal every send is written to (pending before it leaves); ``connections``:
    the sends on their way at once (the team database gives each its own connection).

    Raises:
        JournalUnavailableError: it cannot be opened (for the team database:
            ``TeamUnavailableError``); nothing may be sent.
    """
    dsn = team_dsn()
    if dsn:
        # boundary: team mode only (psycopg)
        from console.core.team.storage.journal import TeamJournal

        return TeamJournal(dsn, connections=connections)
    # boundary: SQLite and the history package, when the journal opens
    from console.core.history import History

    return History()


def _conforms(history: History, team: TeamJournal) -> list[JournalStore]:
    """Both implementations offer the interface (checked by mypy, never called)."""
    return [history, team]
