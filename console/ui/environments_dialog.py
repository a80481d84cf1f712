"""Environment > Manage environments: list, add, edit, remove, use.

The local sandbox is listed first and cannot be edited (its address is set when it starts).
A changed production base URL (or a switch to production) asks for confirmation before it
is saved: real money would go somewhere new.
"""

from __future__ import annotations

from collections.abc import Callable

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
    InvalidEnvironmentError,
)
from console.ui.confirm import ask
from console.ui.environment_form import EnvironmentForm
from console.ui.secrets_access import SecretsAccess
from console.ui.tasks import TaskManager
from console.ui.team.policy_line import policy_line
from console.ui.theme import state_colour

_KIND_WORDS = {
    EnvKind.LOCAL_SANDBOX: "built in",
    EnvKind.SANDBOX: "sandbox",
    EnvKind.PRODUCTION: "PRODUCTION",
}


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
        self.store = secrets.store()
        self.confirm: Callable[[QWidget, str], bool] = ask_confirmation
        self.list = QListWidget()
        self.list.setAccessibleName("Environments")
        self.list.setMinimumWidth(200)
        self.form = EnvironmentForm()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        self.builtin_note = QLabel(
            "The local sandbox is built in: it starts with the window and its address and "
            "demo key are set then. Add a sandbox environment for a gateway you run yourself."
        )
        self.builtin_note.setWordWrap(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Result")
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
        self.policy = policy_line(tasks)  # team mode: the environment's approval policy
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
        self.resize(980, 720)
        self.reload()

    # -- list ---------------------------------------------------------------------------------
    def reload(self, select: str | None = None) -> None:
        """Read the environments again and select ``select`` (or the first)."""
        try:
            envs = self.store.environments()
        except EnvironmentStoreError as exc:
            self.show_problem(str(exc))
            envs = []
        local = self.secrets.local_environment
        self.list.blockSignals(True)
        self.list.clear()
        for env in envs:
            shown = local if env.builtin and local is not None else env
            item = QListWidgetItem(f"{env.name}  ({_KIND_WORDS[env.kind]})")
            item.setData(Qt.ItemDataRole.UserRole, shown)
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
        self.form.load(env)
        builtin = env.builtin
        self._editing = None if builtin else env.name
        self.form.setEnabled(not builtin)
        self.builtin_note.setVisible(builtin)
        self.remove_button.setEnabled(not builtin)
        self.save_button.setEnabled(not builtin)
        self.keys_button.setEnabled(not builtin)
        self.use_button.setEnabled(True)
        self.show_problem("")
        if self.policy is not None:
            self.policy.show_for(env.name)

    def new_environment(self) -> None:
        """An empty sandbox environment in the form, to fill and save."""
        self.list.clearSelection()
        self._editing = None
        self.form.setEnabled(True)
        self.builtin_note.setVisible(False)
        self.form.load(Environment(name="", kind=EnvKind.SANDBOX))
        for button in (self.save_button, self.remove_button, self.use_button):
            button.setEnabled(button is self.save_button)
        self.keys_button.setEnabled(False)
        self.form.name.setFocus()
        self.show_problem("", "New environment: fill it in and Save.")

    # -- changes ------------------------------------------------------------------------------
    def save(self) -> bool:
        """Add or update the environment in the form; True when stored."""
        self.form.mark_attempted()
        env = self.form.environment()
        try:
            if self._editing is None:
                saved = self.store.add(env)
            else:
                try:
                    saved = self.store.update(self._editing, env)
                except ConfirmationRequiredError as exc:
                    if not self.confirm(self, str(exc)):
                        self.show_problem("Not saved: the production address was not changed.")
                        return False
                    saved = self.store.update(self._editing, env, confirm=True)
        except InvalidEnvironmentError as exc:
            self.show_problem(
                "Not saved. " + " ".join(f"{p.field}: {p.message}" for p in exc.problems)
            )
            return False
        except EnvironmentStoreError as exc:
            self.show_problem(f"Not saved: {exc}")
            return False
        note = self._save_control_secret(saved.name)
        self.reload(saved.name)
        self.show_problem(note, f"Saved {saved.name}." if not note else "")
        return True

    def _save_control_secret(self, name: str) -> str:
        secret = self.form.control_secret.text()
        if not secret:
            return ""
        try:
            self.secrets.vault().set_merchant_control(name, secret)
        except Exception as exc:  # no keyring: say so; the settings themselves are saved
            return f"Saved {name}, but the merchant control secret was not kept: {exc}"
        return ""

    def remove_current(self) -> None:
        name = self._editing
        if name is None:
            return
        question = f"Remove {name!r} and its key and control secret from this computer?"
        if not ask(self, question, title="Remove environment", action="Remove"):
            return
        self.remove(name)

    def remove(self, name: str) -> None:
        try:
            self.store.remove(name)
        except EnvironmentStoreError as exc:
            self.show_problem(str(exc))
            return
        self.reload()
        self.show_problem("", f"Removed {name}.")

    def show_problem(self, problem: str, fine: str = "") -> None:
        """A problem in red, or a plain confirmation."""
        state, text = ("error", problem) if problem else ("fine", fine)
        colour = state_colour(state, self.palette()).name()
        self.message.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
