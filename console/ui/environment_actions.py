"""Environment menu actions: the environment manager and the key dialog, and switching the
window to another environment."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.ui.environments_dialog import EnvironmentsDialog
    from console.ui.history.wiring import JournalWiring
    from console.ui.key_dialog import KeyDialog


def activate(wiring: JournalWiring, name: str) -> str:
    """Make ``name`` the window's environment; returns "" or why it cannot send yet."""
    session = wiring.window.session
    secrets = wiring.secrets
    local = secrets.local_environment
    store = secrets.store()
    store.set_active(name)
    if local is not None and name == local.name:
        session.use(local, secrets.local_key)
        return ""
    env = store.get(name)
    if env.builtin:  # chosen before it ever ran in this window: start it now
        from console.ui.window_environment import start_local_sandbox

        # nothing goes to the environment left behind while the sandbox starts
        session.use(env, None, "The built-in sandbox is starting…")
        start_local_sandbox(wiring.window)
        return ""
    try:
        conn = secrets.connection(name)
    except Exception as exc:  # no key or no keyring: the environment shows, Send stays off
        problem = f"No key: {exc}"
        session.use(env, None, problem)
        return problem
    session.use(conn.environment, conn.private_key)
    return ""


def open_environments(wiring: JournalWiring) -> EnvironmentsDialog:
    """Environment > Manage environments…"""
    from console.ui.environments_dialog import EnvironmentsDialog

    dialog = EnvironmentsDialog(wiring.secrets, wiring.window)
    dialog.use_requested.connect(lambda name: dialog.show_problem(activate(wiring, name)))
    dialog.keys_requested.connect(lambda name: open_keys(wiring, name))
    dialog.show()
    return dialog


def open_keys(wiring: JournalWiring, environment: str | None = None) -> KeyDialog:
    """Environment > Keys… (for the active environment unless another is named)."""
    from console.ui.key_dialog import KeyDialog

    env = wiring.window.session.environment
    dialog = KeyDialog(wiring.secrets, environment or (env.name if env else None), wiring.window)

    def key_changed(name: str) -> None:
        active = wiring.window.session.environment
        if active is not None and active.name == name and not active.builtin:
            activate(wiring, name)  # the window signs with the new key at once

    dialog.key_changed.connect(key_changed)
    dialog.show()
    return dialog
