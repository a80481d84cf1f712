"""File > Export: the active environment's requests for Postman, and an OpenAPI description.

The Postman export writes a collection and, beside it, an environment with the active
environment's address, login and endpoint ids. Its private key is a secret variable left
empty; for an environment that is not production the window offers to fill in the key it
holds (a sandbox's demo key), and the core refuses any other. The OpenAPI export writes
the description of every command, with the active environment's address as its server.
Files are written on a worker of the window's task manager; the result is said in a message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from console.core.atomic import write_text_atomic
from console.core.exports import openapi_document
from console.core.exports.collection_plan import CollectionTarget
from console.core.exports.postman_files import COLLECTION_FILE, write_postman

if TYPE_CHECKING:
    from console.ui.session import Session
    from console.ui.tasks import TaskManager

OPENAPI_FILE = "gateway-v4.openapi.json"


class Exporter:
    """Asks where to write, writes in the background, says what was written."""

    def __init__(
        self,
        session: Session,
        tasks: TaskManager,
        say: Callable[[str], None],
        parent: QWidget,
    ) -> None:
        self.session = session
        self.tasks = tasks
        self.say = say
        self.parent = parent

    def postman(self) -> None:
        """File > Export > Postman collection…"""
        env = self.session.environment
        if env is None:
            self._tell(False, "Nothing exported: no environment is active.")
            return
        name, _ = QFileDialog.getSaveFileName(
            self.parent,
            "Export a Postman collection",
            COLLECTION_FILE,
            "Postman collection (*.postman_collection.json);;JSON (*.json)",
        )
        if not name:
            return
        key = None
        if not self.session.is_production and self.session.private_key is not None:
            key = self._offer_key(env.name)
        target = CollectionTarget(
            name=env.name,
            base_url=env.base_url or None,
            login=env.login or None,
            endpoint_id=env.endpoint_id or None,
            endpoint_group_id=env.endpoint_group_id or None,
            path_templates=env.path_templates,
            sandbox=not self.session.is_production,
        )

        def done(paths: tuple[Path, Path]) -> None:
            where = "filled in (the file is readable by you only)" if key else "left empty"
            self._tell(
                True,
                f"Exported the Postman collection to {paths[0]} and its environment "
                f"{env.name} to {paths[1]}. The private key is {where}"
                + ("." if key else ": set the secret variable privateKey in Postman."),
            )

        self.tasks.run(
            lambda: write_postman(Path(name), target, private_key_pem=key),
            done,
            self._failed,
        )

    def _offer_key(self, env_name: str) -> str | None:
        """The PEM of the environment's key when the person asks for it, else None."""
        from console.core.keys import private_key_pem  # boundary: the key, only when asked

        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Fill in the sandbox key?",
            f"{env_name} is not a production environment. Fill its private key into the "
            "Postman environment, so that the collection runs as it is? The file then holds "
            "the key: keep it to yourself.",
            QMessageBox.StandardButton.NoButton,
            self.parent,
        )
        fill = box.addButton("Fill in the key", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(box.addButton("Leave it empty", QMessageBox.ButtonRole.RejectRole))
        box.exec()
        key = self.session.private_key
        if box.clickedButton() is not fill or key is None:
            return None
        return private_key_pem(key).decode("ascii")

    def openapi(self) -> None:
        """File > Export > OpenAPI description…"""
        name, _ = QFileDialog.getSaveFileName(
            self.parent, "Export an OpenAPI description", OPENAPI_FILE, "OpenAPI (*.json)"
        )
        if not name:
            return
        env = self.session.environment
        server = env.base_url if env is not None and env.base_url else None

        def write() -> Path:
            text = json.dumps(openapi_document(server_url=server), indent=2, ensure_ascii=False)
            write_text_atomic(Path(name), text + "\n")
            return Path(name)

        self.tasks.run(
            write,
            lambda path: self._tell(True, f"Exported the OpenAPI description to {path}."),
            self._failed,
        )

    def _failed(self, exc: BaseException, _tb: str) -> None:
        detail = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        where = getattr(exc, "filename", None)
        self._tell(False, f"Nothing exported: {f'{where}: ' if where else ''}{detail}")

    def _tell(self, fine: bool, text: str) -> None:
        """The result in the status bar and in a message that stays until closed."""
        self.say(text)
        box = QMessageBox(
            QMessageBox.Icon.Information if fine else QMessageBox.Icon.Warning,
            "Export",
            text,
            QMessageBox.StandardButton.Ok,
            self.parent,
        )
        box.setObjectName("export-result")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
