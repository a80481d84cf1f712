"""The history pane's search box and filters, turned into a :class:`HistoryFilter`."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from PySide6.QtCore import QDate, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QDateEdit, QHBoxLayout, QLabel, QLineEdit, QWidget

from console.core.history import OUTCOME_TEXT, HistoryFilter
from console.ui.speech import label_unseen

ANY = ""
DATE_RANGES = (
    ("any", "Any time"),
    ("today", "Today"),
    ("7", "Last 7 days"),
    ("30", "Last 30 days"),
    ("between", "Between dates"),
)


def _midnight(day: QDate) -> datetime:
    """Local midnight at the start of ``day``, as an aware datetime."""
    naive = datetime.combine(day.toPython(), time())  # type: ignore[arg-type]
    return naive.astimezone()


def _combo(name: str, everything: str) -> QComboBox:
    combo = QComboBox()
    combo.setAccessibleName(name)
    combo.addItem(everything, ANY)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    return combo


class HistoryFilters(QWidget):
    """Search (any id or the last four card digits), command, environment, outcome, date.

    ``changed`` fires shortly after typing stops, or at once when a filter is picked.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText(
            "Search: any id or a part of one, or the last four card digits"
        )
        self.search.setAccessibleName("Search history")
        self.search.setToolTip(
            "Client order id, gateway order id, serial number, card reference or recurring "
            "payment id: whole, its beginning followed by *, or a part of it (the last digits "
            "of an order id) when no whole id matches; or the last four digits of a card number."
        )
        self.search.setClearButtonEnabled(True)
        self.command = _combo("Command filter", "All commands")
        self.environment = _combo("Environment filter", "All environments")
        self.outcome = _combo("Outcome filter", "All outcomes")
        for key, text in OUTCOME_TEXT.items():
            self.outcome.addItem(text, key)
        self.dates = QComboBox()
        self.dates.setAccessibleName("Date filter")
        for key, text in DATE_RANGES:
            self.dates.addItem(text, key)
        today = QDate.currentDate()
        self.since = QDateEdit(today.addDays(-7))
        self.until = QDateEdit(today)
        for edit, name in ((self.since, "From date"), (self.until, "To date (included)")):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setAccessibleName(name)
            edit.setVisible(False)
            edit.dateChanged.connect(self.changed)
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(250)
        self._typing.timeout.connect(self.changed)
        self.search.textChanged.connect(lambda _t: self._typing.start())
        self.search.returnPressed.connect(self.apply_now)
        for combo in (self.command, self.environment, self.outcome):
            combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.dates.currentIndexChanged.connect(self._dates_changed)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.search, 3)
        for widget in (self.command, self.environment, self.outcome, self.dates):
            lay.addWidget(widget)
            label_unseen(widget, widget.accessibleName(), lay)  # read by value otherwise
        lay.addWidget(self.since)
        self.to_label = QLabel("to")
        self.to_label.setVisible(False)
        lay.addWidget(self.to_label)
        lay.addWidget(self.until)

    def apply_now(self) -> None:
        """Search at once (Enter), without waiting for typing to stop."""
        self._typing.stop()
        self.changed.emit()

    def _dates_changed(self) -> None:
        between = self.dates.currentData() == "between"
        for widget in (self.since, self.until, self.to_label):
            widget.setVisible(between)
        self.changed.emit()

    def set_choices(self, commands: list[str], environments: list[str]) -> None:
        """Offer the commands and environments present in the journal (keeps the choice)."""
        for combo, values in ((self.command, commands), (self.environment, environments)):
            chosen = combo.currentData()
            combo.blockSignals(True)
            while combo.count() > 1:
                combo.removeItem(1)
            for value in values:
                combo.addItem(value, value)
            found = combo.findData(chosen)
            combo.setCurrentIndex(max(found, 0))
            combo.blockSignals(False)

    def value(self) -> HistoryFilter:
        """The filter the widgets describe."""

        def chosen(combo: QComboBox) -> frozenset[str]:
            data = combo.currentData()
            return frozenset({data}) if data else frozenset()

        since = until = None
        key = self.dates.currentData()
        today = QDate.currentDate()
        if key == "today":
            since = _midnight(today)
        elif key in ("7", "30"):
            since = _midnight(today.addDays(-int(key) + 1))
        elif key == "between":
            since = _midnight(self.since.date())
            until = _midnight(self.until.date()) + timedelta(days=1)
        return HistoryFilter(
            search=self.search.text().strip(),
            commands=chosen(self.command),
            environments=chosen(self.environment),
            outcomes=chosen(self.outcome),
            since=since.astimezone(UTC) if since else None,
            until=until.astimezone(UTC) if until else None,
        )
