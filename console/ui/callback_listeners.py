"""The callback listeners the window runs, one per environment at most.

A listener is turned on per environment (its callback settings); the built-in local sandbox
always has one, on a free loopback port, and the sandbox is started with a merchant control
secret made for this window, so its callbacks are checked too. What arrives is recorded
in the journal by :class:`console.core.callbacks.CallbackRecorder`; its events reach the
views through the journal bridge, in the GUI thread.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from console.core.environments import CallbackListenerSettings

if TYPE_CHECKING:
    from console.core.callbacks import CallbackListener
    from console.core.environments import Environment
    from console.core.history import History
    from console.core.history.callback_log import Orders
    from console.ui.history.bridge import JournalBridge


class CallbackListeners(QObject):
    """Start, stop and list the listeners; ``changed`` after each start or stop."""

    changed = Signal()
    problem = Signal(str)

    def __init__(
        self,
        history: History,
        bridge: JournalBridge,
        parent: QObject | None = None,
        journal: Orders | None = None,
    ):
        super().__init__(parent)
        self.history = history
        self.journal = journal  # where a callback's order is found: in team mode the team's
        self.bridge = bridge
        self.listeners: dict[str, CallbackListener] = {}
        # The local sandbox signs its callbacks with this; it lives as long as the window.
        self.local_control = secrets.token_hex(16)

    def url(self, environment: str) -> str | None:
        """The callback address of a running listener, or None."""
        listener = self.listeners.get(environment)
        return listener.url if listener is not None else None

    def start(
        self,
        env: Environment,
        merchant_control: str | None,
        settings: CallbackListenerSettings | None = None,
    ) -> CallbackListener | None:
        """Listen for ``env``'s callbacks (restarts a running one); None when it cannot."""
        from console.core.callbacks import CallbackListener, CallbackListenerError, CallbackRecorder

        self.stop(env.name, announce=False)
        where = settings or env.callback
        recorder = CallbackRecorder(self.history, env.name, merchant_control, journal=self.journal)
        recorder.subscribe(self.bridge.on_callback)
        listener = CallbackListener(recorder, where.host, where.port)
        try:
            listener.start()
        except CallbackListenerError as exc:
            self.problem.emit(str(exc))
            self.changed.emit()
            return None
        self.listeners[env.name] = listener
        self.changed.emit()
        return listener

    def start_local(self, env: Environment) -> CallbackListener | None:
        """The local sandbox's listener: a free loopback port, the window's own secret."""
        return self.start(env, self.local_control, CallbackListenerSettings(True, "127.0.0.1", 0))

    def stop(self, environment: str, *, announce: bool = True) -> None:
        listener = self.listeners.pop(environment, None)
        if listener is not None:
            listener.stop()
        if announce:
            self.changed.emit()

    def stop_all(self) -> None:
        for name in list(self.listeners):
            self.stop(name, announce=False)
        self.changed.emit()
