"""The active environment in the window: the banner and the title (PRODUCTION loud), the
forms' hints, switching to another environment (its key read from the keyring on a worker),
and the built-in local sandbox started on a worker. Moving to another environment leaves
behind what belongs to the old one."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Signal

from console import APP_NAME
from console.ui.session import LaunchedSandbox, launch_sandbox

if TYPE_CHECKING:
    from console.core.environments import Connection, Environment
    from console.ui.banner import EnvironmentBanner
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.journal_part import JournalPart
    from console.ui.window.send_panel import SendPanel


KEYS_IN_THE_WINDOW = "In this window: Environment → Keys… (Ctrl+Shift+K)."


def window_words(exc: BaseException) -> str:
    """Why an environment has no key, in the window's words: its own way to add one, not
    the command line's."""
    # NoKeyError's words without the command line's way (console.core.vault is not
    # imported here: it loads the OS keyring's library, ~130 ms, not wanted at start)
    plain = getattr(exc, "plain", None)
    return f"{plain} {KEYS_IN_THE_WINDOW}" if isinstance(plain, str) else str(exc)


class EnvironmentPart(QObject):
    """Follows the session; starts the built-in sandbox; switches environments.

    Signals:
        title_changed(str): the window title for the active environment.
        problem(str): something a person must know (the sandbox did not start...).
    """

    title_changed = Signal(str)
    problem = Signal(str)

    def __init__(
        self,
        session: Session,
        banner: EnvironmentBanner,
        forms: FormsPart,
        panel: SendPanel,
        journal: JournalPart,
        tasks: TaskManager,
        sandbox_control: str,
        sandbox_state: Path | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.banner = banner
        self.forms = forms
        self.panel = panel
        self.journal = journal
        self.tasks = tasks
        self.sandbox_control = sandbox_control  # the built-in sandbox signs its callbacks
        self.sandbox_state = sandbox_state  # where it keeps its orders across restarts
        self.shown: str | None = None  # whose values the forms hold
        self.closed = False
        session.changed.connect(self.session_changed)

    def session_changed(self) -> None:
        """Show the active environment: banner, title, hints, Send."""
        env = self.session.environment
        name = env.name if env is not None else None
        if name != self.shown:
            if self.shown is not None:
                self.panel.forget_environment()
                self.forms.leave_environment()
            self.shown = name
        self.banner.show_environment(env, self.session.problem)
        title = APP_NAME if env is None else f"{APP_NAME} — {env.name}"
        self.title_changed.emit(title + (" — PRODUCTION" if self.session.is_production else ""))
        self.forms.refresh_environment()
        self.panel.update_send()

    # -- the built-in sandbox ----------------------------------------------------------------
    def start_local_sandbox(self, **options: Any) -> None:
        """Start the built-in sandbox on a worker; the window is usable meanwhile. It waits
        for the journal (opened on a worker too), so the window's callback listener is in
        place for its callbacks; an unavailable journal does not keep it from starting."""
        self.banner.show_starting()
        self.journal.open_in_background()
        self.journal.when_settled(lambda: self._launch(options))

    def _launch(self, options: dict[str, Any]) -> None:
        options = {
            "merchant_control": self.sandbox_control,
            "state_path": self.sandbox_state,
            **options,
        }
        self.tasks.run(
            lambda: launch_sandbox(**options),
            self._sandbox_started,
            lambda exc, _tb: self.problem.emit(f"The local sandbox could not start: {exc}"),
        )

    def _sandbox_started(self, launched: object) -> None:
        assert isinstance(launched, LaunchedSandbox)
        if self.closed:  # closed while it was starting: do not leave it running
            launched.stop()
            return
        self.session.adopt_sandbox(launched)
        if launched.note:
            self.problem.emit(launched.note)

    def wait_ready(self, msecs: int) -> bool:
        """Process events until an environment with a key is active (screenshots, tests)."""
        deadline = time.monotonic() + msecs / 1000
        app = QCoreApplication.instance()
        while not self.session.ready and time.monotonic() < deadline and app is not None:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.005)
        return self.session.ready

    # -- switching ---------------------------------------------------------------------------
    def switch_to(
        self,
        env: Environment,
        connect: Callable[[], Connection],
        said: Callable[[str], None] = lambda _problem: None,
    ) -> None:
        """Make ``env`` active. Its key comes from the keyring on a worker (``connect``);
        meanwhile nothing can go to the environment left behind. ``said``: "" or why it
        cannot send."""
        if env.builtin:  # chosen before it ever ran in this window: start it now
            self.session.use(env, None, "The built-in sandbox is starting…")
            self.start_local_sandbox()
            said("")
            return
        self.session.use(env, None, "Reading the key from the keyring…")

        def connected(conn: Connection) -> None:
            if self.session.environment is not None and self.session.environment.name != env.name:
                return  # another environment was chosen meanwhile
            self.session.use(conn.environment, conn.private_key)
            said("")

        def failed(exc: BaseException, _tb: str) -> None:
            problem = f"No key: {window_words(exc)}"
            if self.session.environment is not None and self.session.environment.name == env.name:
                self.session.use(env, None, problem)
            said(problem)

        self.tasks.run(connect, connected, failed)
