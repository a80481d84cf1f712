"""Environment > Keys: one private key per environment, kept in the OS keyring.

Import a PEM (PKCS#1 or PKCS#8, encrypted ones with a passphrase asked for once), generate a
2048/3072/4096-bit key, see its size and fingerprint, export the public key PEM to hand to
the gateway, delete. With no OS keyring the core's message says what to install, and the
only other way is the explicit choice to keep keys in memory for this session.

The OS keyring may take seconds to answer or ask for a password, so every read and write of
it runs on the window's task manager: meanwhile the dialog says what it is doing and the
buttons that would act on what it shows are off; the answer (or the failure) is shown when
it arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from console.core.keys import KeyProblem, fingerprint, public_key_pem
from console.core.vault import (
    KEY_SIZES,
    KeyExistsError,
    KeyInfo,
    KeyringUnavailableError,
    VaultError,
)
from console.ui.confirm import ask
from console.ui.inspector.widgets import CopyBlock
from console.ui.screen_room import fit_on_screen
from console.ui.secrets_access import SecretsAccess
from console.ui.speech import label_unseen
from console.ui.tasks import TaskManager
from console.ui.theme import state_colour

_T = TypeVar("_T")

SESSION_ONLY = (
    "Keys are kept in memory for this session only: they are forgotten when the console "
    "closes, and nothing is written to disk."
)

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey


@dataclass(frozen=True, slots=True)
class KeyState:
    """What the keyring says about one environment's key.

    Attributes:
        unavailable: no OS keyring: the core's words on what to install ("" when there is one).
        info: the stored key's size, fingerprint and public half; None when there is none.
        problem: why the stored key cannot be read ("" when it can).
    """

    environment: str
    unavailable: str = ""
    info: KeyInfo | None = None
    problem: str = ""

    @property
    def ready(self) -> bool:
        return not self.unavailable


def read_key(secrets: SecretsAccess, name: str) -> KeyState:
    """Open the vault and read ``name``'s key (a worker's call: the keyring may be slow)."""
    try:
        vault = secrets.vault()
    except KeyringUnavailableError as exc:
        return KeyState(name, unavailable=str(exc))
    if not name:
        return KeyState(name)
    try:
        return KeyState(name, info=vault.key_info(name))
    except (VaultError, KeyProblem) as exc:
        return KeyState(name, problem=str(exc))


def ask_passphrase(parent: QWidget, name: str) -> str | None:
    text, ok = QInputDialog.getText(
        parent,
        "Passphrase",
        f"{name} is encrypted. Its passphrase (asked once, never stored):",
        QLineEdit.EchoMode.Password,
    )
    return text if ok else None


def ask_yes(parent: QWidget, text: str) -> bool:
    """Ask before replacing or deleting a key; Cancel is the default answer."""
    return ask(parent, text, title="Keys", action="Yes")


MEMORY_MEANS = (
    "Without an OS keyring the console can still sign: keys you import or generate now are "
    "kept in this console's memory only, never written to disk, and forgotten when it "
    "closes (import or generate them again next time)."
)


def fingerprint_line(value: str) -> str:
    """The fingerprint on a line of its own, never broken in the middle (people compare it
    with the gateway's)."""
    return f"fingerprint (SHA-256) <span style='white-space:nowrap'>{value}</span>"


class KeyDialog(QDialog):
    """The key of one environment at a time. ``key_changed(name)`` after import, generate
    or delete, so the window can sign with the new key."""

    key_changed = Signal(str)

    def __init__(
        self,
        secrets: SecretsAccess,
        environment: str | None,
        parent: QWidget | None = None,
        tasks: TaskManager | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("key-dialog")
        self.setWindowTitle("Keys")
        self.secrets = secrets
        self.tasks = tasks if tasks is not None else TaskManager(self)
        self.state: KeyState | None = None  # None while the keyring is being read
        self._reads = 0  # the latest read: an older answer is for a choice no longer shown
        self._acting = False  # an import, generation, export or deletion is under way
        self.ask_passphrase: Callable[[QWidget, str], str | None] = ask_passphrase
        self.confirm: Callable[[QWidget, str], bool] = ask_yes
        self.environment = QComboBox()
        self.environment.setAccessibleName("Environment")
        self.keyring_note = QLabel()
        self.keyring_note.setWordWrap(True)
        self.keyring_note.setAccessibleDescription("Keyring")
        self.memory_button = QPushButton("Keep keys in memory for this session only")
        self.memory_button.setToolTip(MEMORY_MEANS)
        self.memory_button.clicked.connect(self.keep_in_memory)
        self.memory_note = QLabel(MEMORY_MEANS)  # what the choice means, beside it
        self.memory_note.setWordWrap(True)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setAccessibleDescription("Key")
        # two lines always (size and fingerprint, or why there is no key): a key generated
        # or deleted changes the words, never the height of what follows
        self.info.setMinimumHeight(2 * self.info.fontMetrics().lineSpacing())
        self.public = CopyBlock("Public key (hand this to the gateway)", lines=6)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleDescription("Result")
        self.bits = QComboBox()
        for bits in KEY_SIZES:
            self.bits.addItem(f"{bits} bits", bits)
        self.import_button = QPushButton("Import PEM…")
        self.generate_button = QPushButton("Generate")
        self.export_button = QPushButton("Export public key…")
        self.delete_button = QPushButton("Delete")
        close = QPushButton("Close")
        top = QHBoxLayout()
        environment_label = QLabel("Environment")
        environment_label.setBuddy(self.environment)  # a combo box is read by its label
        top.addWidget(environment_label)
        top.addWidget(self.environment, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.bits)
        label_unseen(self.bits, "Key size", buttons)
        buttons.addWidget(self.generate_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.keyring_note)
        lay.addWidget(self.memory_button)
        lay.addWidget(self.memory_note)
        lay.addWidget(self.info)
        lay.addWidget(self.public, 1)
        lay.addWidget(self.message)
        lay.addLayout(buttons)
        self.import_button.clicked.connect(self._import_dialog)
        self.generate_button.clicked.connect(lambda: self.generate(int(self.bits.currentData())))
        self.export_button.clicked.connect(self._export_dialog)
        self.delete_button.clicked.connect(self.delete)
        close.clicked.connect(self.accept)
        self.environment.currentIndexChanged.connect(lambda _i: self._chosen())
        names = [e.name for e in secrets.environments_file().environments() if not e.builtin]
        local = secrets.local_environment
        if local is not None and secrets.local_key is not None:
            names.append(local.name)  # its demo key: the public half exportable too
        self.environment.blockSignals(True)  # one read of the keyring, for the one chosen
        self.environment.addItems(names)
        if environment in names:
            self.environment.setCurrentText(environment)
        self.environment.blockSignals(False)
        fit_on_screen(self, 720, 460)
        self.refresh()

    @property
    def name(self) -> str:
        return self.environment.currentText()

    @property
    def busy(self) -> bool:
        """True while the keyring is read or written for this dialog."""
        return (self.state is None and self._local_key() is None) or self._acting

    # -- state --------------------------------------------------------------------------------
    def _local_key(self) -> RSAPrivateKey | None:
        """The built-in sandbox's demo key (memory only) when it is the one chosen."""
        local = self.secrets.local_environment
        if local is not None and self.name == local.name:
            return self.secrets.local_key
        return None

    def _chosen(self) -> None:
        """Another environment chosen: the last action's words were about the one before."""
        self.show_message("", "")
        self.refresh()

    def refresh(self) -> None:
        """Show the chosen environment's key, or why there is none (read on a worker)."""
        self._reads += 1
        ticket = self._reads
        self.state = None
        local = self._local_key()
        if local is not None:
            self.info.setText(
                f"<b>{local.key_size}-bit RSA</b> · the built-in sandbox's demo key, in memory "
                f"only (a new one each start)<br>{fingerprint_line(fingerprint(local))}"
            )
            self.public.set_text(public_key_pem(local))
            self._update_buttons()
            return
        self.info.setText("Reading the keyring…")
        self.public.set_text("")
        self._update_buttons()
        secrets, name = self.secrets, self.name
        self.tasks.run(
            lambda: read_key(secrets, name),
            lambda state: self._read(ticket, state),
            lambda exc, _tb: self._read_failed(ticket, name, exc),
            owner=self,
        )

    def _read(self, ticket: int, state: KeyState) -> None:
        if ticket != self._reads:
            return  # another environment was chosen meanwhile: its own read follows
        self.state = state
        self._show(state)
        self._update_buttons()

    def _read_failed(self, ticket: int, name: str, exc: BaseException) -> None:
        self.show_message("error", f"The keyring could not be read for {name}: {exc}")
        if ticket == self._reads:
            self._read(ticket, KeyState(name, problem=str(exc)))

    def _show(self, state: KeyState) -> None:
        if state.ready:
            self.memory_button.setVisible(False)
            self.memory_note.setVisible(False)
            self.keyring_note.setText(SESSION_ONLY if self.secrets.session_only else "")
            self.keyring_note.setVisible(self.secrets.session_only)
        else:
            self.keyring_note.setText(state.unavailable)
            self.keyring_note.setVisible(True)
            self.memory_button.setVisible(True)
            self.memory_note.setVisible(True)
        info = state.info
        if not self.name:
            self.info.setText(
                "No environment to hold a key yet: add one in Environment > Manage "
                "environments. The local sandbox's demo key lives in memory only."
            )
        elif not state.ready:
            self.info.setText("")
        elif state.problem:
            self.info.setText(f"The stored key cannot be read: {state.problem}")
        elif info is not None:
            self.info.setText(
                f"<b>{info.bits}-bit RSA</b> · kept in {info.stored_in}"
                f"<br>{fingerprint_line(info.fingerprint)}"
            )
        else:
            self.info.setText(f"{self.name} has no private key yet: import one or generate one.")
        self.public.set_text(info.public_pem if info else "")

    def _update_buttons(self) -> None:
        """Nothing that acts on the key is on while the keyring is read or written."""
        idle = not self._acting
        keys = (self.import_button, self.generate_button, self.bits)
        if self._local_key() is not None:
            for button in (*keys, self.delete_button):
                button.setEnabled(False)
            self.export_button.setEnabled(idle)
        else:
            state = self.state
            can = idle and state is not None and state.ready and bool(self.name)
            for button in keys:
                button.setEnabled(can)
            has_key = state is not None and state.info is not None
            for button in (self.export_button, self.delete_button):
                button.setEnabled(can and has_key)
        self.memory_button.setEnabled(idle)
        self.environment.setEnabled(idle)

    def keep_in_memory(self) -> None:
        """The explicit choice: keys for this session only, in memory."""
        self.secrets.keep_in_memory()
        self.refresh()
        self.show_message("warning", SESSION_ONLY)

    def show_message(self, state: str, text: str) -> None:
        colour = state_colour(state, self.palette()).name()
        self.message.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")

    def _replace_ok(self, name: str) -> bool:
        return self.confirm(
            self,
            f"{name} already has a key. Replacing it loses the key the gateway knows; "
            "export its public key first if unsure. Replace it?",
        )

    def _act(
        self,
        doing: str,
        work: Callable[[], _T],
        done: Callable[[_T], None],
        failed: Callable[[BaseException], None],
    ) -> bool:
        """Run ``work`` (it reads or writes the keyring) on a worker, saying ``doing`` and
        with the key's buttons off until ``done(result)`` or ``failed(exc)``."""
        self._acting = True
        self._update_buttons()
        self.show_message("busy", doing)

        def finished(result: _T) -> None:
            self._acting = False
            self._update_buttons()
            done(result)

        def broke(exc: BaseException, _tb: str) -> None:
            self._acting = False
            self._update_buttons()
            failed(exc)

        if self.tasks.run(work, finished, broke, owner=self):
            return True
        self._acting = False
        self._update_buttons()
        self.show_message("error", "The window is closing: nothing was changed.")
        return False

    # -- actions ------------------------------------------------------------------------------
    def _import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Import a private key", "", "PEM (*.pem *.key);;All (*)"
        )
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> bool:
        """Import the PEM in ``path``; True when the import is under way."""
        try:
            pem = path.read_bytes()
        except OSError as exc:
            self.show_message("error", f"Cannot read {path}: {exc.strerror}.")
            return False
        return self.import_pem(pem, path.name)

    def import_pem(self, pem: bytes, label: str = "The key") -> bool:
        """Import a PEM: asks before replacing a key, and an encrypted one's passphrase once.
        True when the import is under way; the result line says how it ended."""
        secrets, name = self.secrets, self.name

        def attempt(passphrase: str | None, replace: bool) -> bool:
            return self._act(
                "Saving the key in the keyring…",
                lambda: secrets.vault().import_key(name, pem, passphrase, replace=replace),
                lambda info: self._stored(info, "Imported"),
                lambda exc: refused(exc, passphrase, replace),
            )

        def refused(exc: BaseException, passphrase: str | None, replace: bool) -> None:
            locked = isinstance(exc, KeyProblem) and exc.kind == "passphrase-needed"
            if isinstance(exc, KeyExistsError):
                if self._replace_ok(name):
                    attempt(passphrase, True)
                else:
                    self.show_message("", "Not imported.")
            elif locked and passphrase is None:
                asked = self.ask_passphrase(self, label)
                if asked is None:
                    self.show_message("", "Not imported.")
                else:
                    attempt(asked, replace)
            else:
                self.show_message("error", f"Not imported: {exc}")

        return attempt(None, False)

    def _stored(self, info: KeyInfo, verb: str) -> None:
        self.refresh()
        warnings = " ".join(info.warnings)
        self.show_message(
            "warning" if warnings else "fine",
            f"{verb} a {info.bits}-bit key for {info.environment}. {warnings}".strip(),
        )
        self.key_changed.emit(info.environment)

    def generate(self, bits: int) -> bool:
        """Generate a key in the background (4096 bits takes a few seconds); asks before
        replacing one. True when the generation is under way."""
        secrets, name = self.secrets, self.name

        def attempt(replace: bool) -> bool:
            return self._act(
                f"Generating a {bits}-bit key…",
                lambda: secrets.vault().generate_key(name, bits, replace=replace),
                lambda info: self._stored(info, "Generated"),
                refused,
            )

        def refused(exc: BaseException) -> None:
            if isinstance(exc, KeyExistsError):
                if self._replace_ok(name):
                    attempt(True)
                else:
                    self.show_message("", "Not generated: the key was kept.")
                return
            self.refresh()
            self.show_message("error", f"No key: {exc}")

        return attempt(False)

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the public key", f"{self.name}-public.pem", "PEM (*.pem)"
        )
        if path:
            self.export_public(Path(path))

    def export_public(self, path: Path) -> bool:
        """Write the public key to ``path`` and copy it; True when the export is under way."""
        secrets, name, local = self.secrets, self.name, self._local_key()

        def work() -> str:
            pem = public_key_pem(local) if local else secrets.vault().public_key_pem(name)
            path.write_text(pem, encoding="ascii")
            return pem

        def done(pem: str) -> None:
            QGuiApplication.clipboard().setText(pem)
            self.show_message("fine", f"Public key written to {path} (and copied).")

        return self._act(
            "Writing the public key…" if local else "Reading the keyring…",
            work,
            done,
            lambda exc: self.show_message("error", f"Not exported: {exc}"),
        )

    def delete(self) -> bool:
        """Delete the chosen environment's key after asking; True when the deletion is under
        way."""
        name = self.name
        if not self.confirm(self, f"Delete the private key of {name}? This cannot be undone."):
            return False
        secrets = self.secrets

        def done(_had_one: bool) -> None:
            self.refresh()
            self.show_message("fine", f"Deleted the key of {name}.")
            self.key_changed.emit(name)

        def failed(exc: BaseException) -> None:
            self.refresh()
            self.show_message("error", f"Not deleted: {exc}")

        return self._act(
            "Deleting the key from the keyring…",
            lambda: secrets.vault().delete_key(name),
            done,
            failed,
        )
