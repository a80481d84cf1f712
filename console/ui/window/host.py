"""What panes, dialogs and menus may ask of the main window: a protocol, so none of them
imports the window (``console.ui.main_window`` assembles the parts and satisfies it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QStatusBar, QWidget

    from console.core.client import Outcome
    from console.ui.drafts import DraftStore
    from console.ui.forms.generator import CommandForm
    from console.ui.inspector.dock import InspectorDock
    from console.ui.sending import SendController
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.environment_part import EnvironmentPart
    from console.ui.window.forms_part import FormsPart, LazyForms
    from console.ui.window.send_panel import SendPanel


class ConsoleWindow(Protocol):
    """The main window as its panes and dialogs see it."""

    session: Session
    drafts: DraftStore
    tasks: TaskManager
    sender_: SendController
    inspector: InspectorDock
    forms_part: FormsPart
    panel: SendPanel
    environment: EnvironmentPart
    actions_by_name: dict[str, QAction]
    view_menu: QMenu
    environment_menu: QMenu
    persist_drafts: bool

    @property
    def widget(self) -> QMainWindow:
        """The window as a widget: the parent of dialogs, the owner of actions."""
        ...

    @property
    def forms(self) -> LazyForms: ...
    @property
    def form(self) -> CommandForm: ...
    @property
    def command(self) -> str: ...
    @property
    def last_outcome(self) -> Outcome | None: ...

    def show_command(self, name: str) -> None: ...
    def fill_example(self) -> None: ...
    def clear_form(self) -> None: ...
    def send(self) -> None: ...
    def save_drafts(self) -> None: ...
    def show_result(self, state: str, text: str, command: str | None = None) -> None: ...
    def use_in_payout(self, recurring_payment_id: str) -> None: ...
    def add_pane(
        self, widget: QWidget, title: str, area: Qt.DockWidgetArea, shortcut: str = ""
    ) -> QDockWidget: ...
    def restore_layout(self, panes: Sequence[QDockWidget] = ()) -> bool: ...
    def apply_theme(self, name: str) -> None: ...

    def statusBar(self) -> QStatusBar: ...
