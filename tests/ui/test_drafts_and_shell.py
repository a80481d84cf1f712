"""Drafts, keyboard, accessibility, themes and the screenshot mode."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget

from console.core.paths import resolve
from console.ui.main_window import MainWindow
from console.ui.menus import shortcut_rows
from console.ui.theme import apply_theme, state_colour

PAN = "4444444444444448"


def _contrast(a: Any, b: Any) -> float:
    def lum(c: Any) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_drafts_survive_switch_and_restart_without_card_data(
    make_window: Callable[..., MainWindow],
) -> None:
    window = make_window()
    window.fill_example()
    window.form.rows["order_desc"].set_text("kept across restarts")
    window.show_command("create-card-ref")
    window.form.rows["orderid"].set_text("998877")
    window.show_command("payout-check")
    assert window.form.rows["order_desc"].text() == "kept across restarts"
    assert window.form.rows["credit_card_number"].text() == PAN  # in memory while open
    window.close()

    text = (resolve().config_dir / "drafts.json").read_text(encoding="utf-8")
    assert PAN not in text
    assert '"cvv2"' not in text
    assert "credit_card_number" not in json.loads(text)["forms"]["payout-check"]

    again = make_window()
    assert again.command == "payout-check"
    assert again.form.rows["order_desc"].text() == "kept across restarts"
    assert again.form.rows["credit_card_number"].text() == ""
    assert again.form.rows["cvv2"].text() == ""
    assert again.forms["create-card-ref"].rows["orderid"].text() == "998877"


def test_damaged_draft_file_is_ignored(make_window: Callable[..., MainWindow]) -> None:
    paths = resolve().ensure()
    (paths.config_dir / "drafts.json").write_text("{not json", encoding="utf-8")
    window = make_window()
    assert window.form.rows["client_orderid"].text() == ""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_drafts_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    from console.ui.drafts import DraftStore

    umask = os.umask(0o022)  # the usual umask, under which drafts.json was 0644
    try:
        store = DraftStore(tmp_path / "config")
        store.put("payout-check", {"client_orderid": "po-1", "first_name": "Ann"})
        store.save()
        (tmp_path / "config" / "drafts.tmp").write_text("{}", encoding="utf-8")  # a leftover
        store.save()
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "config" / "drafts.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "config").stat().st_mode) == 0o700


def test_every_action_has_a_shortcut_listed_in_help(window: MainWindow) -> None:
    listed = dict(shortcut_rows(window))
    for name in ("send", "fill-example", "generate", "inspector", "shortcuts", "quit"):
        action = window.actions_by_name[name]
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        assert keys, name
        assert listed[action.text().replace("&", "")] == keys
    for i, name in enumerate(window.forms):
        assert window.actions_by_name[f"command:{name}"].shortcut() == QKeySequence(f"Ctrl+{i + 1}")
    help_menu = next(a.menu() for a in window.menuBar().actions() if "Help" in a.text())
    assert any("shortcuts" in a.text().lower() for a in help_menu.actions())


def test_command_shortcuts_switch_forms(qtbot: Any, window: MainWindow) -> None:
    window.actions_by_name["command:create-recurring-payment"].trigger()
    assert window.command == "create-recurring-payment"
    window.actions_by_name["command:payout-check"].trigger()
    assert window.command == "payout-check"


def test_inputs_have_accessible_names_and_tab_reaches_them(qtbot: Any, window: MainWindow) -> None:
    window.activateWindow()
    form = window.form
    unnamed = [
        w.objectName()
        for w in form.findChildren(QWidget)
        if w.focusPolicy() != 0
        and isinstance(w, QLineEdit)
        and not w.accessibleName()
        and w.parent() is not None
        and not w.parent().accessibleName()
    ]
    assert unnamed == []
    first = form.rows["client_orderid"].editor
    first.setFocus()
    seen: list[str] = []
    for _ in range(8):
        QApplication.focusWidget().nextInFocusChain()
        window.focusNextChild()
        focus = QApplication.focusWidget()
        seen.append(focus.objectName() if focus else "")
    assert "field:amount" in seen
    assert seen.index("field:amount") < seen.index("field:currency")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_state_colours_readable_in_both_themes(qapp: Any, theme: str) -> None:
    app = QApplication.instance()  # pytest-qt's, whichever test ran first
    assert isinstance(app, QApplication)
    try:
        apply_theme(app, theme)
        pal = app.palette()
        window_colour = pal.color(QPalette.ColorRole.Window)
        text = pal.color(QPalette.ColorRole.WindowText)
        assert _contrast(window_colour, text) >= 7
        for state in ("error", "warning", "fine", "required"):
            assert _contrast(window_colour, state_colour(state, pal)) >= 4.5, state
    finally:
        apply_theme(app, "light")


def test_screenshot_renders_offscreen_and_exits_zero(tmp_path: Path) -> None:
    target = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "console",
            "--screenshot",
            str(target),
            "--command",
            "create-recurring-payment",
            "--fill-example",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert target.stat().st_size > 20_000


def test_screenshot_refuses_unknown_command(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "console",
            "--screenshot",
            str(tmp_path / "x.png"),
            "--command",
            "refund",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2
    assert "payout-check" in run.stderr
