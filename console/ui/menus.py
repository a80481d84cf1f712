"""Menus, actions and shortcuts of the main window, and the Help > Keyboard shortcuts list."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from PySide6.QtWidgets import QDialog, QMessageBox, QVBoxLayout

import console
from console import APP_NAME
from console.core.spec import COMMANDS
from console.ui.icons import icon
from console.ui.inspector.widgets import fill_table, pairs_table
from console.ui.theme import THEMES

if TYPE_CHECKING:
    from console.ui.window.host import ConsoleWindow


def _action(
    window: ConsoleWindow,
    name: str,
    text: str,
    shortcut: str | QKeySequence.StandardKey = "",
    slot: object = None,
    icon_name: str = "",
) -> QAction:
    action = QAction(icon(icon_name) if icon_name else QIcon(), text, window.widget)
    action.setObjectName(f"action:{name}")
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    if slot is not None:
        action.triggered.connect(slot)
    window.widget.addAction(action)  # shortcuts work wherever the focus is
    window.actions_by_name[name] = action
    return action


def build_menus(w: ConsoleWindow) -> None:
    """Create every menu and action; each action has a shortcut or a menu path."""
    bar = w.widget.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(_action(w, "save-drafts", "Save &drafts", "Ctrl+S", w.save_drafts))
    file_menu.addAction(_action(w, "batch", "&Batch payouts…", "Ctrl+B", lambda: _batch(w)))
    file_menu.addSeparator()
    file_menu.addAction(_action(w, "quit", "&Quit", "Ctrl+Q", w.widget.close))

    req = bar.addMenu("&Request")
    req.addAction(_action(w, "send", "&Send", "Ctrl+Return", w.send, "send"))
    enter = QAction(w.widget)
    enter.setShortcut(QKeySequence("Ctrl+Enter"))  # the keypad Enter key
    enter.triggered.connect(w.send)
    w.widget.addAction(enter)
    req.addAction(_action(w, "fill-example", "Fill with &example", "Ctrl+E", w.fill_example))
    req.addAction(_action(w, "clear", "&Clear form", "Ctrl+Shift+Backspace", w.clear_form))
    req.addAction(
        _action(
            w, "generate", "&Generate order id", "Ctrl+G", w.forms_part.new_order_id, "generate"
        )
    )
    req.addSeparator()
    req.addAction(_action(w, "problems", "Go to first &problem", "F8", lambda: _first(w)))
    req.addSeparator()
    req.addAction(_action(w, "signature-lab", "Signature &lab…", "Ctrl+Shift+L", lambda: _lab(w)))
    req.addAction(_action(w, "import-curl", "Import from c&url…", "", lambda: _curl(w)))

    cmd = bar.addMenu("&Command")
    for i, name in enumerate(w.forms):
        title = COMMANDS[name].title
        cmd.addAction(
            _action(
                w,
                f"command:{name}",
                title,
                f"Ctrl+{i + 1}",
                lambda _c=False, n=name: w.forms_part.open_command(n),
            )
        )

    view = bar.addMenu("&View")
    w.view_menu = view
    inspector = w.inspector.toggleViewAction()
    inspector.setText("Request &inspector")
    inspector.setShortcut(QKeySequence("F9"))
    w.widget.addAction(inspector)
    w.actions_by_name["inspector"] = inspector
    view.addAction(inspector)
    for i, tab in enumerate(("Request", "Signature", "Response")):
        view.addAction(
            _action(w, f"tab:{tab}", f"{tab} tab", f"Alt+{i + 1}", lambda _c=False, i=i: _tab(w, i))
        )
    themes = view.addMenu("&Theme")
    group = QActionGroup(w.widget)
    for theme in THEMES:
        a = _action(
            w,
            f"theme:{theme}",
            theme.capitalize(),
            "",
            lambda _c=False, t=theme: w.apply_theme(t),
        )
        a.setCheckable(True)
        a.setChecked(theme == (w.drafts.theme or "system"))
        group.addAction(a)
        themes.addAction(a)

    if _team_mode():
        view.addAction(_action(w, "approval-queue", "&Approval queue", "", lambda: _queue(w)))

    w.environment_menu = bar.addMenu("&Environment")

    help_menu = bar.addMenu("&Help")
    help_menu.addAction(
        _action(
            w, "shortcuts", "&Keyboard shortcuts", "F1", lambda: shortcuts_dialog(w).exec(), "help"
        )
    )
    help_menu.addAction(_action(w, "about", "&About", "", lambda: _about(w)))


def _team_mode() -> bool:
    """This profile has a team database (team mode: View > Approval queue)."""
    from console.core.errors import ConsoleError
    from console.core.journals import team_dsn

    try:
        return bool(team_dsn())
    except ConsoleError:
        return False


def _queue(w: ConsoleWindow) -> None:
    from console.ui.team.queue_pane import open_queue

    open_queue(w)


def _batch(w: ConsoleWindow) -> None:
    from console.ui.batch import open_batch_dialog  # loaded on first use

    open_batch_dialog(w)


def _lab(w: ConsoleWindow) -> None:
    from console.ui.signature_lab import open_signature_lab

    open_signature_lab(w)  # the window owns it; it is deleted when closed


def _curl(w: ConsoleWindow) -> None:
    from console.ui.signature_lab import import_from_curl

    import_from_curl(w)


def _first(w: ConsoleWindow) -> None:
    for p in w.panel.summary.problems:
        if p.fields and w.form.focus_field(p.fields[0]):
            return


def _tab(w: ConsoleWindow, index: int) -> None:
    w.inspector.show()
    w.inspector.tabs.setCurrentIndex(index)


def _about(w: ConsoleWindow) -> None:
    try:  # the About dialog is its own module; older builds may lack it
        about = importlib.import_module("console.ui.about")
        about.show_about(w)
    except (ImportError, AttributeError):
        QMessageBox.about(w.widget, f"About {APP_NAME}", f"{APP_NAME} {console.__version__}")


def shortcut_rows(w: ConsoleWindow) -> list[tuple[str, str]]:
    """(action, shortcut) for every action that has one, as the Help list shows them."""
    rows = []
    for action in w.widget.actions():
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if keys and action.text():
            rows.append((action.text().replace("&", ""), keys))
    rows.append(("Jump to a field from the problem list", "Enter on the problem"))
    rows.append(("Next / previous field", "Tab / Shift+Tab"))
    return rows


def shortcuts_dialog(w: ConsoleWindow) -> QDialog:
    """Help > Keyboard shortcuts, built from the window's real actions."""
    dialog = QDialog(w.widget)
    dialog.setWindowTitle("Keyboard shortcuts")
    table = pairs_table(("Action", "Shortcut"))
    table.setAccessibleName("Keyboard shortcuts")
    fill_table(table, shortcut_rows(w))
    lay = QVBoxLayout(dialog)
    lay.addWidget(table)
    dialog.resize(460, 520)
    return dialog
