"""Environment > Manage environments: list, add, edit, remove, use.

The local sandbox is listed first and cannot be edited (its address is set when it starts).
A changed production base URL (or a switch to production) asks for confirmation before it
is saved: real money would go somewhere new.

Listing and choosing read only the environments file. Saving, renaming and removing also
write the OS keyring (the merchant control secret, the secrets that move with a rename or go
with a removal), which may take seconds or ask for a password: they run on the window's task
manager, with "Saving…" shown and the list and its buttons off until the answer arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from console.core.environments import (
    ConfirmationRequiredError,
    Environment,
    EnvironmentStoreError,
    EnvKind,
    FieldProblem,
    InvalidEnvironmentError,
)
from console.ui.confirm import ask
from console.ui.environment_form import EnvironmentForm
from console.ui.screen_room import fit_on_screen
from console.ui.secrets_access import SecretsAccess
from console.ui.tasks import TaskManager
from console.ui.team.policy_line import policy_line
from console.ui.theme import state_colour

_T = TypeVar("_T")

_KIND_WORDS = {
    EnvKind.LOCAL_SANDBOX: "built in",
    EnvKind.SANDBOX: "sandbox",
    EnvKind.PRODUCTION: "PRODUCTION",
}


BUILTIN_RUNNING = (
    "The local sandbox is built in: it runs inside this window, at the address and with the "
    "demo merchant shown, and its demo key lives in memory only. Add a sandbox environment "
    "for a gateway you run yourself."
)
BUILTIN_NOT_RUNNING = (
    "The local sandbox is built in and not running now: its address, merchant and demo key "
    "are set when it starts (Use this environment starts it). Add a sandbox environment for "
    "a gateway you run yourself."
)


def _not_saved(found: list[FieldProblem]) -> str:
    return "Not saved. " + " ".join(f"{p.field}: {p.message}" for p in found)


def _keep_control_secret(secrets: SecretsAccess, name: str, secret: str) -> str:
    """Keep ``name``'s merchant control secret in the vault (a worker's call); "" when kept
    or none was given, else why not (the environment's settings are saved regardless)."""
    if not secret:
        return ""
    try:
        secrets.vault().set_merchant_control(name, secret)
    except Exception as exc:  # no keyring: say so; the settings themselves are saved
        return f"Saved {name}, but the merchant control secret was not kept: {exc}"
    return ""


def ask_confirmation(parent: QWidget, text: str) -> bool:
    """Ask before a production environment's address changes; Cancel is the default."""
    return ask(parent, text, title="Production address", action="Save the new address")


class EnvironmentsDialog(QDialog):
    """The environment manager. ``use_requested(name)`` / ``keys_requested(name)`` ask the
    window to switch environment or open the key dialog."""

    use_requested = Signal(str)
    keys_requested = Signal(str)

    def __init__(
        self,
        secrets: SecretsAccess,
        parent: QWidget | None = None,
        tasks: TaskManager | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("environments-dialog")
        self.setWindowTitle("Environments")
        self.secrets = secrets
        self.store = secrets.environments_file()  # changes go through secrets.store() on a worker
        self.tasks = tasks if tasks is not None else TaskManager(self)
        self._held: dict[QWidget, bool] = {}  # what was on before a change went to the keyring
        self.confirm: Callable[[QWidget, str], bool] = ask_confirmation
        self.list = QListWidget()
        self.list.setAccessibleName("Environments")
        self.list.setMinimumWidth(200)
        self.form = EnvironmentForm()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        self.builtin_note = QLabel(BUILTIN_RUNNING)
        self.builtin_note.setWordWrap(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleDescription("Result")
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        self.save_button = QPushButton("Save")
        self.save_button.setDefault(True)
        self.use_button = QPushButton("Use this environment")
        self.keys_button = QPushButton("Keys…")
        close = QPushButton("Close")
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        left.addLayout(buttons)
        right = QVBoxLayout()
        right.addWidget(self.builtin_note)
        right.addWidget(scroll, 1)
        right.addWidget(self.message)
        self.policy = policy_line(self.tasks)  # team mode: the environment's approval policy
        if self.policy is not None:
            right.addWidget(self.policy)
        actions = QHBoxLayout()
        actions.addWidget(self.save_button)
        actions.addWidget(self.use_button)
        actions.addWidget(self.keys_button)
        actions.addStretch(1)
        actions.addWidget(close)
        right.addLayout(actions)
        lay = QHBoxLayout(self)
        lay.addLayout(left)
        lay.addLayout(right, 1)
        self.add_button.clicked.connect(self.new_environment)
        self.remove_button.clicked.connect(self.remove_current)
        self.save_button.clicked.connect(self.save)
        self.use_button.clicked.connect(lambda: self.use_requested.emit(self.current_name()))
        self.keys_button.clicked.connect(lambda: self.keys_requested.emit(self.current_name()))
        close.clicked.connect(self.accept)
        self.list.currentItemChanged.connect(lambda *_: self._show_current())
        self._editing: str | None = None  # name of the stored environment in the form
        fit_on_screen(self, 940, 640)
        self.reload()

    # -- list ---------------------------------------------------------------------------------
    def reload(self, select: str | None = None) -> None:
        """Read the environments again and select ``select`` (or the first)."""
        try:
            envs = self.store.environments()
        except EnvironmentStoreError as exc:
            self.show_problem(str(exc))
            envs = []
        self.list.blockSignals(True)
        self.list.clear()
        for env in envs:
            item = QListWidgetItem(f"{env.name}  ({_KIND_WORDS[env.kind]})")
            item.setData(Qt.ItemDataRole.UserRole, env)
            self.list.addItem(item)
        self.list.blockSignals(False)
        names = [e.name for e in envs]
        self.list.setCurrentRow(names.index(select) if select in names else 0)
        self._show_current()

    def current_name(self) -> str:
        item = self.list.currentItem()
        env = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return env.name if isinstance(env, Environment) else ""

    def _show_current(self) -> None:
        item = self.list.currentItem()
        env = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not isinstance(env, Environment):
            return
        builtin = env.builtin
        running = self.secrets.local_environment if builtin else None
        if running is not None and running.base_url:
            env = running  # its address and merchant as it runs now
        self.form.load(env)
        self.builtin_note.setText(BUILTIN_RUNNING if env.base_url else BUILTIN_NOT_RUNNING)
        self._editing = None if builtin else env.name
        self.form.set_read_only(builtin)  # to read: full contrast, not a disabled grey
        self.builtin_note.setVisible(builtin)
        self.remove_button.setEnabled(not builtin)
        self.save_button.setEnabled(not builtin)
        self.keys_button.setEnabled(not builtin)
        self.use_button.setEnabled(True)
        self.show_problem("")
        if self.policy is not None:
            self.policy.show_for(env)

    def local_changed(self) -> None:
        """The window's environment changed: the built-in sandbox, when shown, may have
        started meanwhile (its address and merchant are known only then)."""
        item = self.list.currentItem()
        env = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if isinstance(env, Environment) and env.builtin and not self.busy:
            self._show_current()

    def new_environment(self) -> None:
        """An empty sandbox environment in the form, to fill and save."""
        self.list.clearSelection()
        self._editing = None
        self.form.set_read_only(False)
        self.builtin_note.setVisible(False)
        self.form.load(Environment(name="", kind=EnvKind.SANDBOX))
        for button in (self.save_button, self.remove_button, self.use_button):
            button.setEnabled(button is self.save_button)
        self.keys_button.setEnabled(False)
        self.form.name.setFocus()
        self.show_problem("", "New environment: fill it in and Save.")

    # -- changes ------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """True while a change is being written (the file and the keyring)."""
        return bool(self._held)

    def _begin(self, doing: str) -> None:
        """The list, the form and the buttons off while the change is written."""
        stale = (self.list, self.form, self.add_button, self.remove_button, self.save_button)
        self._held = {w: w.isEnabled() for w in (*stale, self.use_button, self.keys_button)}
        for widget in self._held:
            widget.setEnabled(False)
        colour = state_colour("busy", self.palette()).name()
        self.message.setText(f"<span style='color:{colour}'>{doing}</span>")

    def _end(self) -> None:
        for widget, enabled in self._held.items():
            widget.setEnabled(enabled)
        self._held = {}

    def _change(
        self,
        doing: str,
        work: Callable[[], _T],
        done: Callable[[_T], None],
        failed: Callable[[BaseException], None],
    ) -> bool:
        """Run ``work`` (it writes the file and the keyring) on a worker; then ``done(result)``
        or ``failed(exc)`` with the dialog usable again."""
        self._begin(doing)

        def finished(result: _T) -> None:
            self._end()
            done(result)

        def broke(exc: BaseException, _tb: str) -> None:
            self._end()
            failed(exc)

        if self.tasks.run(work, finished, broke, owner=self):
            return True
        self._end()
        self.show_problem("The window is closing: nothing was changed.")
        return False

    def save(self) -> bool:
        """Add or update the environment in the form. False when the form has mistakes (they
        are shown); True when the save is under way: the result line says how it ended."""
        self.form.mark_attempted()
        found = self.form.current_problems()
        if found:
            self.show_problem(_not_saved(found))
            return False
        return self._store(self.form.environment(), self._editing, confirm=False)

    def _store(self, env: Environment, editing: str | None, *, confirm: bool) -> bool:
        secrets, secret = self.secrets, self.form.control_secret.text()

        def work() -> tuple[Environment, str]:
            store = secrets.store()
            saved = (
                store.add(env) if editing is None else store.update(editing, env, confirm=confirm)
            )
            return saved, _keep_control_secret(secrets, saved.name, secret)

        def done(result: tuple[Environment, str]) -> None:
            saved, note = result
            self.reload(saved.name)
            self.show_problem(note, f"Saved {saved.name}." if not note else "")

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ConfirmationRequiredError) and not confirm:
                if self.confirm(self, str(exc)):
                    self._store(env, editing, confirm=True)
                else:
                    self.show_problem("Not saved: the production address was not changed.")
            elif isinstance(exc, InvalidEnvironmentError):
                self.show_problem(_not_saved(exc.problems))
            else:
                self.show_problem(f"Not saved: {exc}")

        return self._change("Saving…", work, done, failed)

    def remove_current(self) -> None:
        name = self._editing
        if name is None:
            return
        question = f"Remove {name!r} and its key and control secret from this computer?"
        if not ask(self, question, title="Remove environment", action="Remove"):
            return
        self.remove(name)

    def remove(self, name: str) -> bool:
        """Forget ``name`` and its secrets; True when the removal is under way."""
        secrets = self.secrets

        def done(_result: None) -> None:
            self.reload()
            self.show_problem("", f"Removed {name}.")

        def failed(exc: BaseException) -> None:
            self.show_problem(
                str(exc) if isinstance(exc, EnvironmentStoreError) else f"Not removed: {exc}"
            )

        return self._change(f"Removing {name}…", lambda: secrets.store().remove(name), done, failed)

    def show_problem(self, problem: str, fine: str = "") -> None:
        """A problem in red, or a plain confirmation."""
        state, text = ("error", problem) if problem else ("fine", fine)
        colour = state_colour(state, self.palette()).name()
        self.message.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
