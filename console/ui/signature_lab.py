"""Request > Signature lab: paste or drop a request someone else signed, see the verdict.

The dialog shows whether the signature verifies with the chosen key and, when it does not,
which known client mistake explains it, with the gateway's base string and the client's side
by side, one parameter per line, the part where they differ highlighted. Card data is masked
unless *Show card data* is ticked (never stored). Raw HTTP text does not say its scheme: the
scheme choice gives it, and the verdict says when https was assumed. The checking itself is
``console.core.siglab``; this module only shows it. *Copy as code* copies a program that
sends the pasted request signed afresh (``console.ui.code_copy``).

Request > Import from curl reads a curl line into the matching command's form.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from console.core.keys import KeyProblem, fingerprint
from console.core.siglab.capture import CaptureError
from console.core.siglab.curl import parse_request_text
from console.core.siglab.curl_import import CurlImport, from_capture
from console.core.siglab.diagnose import Verdict, diagnose
from console.core.siglab.keysource import load_public_key
from console.core.siglab.received import from_capture as received_from
from console.ui.code_copy import CopyAsCode, pasted_program
from console.ui.screen_room import fit_on_screen
from console.ui.speech import label_unseen
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.ui.session import Session

_MARK = "background-color: #ffd54f; color: #000000"


class _DropEdit(QPlainTextEdit):
    """A text box that takes pasted text, dropped text, or a dropped file's text."""

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasUrls() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        files = [u.toLocalFile() for u in source.urls() if u.isLocalFile()]
        if files:
            try:
                self.setPlainText(Path(files[0]).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                self.setPlainText(f"# {files[0]} cannot be read: {exc}")
            return
        super().insertFromMimeData(source)


def _side(title: str) -> tuple[QWidget, QLabel, QTextEdit]:
    box = QWidget()
    label = QLabel(f"<b>{title}</b>")
    text = QTextEdit()
    text.setReadOnly(True)
    text.setAccessibleName(title)
    text.setFont(QFont("monospace"))
    text.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
    text.setWordWrapMode(text.wordWrapMode().WrapAnywhere)
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(label)
    lay.addWidget(text)
    return box, label, text


def diff_html(text: str, other: str) -> str:
    """``text`` as HTML, one parameter per line, the part that differs from ``other`` marked."""
    start = 0
    while start < min(len(text), len(other)) and text[start] == other[start]:
        start += 1
    end, end_other = len(text), len(other)
    while end > start and end_other > start and text[end - 1] == other[end_other - 1]:
        end, end_other = end - 1, end_other - 1
    # Mark whole percent escapes (%2520, not 520): widen to the escapes cut at either end.
    while "%" in text[max(0, start - 2) : start]:
        start = text.rindex("%", 0, start)
    if end > start and "%" in text[max(start, end - 2) : end]:
        end = min(len(text), text.rindex("%", start, end) + 3)
    parts = [html.escape(text[:start])]
    if end > start:
        parts.append(f'<span style="{_MARK}">{html.escape(text[start:end])}</span>')
    parts.append(html.escape(text[end:]))
    body = "".join(parts).replace("%26", "%26<br>").replace("&amp;", "&amp;<br>", 2)
    return f"<div style='font-family: monospace'>{body}</div>"


class SignatureLabDialog(QDialog):
    """Verify a captured request with a key and show the verdict.

    Args:
        key: the key to start with (the active environment's), with ``key_label``.
        ids: the environment's endpoint and group ids (a path signed for another is named).
        on_import: fills the matching command's form from a curl line (None: no button).
    """

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        key: RSAPublicKey | None = None,
        key_label: str = "",
        ids: tuple[str, ...] = (),
        on_import: Callable[[CurlImport], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.ids = ids
        self.setObjectName("signature-lab")
        self.setWindowTitle("Signature lab")
        self.key = key
        self.verdict: Verdict | None = None
        self._on_import = on_import
        self.request_edit = _DropEdit()
        self.request_edit.setObjectName("signature-lab-request")
        self.request_edit.setAccessibleName("Request to verify")
        self.request_edit.setPlaceholderText(
            "Paste or drop a request: raw HTTP (request line, headers, blank line, body) or a "
            "curl command line."
        )
        self.request_edit.setFont(QFont("monospace"))
        self.key_label = QLabel()
        self.key_label.setWordWrap(True)
        self.key_button = QPushButton("Key &file…")
        self.key_button.clicked.connect(self._choose_key)
        self.verify_button = QPushButton("&Verify")
        self.verify_button.setDefault(True)
        self.verify_button.clicked.connect(self.verify)
        self.import_button = QPushButton("Fill the command's &form")
        self.import_button.setToolTip("Read the curl line into the matching command's form")
        self.import_button.setVisible(on_import is not None)
        self.import_button.clicked.connect(self.import_curl)
        self.scheme = QComboBox()
        self.scheme.setAccessibleName("Scheme of a raw HTTP request")
        self.scheme.setToolTip(
            "Raw HTTP text does not say whether the request went over https or http"
        )
        for text, value in (("Scheme: assume https", None), ("https", "https"), ("http", "http")):
            self.scheme.addItem(text, value)
        self.reveal = QCheckBox("Show card data")
        self.code = CopyAsCode(
            lambda: pasted_program(self.request_edit.toPlainText(), self.scheme.currentData())
        )
        self.reveal.toggled.connect(self._show_base_strings)
        self.verdict_label = QLabel("Paste a request and choose Verify (Ctrl+Enter).")
        self.verdict_label.setObjectName("signature-lab-verdict")
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left, _, self.expected_view = _side("Expected base string (gateway)")
        right, self.received_title, self.received_view = _side("Base string the client signed")
        sides = QSplitter(Qt.Orientation.Horizontal)
        sides.addWidget(left)
        sides.addWidget(right)

        keys = QHBoxLayout()
        keys.addWidget(self.key_label, 1)
        keys.addWidget(self.key_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.scheme)
        label_unseen(self.scheme, "Scheme of a raw HTTP request", buttons)
        buttons.addWidget(self.reveal)
        buttons.addStretch(1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.verify_button)
        lay = QVBoxLayout(self)
        lay.addWidget(self.request_edit, 2)
        lay.addLayout(keys)
        lay.addLayout(buttons)
        lay.addWidget(self.code)
        # the verdict and the comparison share one part of the height: a verdict of several
        # lines takes its room from the comparison, never from the request box above
        answer = QWidget()
        answer_lay = QVBoxLayout(answer)
        answer_lay.setContentsMargins(0, 0, 0, 0)
        answer_lay.addWidget(self.verdict_label)
        answer_lay.addWidget(sides, 1)
        lay.addWidget(answer, 3)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.verify)
        self.set_key(key, key_label)
        fit_on_screen(self, 1000, 660)

    def set_key(self, key: RSAPublicKey | None, label: str = "") -> None:
        """Verify with ``key`` from now on (``label`` says where it came from)."""
        self.key = key
        if key is None:
            self.key_label.setText("Key: none yet. Choose a public key, certificate or key file.")
        else:
            self.key_label.setText(f"Key: {label or 'given'} · fingerprint {fingerprint(key)}")

    def set_key_file(self, path: Path) -> bool:
        """Load a public key, certificate or private key file; False (and why) if unusable."""
        try:
            self.set_key(load_public_key(path.read_bytes()), path.name)
        except (OSError, KeyProblem) as exc:
            self._say("error", f"{path.name}: {getattr(exc, 'strerror', None) or exc}")
            return False
        return True

    def _choose_key(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self,
            "Key to verify with",
            "",
            "Keys and certificates (*.pem *.crt *.cer *.key *.pub);;All files (*)",
        )
        if name:
            self.set_key_file(Path(name))

    def verify(self) -> None:
        """Check the pasted request with the key and show the verdict."""
        if self.key is None:
            self._say("error", "Choose a key first: Key file… (public key, certificate or key).")
            return
        text = self.request_edit.toPlainText()
        try:
            received = received_from(parse_request_text(text, scheme=self.scheme.currentData()))
        except CaptureError as exc:
            self._say("error", str(exc))
            self._clear_views()
            return
        self.verdict = diagnose(received, self.key, now=time.time(), ids=self.ids)
        lines = [
            f"{html.escape(f.message)} <i>({f.code})</i>"
            + (f"<br>&nbsp;&nbsp;Fix: {html.escape(f.fix)}" if f.fix else "")
            for f in self.verdict.findings
        ]
        if self.verdict.valid:
            head = "<b>Valid</b>: the signature verifies with this key."
        elif self.verdict.valid_over:
            head = f"<b>{html.escape(self.verdict.headline())}</b>"
        else:
            head = "<b>Invalid</b>"
            if self.verdict.first_difference:
                head += f": the base strings part at {html.escape(self.verdict.first_difference)}."
        self._say("fine" if self.verdict.valid else "error", "<br>".join([head, *lines]), rich=True)
        self._show_base_strings()

    def import_curl(self) -> None:
        """Fill the matching command's form from the pasted curl line."""
        if self._on_import is None:
            return
        try:
            result = from_capture(parse_request_text(self.request_edit.toPlainText()))
        except CaptureError as exc:
            self._say("error", str(exc))
            return
        self._on_import(result)
        said = " ".join((*result.notes, *result.refusals))
        self._say("fine", f"The {result.command} form was filled from the curl line. {said}")

    def _show_base_strings(self) -> None:
        if self.verdict is None:
            return
        expected, received = self.verdict.base_strings(reveal=self.reveal.isChecked())
        other = received if received is not None else expected
        self.expected_view.setHtml(diff_html(expected, other))
        if received is None:
            self.received_title.setText("<b>Base string the client signed</b>: not found")
            self.received_view.setPlainText(
                "No known mistake gives a base string that matches the signature."
            )
        else:
            self.received_title.setText("<b>Base string the client signed</b>")
            self.received_view.setHtml(diff_html(received, expected))

    def _clear_views(self) -> None:
        self.verdict = None
        self.expected_view.clear()
        self.received_view.clear()

    def _say(self, state: str, text: str, *, rich: bool = False) -> None:
        colour = state_colour(state, self.palette()).name()
        body = text if rich else html.escape(text)
        self.verdict_label.setText(f"<span style='color:{colour}'>{body}</span>")


def open_signature_lab(
    session: Session, fill: Callable[[CurlImport], None], parent: QWidget
) -> SignatureLabDialog:
    """Request > Signature lab, with the active environment's key to start with; ``fill``
    puts an imported request into its form."""
    private = session.private_key
    env = session.environment
    dialog = SignatureLabDialog(
        parent,
        key=private.public_key() if private is not None else None,
        key_label=f"environment {env.name}" if env is not None else "",
        ids=tuple(i for i in (env.endpoint_id, env.endpoint_group_id) if i) if env else (),
        on_import=fill,
    )
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def import_from_curl(
    fill: Callable[[CurlImport], None], say: Callable[[str], None], parent: QWidget
) -> None:
    """Request > Import from curl: ask for a curl line and fill the command's form."""
    text, ok = QInputDialog.getMultiLineText(parent, "Import from curl", "Curl command line:")
    if not ok or not text.strip():
        return
    try:
        result = from_capture(parse_request_text(text))
    except CaptureError as exc:
        say(f"Import from curl: {exc}")
        return
    fill(result)
