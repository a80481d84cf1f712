"""Copy as code: the request shown, as a program that signs it when it runs.

The inspector and the signature lab each have one: a language choice and a Copy button. The
program is the core's (``console.core.exports``): it holds no key and no card data, both are
read from the environment when it runs, and it signs with a fresh nonce and timestamp, so a
copied program is no working signed request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from console.core.errors import ConsoleError, InputError
from console.ui.icons import icon
from console.ui.speech import label_unseen

if TYPE_CHECKING:
    from console.core.exports import Program
    from console.core.prepared import PreparedRequest

# The languages in the order offered, by the core's names.
LANGUAGE_TITLES = {"python": "Python", "node": "Node", "php": "PHP", "java": "Java", "go": "Go"}
NO_PROGRAM = "no request yet: fill a form without errors and press Send."

Source = Callable[[], "Program"]


def prepared_program(prepared: PreparedRequest | None, *, sent: bool) -> Program:
    """The program that sends ``prepared`` (the inspector's request) as it was made; for a
    request the console did not send (``sent`` False), as the core makes such a program
    (a first line saying so, a fresh placeholder order id).

    Raises:
        ConsoleError: no request, or one that errors kept from being signed.
    """
    from console.core.exports import program_for_request  # boundary: loaded on first copy

    if prepared is None or prepared.signed is None:
        raise InputError(NO_PROGRAM)
    login = prepared.signed.oauth.get("oauth_consumer_key", "")
    return program_for_request(prepared.command, prepared.url, login, prepared.params, sent=sent)


def pasted_program(text: str, scheme: str | None = None) -> Program:
    """The program that sends a pasted request (raw HTTP or a curl line) to its command.

    Raises:
        ValueError: the text is no request the console knows (CaptureError says why).
        ConsoleError: no login in it, or text with no UTF-8 form.
    """
    from console.core.exports import program_for_request  # boundary: as above
    from console.core.siglab.curl import parse_request_text
    from console.core.siglab.curl_import import from_capture  # boundary: as above

    capture = parse_request_text(text, scheme=scheme)
    found = from_capture(capture)  # the command, and the query's fields with the body's
    return program_for_request(found.command, capture.url, found.login or "", found.fields)


class CopyAsCode(QWidget):
    """A language choice, a *Copy as code* button, and a line saying what was copied.

    Attributes:
        source: gives the program of the request shown; raises ConsoleError or ValueError
            (with words for the person) when there is none.
    """

    def __init__(self, source: Source | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.language = QComboBox()
        self.language.setAccessibleName("Language of the program to copy")
        for name, title in LANGUAGE_TITLES.items():
            self.language.addItem(title, name)
        self.button = QPushButton(icon("copy"), "Copy as code")
        self.button.setAccessibleDescription("Copy the request as a program")
        self.button.setToolTip(
            "Copy a program that signs this request when it runs (fresh nonce and timestamp) "
            "and sends it. It holds no key and no card data: it reads both from the "
            "environment."
        )
        self.button.clicked.connect(self.copy)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.language)
        label_unseen(self.language, "Language of the program to copy", row)
        row.addWidget(self.button)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.note)

    def copy(self) -> str | None:
        """Put the program in the chosen language on the clipboard; returns it (None: why
        not is said under the button)."""
        from console.core.exports import file_name, render_code  # boundary: as above
        from console.core.exports.program import KEY_FILE_VARIABLE, KEY_VARIABLE

        try:
            if self.source is None:
                raise ValueError(NO_PROGRAM)
            program = self.source()
        except (ConsoleError, ValueError) as exc:
            self._say(f"Nothing copied: {exc}")
            return None
        language = str(self.language.currentData())
        text = render_code(language, program)
        QGuiApplication.clipboard().setText(text)
        reads = [f"the private key from ${KEY_VARIABLE} (or the file ${KEY_FILE_VARIABLE})"]
        if program.variables:
            reads.append(", ".join(program.variables))
        self._say(
            f"Copied a {LANGUAGE_TITLES[language]} program for {program.command} (save it as "
            f"{file_name(language)}). When it runs it signs afresh and reads "
            + " and ".join(reads)
            + " from the environment."
        )
        return text

    def forget(self) -> None:
        """No request any more: the line about the last copy goes."""
        self.note.setText("")
        self.note.setVisible(False)

    def _say(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(True)
