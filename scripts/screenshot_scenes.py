"""The documentation's scenes of the window and its dialogs, in one theme, at 1024x700.

Run by ``scripts/screenshots.sh`` (which provides an X server and a fresh profile):
``python scripts/screenshot_scenes.py light docs/screenshots``. Each scene is what a person
does: a payout sent and followed to its final status, its signature, the history, a
recurring profile's schedule, a form with mistakes, the signature lab, a batch file.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog

from console.core.paths import resolve
from console.ui.app import build_window, make_app, screenshot
from console.ui.main_window import MainWindow

SIZE = (1024, 700)
BATCH_CSV = (
    "client_orderid,amount,currency,credit_card_number,card_printed_name,expire_month,"
    "expire_year,order_desc\n"
    "docs-batch-1,10.00,USD,4444444444444448,JANE DOE,12,2031,First payout\n"
    "docs-batch-2,25.50,USD,4444444444444448,JANE DOE,12,2031,Second payout\n"
    "docs-batch-3,5,00,USD,4444444444444448,JANE DOE,12,2031,A comma too many\n"
)


def wait_for(check: Callable[[], object], ms: int = 20_000) -> None:
    """Process events until ``check()`` is true (or ``ms`` pass)."""
    for _ in range(ms // 50):
        if check():
            return
        QTest.qWait(50)
    raise SystemExit(f"timed out waiting for {check}")


def new_dialog(before: set[int]) -> QDialog:
    found: list[QDialog] = []

    def opened() -> bool:
        found[:] = [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QDialog) and w.isVisible() and id(w) not in before
        ]
        return bool(found)

    wait_for(opened)
    QTest.qWait(300)
    return found[0]


def dialog_shot(window: MainWindow, action: str, target: Path, then: Callable[[QDialog], None]):
    before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}
    window.actions_by_name[action].trigger()
    dialog = new_dialog(before)
    then(dialog)
    QTest.qWait(300)
    dialog.grab().save(str(target), "PNG")
    dialog.close()


def main(theme: str, out: Path) -> None:
    os.environ["GATEWAY_CONSOLE_THEME"] = theme
    make_app()
    window = build_window(resolve())
    window.persist_drafts = False
    window.show()
    window.resize(*SIZE)
    if not window.wait_ready(30_000):
        raise SystemExit("the local sandbox did not start")

    def shot(name: str) -> None:
        QTest.qWait(300)
        target = out / f"{name}-{theme}.png"
        screenshot(window, target)
        print(target)

    window.show_command("create-recurring-payment")
    window.fill_example()
    shot("recurring-schedule")

    window.show_command("payout-check")
    window.fill_example()
    window.form.rows["amount"].set_text("5,00")
    window.form.rows["credit_card_number"].set_text("4444 4444 4444 4449")
    window.send()  # blocked: every mistake shown in colour
    shot("payout-errors")

    window.fill_example()
    before = window.last_outcome
    window.send()
    wait_for(lambda: window.last_outcome is not before)
    # the sandbox's callback brings the final status to the result line
    wait_for(lambda: "final status <b>" in window.panel.result_of("payout-check")[1], 20_000)
    shot("payout-final-status")
    window.inspector.show_tab(1)
    shot("payout-signature")

    window.journal.history_dock.show()
    shot("history")
    window.journal.history_dock.hide()

    # the payout just sent, card data masked; without the copy's comment lines, which the
    # lab does not read yet
    copied = window.inspector.request.curl.value()
    curl = "\n".join(line for line in copied.splitlines() if not line.startswith("#"))

    def lab(dialog: QDialog) -> None:
        dialog.resize(*SIZE)
        dialog.request_edit.setPlainText(curl)  # type: ignore[attr-defined]
        dialog.verify()  # type: ignore[attr-defined]

    dialog_shot(window, "signature-lab", out / f"signature-lab-{theme}.png", lab)

    csv = Path(tempfile.mkdtemp()) / "payouts.csv"
    csv.write_text(BATCH_CSV, encoding="utf-8")

    def batch(dialog: QDialog) -> None:
        dialog.resize(*SIZE)
        dialog.open_file(csv)  # type: ignore[attr-defined]
        wait_for(lambda: dialog.controller.plan is not None)  # type: ignore[attr-defined]

    dialog_shot(window, "batch", out / f"batch-payouts-{theme}.png", batch)
    window.close()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
