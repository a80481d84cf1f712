"""The About dialog: version, licences of the bundled libraries, where the files live, and
"copy diagnostics" for support tickets. The main window opens it with :func:`show_about`."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from console import APP_NAME, __version__
from console.core import diagnostics, paths
from console.ui.icons import app_icon
from console.ui.screen_room import fit_on_screen

PROJECT_LICENCE = "MIT"
QT_SOURCE_URL = "https://download.qt.io/official_releases/"
LGPL_NOTE = f"""
<p><b>Qt and Qt for Python (PySide6, shiboken6) are used under the GNU Lesser General Public
License, version 3 (LGPL-3.0).</b> For anyone who passes this application on, that means:</p>
<ul>
<li>Qt stays replaceable: its libraries are separate shared libraries (the one-folder build
keeps them as individual .so, .dll or .dylib files beside the program; nothing is linked
statically), so a user can swap in their own build of a compatible Qt version.</li>
<li>The LGPL-3.0 text (and the GPL-3.0 it builds on) goes with every copy.</li>
<li>The source code of the Qt and PySide6 versions used must be available to recipients. They
are unmodified releases, published by the Qt project at
<a href="{QT_SOURCE_URL}">{QT_SOURCE_URL}</a>; whoever changes them must publish the
changes.</li>
<li>Recipients may modify those libraries and reverse engineer the application to debug such
modifications; no licence term may forbid that.</li>
</ul>
<p>Gateway Console itself is under the {PROJECT_LICENCE} licence;
using LGPL libraries does not change that. Each library's licence below is the one its own
package metadata declares.</p>
"""


class AboutDialog(QDialog):
    """Version, licences of the bundled libraries, file locations and a diagnostics copier."""

    def __init__(self, parent: QWidget | None = None, *, app_paths: paths.AppPaths | None = None):
        super().__init__(parent)
        self._paths = app_paths or paths.resolve()
        self.setWindowTitle(f"About {APP_NAME}")
        self.setWindowIcon(app_icon())
        fit_on_screen(self, 700, 640)

        tabs = QTabWidget()
        tabs.addTab(self._files_tab(), "Files")
        tabs.addTab(self._licences_tab(), "Licences")

        self.copy_button = QPushButton("Copy diagnostics")
        self.copy_button.setToolTip(
            "Copy versions, platform, keyring backend and file locations for a support "
            "ticket. Contains no keys, passwords or card data."
        )
        self.copy_button.clicked.connect(self.copy_diagnostics)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(self._header())
        layout.addWidget(tabs, 1)
        layout.addWidget(buttons)

    def _header(self) -> QHBoxLayout:
        logo = QLabel()
        logo.setPixmap(self.windowIcon().pixmap(64, 64))
        text = QLabel(
            f"<h2>{APP_NAME}</h2><p>Version {html.escape(__version__)}<br>"
            "Operator console for the v4 payout, card reference and recurring payment API."
            f"<br>Licence: {PROJECT_LICENCE}</p>"
        )
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.addWidget(logo, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(text, 1)
        return row

    def _files_tab(self) -> QWidget:
        p = self._paths
        form = QFormLayout()
        entries = (
            ("Settings and environments", p.config_dir),
            ("History journal", p.history_db),
            ("Data folder", p.data_dir),
            ("Log file", p.log_file),
        )
        for label, location in entries:
            value = QLabel(str(location))
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setAccessibleName(label)
            form.addRow(f"{label}:", value)
        note = QLabel(
            "Private keys are never stored here in plain text: they live in the system "
            "keyring. The log masks card numbers and never contains CVV2 values or keys."
        )
        note.setWordWrap(True)
        open_logs = QPushButton("Open log folder")
        open_logs.clicked.connect(self._open_log_folder)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(open_logs, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        return page

    def _licences_tab(self) -> QWidget:
        note = QLabel(LGPL_NOTE)
        note.setWordWrap(True)
        note.setTextFormat(Qt.TextFormat.RichText)
        note.setOpenExternalLinks(True)
        libraries = diagnostics.libraries()
        self.licence_table = QTableWidget(len(libraries), 3)
        self.licence_table.setHorizontalHeaderLabels(["Library", "Version", "Licence"])
        self.licence_table.setAccessibleName("Bundled libraries and their licences")
        for row, lib in enumerate(libraries):
            for column, text in enumerate((lib.name, lib.version, lib.licence)):
                item = QTableWidgetItem(text)
                if lib.url:
                    item.setToolTip(lib.url)
                self.licence_table.setItem(row, column, item)
        rows = self.licence_table.verticalHeader()
        rows.setVisible(False)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.licence_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.licence_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(note)
        layout.addWidget(self.licence_table, 1)
        return page

    def copy_diagnostics(self) -> str:
        """Put the diagnostics text on the clipboard and return it."""
        text = diagnostics.diagnostics_text(self._paths)
        QGuiApplication.clipboard().setText(text)
        self.copy_button.setText("Copied")
        # the button as context: the reset is dropped if the dialog is gone by then
        QTimer.singleShot(
            2000, self.copy_button, lambda: self.copy_button.setText("Copy diagnostics")
        )
        return text

    def _open_log_folder(self) -> None:
        self._paths.ensure()
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._paths.log_dir)))


def show_about(parent: QWidget | None = None) -> AboutDialog:
    """Open the About dialog (modal to ``parent``) and return it."""
    dialog = AboutDialog(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
