"""File -> Batch payouts...: choose a file, see every problem and the totals, dry run, send
with progress (rows done, rate, time left), pause, stop, and the results as they come."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from console.core import batch as core
from console.ui.batch.controller import BatchController, Sender
from console.ui.batch.models import ProblemsModel, ResultsModel
from console.ui.screen_room import fit_on_screen

if TYPE_CHECKING:
    from console.ui.session import Session
    from console.ui.tasks import TaskManager


def _table(model: ProblemsModel | ResultsModel, name: str) -> QTableView:
    view = QTableView()
    view.setObjectName(name)
    view.setAccessibleName(name)
    view.setModel(model)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return view


def progress_text(p: core.Progress) -> str:
    left = f", about {p.left:.0f} s left" if p.left is not None and p.done < p.total else ""
    paused = " — paused" if p.paused else ""
    rows = "row" if p.total == 1 else "rows"
    return f"{p.done} of {p.total} {rows}, {p.rate:.1f} rows/s{left}{paused}"


class BatchDialog(QDialog):
    """The batch payouts dialog of one window (its active environment and journal)."""

    def __init__(
        self, session: Session, sender: Sender, tasks: TaskManager, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.setObjectName("batch-dialog")
        self.setWindowTitle("Batch payouts")
        self.controller = BatchController(session, sender, tasks, parent)
        self.problems = ProblemsModel()
        self.results = ResultsModel()
        env = session.environment
        where = "no environment"
        if env is not None:
            where = env.name if env.name == env.kind else f"{env.name} ({env.kind})"
        self._after_run = False

        self.file_label = QLabel("Choose a CSV or JSON Lines file: one payout per row.")
        self.file_label.setWordWrap(True)
        open_button = QPushButton("Open file…")
        open_button.clicked.connect(self.choose_file)
        self.environment = QLabel(f"Environment: <b>{where}</b>")
        self.skip_invalid = QCheckBox("Leave out rows with errors")
        self.resend_unknown = QCheckBox("Resend rows with an unknown outcome (same client_orderid)")
        self.confirm_card_numbers = QCheckBox(
            "Send card numbers failing their check digit as typed (every digit checked)"
        )
        for box in (self.skip_invalid, self.resend_unknown, self.confirm_card_numbers):
            box.toggled.connect(self._choices_changed)
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, core.MAX_CONCURRENCY)
        self.concurrency.setPrefix("Rows at once: ")
        self.concurrency.setAccessibleName("Rows at once")
        self.summary = QLabel("")
        self.summary.setObjectName("batch-summary")
        self.summary.setWordWrap(True)
        self.message = QLabel("")
        self.message.setObjectName("batch-message")
        self.message.setWordWrap(True)

        self.tabs = QTabWidget()
        self.problems_view = _table(self.problems, "Validation problems")
        self.results_view = _table(self.results, "Results")
        self.tabs.addTab(self.problems_view, "Problems")
        self.tabs.addTab(self.results_view, "Results")
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress_label = QLabel("")

        self.check_button = QPushButton("Check status")
        self.check_button.setToolTip("Ask the gateway about rows whose outcome is unknown")
        self.dry_button = QPushButton("Dry run")
        self.dry_button.setToolTip("Sign every row and send nothing")
        self.send_button = QPushButton("Send batch")
        self.send_button.setDefault(True)
        self.pause_button = QPushButton("Pause")
        self.stop_button = QPushButton("Stop")
        close = QPushButton("Close")
        self.check_button.clicked.connect(self.controller.check_status)
        self.dry_button.clicked.connect(self.controller.dry_run)
        self.send_button.clicked.connect(lambda: self.controller.send(self.concurrency.value()))
        self.pause_button.clicked.connect(self._pause)
        self.stop_button.clicked.connect(self.controller.stop)
        close.clicked.connect(self.close)

        top = QHBoxLayout()
        top.addWidget(self.file_label, 1)
        top.addWidget(open_button)
        # two rows: on one the choices made the dialog wider than a 1024-pixel screen
        options = QGridLayout()
        options.addWidget(self.skip_invalid, 0, 0)
        options.addWidget(self.resend_unknown, 0, 1)
        options.addWidget(self.confirm_card_numbers, 1, 0, 1, 2)
        options.addWidget(self.concurrency, 1, 2)
        options.setColumnStretch(1, 1)
        buttons = QHBoxLayout()
        for b in (self.check_button, self.dry_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        for b in (self.pause_button, self.stop_button, self.send_button, close):
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.environment)
        lay.addLayout(options)
        lay.addWidget(self.summary)
        lay.addWidget(self.tabs, 1)
        lay.addWidget(self.progress)
        lay.addWidget(self.progress_label)
        lay.addWidget(self.message)
        lay.addLayout(buttons)
        fit_on_screen(self, 980, 620)

        c = self.controller
        c.checked.connect(self._checked)
        c.lines_ready.connect(self.results.set_lines)
        c.rows_done.connect(self.results.apply)
        c.progressed.connect(self._progressed)
        c.finished.connect(self._finished)
        c.failed.connect(self.message.setText)
        c.said.connect(self.message.setText)
        c.busy_changed.connect(lambda _b: self._update_buttons())
        self.finished.connect(lambda _r: c.stop())  # closed: stop after the rows in flight
        self._update_buttons()

    # -- file and checking -----------------------------------------------------------------

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Batch file", "", "Batch files (*.csv *.jsonl *.ndjson);;All files (*)"
        )
        if path:
            self.open_file(Path(path))

    def open_file(self, path: Path) -> None:
        self.file_label.setText(f"File: <b>{path}</b>")
        self.message.setText("Checking the file…")
        self.controller.load(path, **self._choices())

    def _choices(self) -> dict[str, bool]:
        return {
            "skip_invalid": self.skip_invalid.isChecked(),
            "resend_unknown": self.resend_unknown.isChecked(),
            "confirm_card_numbers": self.confirm_card_numbers.isChecked(),
        }

    def _choices_changed(self) -> None:
        self.controller.choose(**self._choices())

    def _checked(self, plan: core.Plan) -> None:
        v = plan.validation
        self.problems.set_problems(v.problems)
        _fit(self.problems_view)
        self.tabs.setTabText(0, f"Problems ({self.problems.rowCount()})")
        parts = [f"<b>{len(plan.to_send)}</b> to send"]
        if v.error_rows:
            parts.append(f"{len(v.error_rows)} with errors")
        if v.rows_in(core.RowState.ACCEPTED):
            # true before a run and right after it: those rows are never sent (again)
            accepted = len(v.rows_in(core.RowState.ACCEPTED))
            parts.append(f"{accepted} accepted already (not sent again)")
        if v.rows_in(core.RowState.DECLINED):
            declined = len(v.rows_in(core.RowState.DECLINED))
            parts.append(f"{declined} declined before (not sent again)")
        if v.rows_in(core.RowState.UNKNOWN):
            parts.append(f"{len(v.rows_in(core.RowState.UNKNOWN))} with an unknown outcome")
        if plan.undecided:
            parts.append(
                f"{len(plan.undecided)} with a card number failing its check digit (skipped "
                "unless you send them as typed)"
            )
        totals = [
            f"{t.currency} {t.total_text} in {t.count} "
            f"(largest {t.largest_text}, row {t.largest_row})"
            for t in sorted(plan.totals.values(), key=lambda t: t.currency)
        ]
        self.summary.setText(
            ", ".join(parts) + ("<br>Totals: " + "; ".join(totals) if totals else "")
        )
        refusal = plan.refusal()
        if self._after_run:  # the file checked again after a run: keep what the run said
            self._after_run = False
            self._update_buttons()
            return
        if refusal is not None:
            self.message.setText(refusal.in_window)
        elif plan.to_send:
            self.message.setText("Ready: nothing is sent until you press Send batch.")
        else:
            self.message.setText("Nothing to send: every valid row was accepted before.")
        self.progress.setRange(0, max(1, len(plan.to_send)))
        self.progress.setValue(0)
        self.progress_label.setText("")
        self._update_buttons()

    # -- running -----------------------------------------------------------------------------

    def _progressed(self, p: core.Progress) -> None:
        self.progress.setMaximum(max(1, p.total))
        self.progress.setValue(p.done)
        self.progress_label.setText(progress_text(p))

    def _finished(self, report: core.BatchReport) -> None:
        signed = report.count(core.SIGNED)
        if signed:
            skipped = [r for r in report.results if r.result == core.SKIPPED]
            said = "".join(f" Row {r.number} would be skipped: {r.message}" for r in skipped)
            rows = "1 row" if signed == 1 else f"{signed} rows"
            self.message.setText(f"Dry run: {rows} signed, nothing sent.{said}")
        else:
            counts = ", ".join(f"{n} {k}" for k, n in sorted(_counts(report).items()))
            plan = self.controller.plan
            where = f" Results: {core.results_path(plan.validation.batch.path)}" if plan else ""
            stopped = f" {report.stopped}" if report.stopped else ""
            self.message.setText(f"{counts or 'Nothing sent'}.{stopped}{where}")
            self.tabs.setCurrentIndex(1)
            _fit(self.results_view)
            if plan is not None:  # check the file again: what is left to send now
                self._after_run = True
                self.controller.load(plan.validation.batch.path, **self._choices())
        self.pause_button.setText("Pause")
        self._update_buttons()

    def _pause(self) -> None:
        runner = self.controller.runner
        if runner is None:
            return
        if runner.paused:
            self.controller.resume()
            self.pause_button.setText("Pause")
        else:
            self.controller.pause()
            self.pause_button.setText("Resume")

    def _update_buttons(self) -> None:
        plan = self.controller.plan
        busy = self.controller.busy
        running = busy and self.controller.runner is not None
        ready = plan is not None and not busy and plan.refusal() is None and bool(plan.to_send)
        self.send_button.setEnabled(ready)
        self.dry_button.setEnabled(ready)
        self.check_button.setEnabled(plan is not None and not busy)
        self.pause_button.setEnabled(running)
        self.stop_button.setEnabled(running)
        self.skip_invalid.setEnabled(not busy)
        self.resend_unknown.setEnabled(not busy)
        self.confirm_card_numbers.setEnabled(not busy)


def _fit(view: QTableView) -> None:
    """Columns fit their contents; the last one takes the rest of the width."""
    model = view.model()
    for column in range(model.columnCount() - 1):
        view.resizeColumnToContents(column)


def _counts(report: core.BatchReport) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in report.results:
        counts[r.result] = counts.get(r.result, 0) + 1
    return counts


def open_batch_dialog(
    session: Session, sender: Sender, tasks: TaskManager, window: QWidget
) -> BatchDialog:
    """Show the window's batch dialog (one per window; it keeps its file while open)."""
    dialog = window.findChild(BatchDialog)
    if not isinstance(dialog, BatchDialog):
        dialog = BatchDialog(session, sender, tasks, window)
    dialog.show()
    dialog.raise_()
    return dialog
