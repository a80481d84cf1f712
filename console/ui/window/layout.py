"""The main window's size, dock layout and Tab order: fit the screen, keep the form usable
when the window shrinks, place the journal's panes, save and restore where the docks are
(kept with the drafts), and hop between the Commands tabs, the form and Send."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar, QWidget

from console.ui.screen_room import TITLE_BAR, screen_room

if TYPE_CHECKING:
    from console.ui.forms.validation_view import ProblemSummary
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.send_panel import SendPanel

AddPane = Callable[[QWidget, str, Qt.DockWidgetArea, str], QDockWidget]
"""Dock a pane (widget, title, area, shortcut) and list it in the View menu."""
PANE_SHARE = 35  # percent of the window's height for the bottom panes, the first time

DEFAULT_SIZE = (1400, 900)
INSPECTOR_SHARE = 30  # percent of the window's width
INSPECTOR_WIDTHS = (260, 440)  # narrowest, widest at start-up


def inspector_width(window_width: int) -> int:
    """About 30% of the window, within :data:`INSPECTOR_WIDTHS`."""
    low, high = INSPECTOR_WIDTHS
    return max(low, min(high, window_width * INSPECTOR_SHARE // 100))


FORM_MIN_WIDTH = 560  # the form's fields, choices and messages uncut
FORM_MIN_HEIGHT = 360  # the banner, a few rows of the form and Send
CHROME = 24  # the window's margins and a dock's separator
MARGINS = 12  # the central widget's margins, left and right


def form_min_width(tabs: QTabBar) -> int:
    """The least width of the form's side: its fields (:data:`FORM_MIN_WIDTH`), or every
    command's tab with its whole title when the font makes them wider ("Order s…" with
    scroll arrows is a tab a person cannot read)."""
    titles = sum(tabs.tabSizeHint(i).width() for i in range(tabs.count()))
    return max(FORM_MIN_WIDTH, titles + MARGINS)


def _across(window: QMainWindow, dock: QDockWidget) -> Qt.Orientation:
    """The direction a docked dock takes room from the form in."""
    area = window.dockWidgetArea(dock)
    sides = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
    return Qt.Orientation.Horizontal if area in sides else Qt.Orientation.Vertical


def _docked(window: QMainWindow) -> list[QDockWidget]:
    # Docks are the window's own children (floating ones too). Searching only those: a
    # search of every descendant wraps each of the form's hundreds of widgets for Python
    # first (about 4 ms of start-up, where the saved shares are applied).
    direct = Qt.FindChildOption.FindDirectChildrenOnly
    return [
        d
        for d in window.findChildren(QDockWidget, options=direct)
        if d.objectName() and d.isVisibleTo(window) and not d.isFloating()
    ]


def dock_room(window: QMainWindow, across: Qt.Orientation, wanted: int) -> int:
    """``wanted`` pixels for a dock, or fewer so the form keeps its minimum."""
    if across == Qt.Orientation.Horizontal:
        central = window.centralWidget()
        least = max(FORM_MIN_WIDTH, central.minimumWidth() if central is not None else 0)
        free = window.width() - least - CHROME
    else:
        free = window.height() - FORM_MIN_HEIGHT - CHROME
    return max(0, min(wanted, free))  # the dock's own minimum is Qt's to keep


def shares_text(window: QMainWindow) -> str:
    """Each docked dock's share of the window (width beside the form, height above or
    below it), as text for the drafts file: a layout moves between screens by proportion."""
    shares: dict[str, float] = {}
    for dock in _docked(window):
        across = _across(window, dock)
        horizontal = across == Qt.Orientation.Horizontal
        whole = window.width() if horizontal else window.height()
        if whole > 0:
            shares[dock.objectName()] = round(
                (dock.width() if horizontal else dock.height()) / whole, 4
            )
    return json.dumps(shares, sort_keys=True)


def apply_shares(window: QMainWindow, saved: str) -> None:
    """Give the docks their saved shares of the window as it is now (see :func:`shares_text`),
    the form keeping its minimum."""
    try:
        shares = json.loads(saved) if saved else {}
    except ValueError:
        return  # a damaged layout text: Qt's pixels stand, the form minimum still applies
    if not isinstance(shares, dict):
        return
    for dock in _docked(window):
        share = shares.get(dock.objectName())
        if not isinstance(share, (int, float)) or not 0 < share < 1:
            continue
        across = _across(window, dock)
        whole = window.width() if across == Qt.Orientation.Horizontal else window.height()
        window.resizeDocks([dock], [dock_room(window, across, round(share * whole))], across)


def start_size(window: QMainWindow) -> tuple[int, int]:
    """:data:`DEFAULT_SIZE`, or smaller to fit the screen."""
    width, height = DEFAULT_SIZE
    room = screen_room(window)
    if room is not None:
        width = min(width, room.width())
        height = min(height, room.height() - TITLE_BAR)
    return width, height


# Above and below a form's rows in the first picture: menus, banner, tabs, the form's title,
# hint and choices, the problem list and Send; and the least height of a field row.
_AROUND_ROWS = 330
_ROW_HEIGHT = 38


def rows_in_view(height: int) -> int:
    """How many field rows a window ``height`` pixels high can show at most at start (a
    generous count: a row built too late would show as a gap for a moment)."""
    return max(6, (height - _AROUND_ROWS) // _ROW_HEIGHT)


def fit_to_screen(window: QMainWindow, inspector: QDockWidget) -> None:
    """Start at :func:`start_size`."""
    width, height = start_size(window)
    window.resize(width, height)
    horizontal = Qt.Orientation.Horizontal
    window.resizeDocks([inspector], [inspector_width(width)], horizontal)


def follow_resize(
    window: QMainWindow, inspector: QDockWidget, summary: ProblemSummary, event: QResizeEvent
) -> None:
    """Keep the form the main thing when the window gets smaller."""
    # a low window keeps its height for the form: three problem lines, then scrolling
    summary.set_max_lines(3 if event.size().height() < 800 else 6)
    # A resized window gives or takes the room from the form alone (Qt's way): the
    # inspector keeps its share of the width instead, and never the form's minimum.
    width, old = event.size().width(), event.oldSize().width()
    across = _across(window, inspector)
    if (
        width != old
        and old > 0
        and inspector.isVisible()
        and not inspector.isFloating()
        and across == Qt.Orientation.Horizontal
    ):
        wanted = round(inspector.width() / old * width)
        window.resizeDocks([inspector], [dock_room(window, across, wanted)], across)


def state_text(window: QMainWindow) -> str:
    """Where the docks are and how big, as text for the drafts file."""
    return bytes(window.saveState().toBase64().data()).decode("ascii")


def restore(
    window: QMainWindow, saved: str, panes: Sequence[QDockWidget] = (), shares: str = ""
) -> bool:
    """Put the docks back as :func:`state_text` saved them, sized by their saved shares of
    the window (:func:`shares_text`): Qt's saved pixels were for the screen of that time.

    Docks made after start-up (``panes``) are placed only when the saved layout knows them
    all; False means they were not, and their defaults apply.
    """
    if not saved or not all([window.restoreDockWidget(d) for d in panes]):
        return False
    # once more, whole: a dock added late gets its place above but not its visibility
    restored = window.restoreState(QByteArray.fromBase64(saved.encode("ascii")))
    if restored:
        apply_shares(window, shares)
    return restored


def tuck_away(window: QMainWindow, panes: Sequence[QDockWidget]) -> None:
    """The panes' first time ever (no saved layout knows them): tabbed together at the
    bottom and hidden, so the form keeps the room until the person asks for them; shown,
    they take about a third of the window's height (then it is the person's to drag)."""
    for pane in panes[1:]:
        window.tabifyDockWidget(panes[0], pane)
    panes[0].raise_()
    sized: list[QDockWidget] = []

    def first_shown(dock: QDockWidget, visible: bool) -> None:
        if visible and not sized:
            sized.append(dock)
            # once the dock has its place (shown, not yet laid out, when this is called)
            QTimer.singleShot(0, lambda: _size(dock))

    def _size(dock: QDockWidget) -> None:
        height = window.height() * PANE_SHARE // 100
        window.resizeDocks([dock], [height], Qt.Orientation.Vertical)

    for pane in panes:
        pane.hide()
        pane.visibilityChanged.connect(lambda on, d=pane: first_shown(d, on))


def tab_hop(
    current: QWidget | None, forward: bool, forms: FormsPart, panel: SendPanel
) -> QWidget | None:
    """Where Tab (``forward``) or Shift+Tab goes from ``current``: from the Commands tabs
    into the form shown, from its last stop to Send (or the problem list while Send is
    off), and the way back; None: Qt's own chain."""
    if current is None:
        return None
    tabs, send, form = forms.tabs, panel.send_button, forms.form
    if current is not tabs and current is not send and not form.isAncestorOf(current):
        return None
    stops = [w for w in form.focus_ring() if w.isVisible() and w.isEnabled()]
    if not stops:
        return None
    if forward and current is tabs:
        return stops[0]
    if not forward and current is stops[0]:
        return tabs
    if forward and current is stops[-1]:
        problems = panel.summary.list
        if send.isEnabled():
            return send
        return problems if problems.isVisible() and problems.count() else tabs
    if not forward and current is send:
        return stops[-1]
    return None
