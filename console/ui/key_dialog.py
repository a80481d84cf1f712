"""Environment > Keys: one private key per environment, kept in the OS keyring.

Import a PEM (PKCS#1 or PKCS#8, encrypted ones with a passphrase asked for once), generate a
2048/3072/4096-bit key, see its size and fingerprint, export the public key PEM to hand to
the gateway, delete. With no OS keyring the core's message says what to install, and the
only other way is the explicit choice to keep keys in memory for this session.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

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
from console.core.vault import KEY_SIZES, KeyInfo, KeyringUnavailableError, VaultError
from console.ui.confirm import ask
from console.ui.inspector.widgets import CopyBlock
from console.ui.secrets_access import SecretsAccess
from console.ui.tasks import TaskManager
from console.ui.theme import state_colour

SESSION_ONLY = (
    "Keys are kept in memory for this session only: they are forgotten when the console "
    "closes, and nothing is written to disk."
)

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey


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
        self.ask_passphrase: Callable[[QWidget, str], str | None] = ask_passphrase
        self.confirm: Callable[[QWidget, str], bool] = ask_yes
        self.environment = QComboBox()
        self.environment.setAccessibleName("Environment")
        self.keyring_note = QLabel()
        self.keyring_note.setWordWrap(True)
        self.keyring_note.setAccessibleName("Keyring")
        self.memory_button = QPushButton("Keep keys in memory for this session only")
        self.memory_button.clicked.connect(self.keep_in_memory)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setAccessibleName("Key")
        self.public = CopyBlock("Public key (hand this to the gateway)", lines=6)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Result")
        self.bits = QComboBox()
        for bits in KEY_SIZES:
            self.bits.addItem(f"{bits} bits", bits)
        self.import_button = QPushButton("Import PEM…")
        self.generate_button = QPushButton("Generate")
        self.export_button = QPushButton("Export public key…")
        self.delete_button = QPushButton("Delete")
        close = QPushButton("Close")
        top = QHBoxLayout()
        top.addWidget(QLabel("Environment"))
        top.addWidget(self.environment, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.bits)
        buttons.addWidget(self.generate_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.keyring_note)
        lay.addWidget(self.memory_button)
        lay.addWidget(self.info)
        lay.addWidget(self.public, 1)
        lay.addWidget(self.message)
        lay.addLayout(buttons)
        self.import_button.clicked.connect(self._import_dialog)
        self.generate_button.clicked.connect(lambda: self.generate(int(self.bits.currentData())))
        self.export_button.clicked.connect(self._export_dialog)
        self.delete_button.clicked.connect(self.delete)
        close.clicked.connect(self.accept)
        self.environment.currentIndexChanged.connect(lambda _i: self.refresh())
        names = [e.name for e in secrets.store().environments() if not e.builtin]
        local = secrets.local_environment
        if local is not None and secrets.local_key is not None:
            names.append(local.name)  # its demo key: the public half exportable too
        self.environment.addItems(names)
        if environment in names:
            self.environment.setCurrentText(environment)
        self.resize(720, 460)
        self.refresh()

    @property
    def name(self) -> str:
        return self.environment.currentText()

    # -- state --------------------------------------------------------------------------------
    def _keyring_ready(self) -> bool:
        try:
            self.secrets.vault()
        except KeyringUnavailableError as exc:
            self.keyring_note.setText(str(exc))
            self.memory_button.setVisible(True)
            return False
        self.memory_button.setVisible(False)
        self.keyring_note.setText(SESSION_ONLY if self.secrets.session_only else "")
        self.keyring_note.setVisible(self.secrets.session_only)
        return True

    def _local_key(self) -> RSAPrivateKey | None:
        """The built-in sandbox's demo key (memory only) when it is the one chosen."""
        local = self.secrets.local_environment
        if local is not None and self.name == local.name:
            return self.secrets.local_key
        return None

    def refresh(self) -> None:
        """Show the chosen environment's key, or why there is none."""
        local = self._local_key()
        if local is not None:
            self.info.setText(
                f"<b>{local.key_size}-bit RSA</b> · fingerprint (SHA-256) {fingerprint(local)}"
                " · the built-in sandbox's demo key, in memory only (a new one each start)"
            )
            self.public.set_text(public_key_pem(local))
            for button in (self.import_button, self.generate_button, self.bits, self.delete_button):
                button.setEnabled(False)
            self.export_button.setEnabled(True)
            return
        ready = self._keyring_ready()
        if ready:
            self.keyring_note.setVisible(self.secrets.session_only)
        else:
            self.keyring_note.setVisible(True)
        info: KeyInfo | None = None
        if not self.name:
            self.info.setText(
                "No environment to hold a key yet: add one in Environment > Manage "
                "environments. The local sandbox's demo key lives in memory only."
            )
        elif ready:
            try:
                info = self.secrets.vault().key_info(self.name)
            except (VaultError, KeyProblem) as exc:
                self.info.setText(f"The stored key cannot be read: {exc}")
            else:
                self.info.setText(
                    f"<b>{info.bits}-bit RSA</b> · fingerprint (SHA-256) {info.fingerprint}"
                    f" · kept in {info.stored_in}"
                    if info
                    else f"{self.name} has no private key yet: import one or generate one."
                )
        else:
            self.info.setText("")
        self.public.set_text(info.public_pem if info else "")
        can = ready and bool(self.name)
        for button in (self.import_button, self.generate_button, self.bits):
            button.setEnabled(can)
        for button in (self.export_button, self.delete_button):
            button.setEnabled(can and info is not None)

    def keep_in_memory(self) -> None:
        """The explicit choice: keys for this session only, in memory."""
        self.secrets.keep_in_memory()
        self.refresh()
        self.show_message("warning", SESSION_ONLY)

    def show_message(self, state: str, text: str) -> None:
        colour = state_colour(state, self.palette()).name()
        self.message.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")

    def _replace_ok(self) -> bool:
        if not self.secrets.vault().has_key(self.name):
            return True
        return self.confirm(
            self,
            f"{self.name} already has a key. Replacing it loses the key the gateway knows; "
            "export its public key first if unsure. Replace it?",
        )

    # -- actions ------------------------------------------------------------------------------
    def _import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Import a private key", "", "PEM (*.pem *.key);;All (*)"
        )
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> bool:
        try:
            pem = path.read_bytes()
        except OSError as exc:
            self.show_message("error", f"Cannot read {path}: {exc.strerror}.")
            return False
        return self.import_pem(pem, path.name)

    def import_pem(self, pem: bytes, label: str = "The key") -> bool:
        """Import a PEM; an encrypted one asks for its passphrase once."""
        if not self._replace_ok():
            return False
        vault, name = self.secrets.vault(), self.name
        try:
            try:
                info = vault.import_key(name, pem, replace=True)
            except KeyProblem as exc:
                if exc.kind != "passphrase-needed":
                    raise
                passphrase = self.ask_passphrase(self, label)
                if passphrase is None:
                    self.show_message("", "Not imported.")
                    return False
                info = vault.import_key(name, pem, passphrase, replace=True)
        except (KeyProblem, VaultError) as exc:
            self.show_message("error", f"Not imported: {exc}")
            return False
        self._stored(info, "Imported")
        return True

    def _stored(self, info: object, verb: str) -> None:
        assert isinstance(info, KeyInfo)
        self.refresh()
        warnings = " ".join(info.warnings)
        self.show_message(
            "warning" if warnings else "fine",
            f"{verb} a {info.bits}-bit key for {info.environment}. {warnings}".strip(),
        )
        self.key_changed.emit(info.environment)

    def generate(self, bits: int) -> None:
        """Generate a key in the background (4096 bits takes a few seconds)."""
        if not self._replace_ok():
            return
        vault, name = self.secrets.vault(), self.name
        self.generate_button.setEnabled(False)
        self.show_message("busy", f"Generating a {bits}-bit key…")
        self.tasks.run(
            lambda: vault.generate_key(name, bits, replace=True),
            lambda info: self._stored(info, "Generated"),
            self._generate_failed,
            owner=self,
        )

    def _generate_failed(self, exc: BaseException, _tb: str) -> None:
        self.refresh()
        self.show_message("error", f"No key: {exc}")

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the public key", f"{self.name}-public.pem", "PEM (*.pem)"
        )
        if path:
            self.export_public(Path(path))

    def export_public(self, path: Path) -> bool:
        try:
            local = self._local_key()
            pem = public_key_pem(local) if local else self.secrets.vault().public_key_pem(self.name)
            path.write_text(pem, encoding="ascii")
        except (OSError, VaultError) as exc:
            self.show_message("error", f"Not exported: {exc}")
            return False
        QGuiApplication.clipboard().setText(self.public.value())
        self.show_message("fine", f"Public key written to {path} (and copied).")
        return True

    def delete(self) -> bool:
        if not self.confirm(self, f"Delete the private key of {self.name}? This cannot be undone."):
            return False
        self.secrets.vault().delete_key(self.name)
        self.refresh()
        self.show_message("fine", f"Deleted the key of {self.name}.")
        self.key_changed.emit(self.name)
        return True
