"""Small choice widgets the forms put above their sections."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from console.core.spec.choices import CALLBACK_FIELDS
from console.ui.forms.field_widgets import LABEL_WIDTH


def new_client_orderid() -> str:
    """A fresh order id: readable date plus random hex, well under the 128-character limit."""
    import secrets  # boundary: not at start-up, it brings hmac, random and base64 (a few ms)

    # No run of 12+ digits: card-number masking in logs must never mistake it for a card.
    return f"gc-{datetime.now():%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"


class _Options(QWidget):
    """A row label and a set of (key, text) options; ``chosen(key)`` on every change."""

    chosen = Signal(str)

    def __init__(
        self,
        label: str,
        options: Sequence[tuple[str, str]],
        *,
        name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.label = QLabel(label, self)
        self.label.setFixedWidth(LABEL_WIDTH)  # lines up with the field labels below
        self.build(label, options, name)

    def build(self, label: str, options: Sequence[tuple[str, str]], name: str) -> None:
        """Create the option widgets beside :attr:`label`."""
        raise NotImplementedError


class Choice(_Options):
    """A labelled combo box of (key, text) options with a help line under it."""

    def build(self, label: str, options: Sequence[tuple[str, str]], name: str) -> None:
        self.combo = QComboBox(self)
        for key, text in options:
            self.combo.addItem(text, key)
        self.combo.setAccessibleName(label)
        self.combo.setObjectName(f"choice:{name}")
        self.combo.setMinimumWidth(160)  # long option texts must not widen a narrow form
        self.label.setBuddy(self.combo)
        self.help = QLabel(self)
        self.help.setWordWrap(True)
        self.help.setContentsMargins(LABEL_WIDTH + 6, 0, 0, 0)
        self.help.setVisible(False)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.combo, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addLayout(row)
        lay.addWidget(self.help)
        self.combo.currentIndexChanged.connect(lambda _i: self.chosen.emit(self.key()))
        self.setFocusProxy(self.combo)

    def key(self) -> str:
        return str(self.combo.currentData())

    def set_key(self, key: str) -> None:
        index = self.combo.findData(key)
        if index >= 0:
            self.combo.setCurrentIndex(index)

    def set_help(self, text: str) -> None:
        self.help.setText(text)
        self.help.setVisible(bool(text))


class Switch(_Options):
    """Radio buttons for a two- or three-way switch (SRC / DST)."""

    def build(self, label: str, options: Sequence[tuple[str, str]], name: str) -> None:
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QRadioButton] = {}
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label)
        for key, text in options:
            button = QRadioButton(text, self)
            # never narrower than its words ("DST – destination carc")
            button.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            button.setObjectName(f"switch:{name}:{key}")
            button.setAccessibleName(f"{label}: {text}")
            self.group.addButton(button)
            self.buttons[key] = button
            lay.addWidget(button)
            button.toggled.connect(lambda on, k=key: self._toggled(on, k))
        lay.addStretch(1)
        next(iter(self.buttons.values())).setChecked(True)

    def _toggled(self, on: bool, key: str) -> None:
        if on:
            self.chosen.emit(key)

    def key(self) -> str:
        return next(k for k, b in self.buttons.items() if b.isChecked())

    def set_key(self, key: str) -> None:
        if key in self.buttons:
            self.buttons[key].setChecked(True)


_CALLBACK_HELP = {
    "none": "No callback: learn the final status with the status command.",
    "listener": "The address of this console's callback listener, filled in when the request "
    "is sent (it follows the listener wherever it runs): {url}",
    "server_callback_url": "One callback, when the order reaches its final status.",
    "notify_url": "A callback at the final status and again on every later update "
    "(reversal, chargeback and so on).",
}


class CallbackChoice(Choice):
    """None / server callback / notify URL: only one address can ever be filled in."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Callback",
            [
                ("none", "None"),
                ("listener", "This console's callback listener (final status)"),
                ("server_callback_url", "Server callback (final status only)"),
                ("notify_url", "Notify URL (final status and every later update)"),
            ],
            name="callback",
            parent=parent,
        )

        self.listener_url: Callable[[], str] = lambda: ""  # set by the window

    def hidden_fields(self) -> list[str]:
        """The callback rows the current choice hides."""
        self.refresh_help()
        return [f for f in CALLBACK_FIELDS if f != self.key()]

    def refresh_help(self) -> None:
        """The help line for the choice, with the listener's address as it is now (it
        starts, stops and moves with the environment)."""
        url = self.listener_url() or "none is running for this environment: nothing is filled"
        self.set_help(_CALLBACK_HELP.get(self.key(), "").format(url=url))

    def values(self) -> dict[str, str]:
        """What the choice itself adds when sending: the listener's address, as it is now."""
        url = self.listener_url() if self.key() == "listener" else ""
        return {"server_callback_url": url} if url else {}
