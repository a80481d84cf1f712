"""The About dialog: version, licences, file locations, and copy diagnostics."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from console import __version__
from console.core import paths
from console.ui.about import AboutDialog

pytestmark = pytest.mark.ui


@pytest.fixture
def dialog(qtbot: QtBot) -> AboutDialog:
    widget = AboutDialog()
    qtbot.addWidget(widget)
    return widget


def label_texts(dialog: AboutDialog) -> list[str]:
    return [label.text() for label in dialog.findChildren(QLabel)]


def test_shows_version_and_where_the_files_live(dialog: AboutDialog) -> None:
    texts = "\n".join(label_texts(dialog))
    assert f"Version {__version__}" in texts
    app_paths = paths.resolve()
    for location in (app_paths.config_dir, app_paths.history_db, app_paths.log_file):
        assert str(location) in texts


def test_explains_the_lgpl_and_lists_each_library_licence(dialog: AboutDialog) -> None:
    texts = "\n".join(label_texts(dialog))
    assert "LGPL-3.0" in texts
    assert "replaceable" in texts
    assert "nothing is linked" in texts
    assert "source code" in texts
    table = dialog.licence_table
    rows = {
        table.item(r, 0).text().lower(): table.item(r, 2).text() for r in range(table.rowCount())
    }
    assert "LGPL-3.0" in rows["pyside6_essentials"]
    assert "Apache-2.0" in rows["cryptography"]
    assert rows["keyring"] == "MIT"


def test_copy_diagnostics_fills_the_clipboard(dialog: AboutDialog) -> None:
    text = dialog.copy_diagnostics()
    assert QGuiApplication.clipboard().text() == text
    assert __version__ in text
    assert str(paths.resolve().log_file) in text
    assert dialog.copy_button.text() == "Copied"


def test_shows_the_application_icon_in_every_size(dialog: AboutDialog) -> None:
    sizes = {size.width() for size in dialog.windowIcon().availableSizes()}
    assert sizes == {16, 24, 32, 48, 64, 128, 256, 512}
