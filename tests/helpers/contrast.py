"""Contrast as a person sees it: measured from the rendered pixels of a widget (WCAG 2)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import (
    QCheckBox,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QWidget,
)


def luminance(c: QColor) -> float:
    """WCAG relative luminance."""

    def f(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * f(c.redF()) + 0.7152 * f(c.greenF()) + 0.0722 * f(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def pixels(image: QImage) -> Counter[int]:
    """How often each colour (as RGB) occurs in ``image``."""
    # one 32-bit word a pixel (0xffRRGGBB, rows without padding): counted in one pass over
    # the image's memory rather than one call into Qt a pixel
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    seen: Counter[int] = Counter()
    if rgb.isNull():  # an empty grab (a widget of no size) has no pixels, and no memory
        return seen
    words = memoryview(rgb.constBits()).cast("B").cast("I")[: rgb.width() * rgb.height()]
    for word, count in Counter(words).items():
        seen[word & 0xFFFFFF] += count
    return seen


def rendered_text_contrast(widget: QWidget) -> tuple[float, str, str]:
    """(contrast, text colour, background) of a widget's text as drawn: the background is
    its most frequent colour, the text the drawn colour that stands out most from it (the
    core of a glyph is drawn in the full text colour)."""
    seen = pixels(widget.grab().toImage())
    background = QColor(seen.most_common(1)[0][0])
    text = max((QColor(rgb) for rgb in seen), key=lambda c: contrast(c, background))
    return contrast(text, background), text.name(), background.name()


def text_contrast_inside(widget: QWidget, rect: QRect | None = None) -> tuple[float, str, str]:
    """Like :func:`rendered_text_contrast`, within ``rect`` of the widget (its contents
    without the frame, when not given): a field's or a button's edge is not its text."""
    area = rect if rect is not None else widget.contentsRect().adjusted(2, 2, -2, -2)
    seen = pixels(widget.grab(area).toImage())
    background = QColor(seen.most_common(1)[0][0])
    text = max((QColor(rgb) for rgb in seen), key=lambda c: contrast(c, background))
    return contrast(text, background), text.name(), background.name()


def edge_contrast(widget: QWidget, background: QColor) -> tuple[float, str]:
    """(contrast, colour) of a control's edge against the window behind it: the strongest
    of the two outermost columns of its frame, half way down (the ring of a radio button
    or the box of a check box, for those)."""
    area = widget.rect()
    if isinstance(widget, QRadioButton | QCheckBox):
        option = QStyleOptionButton()
        option.initFrom(widget)
        element = (
            QStyle.SubElement.SE_RadioButtonIndicator
            if isinstance(widget, QRadioButton)
            else QStyle.SubElement.SE_CheckBoxIndicator
        )
        area = widget.style().subElementRect(element, option, widget)
    image = widget.grab().toImage()
    y = area.center().y()
    colours = [image.pixelColor(x, y) for x in range(area.left(), area.left() + 2)]
    edge = max(colours, key=lambda c: contrast(c, background))
    return contrast(edge, background), edge.name()
