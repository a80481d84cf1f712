"""Light, dark and system themes, and the state colours that stay readable in each.

Widgets use palette roles; the only fixed colours are the production banner (it must look
the same, loud, everywhere) and the state colours, which are picked per light or dark base.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")

# (light base, dark base) pairs: each readable as text on the matching window colour.
_STATE_COLOURS = {
    "error": ("#b3261e", "#ff8a80"),
    "warning": ("#8a5a00", "#ffd180"),
    "fine": ("#1b6e20", "#9ccc65"),
    "required": ("#5f6368", "#b0b4b8"),
    "busy": ("#0b57d0", "#8ab4f8"),
}
PRODUCTION_BG = "#b00020"
PRODUCTION_FG = "#ffffff"


def is_dark(palette: QPalette) -> bool:
    """True when the window colour is dark (text must be light)."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def state_colour(state: str, palette: QPalette | None = None) -> QColor:
    """The text colour for a field state ("error", "warning", "fine", "required", "busy")."""
    pal = palette if palette is not None else QGuiApplication.palette()
    light, dark = _STATE_COLOURS.get(state, _STATE_COLOURS["required"])
    return QColor(dark if is_dark(pal) else light)


def _dark_palette() -> QPalette:
    pal = QPalette()
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, "#202124"),
        (roles.WindowText, "#e8eaed"),
        (roles.Base, "#17181a"),
        (roles.AlternateBase, "#2a2b2e"),
        (roles.ToolTipBase, "#2a2b2e"),
        (roles.ToolTipText, "#e8eaed"),
        (roles.PlaceholderText, "#9aa0a6"),
        (roles.Text, "#e8eaed"),
        (roles.Button, "#2d2e31"),
        (roles.ButtonText, "#e8eaed"),
        (roles.BrightText, "#ffffff"),
        (roles.Highlight, "#8ab4f8"),
        (roles.HighlightedText, "#202124"),
        (roles.Link, "#8ab4f8"),
        (roles.Mid, "#3c4043"),
        (roles.Dark, "#111213"),
        (roles.Light, "#3c4043"),
    ):
        pal.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.Text, roles.WindowText, roles.ButtonText):
        pal.setColor(disabled, role, QColor("#6f7378"))
    return pal


def _light_palette() -> QPalette:
    pal = QPalette()
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, "#f6f7f9"),
        (roles.WindowText, "#1f1f1f"),
        (roles.Base, "#ffffff"),
        (roles.AlternateBase, "#eef0f3"),
        (roles.ToolTipBase, "#ffffff"),
        (roles.ToolTipText, "#1f1f1f"),
        (roles.PlaceholderText, "#80868b"),
        (roles.Text, "#1f1f1f"),
        (roles.Button, "#eceef1"),
        (roles.ButtonText, "#1f1f1f"),
        (roles.Highlight, "#0b57d0"),
        (roles.HighlightedText, "#ffffff"),
        (roles.Link, "#0b57d0"),
        (roles.Mid, "#c4c7c5"),
    ):
        pal.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.Text, roles.WindowText, roles.ButtonText):
        pal.setColor(disabled, role, QColor("#9aa0a6"))
    return pal


def apply_theme(app: QApplication, name: str) -> str:
    """Apply "system", "light" or "dark" (unknown names mean "system"); return the name used."""
    if name not in THEMES:
        name = "system"
    app.setStyle("Fusion")
    hints = app.styleHints()
    if name == "dark":
        hints.setColorScheme(Qt.ColorScheme.Dark)
        app.setPalette(_dark_palette())
    elif name == "light":
        hints.setColorScheme(Qt.ColorScheme.Light)
        app.setPalette(_light_palette())
    else:
        hints.unsetColorScheme()
        scheme = hints.colorScheme()
        app.setPalette(_dark_palette() if scheme == Qt.ColorScheme.Dark else _light_palette())
    return name
