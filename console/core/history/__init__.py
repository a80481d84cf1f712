"""The history journal: every request written before it is sent, its answer, its final status
and the callbacks about it, in one SQLite file.

The public surface (everything else in this package is its inner workings):

* :class:`History` - open the journal (raises
  :class:`~console.core.errors.JournalUnavailableError` when it cannot be used), journal
  sends (:meth:`History.journal` hooks), record final statuses and callbacks, read rows;
* :class:`HistoryFilter`, :class:`HistoryRow`, :class:`HistoryDetail` and the pane's
  :data:`COLUMNS`, :data:`OUTCOME_TEXT`, :data:`PENDING`, :data:`UNKNOWN`;
* :func:`export` (CSV or JSON) and its :data:`EXPORT_FORMATS`;
* :class:`CallbackEvent` and :class:`CheckResult`, what the journal keeps of a callback;
* :func:`sent_before` on any connection to the journal (the double-payout guard).
"""

from __future__ import annotations

from console.core.history.callback_log import CallbackEvent, CheckResult
from console.core.history.exporting import FORMATS as EXPORT_FORMATS
from console.core.history.exporting import export
from console.core.history.journal import History, JournalHooks, timestamp_now
from console.core.history.query import (
    COLUMNS,
    OUTCOME_TEXT,
    PENDING,
    UNKNOWN,
    HistoryDetail,
    HistoryFilter,
    HistoryRow,
)
from console.core.history.reading import sent_before

__all__ = [
    "COLUMNS",
    "EXPORT_FORMATS",
    "OUTCOME_TEXT",
    "PENDING",
    "UNKNOWN",
    "CallbackEvent",
    "CheckResult",
    "History",
    "HistoryDetail",
    "HistoryFilter",
    "HistoryRow",
    "JournalHooks",
    "export",
    "sent_before",
    "timestamp_now",
]
