"""File -> Batch payouts...: the validation table, dry run, send with progress, results,
stop, and one confirmation for a whole production batch; against the in-process sandbox."""

from __future__ import annotations

import dataclasses
import json
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from console.core.batch import RowProblem
from console.core.environments import EnvKind
from console.core.spec.model import Severity
from console.ui.batch import BatchDialog
from console.ui.batch.models import ProblemsModel
from console.ui.main_window import MainWindow
from tests.helpers.batch_files import PAN, card_file, card_row, write_csv


def payouts(window: MainWindow) -> Counter[str]:
    sandbox = window.session.sandbox
    assert sandbox is not None
    with urllib.request.urlopen(sandbox.control_url + "/orders?kind=payout", timeout=10) as r:
        return Counter(o["client_orderid"] for o in json.load(r))


def open_dialog(qtbot: Any, window: MainWindow, path: Path) -> BatchDialog:
    window.actions_by_name["batch"].trigger()
    dialog = window.findChild(BatchDialog)
    assert isinstance(dialog, BatchDialog)
    dialog.open_file(path)
    qtbot.waitUntil(lambda: dialog.controller.plan is not None and not dialog.controller.busy)
    return dialog


def cells(model: Any, column: int) -> list[str]:
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_problems_dry_run_send_once_and_nothing_twice(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    rows = [card_row(f"w-{i}", f"{10 + i}.00") for i in range(3)]
    rows += [card_row("w-0", "5.00"), card_row("w-bad", "ten")]
    path = write_csv(tmp_path / "payouts.csv", rows)
    dialog = open_dialog(qtbot, window, path)

    assert cells(dialog.problems, 0)[:3] == ["2", "5", "6"]
    assert "also on row 5" in " ".join(cells(dialog.problems, 3))
    assert "3 rows have errors" in dialog.message.text()
    assert not dialog.send_button.isEnabled()

    dialog.skip_invalid.setChecked(True)
    assert dialog.send_button.isEnabled()
    assert "EUR 23.00 in 2" in dialog.summary.text()  # w-1 and w-2; w-0 is repeated

    qtbot.mouseClick(dialog.dry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Dry run" in dialog.message.text())
    assert "2 rows signed, nothing sent" in dialog.message.text()
    assert payouts(window) == Counter()

    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Results:" in dialog.message.text(), timeout=20_000)
    assert payouts(window) == Counter({"w-1": 1, "w-2": 1})
    outcomes = dict(zip(cells(dialog.results, 1), cells(dialog.results, 5), strict=True))
    assert outcomes["w-1"] == "accepted"
    assert outcomes["w-bad"] == "invalid"
    assert dialog.progress.value() == 2
    assert PAN not in " ".join(cells(dialog.results, 4))
    assert "card 444444******4448" in cells(dialog.results, 4)

    dialog.open_file(path)  # the same file again: everything sent is skipped
    qtbot.waitUntil(lambda: not dialog.controller.busy)
    # true right after they were sent too: they are not sent again
    assert "2 accepted already (not sent again)" in dialog.summary.text()
    assert "before (skipped)" not in dialog.summary.text()
    assert not dialog.send_button.isEnabled()


def test_stop_ends_the_batch_after_the_rows_in_flight(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    sandbox = window.session.sandbox
    assert sandbox is not None
    sandbox.set_faults("payout-check:latency=0.1")
    dialog = open_dialog(qtbot, window, card_file(tmp_path / "p.csv", 30, "s"))
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.progress.value() >= 2, timeout=20_000)
    assert "rows/s" in dialog.progress_label.text()
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Results:" in dialog.message.text(), timeout=20_000)
    assert "Stopped" in dialog.message.text()
    sent = payouts(window)
    assert 2 <= sum(sent.values()) < 30
    assert set(sent.values()) == {1}
    assert cells(dialog.results, 5).count("not sent yet") == 30 - sum(sent.values())


def test_a_production_batch_is_confirmed_once_with_its_totals(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(live, window.session.private_key)
    dialog = open_dialog(qtbot, window, card_file(tmp_path / "p.csv", 3, "live"))
    asked: list[str] = []
    dialog.controller.confirm = lambda _parent, text: asked.append(text) is not None and False
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1
    assert "3 payouts" in asked[0]
    assert "Total EUR: 33.00 in 3 payouts" in asked[0]
    assert "Largest EUR payout: 12.00 EUR (row 4, card 444444******4448)" in asked[0]
    assert PAN not in asked[0]
    assert "not confirmed" in dialog.message.text()
    assert payouts(window) == Counter()

    dialog.controller.confirm = lambda _parent, text: asked.append(text) is None
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Results:" in dialog.message.text(), timeout=20_000)
    assert len(asked) == 2  # one question for the whole batch, not one per row
    assert payouts(window) == Counter({"live-0": 1, "live-1": 1, "live-2": 1})


def test_closing_the_dialog_stops_the_batch(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    sandbox = window.session.sandbox
    assert sandbox is not None
    sandbox.set_faults("payout-check:latency=0.1")
    dialog = open_dialog(qtbot, window, card_file(tmp_path / "p.csv", 30, "c"))
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.progress.value() >= 1, timeout=20_000)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.controller.busy, timeout=20_000)
    assert sum(payouts(window).values()) < 30


def test_a_card_number_failing_its_check_digit_goes_only_when_the_batch_says_so(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    mistyped = card_row("m-1", "11.00")
    mistyped[3] = PAN[:-1] + "9"  # credit_card_number, failing the Luhn check
    path = write_csv(tmp_path / "cards.csv", [card_row("m-0"), mistyped])
    dialog = open_dialog(qtbot, window, path)
    assert "<b>1</b> to send" in dialog.summary.text()
    assert "1 with a card number failing its check digit" in dialog.summary.text()
    assert "EUR 10.00 in 1" in dialog.summary.text()

    qtbot.mouseClick(dialog.dry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Dry run" in dialog.message.text())
    said = "Row 3 would be skipped: The card number 444444******4449 fails"
    assert said in dialog.message.text()
    assert "1 row signed, nothing sent" in dialog.message.text()
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Results:" in dialog.message.text(), timeout=20_000)
    assert "1 accepted, 1 skipped" in dialog.message.text()
    assert payouts(window) == Counter({"m-0": 1})
    qtbot.waitUntil(lambda: not dialog.controller.busy)

    dialog.confirm_card_numbers.setChecked(True)
    assert "<b>1</b> to send" in dialog.summary.text()  # m-1 now; m-0 was accepted
    assert "check digit" not in dialog.summary.text()
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: payouts(window) == Counter({"m-0": 1, "m-1": 1}), timeout=20_000)


def test_check_status_writes_the_final_status_into_the_results_file(
    qtbot: Any, make_window: Any, tmp_path: Path
) -> None:
    import csv

    from console.core.batch import results_path

    # processing when sent, final 2 s later (however busy the machine: tests run in parallel)
    window = make_window(sandbox_options={"callback_delay": 2.0})
    path = write_csv(tmp_path / "later.csv", [card_row("later-1"), card_row("later-2", "11.00")])
    dialog = open_dialog(qtbot, window, path)
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Results:" in dialog.message.text(), timeout=20_000)
    out = results_path(path)

    def final_statuses() -> dict[str, str]:
        with out.open(encoding="utf-8", newline="") as fh:
            return {r["client_orderid"]: r["final_status"] for r in csv.DictReader(fh)}

    assert final_statuses() == {"later-1": "", "later-2": ""}  # still processing when sent
    qtbot.wait(2500)  # the sandbox makes the orders final meanwhile
    qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: cells(dialog.results, 7) == ["approved", "approved"], timeout=15_000)
    assert final_statuses() == {"later-1": "approved", "later-2": "approved"}  # as the table


def test_the_dialog_fits_a_1024_by_700_screen(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    from tests.helpers.batch_files import card_file

    dialog = open_dialog(qtbot, window, card_file(tmp_path / "fit.csv", 3))
    hint = dialog.minimumSizeHint()
    assert hint.width() <= 1000, hint  # a 1024-pixel screen, with the window's frame
    assert hint.height() <= 660, hint
    dialog.resize(1000, 660)
    qtbot.wait(20)
    for box in (dialog.skip_invalid, dialog.resend_unknown, dialog.confirm_card_numbers):
        assert box.width() >= box.sizeHint().width(), box.text()  # no choice cut


def test_a_decimal_comma_file_is_one_line_of_the_problem_table(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    rows = [card_row(f"dc-{i}", f"{10 + i},50") for i in range(300)]
    dialog = open_dialog(qtbot, window, write_csv(tmp_path / "de.csv", rows, sep=";"))

    errors = [
        r
        for r, s in zip(cells(dialog.problems, 0), cells(dialog.problems, 1), strict=True)
        if s == "error"
    ]
    assert errors == ["2–301 (300 rows)"]
    assert "decimal comma" in cells(dialog.problems, 3)[0]


def test_check_status_names_rows_that_never_arrived_and_their_next_step(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    sandbox = window.session.sandbox
    assert sandbox is not None
    path = write_csv(tmp_path / "lost.csv", [card_row("lost-1"), card_row("lost-2", "11.00")])
    dialog = open_dialog(qtbot, window, path)
    sandbox.set_faults("payout-check:500")  # the gateway fails before it takes the row
    try:
        qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not dialog.controller.busy and "Stopped" in dialog.message.text())
    finally:
        sandbox.set_faults(None)
    qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "never arrived" in dialog.message.text(), timeout=15_000)
    assert "Row 2 never arrived" in dialog.message.text()
    assert "Resend rows with an unknown outcome" in dialog.message.text()
    assert payouts(window) == Counter()


def test_a_warning_on_rows_apart_names_them_not_a_range() -> None:
    model = ProblemsModel()
    warn = Severity.WARNING
    model.set_problems(
        [RowProblem(2, "amount", "odd", warn), RowProblem(4, "amount", "odd", warn)]
        + [RowProblem(n, "currency", "rare", warn) for n in (5, 6, 7)]
        + [RowProblem(n, "cvv2", "old", warn) for n in (2, 4, 8, 9, 12)]
    )
    rows = {model.lines[i][0] for i in range(3)}
    assert rows == {"2, 4", "5–7 (3 rows)", "2, 4, 8, … (5 rows)"}  # never "2–4 (2 rows)"
