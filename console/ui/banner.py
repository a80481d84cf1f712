"""The environment banner: which gateway the window talks to, impossible to misread."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from console.core.environments import Environment, EnvKind
from console.ui.theme import PRODUCTION_BG, PRODUCTION_FG

_KIND_WORDS = {
    EnvKind.LOCAL_SANDBOX: "LOCAL SANDBOX",
    EnvKind.SANDBOX: "SANDBOX",
    EnvKind.PRODUCTION: "PRODUCTION – REAL MONEY",
}


READY = "Its key is loaded: requests are signed and sent here."
STARTING = "Send waits until it runs."
CHOOSE_ONE = "Choose one in Environment > Manage environments."


def first_sentence(text: str, limit: int = 110) -> str:
    """The first sentence of a long explanation, for one line of the banner."""
    head = re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0]
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


class OneLine(QLabel):
    """Plain text on one line that never widens its parent: elided to the width it gets,
    the whole text in its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.whole = ""

    def set_whole(self, text: str) -> None:
        self.whole = text
        self.setToolTip(text)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width(), 40)
        self.setText(self.fontMetrics().elidedText(self.whole, Qt.TextElideMode.ElideRight, width))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()


class EnvironmentBanner(QFrame):
    """Calm for the sandboxes; red with white words for production."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("environment-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # a calm banner is drawn in the theme's own colour, which follows a theme switch
        # (a style sheet's palette() is read once, when the sheet is set)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self.setAutoFillBackground(True)
        self.kind_label = QLabel(self)
        self.detail = QLabel(self)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setWordWrap(True)  # a long address wraps instead of widening the window
        # why the environment cannot send: one short line here, the whole text on demand
        self.details_button = QToolButton(self)
        self.details_button.setText("Details…")
        self.details_button.setAccessibleName("Why this environment cannot send")
        self.details_button.setVisible(False)
        self.details_button.clicked.connect(self._show_details)
        self.problem = ""
        # Whether it can send, on a line of its own that is always there and never wraps
        # (elided, the whole text in its tooltip): a key arriving or going changes its
        # words, not the banner's height, so the form below does not jump.
        self.state_line = OneLine(self)
        self.state_line.setAccessibleDescription(
            "Whether this environment can send"
        )  # read by its text
        words = QVBoxLayout()
        words.setSpacing(0)
        words.addWidget(self.detail)
        words.addWidget(self.state_line)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 4, 10, 4)
        lay.addWidget(self.kind_label)
        lay.addLayout(words, 1)
        lay.addWidget(self.details_button)
        self.kind = ""
        self.show_environment(None)

    def show_starting(self) -> None:
        """The local sandbox is starting on a worker."""
        self.kind = "local-sandbox"
        self.kind_label.setText("<b>LOCAL SANDBOX</b>")
        self.detail.setText("Starting the built-in sandbox with a fresh demo key…")
        self._set_state(STARTING, bold=False)
        self.setStyleSheet("")

    def show_environment(self, conn: Environment | None, problem: str = "") -> None:
        """Show the active environment (or that there is none)."""
        self.problem = problem
        self.details_button.setVisible(bool(problem))
        if conn is None:
            self.kind = ""
            self.kind_label.setText("<b>NO ENVIRONMENT</b>")
            self.detail.setText("Nothing can be sent until an environment is chosen.")
            self._set_state(CHOOSE_ONE, bold=False)
            self.setStyleSheet("")
            self.setAccessibleName("No environment")
            return
        self.kind = conn.kind
        words = _KIND_WORDS.get(conn.kind, str(conn.kind).upper())
        self.kind_label.setText(f"<b>{words}</b>")
        ids = f"endpoint {conn.endpoint_id}" if conn.endpoint_id else ""
        if conn.endpoint_group_id:
            ids += (", " if ids else "") + f"group {conn.endpoint_group_id}"
        self.detail.setText(
            f"{html.escape(conn.name)} · login {html.escape(conn.login)} · {ids} · "
            f"{html.escape(conn.base_url)}"
        )
        self._set_state(first_sentence(problem) if problem else READY, bold=bool(problem))
        self.setAccessibleName(f"Environment: {words}, {conn.name}")
        if conn.kind is EnvKind.PRODUCTION:
            # The one fixed colour in the window: production must look the same everywhere.
            self.setStyleSheet(
                f"#environment-banner {{ background: {PRODUCTION_BG}; border: 2px solid #5c0011; }}"
                f"#environment-banner QLabel {{ color: {PRODUCTION_FG}; font-size: 11pt; }}"
            )
        else:
            self.setStyleSheet("")

    def _set_state(self, text: str, *, bold: bool) -> None:
        # from the banner's own font: the line's may carry production's size, which must
        # not stay once the sheet that set it is gone
        font = QFont(self.font())
        font.setBold(bold)
        self.state_line.setFont(font)
        self.state_line.set_whole(text)

    @property
    def state_text(self) -> str:
        """The whole text of the state line (it may be shown elided)."""
        return self.state_line.whole

    def _show_details(self) -> None:
        # The window's child, not the banner's: the production banner's white words would
        # reach the box's labels and vanish on its light background.
        from PySide6.QtWidgets import QMessageBox  # boundary: a dialog's type, on first use

        QMessageBox.information(self.window(), "Why this environment cannot send", self.problem)
