"""The active environment and its key, for the window.

On a first run (no environment configured, so the local sandbox is active) the built-in
sandbox is started in-process and its demo merchant and key are used; that key stays in
memory only. A configured environment takes its key from the vault (the OS keyring).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from console.core.environments import Environment, EnvKind, local_sandbox, prepare_kwargs

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

    from console.core.environments import EnvironmentStore


LOCAL_SANDBOX_STATE = "local-sandbox.sqlite3"  # in the profile's state folder
IN_MEMORY = (
    "The built-in sandbox keeps this session's orders in memory only (a status check after "
    "a restart will not find them):"
)


def default_placeholder(base_url: str) -> str:
    """The redirect placeholder used when the environment sets none (contract 4.2 rule 6)."""
    return base_url.rstrip("/") + "/redirect-placeholder" if base_url else ""


@dataclass(frozen=True, slots=True)
class LaunchedSandbox:
    """A running in-process sandbox and its demo merchant's key (memory only).

    Attributes:
        note: why its orders are not kept across restarts ("" when they are, or were not
            asked to be).
        lock: the state file's lock, held while it runs (None without a state file).
    """

    handle: Any
    private_key: RSAPrivateKey
    note: str = ""
    lock: Any = None

    def stop(self) -> None:
        """Stop it and free its state file (a sandbox nobody adopted)."""
        self.handle.stop()
        if self.lock is not None:
            self.lock.release()


def _hold(state: Path) -> Any:
    """The lock of the built-in sandbox's state file, or None when another console's
    sandbox runs on it (two sandboxes on one file would both finish its open orders)."""
    import filelock  # boundary: only when the built-in sandbox starts, on its worker

    lock = filelock.FileLock(state.with_name(state.name + ".lock"), timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        return None
    return lock


def sandbox_key() -> RSAPrivateKey:
    """A new 2048-bit key for the built-in sandbox's demo merchant (made at each start: the
    sandbox's merchant is this console's alone)."""
    # boundary: cryptography's key generation, on the worker after the first paint
    from console.core.keys import generate_private_key

    return generate_private_key(2048)


def launch_sandbox(state_path: Path | None = None, **options: Any) -> LaunchedSandbox:
    """Start the sandbox with a fresh demo key. Qt-free, so it runs on a worker thread.

    With ``state_path`` its orders, stored cards and recurring profiles are kept in that file
    across restarts (the journal's History keeps its rows too, so a later status check finds
    them); when another console's sandbox holds the file, or it cannot be used, this one keeps
    them in memory and :attr:`LaunchedSandbox.note` says so.
    """
    # boundary: key generation and the sandbox load on the worker, after the first paint
    from console.sandbox import start_sandbox
    from console.sandbox.state import StateError  # boundary: as above

    key = sandbox_key()  # handed over as it is: the sandbox takes its public half
    lock = None
    if state_path is not None:
        state_path.parent.mkdir(parents=True, exist_ok=True)
        lock = _hold(state_path)
        if lock is None:
            note = f"{IN_MEMORY} another Gateway Console runs it on this profile now."
            handle = start_sandbox(demo_key=key, **options)
            return LaunchedSandbox(handle, key, note)
        try:
            handle = start_sandbox(demo_key=key, state_path=state_path, **options)
        except StateError as exc:
            lock.release()
            handle = start_sandbox(demo_key=key, **options)
            return LaunchedSandbox(handle, key, f"{IN_MEMORY} {exc}")
        return LaunchedSandbox(handle, key, "", lock)
    return LaunchedSandbox(start_sandbox(demo_key=key, **options), key)


class Session(QObject):
    """Holds the active environment and key; owns the in-process sandbox when it started one.

    Other panes (environment manager, key dialog) call :meth:`use` to switch; ``changed``
    tells every view.
    """

    changed = Signal()

    def __init__(self, store: EnvironmentStore | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.environment: Environment | None = None
        self.private_key: RSAPrivateKey | None = None
        self.problem = ""  # why the active environment cannot send, in plain words
        # the built-in sandbox is about to start (first paint): the forms show its hints
        # from the start instead of moving down when it runs
        self.sandbox_coming = False
        self.sandbox: Any = None
        self._state_lock: Any = None

    @property
    def ready(self) -> bool:
        return self.environment is not None and self.private_key is not None

    @property
    def is_production(self) -> bool:
        return self.environment is not None and self.environment.kind is EnvKind.PRODUCTION

    @property
    def redirect_placeholder(self) -> str:
        env = self.environment
        if env is None:
            return ""
        return env.redirect_placeholder or default_placeholder(env.base_url)

    def use(
        self, environment: Environment, private_key: RSAPrivateKey | None, problem: str = ""
    ) -> None:
        """Make ``environment`` (and its key, kept in memory) the active one."""
        self.environment = environment
        self.private_key = private_key
        self.sandbox_coming = False
        self.problem = problem if private_key is None else ""
        self.changed.emit()

    def prepare_kwargs(self, command: str) -> dict[str, Any]:
        """Connection keyword arguments for ``console.core.prepared.prepare``."""
        env = self.environment
        if env is None or self.private_key is None:
            raise RuntimeError(self.problem or "No environment with a key is active.")
        return prepare_kwargs(env, self.private_key, command)

    def start_local_sandbox(self, **options: Any) -> Environment:
        """Start the built-in sandbox now (blocking) and use it; see :func:`launch_sandbox`."""
        return self.adopt_sandbox(launch_sandbox(**options))

    def adopt_sandbox(self, launched: LaunchedSandbox) -> Environment:
        """Use a sandbox started by :func:`launch_sandbox` (on a worker) as the environment."""
        self.stop_sandbox()
        self.sandbox = launched.handle
        self._state_lock = launched.lock
        demo = launched.handle.demo
        args = (
            str(launched.handle.base_url),
            str(demo.login),
            str(demo.endpoint_id),
            str(demo.endpoint_group_id or ""),
        )
        env = (
            self.store.attach_local_sandbox(*args, private_key=launched.private_key)
            if self.store is not None
            else local_sandbox(*args)
        )
        self.use(env, launched.private_key)
        return env

    def transport(self) -> Any:
        """A fresh transport with the active environment's timeouts and CA bundle."""
        from console.core.transport import Timeouts, Transport  # boundary: HTTP, first use

        env = self.environment
        if env is None:
            raise RuntimeError("No environment is active.")
        return Transport(
            timeouts=Timeouts(connect=env.connect_timeout, read=env.read_timeout),
            verify=env.verify,
        )

    def ask_sandbox_to_stop(self) -> None:
        """Begin stopping the in-process sandbox, if this session started one."""
        if self.sandbox is not None:
            self.sandbox.ask_to_stop()

    def stop_sandbox(self) -> None:
        """Stop the in-process sandbox, if this session started one."""
        if self.sandbox is not None:
            self.sandbox.stop()
            self.sandbox = None
        if self._state_lock is not None:  # its state file is free for the next start
            self._state_lock.release()
            self._state_lock = None
