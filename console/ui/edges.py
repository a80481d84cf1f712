"""Edges a person can see in the dark theme: Fusion draws the frame of a text field, list,
spin box, button or choice, the ring of a radio button and the box of a check box a shade
darker than the window, which on a dark window is invisible, and the current tab differs
from the others only by its shape. This style draws them in an edge colour at 3:1 or more
against the window (WCAG 1.4.11) and marks the current tab with the highlight colour;
everything else is Fusion's.
(The light theme needs none of this: see ``theme._CONTROLS``.)"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QPlainTextEdit,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionComplex,
    QTextEdit,
    QWidget,
)

_FRAMED = QPlainTextEdit | QTextEdit | QAbstractItemView


class VisibleEdges(QProxyStyle):
    """Fusion, with visible frames of fields, lists, buttons and choices, radio rings, check
    boxes and current tabs."""

    def __init__(self, edge: str) -> None:
        super().__init__("Fusion")
        self.edge = QColor(edge)

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        kind = QStyle.PrimitiveElement
        if element == kind.PE_FrameLineEdit or (
            element == kind.PE_Frame and isinstance(widget, _FRAMED)
        ):
            self._outline(option, painter, ring=False)
            return
        super().drawPrimitive(element, option, painter, widget)
        if element == kind.PE_IndicatorRadioButton:
            self._outline(option, painter, ring=True)
        elif element == kind.PE_IndicatorCheckBox:  # the box of a check box (dialogs' options)
            self._outline(option, painter, ring=False)
        elif element == kind.PE_PanelButtonCommand:  # push buttons and choices (combo boxes)
            self._outline(option, painter, ring=False, keyboard=True)

    def drawComplexControl(
        self,
        control: QStyle.ComplexControl,
        option: QStyleOptionComplex,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawComplexControl(control, option, painter, widget)
        if control == QStyle.ComplexControl.CC_SpinBox:
            self._outline(option, painter, ring=False)

    def drawControl(
        self,
        element: QStyle.ControlElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawControl(element, option, painter, widget)
        if element == QStyle.ControlElement.CE_TabBarTabShape and (
            option.state & QStyle.StateFlag.State_Selected
        ):
            painter.save()
            painter.fillRect(
                option.rect.adjusted(1, option.rect.height() - 3, -1, 0),
                option.palette.color(QPalette.ColorRole.Highlight),
            )
            painter.restore()

    def _pen(self, option: QStyleOption, *, keyboard: bool) -> QPen:
        state = option.state
        focus = bool(state & QStyle.StateFlag.State_HasFocus) and (
            # a button or choice shows focus that came by keyboard, as Fusion does
            not keyboard or bool(state & QStyle.StateFlag.State_KeyboardFocusChange)
        )
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        colour = (
            option.palette.color(QPalette.ColorRole.Highlight)
            if focus
            else self.edge
            if enabled
            else option.palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        )
        return QPen(colour, 1)

    def _outline(
        self, option: QStyleOption, painter: QPainter, *, ring: bool, keyboard: bool = False
    ) -> None:
        """A control's rounded frame, or a radio button's ring, in the edge colour."""
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(self._pen(option, keyboard=keyboard))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        shape = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if ring:
            painter.drawEllipse(shape)
        else:
            painter.drawRoundedRect(shape, 2, 2)
        painter.restore()


def drop_visible_edges(app: QApplication) -> None:
    """Back to Fusion itself (the light theme)."""
    if isinstance(app.style(), VisibleEdges):
        app.setStyle("Fusion")


def use_visible_edges(app: QApplication, edge: str) -> None:
    """Draw the application with :class:`VisibleEdges` (once; later the edge colour only)."""
    style = app.style()
    if isinstance(style, VisibleEdges):
        style.edge = QColor(edge)
        return
    app.setStyle(VisibleEdges(edge))
