"""Light, dark and system themes, and the state colours that stay readable in each.

Widgets use palette roles; the only fixed colours are the production banner (it must look
the same, loud, everywhere) and the state colours, which are picked per light or dark base.
"""

from __future__ import annotations

import sys

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


# Palette colours by role name; "disabled" is the text colour of disabled widgets.
_DARK = {
    "Window": "#202124",
    "WindowText": "#e8eaed",
    "Base": "#17181a",
    "AlternateBase": "#2a2b2e",
    "ToolTipBase": "#2a2b2e",
    "ToolTipText": "#e8eaed",
    "PlaceholderText": "#9aa0a6",
    "Text": "#e8eaed",
    "Button": "#2d2e31",
    "ButtonText": "#e8eaed",
    "BrightText": "#ffffff",
    "Highlight": "#8ab4f8",
    "HighlightedText": "#202124",
    "Link": "#8ab4f8",
    "Mid": "#3c4043",
    "Dark": "#111213",
    "Light": "#3c4043",
    "disabled": "#6f7378",
    "edge": "#80868b",  # field edges: 4.4:1 on the window (WCAG 1.4.11 asks 3:1)
}
_LIGHT = {
    "Window": "#f6f7f9",
    "WindowText": "#1f1f1f",
    "Base": "#ffffff",
    "AlternateBase": "#eef0f3",
    "ToolTipBase": "#ffffff",
    "ToolTipText": "#1f1f1f",
    "PlaceholderText": "#5f6368",  # 6:1 on white: hints must be readable too (WCAG AA)
    "Text": "#1f1f1f",
    "Button": "#eceef1",
    "ButtonText": "#1f1f1f",
    "Highlight": "#0b57d0",
    "HighlightedText": "#ffffff",
    "Link": "#0b57d0",
    "Mid": "#c4c7c5",
    "disabled": "#9aa0a6",
    "edge": "#767b80",  # 4:1 on the window
}


_EXTRA = ("disabled", "edge")  # not palette roles: disabled text, the edges of fields


def _palette(colours: dict[str, str]) -> QPalette:
    """A palette from role names to colours (see :data:`_DARK`)."""
    pal = QPalette()
    roles = QPalette.ColorRole
    for name, colour in colours.items():
        if name not in _EXTRA:
            pal.setColor(getattr(roles, name), QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.Text, roles.WindowText, roles.ButtonText):
        pal.setColor(disabled, role, QColor(colours["disabled"]))
    return pal


def apply_theme(app: QApplication, name: str, *, set_style: bool = True) -> str:
    """Apply "system", "light" or "dark" (unknown names mean "system"); return the name used.

    ``set_style=False`` when the application was created with ``-style Fusion`` already.
    """
    if name not in THEMES:
        name = "system"
    if set_style:
        app.setStyle("Fusion")
    hints = app.styleHints()
    if name == "dark":
        hints.setColorScheme(Qt.ColorScheme.Dark)
        colours = _DARK
    elif name == "light":
        hints.setColorScheme(Qt.ColorScheme.Light)
        colours = _LIGHT
    else:
        hints.unsetColorScheme()
        colours = _DARK if hints.colorScheme() == Qt.ColorScheme.Dark else _LIGHT
    app.setPalette(_palette(colours))
    if colours is _DARK:
        # Fusion draws field edges a shade darker than the window: invisible in the dark.
        # Only for the dark theme: a style written in Python costs time in every widget.
        from console.ui.edges import use_visible_edges  # boundary: the dark theme only

        use_visible_edges(app, colours["edge"])
    elif "console.ui.edges" in sys.modules:
        from console.ui.edges import drop_visible_edges  # boundary: loaded by the dark theme

        drop_visible_edges(app)  # Fusion's own edges read well on a light window
    return name
