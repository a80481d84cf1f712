"""The schedule preview: a timeline strip drawn with QPainter and a compact table.

It only draws what ``console.core.schedule.preview`` computed.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from console.core.schedule import Charge, Preview, StopReason

_STOP_WORDS = {
    StopReason.MAX_REPEATS: "Stops after max-repeats-number: {n} charge(s) in all.",
    StopReason.FINISH_DATE: "Stops at the finish date: {n} charge(s) in all.",
    StopReason.LIMIT: "Goes on with no end set: the first {n} charges are shown.",
}


class TimelineStrip(QWidget):
    """Charges as dots on a line from the first to the last date, months marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.charges: tuple[Charge, ...] = ()
        self.setMinimumHeight(96)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Schedule timeline")

    def sizeHint(self) -> QSize:
        return QSize(320, 96)

    def set_charges(self, charges: tuple[Charge, ...]) -> None:
        self.charges = charges
        self.setAccessibleDescription(
            ", ".join(f"{c.when:%d.%m.%Y} {c.amount_text}".strip() for c in charges)
        )
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text = pal.color(QPalette.ColorRole.WindowText)
        faint = QColor(text)
        faint.setAlpha(70)
        accent = pal.color(QPalette.ColorRole.Highlight)
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        if not self.charges:
            # words to read, not a decoration: the theme's placeholder colour (4.5:1 on Base)
            p.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No charges to show")
            p.end()
            return
        left, right = 24.0, float(self.width() - 24)
        axis_y = self.height() / 2 + 6
        first, last = self.charges[0].when, self.charges[-1].when
        span = max((last - first).days, 1)

        def x_of(day_offset: int) -> float:
            if len(self.charges) == 1:
                return (left + right) / 2
            return left + (right - left) * day_offset / span

        small = QFont(self.font())
        small.setPointSizeF(max(7.0, small.pointSizeF() * 0.85))
        p.setFont(small)
        # month boundaries, labelled where there is room, so the cadence reads against
        # the calendar; January carries the year
        line_pen = QPen(faint, 1, Qt.PenStyle.DotLine)
        label_pen = QPen(pal.color(QPalette.ColorRole.PlaceholderText))
        p.setPen(line_pen)
        year, month = first.year, first.month
        last_label = -1e9
        while True:
            month += 1
            if month > 12:
                year, month = year + 1, 1
            boundary = date(year, month, 1)
            if boundary > last:
                break
            x = x_of((boundary - first).days)
            p.drawLine(QPointF(x, 20), QPointF(x, self.height() - 4))
            name = f"{boundary:%b %y}" if month == 1 else f"{boundary:%b}"
            if x - last_label >= 44:
                p.setPen(label_pen)  # the names read as text (WCAG AA), the lines stay faint
                p.drawText(QPointF(x + 3, 14), name)
                p.setPen(line_pen)
                last_label = x
        axis_y = self.height() - 34
        p.setPen(QPen(text, 1.5))
        p.drawLine(QPointF(left, axis_y), QPointF(right, axis_y))
        last_label = -1e9
        for i, c in enumerate(self.charges):
            x = x_of((c.when - first).days)
            radius = 5.0
            if c.clamped:
                p.setPen(QPen(accent, 2))
                p.setBrush(pal.color(QPalette.ColorRole.Base))
            else:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(accent)
            p.drawEllipse(QPointF(x, axis_y), radius, radius)
            # label only as many charges as fit without overlapping
            if x - last_label >= 58 or (i == 0 and len(self.charges) == 1):
                last_label = x
                p.setPen(text)
                box = QRectF(x - 40, axis_y + 9, 80, 16)
                p.drawText(box, Qt.AlignmentFlag.AlignHCenter, f"{c.when:%d.%m}")
                if c.amount_text:
                    box = QRectF(x - 45, axis_y - 27, 90, 16)
                    p.drawText(box, Qt.AlignmentFlag.AlignHCenter, c.amount_text)
        p.end()


class SchedulePreview(QWidget):
    """Title, explanation, timeline strip and table of the next charges."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("schedule-preview")
        title = QLabel("<b>Schedule preview</b>")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.strip = TimelineStrip()
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["#", "Date", "Amount"])
        number = self.table.horizontalHeaderItem(0)
        if number is not None:  # "#" is read as "number sign"
            number.setData(Qt.ItemDataRole.AccessibleTextRole, "Charge number")
        self.table.verticalHeader().setVisible(False)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move inside
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setAccessibleName("Next charges")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 8, 8, 8)
        lay.addWidget(title)
        lay.addWidget(self.summary)
        drawing = QVBoxLayout()
        drawing.addWidget(self.strip)
        drawing.addWidget(self.notes)
        drawing.addStretch(1)
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.body.addLayout(drawing)
        self.body.addWidget(self.table, 1)
        lay.addLayout(self.body, 1)
        self.current = Preview()
        self.set_below(False)

    def set_below(self, below: bool) -> None:
        """Beside the form: a narrow column. Below it: wide and short, the table beside
        the timeline, so the fields above keep most of the height."""
        self.setMinimumWidth(0 if below else 300)
        self.setMaximumWidth(16_777_215 if below else 380)
        self.body.setDirection(
            QBoxLayout.Direction.LeftToRight if below else QBoxLayout.Direction.TopToBottom
        )
        self.body.setStretch(0, 3 if below else 0)
        self.body.setStretch(1, 2 if below else 1)

    def show_preview(self, preview: Preview) -> None:
        """Redraw for a new preview."""
        self.current = preview
        self.strip.set_charges(preview.charges)
        if not preview.has_schedule:
            self.summary.setText(preview.reason)
        else:
            first = preview.charges[0]
            words = _STOP_WORDS.get(preview.stop or StopReason.LIMIT, "")
            self.summary.setText(
                f"First charge {first.when:%a %d.%m.%Y}. " + words.format(n=len(preview.charges))
            )
        notes = list(preview.notes)
        if any(c.clamped for c in preview.charges):
            notes.append("Hollow dots: moved to the month's last day.")
        if any(c.repeated_last for c in preview.charges):
            notes.append("Past the end of the sequence every charge uses the last amount.")
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))
        self.table.setRowCount(len(preview.charges))
        for row, c in enumerate(preview.charges):
            date_text = f"{c.when:%a %d.%m.%Y}" + (" (last day)" if c.clamped else "")
            amount = c.amount_text + (" (last)" if c.repeated_last else "")
            for col, value in enumerate((str(c.number), date_text, amount)):
                item = QTableWidgetItem(value)
                self.table.setItem(row, col, item)
