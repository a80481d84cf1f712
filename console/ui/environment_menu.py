"""The Environment menu: the environment manager and the key dialog, and switching the
window to another environment (its key is read from the keyring on a worker). The dialogs'
modules load when first opened."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from console.ui.environments_dialog import EnvironmentsDialog
    from console.ui.key_dialog import KeyDialog
    from console.ui.menus import Menus
    from console.ui.secrets_access import SecretsAccess
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.environment_part import EnvironmentPart


class EnvironmentMenu(QObject):
    """Environment > Manage environments… and Keys…; remembers the running local sandbox
    (and its demo key) so choosing it again needs no keyring."""

    def __init__(
        self,
        menus: Menus,
        secrets: SecretsAccess,
        session: Session,
        environment: EnvironmentPart,
        tasks: TaskManager,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.secrets = secrets
        self.session = session
        self.environment = environment
        self.tasks = tasks
        self.parent_widget = parent
        menu = menus.environment
        menu.addAction(
            menus.action(
                "environments", "&Manage environments…", "Ctrl+Shift+E", self.open_environments
            )
        )
        menu.addAction(menus.action("keys", "&Keys…", "Ctrl+Shift+K", lambda: self.open_keys()))
        session.changed.connect(self._session_changed)

    def _session_changed(self) -> None:
        env = self.session.environment
        if env is not None and env.builtin:
            self.secrets.remember_local(env, self.session.private_key)

    def activate(self, name: str, said: Callable[[str], None] = lambda _problem: None) -> None:
        """Make ``name`` the window's environment; ``said``: "" or why it cannot send yet."""
        secrets = self.secrets
        local = secrets.local_environment
        store = secrets.environments_file()  # the key itself is read on a worker
        store.set_active(name)
        if local is not None and name == local.name:
            self.session.use(local, secrets.local_key)
            said("")
            return
        self.environment.switch_to(store.get(name), lambda: secrets.connection(name), said)

    def open_environments(self) -> EnvironmentsDialog:
        """Environment > Manage environments…"""
        from console.ui.environments_dialog import EnvironmentsDialog  # boundary: first opened

        dialog = EnvironmentsDialog(self.secrets, self.parent_widget, tasks=self.tasks)
        dialog.use_requested.connect(lambda name: self.activate(name, dialog.show_problem))
        dialog.keys_requested.connect(self.open_keys)
        self.session.changed.connect(dialog.local_changed)  # the built-in sandbox started
        dialog.show()
        return dialog

    def open_keys(self, environment: str | None = None) -> KeyDialog:
        """Environment > Keys… (for the active environment unless another is named)."""
        from console.ui.key_dialog import KeyDialog  # boundary: first opened

        env = self.session.environment
        name = environment or (env.name if env else None)
        dialog = KeyDialog(self.secrets, name, self.parent_widget, tasks=self.tasks)
        dialog.key_changed.connect(self._key_changed)
        dialog.show()
        return dialog

    def _key_changed(self, changed: str) -> None:
        active = self.session.environment
        if active is not None and active.name == changed and not active.builtin:
            self.activate(changed)  # the window signs with the new key at once
