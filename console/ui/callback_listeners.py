"""The callback listeners the window runs, one per environment at most, following the
active environment.

A listener is turned on per environment (its callback settings, or the person's choice in the
Callbacks pane for this session); the built-in local sandbox always has one, on a free
loopback port, and the sandbox is started with a merchant control secret made for this window
(:attr:`SecretsAccess.local_control`), so its callbacks are checked too. What arrives is
recorded in the journal by :class:`console.core.callbacks.CallbackRecorder`; its events reach
the views through the journal bridge, in the GUI thread. A listener's control secret is read
from the keyring on a worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from console.core.callbacks import CallbackListener, CallbackListenerError, CallbackRecorder
from console.core.environments import CallbackListenerSettings, Environment

if TYPE_CHECKING:
    from console.core.history import History
    from console.core.history.callback_log import Orders
    from console.ui.history.bridge import JournalBridge
    from console.ui.secrets_access import SecretsAccess
    from console.ui.session import Session
    from console.ui.tasks import TaskManager


class CallbackListeners(QObject):
    """Start, stop and list the listeners; the active environment's follows the session.

    Signals:
        changed: after each start or stop.
        problem(str): a listener could not start.
        address_changed(str, bool): the active environment's listener address ("" when none),
            and whether the form examples call back there (the local sandbox only: a real
            gateway cannot reach this computer unless the person says so).
    """

    changed = Signal()
    problem = Signal(str)
    address_changed = Signal(str, bool)

    def __init__(
        self,
        history: History,
        journal: Orders,
        bridge: JournalBridge,
        session: Session,
        secrets: SecretsAccess,
        tasks: TaskManager,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.history = history
        self.journal = journal  # where a callback's order is found: in team mode the team's
        self.bridge = bridge
        self.session = session
        self.secrets = secrets
        self.tasks = tasks
        self.listeners: dict[str, CallbackListener] = {}
        self._choice: dict[str, bool] = {}  # on/off by the person, this session
        self._reading: set[str] = set()  # environments whose control secret is being read
        session.changed.connect(self.follow_session)

    @property
    def active(self) -> str | None:
        """The active environment's name, or None."""
        env = self.session.environment
        return env.name if env is not None else None

    def url(self, environment: str) -> str | None:
        """The callback address of a running listener, or None."""
        listener = self.listeners.get(environment)
        return listener.url if listener is not None else None

    def follow_session(self) -> None:
        """Listen for the active environment only, as its settings or the person say."""
        env = self.session.environment
        if env is None:
            return
        for name in list(self.listeners):
            if name != env.name:
                self.stop(name)
        wanted = self._choice.get(env.name, env.builtin or env.callback.enabled)
        running = env.name in self.listeners
        if env.builtin and env.base_url and wanted and not running:
            self.start_local(env)
        elif not env.builtin and wanted and not running:
            self._start_reading(env.name)
        url = self.url(env.name) or ""
        self.address_changed.emit(url, bool(env.builtin and url))

    def switch(self, on: bool) -> None:
        """The person turns the active environment's listener on or off (this session)."""
        env = self.session.environment
        if env is None:
            return
        self._choice[env.name] = on
        if not on:
            self.stop(env.name)
        self.follow_session()  # starts it when on

    def _start_reading(self, name: str) -> None:
        """Start the listener once its control secret is read from the keyring (a worker)."""
        if name in self._reading:
            return
        self._reading.add(name)

        def read() -> tuple[Environment, str | None]:
            return self.secrets.store().get(name), self.secrets.vault().merchant_control(name)

        def got(found: tuple[Environment, str | None]) -> None:
            self._reading.discard(name)
            if self.active == name and name not in self.listeners:
                self.start(*found)
                self.follow_session()  # the forms learn the listener's address

        def failed(exc: BaseException, _tb: str) -> None:  # no keyring or unknown environment
            self._reading.discard(name)
            self.problem.emit(f"The callback listener did not start: {exc}")

        self.tasks.run(read, got, failed, owner=self)

    def start(
        self,
        env: Environment,
        merchant_control: str | None,
        settings: CallbackListenerSettings | None = None,
    ) -> CallbackListener | None:
        """Listen for ``env``'s callbacks (restarts a running one); None when it cannot."""
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
        local = CallbackListenerSettings(True, "127.0.0.1", 0)
        return self.start(env, self.secrets.local_control, local)

    def stop(self, environment: str, *, announce: bool = True) -> None:
        listener = self.listeners.pop(environment, None)
        if listener is not None:
            listener.stop()
        if announce:
            self.changed.emit()

    def ask_all_to_stop(self) -> None:
        """Begin stopping every listener (:meth:`stop_all` then waits less)."""
        for listener in self.listeners.values():
            listener.ask_to_stop()

    def stop_all(self) -> None:
        for name in list(self.listeners):
            self.stop(name, announce=False)
        self.changed.emit()
