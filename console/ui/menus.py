"""Menus, actions and shortcuts of the main window, and the Help > Keyboard shortcuts list.

The menus know the window only through what they trigger: :class:`MenuCommands` (the
window's verbs) and :class:`~console.ui.window.dialogs.Dialogs` (what opens from a menu).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from PySide6.QtWidgets import QDialog, QMainWindow, QMenu, QVBoxLayout, QWidget

from console.core.errors import ConsoleError
from console.core.spec import COMMANDS
from console.ui.icons import icon
from console.ui.pane_keys import go_to_pane
from console.ui.screen_room import fit_on_screen
from console.ui.theme import THEMES

if TYPE_CHECKING:
    from console.ui.inspector.dock import InspectorDock
    from console.ui.window.dialogs import Dialogs

Slot = Callable[[], object]


@dataclass(frozen=True, slots=True)
class MenuCommands:
    """The window's verbs that menus and shortcuts trigger."""

    save_drafts: Slot
    send: Slot
    fill_example: Slot
    clear_form: Slot
    new_order_id: Slot
    first_problem: Slot
    open_command: Callable[[str], object]
    apply_theme: Callable[[str], object]


@dataclass(slots=True)
class Menus:
    """The window's menu bar: each action by name, and the menus others add to."""

    window: QMainWindow
    view: QMenu
    environment: QMenu
    actions: dict[str, QAction] = field(default_factory=dict)

    def action(
        self,
        name: str,
        text: str,
        shortcut: str | QKeySequence.StandardKey = "",
        slot: Slot | None = None,
        icon_name: str = "",
    ) -> QAction:
        """A named action of the window; its shortcut works wherever the focus is."""
        action = QAction(icon(icon_name) if icon_name else QIcon(), text, self.window)
        action.setObjectName(f"action:{name}")
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        self.window.addAction(action)
        self.actions[name] = action
        return action


def build_menus(
    window: QMainWindow,
    do: MenuCommands,
    dialogs: Dialogs,
    inspector: InspectorDock,
    commands: Sequence[str],
    theme: str,
) -> Menus:
    """Create every menu and action; each action has a shortcut or a menu path (team mode's
    follow: :func:`add_team_actions`)."""
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    req = bar.addMenu("&Request")
    cmd = bar.addMenu("&Command")
    view = bar.addMenu("&View")
    menus = Menus(window, view, bar.addMenu("&Environment"))
    help_menu = bar.addMenu("&Help")
    act = menus.action
    file_menu.addAction(act("save-drafts", "Save &drafts", "Ctrl+S", do.save_drafts))
    file_menu.addAction(act("batch", "&Batch payouts…", "Ctrl+B", dialogs.batch))
    export = file_menu.addMenu("&Export")
    postman = act("export-postman", "&Postman collection…", "Ctrl+Shift+P", dialogs.export_postman)
    export.addAction(postman)
    export.addAction(act("export-openapi", "&OpenAPI description…", "", dialogs.export_openapi))
    file_menu.addSeparator()
    file_menu.addAction(act("quit", "&Quit", "Ctrl+Q", window.close))

    req.addAction(act("send", "&Send", "Ctrl+Return", do.send, "send"))
    enter = QAction(window)
    enter.setShortcut(QKeySequence("Ctrl+Enter"))  # the keypad Enter key
    enter.triggered.connect(lambda _checked=False: do.send())
    window.addAction(enter)
    req.addAction(act("fill-example", "Fill with &example", "Ctrl+E", do.fill_example))
    req.addAction(act("clear", "&Clear form", "Ctrl+Shift+Backspace", do.clear_form))
    req.addAction(act("generate", "&Generate order id", "Ctrl+G", do.new_order_id, "generate"))
    req.addSeparator()
    req.addAction(act("problems", "Go to first &problem", "F8", do.first_problem))
    req.addSeparator()
    req.addAction(act("signature-lab", "Signature &lab…", "Ctrl+Shift+L", dialogs.signature_lab))
    req.addAction(act("import-curl", "Import from c&url…", "", dialogs.import_curl))

    for i, name in enumerate(commands):
        open_it = partial(do.open_command, name)
        cmd.addAction(act(f"command:{name}", COMMANDS[name].title, f"Ctrl+{i + 1}", open_it))

    shown = inspector.toggleViewAction()
    shown.setText("Request &inspector")
    shown.setShortcut(QKeySequence("F9"))
    window.addAction(shown)
    menus.actions["inspector"] = shown
    view.addAction(shown)
    for i, tab in enumerate(("Request", "Signature", "Response")):
        view.addAction(
            act(f"tab:{tab}", f"{tab} tab", f"Alt+{i + 1}", partial(inspector.show_tab, i))
        )
    # the panes' own Tab rounds do not cross: F6 goes from one pane to the next
    view.addAction(act("next-pane", "Next &pane", "F6", partial(go_to_pane, window, True)))
    view.addAction(
        act("previous-pane", "Previous pane", "Shift+F6", partial(go_to_pane, window, False))
    )
    themes = view.addMenu("&Theme")
    group = QActionGroup(window)
    for name in THEMES:
        a = act(f"theme:{name}", name.capitalize(), "", partial(do.apply_theme, name))
        a.setCheckable(True)
        a.setChecked(name == (theme or "system"))
        group.addAction(a)
        themes.addAction(a)
    help_menu.addAction(
        act(
            "shortcuts",
            "&Keyboard shortcuts",
            "F1",
            lambda: shortcuts_dialog(window).exec(),
            "help",
        )
    )
    help_menu.addAction(act("about", "&About", "", dialogs.about))
    return menus


def add_team_actions(menus: Menus, dialogs: Dialogs) -> None:
    """View > Approval queue where this profile has a team database (team mode). Added
    after the first paint: finding out reads the journals' settings, which load then."""
    if _team_mode():
        queue = menus.action("approval-queue", "&Approval queue", "", dialogs.approval_queue)
        menus.view.addAction(queue)


def _team_mode() -> bool:
    """This profile has a team database (team mode: View > Approval queue)."""
    from console.core.journals import team_dsn  # the journals' module loads after the paint

    try:
        return bool(team_dsn())
    except ConsoleError:
        return False


def shortcut_rows(window: QWidget) -> list[tuple[str, str]]:
    """(action, shortcut) for every action that has one, as the Help list shows them."""
    rows = []
    for action in window.actions():
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if keys and action.text():
            rows.append((action.text().replace("&", ""), keys))
    rows.append(("Jump to a field from the problem list", "Enter on the problem"))
    rows.append(("Next / previous field", "Tab / Shift+Tab"))
    return rows


def shortcuts_dialog(window: QWidget) -> QDialog:
    """Help > Keyboard shortcuts, built from the window's real actions."""
    # boundary: the inspector's tables load after the first paint
    from console.ui.inspector.widgets import fill_table, pairs_table

    dialog = QDialog(window)
    dialog.setWindowTitle("Keyboard shortcuts")
    table = pairs_table(("Action", "Shortcut"))
    table.setAccessibleName("Keyboard shortcuts")
    fill_table(table, shortcut_rows(window))
    lay = QVBoxLayout(dialog)
    lay.addWidget(table)
    fit_on_screen(dialog, 460, 520)
    return dialog
