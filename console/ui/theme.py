"""Light, dark and system themes, and the state colours that stay readable in each.

Widgets use palette roles; the only fixed colours are the production banner (it must look
the same, loud, everywhere) and the state colours, which are picked per light or dark base.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette, QPixmap
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
    # 7.7:1 on white: hints and the small wire names under labels must be readable too
    # (WCAG AA), measured as drawn: the thin strokes of small text come out lighter
    "PlaceholderText": "#4f5358",
    "Text": "#1f1f1f",
    "Button": "#eceef1",
    "ButtonText": "#1f1f1f",
    "Highlight": "#0b57d0",
    "HighlightedText": "#ffffff",
    "Link": "#0b57d0",
    "Mid": "#c4c7c5",
    "disabled": "#9aa0a6",
}

# The controls whose edge is all that shows where they are: fields, choices, buttons,
# switches, lists. Fusion draws their edges 1.4 times darker than the window (2:1 on a light
# one), unless the window is drawn with a texture: then in black at 63% (6:1, WCAG 1.4.11
# asks 3:1). Only these classes get the texture, so no large area is filled with it.
_CONTROLS = (
    "QLineEdit",
    "QAbstractSpinBox",
    "QComboBox",
    "QAbstractButton",
    "QPlainTextEdit",
    "QTextEdit",
    "QAbstractItemView",
)
# Fusion draws a radio button's ring from the window colour, 1.5 times darker (2:1 on a light
# window); the brush's colour can differ from its texture, which is what gets painted.
_RING = "#6f7378"
FOCUS_RING_DARKER = 130  # percent: a button's focus ring at 4.5:1 or more on the window


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


def _textured(palette: QPalette, colour: QColor | None = None) -> QPalette:
    """``palette`` with its window colour as a texture (see :data:`_CONTROLS`); the brush
    says ``colour`` (the window colour unless given) where a style asks for one."""
    window = palette.color(QPalette.ColorRole.Window)
    texture = QPixmap(8, 8)
    texture.fill(window)
    textured = QPalette(palette)
    textured.setBrush(QPalette.ColorRole.Window, QBrush(colour or window, texture))
    return textured


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
    palette = _palette(colours)
    app.setPalette(palette)
    dark = colours is _DARK
    controls = palette if dark else _textured(palette)
    for kind in _CONTROLS:  # later themes replace what an earlier one set for the class
        app.setPalette(controls, kind)  # type: ignore[arg-type]  # the stub says bytes
    # Fusion draws a button's focus ring from the highlight: on the light window it comes
    # out faint (3:1), so buttons get a deeper one; the dark theme's is clear already
    buttons = QPalette(controls)
    if not dark:
        highlight = QColor(colours["Highlight"]).darker(FOCUS_RING_DARKER)
        buttons.setColor(QPalette.ColorRole.Highlight, highlight)
    app.setPalette(buttons, "QPushButton")  # type: ignore[arg-type]  # takes str, not bytes
    ring = QColor(_RING).lighter(150)
    radios = palette if dark else _textured(palette, ring)
    app.setPalette(radios, "QRadioButton")  # type: ignore[arg-type]  # takes str, not bytes
    if colours is _DARK:
        # Fusion draws field edges a shade darker than the window: invisible in the dark.
        # Only for the dark theme: a style written in Python costs time in every widget.
        from console.ui.edges import use_visible_edges  # boundary: the dark theme only

        use_visible_edges(app, colours["edge"])
    elif "console.ui.edges" in sys.modules:
        from console.ui.edges import drop_visible_edges  # boundary: loaded by the dark theme

        drop_visible_edges(app)  # on a light window the texture is enough
    return name
