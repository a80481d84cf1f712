"""Environment menu actions: the environment manager and the key dialog, and switching the
window to another environment (its key is read from the keyring on a worker)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from console.ui.environments_dialog import EnvironmentsDialog
    from console.ui.key_dialog import KeyDialog
    from console.ui.secrets_access import SecretsAccess
    from console.ui.window.host import ConsoleWindow


class JournalWiring(Protocol):
    """What these actions need of the window's journal wiring: the window and the keyring."""

    @property
    def window(self) -> ConsoleWindow: ...

    @property
    def secrets(self) -> SecretsAccess: ...


def activate(
    wiring: JournalWiring, name: str, said: Callable[[str], None] = lambda _problem: None
) -> None:
    """Make ``name`` the window's environment; ``said``: "" or why it cannot send yet."""
    session = wiring.window.session
    secrets = wiring.secrets
    local = secrets.local_environment
    store = secrets.environments_file()  # the key itself is read on a worker
    store.set_active(name)
    if local is not None and name == local.name:
        session.use(local, secrets.local_key)
        said("")
        return
    wiring.window.environment.switch_to(store.get(name), lambda: secrets.connection(name), said)


def open_environments(wiring: JournalWiring) -> EnvironmentsDialog:
    """Environment > Manage environments…"""
    from console.ui.environments_dialog import EnvironmentsDialog

    dialog = EnvironmentsDialog(wiring.secrets, wiring.window.widget, tasks=wiring.window.tasks)
    dialog.use_requested.connect(lambda name: activate(wiring, name, dialog.show_problem))
    dialog.keys_requested.connect(lambda name: open_keys(wiring, name))
    dialog.show()
    return dialog


def open_keys(wiring: JournalWiring, environment: str | None = None) -> KeyDialog:
    """Environment > Keys… (for the active environment unless another is named)."""
    from console.ui.key_dialog import KeyDialog

    window = wiring.window
    env = window.session.environment
    name = environment or (env.name if env else None)
    dialog = KeyDialog(wiring.secrets, name, window.widget, tasks=window.tasks)

    def key_changed(changed: str) -> None:
        active = window.session.environment
        if active is not None and active.name == changed and not active.builtin:
            activate(wiring, changed)  # the window signs with the new key at once

    dialog.key_changed.connect(key_changed)
    dialog.show()
    return dialog
