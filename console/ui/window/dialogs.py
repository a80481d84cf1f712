"""What the menus open besides the forms: the batch dialog, the signature lab, a curl line's
import, the exports, the approval queue and the About dialog. None of it is in the first
picture of the window: each module loads when it is first opened."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from console.core.siglab.curl_import import CurlImport
    from console.ui.batch.controller import Sender
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.layout import AddPane

SAID_FOR_MS = 15_000  # how long a note stays in the status bar


class Dialogs:
    """Opens the window's dialogs and extra panes (the menus call these)."""

    def __init__(
        self,
        session: Session,
        sender: Sender,
        tasks: TaskManager,
        forms: FormsPart,
        add_pane: AddPane,
        window: QMainWindow,
    ) -> None:
        self.session = session
        self.sender = sender
        self.tasks = tasks
        self.forms = forms
        self.add_pane = add_pane
        self.window = window

    def batch(self) -> None:
        """File > Batch payouts…"""
        from console.ui.batch import open_batch_dialog  # boundary: loaded when first opened

        open_batch_dialog(self.session, self.sender, self.tasks, self.window)

    def signature_lab(self) -> None:
        """Request > Signature lab… (the window owns it; it is deleted when closed)."""
        from console.ui.signature_lab import open_signature_lab  # boundary: as batch

        open_signature_lab(self.session, self.fill, self.window)

    def import_curl(self) -> None:
        """Request > Import from curl…"""
        from console.ui.signature_lab import import_from_curl  # boundary: as batch

        import_from_curl(self.fill, self.say, self.window)

    def export_postman(self) -> None:
        """File > Export > Postman collection…"""
        from console.ui.exports import Exporter  # boundary: as batch

        Exporter(self.session, self.tasks, self.say, self.window).postman()

    def export_openapi(self) -> None:
        """File > Export > OpenAPI description…"""
        from console.ui.exports import Exporter  # boundary: as batch

        Exporter(self.session, self.tasks, self.say, self.window).openapi()

    def approval_queue(self) -> None:
        """View > Approval queue (team mode)."""
        from console.ui.team.queue_pane import open_queue  # boundary: as batch

        open_queue(self.tasks, self.add_pane, self.say, self.window)

    def about(self) -> None:
        """Help > About."""
        from console.ui.about import show_about  # boundary: as batch

        show_about(self.window)

    def fill(self, result: CurlImport) -> None:
        """Show the matching command's form and fill it with an imported request's fields."""
        self.forms.show_command(result.command)
        self.forms.form.load(dict(result.fields))
        if result.notes:
            self.say(" ".join(result.notes))

    def say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, SAID_FOR_MS)
