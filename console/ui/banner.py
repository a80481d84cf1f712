"""The environment banner: which gateway the window talks to, impossible to misread."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMessageBox, QToolButton, QWidget

from console.core.environments import Environment, EnvKind
from console.ui.theme import PRODUCTION_BG, PRODUCTION_FG

_KIND_WORDS = {
    EnvKind.LOCAL_SANDBOX: "LOCAL SANDBOX",
    EnvKind.SANDBOX: "SANDBOX",
    EnvKind.PRODUCTION: "PRODUCTION – REAL MONEY",
}


def first_sentence(text: str, limit: int = 110) -> str:
    """The first sentence of a long explanation, for one line of the banner."""
    head = re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0]
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"


class EnvironmentBanner(QFrame):
    """Calm for the sandboxes; red with white words for production."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("environment-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
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
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 4, 10, 4)
        lay.addWidget(self.kind_label)
        lay.addWidget(self.detail, 1)
        lay.addWidget(self.details_button)
        self.kind = ""
        self.show_environment(None)

    def show_starting(self) -> None:
        """The local sandbox is starting on a worker."""
        self.kind = "local-sandbox"
        self.kind_label.setText("<b>LOCAL SANDBOX</b>")
        self.detail.setText("Starting the built-in sandbox with a fresh demo key…")
        self.setStyleSheet("#environment-banner { background: palette(alternate-base); }")

    def show_environment(self, conn: Environment | None, problem: str = "") -> None:
        """Show the active environment (or that there is none)."""
        self.problem = problem
        self.details_button.setVisible(bool(problem))
        if conn is None:
            self.kind = ""
            self.kind_label.setText("<b>NO ENVIRONMENT</b>")
            self.detail.setText("Nothing can be sent until an environment is chosen.")
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
            + (f"<br><b>{html.escape(first_sentence(problem))}</b>" if problem else "")
        )
        self.setAccessibleName(f"Environment: {words}, {conn.name}")
        if conn.kind is EnvKind.PRODUCTION:
            # The one fixed colour in the window: production must look the same everywhere.
            self.setStyleSheet(
                f"#environment-banner {{ background: {PRODUCTION_BG}; border: 2px solid #5c0011; }}"
                f"#environment-banner QLabel {{ color: {PRODUCTION_FG}; font-size: 11pt; }}"
            )
        else:
            self.setStyleSheet("#environment-banner { background: palette(alternate-base); }")

    def _show_details(self) -> None:
        # The window's child, not the banner's: the production banner's white words would
        # reach the box's labels and vanish on its light background.
        QMessageBox.information(self.window(), "Why this environment cannot send", self.problem)
