"""A command form generated from the contract's field table (``console.core.spec``).

Fields are grouped into sections by ``Field.section``; subclasses add the choices that keep
either-or rules from being broken (receiver type, callback, redirect, SRC/DST, amount rule)
by hiding or disabling rows, never by knowing field rules themselves.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from console.core.spec.commands import SECTION_TITLES
from console.core.spec.labels import shown_order
from console.core.spec.model import Command, Necessity, Problem, Severity
from console.ui.forms.field_widgets import FieldRow
from console.ui.forms.lazy_rows import LazyRows, place_in_tab_order, visual_chain
from console.ui.forms.sandbox_hints import Hint, seed_link

CHOICE_PREFIX = "@"  # draft keys for form choices, never a wire name


class CommandForm(QWidget):
    """The generic form: one :class:`FieldRow` per field, grouped in sections.

    Rows that the choices hide at first (:meth:`initially_hidden`) are built when first shown
    or asked for (``rows[name]``); until then what was loaded into them waits in the form, so
    drafts, values and validation are as if every row existed.

    ``first_rows``: build only that many of the rows shown (in the order shown) now, enough
    to fill the window's first picture; the rest wait for :meth:`build_later` (right after
    the first paint) or until asked for.
    """

    changed = Signal()
    skip_to_send = Signal()  # the person wants Send, past the optional sections

    # Subclasses may reorder sections; unknown sections follow in table order.
    SECTION_ORDER: Sequence[str] = ()
    # Sections followed by a "Skip to Send" stop: what follows them is optional.
    SKIP_TO_SEND_AFTER: Collection[str] = ()

    def __init__(
        self, command: Command, parent: QWidget | None = None, *, first_rows: int | None = None
    ) -> None:
        super().__init__(parent)
        self.command = command
        self._fields = {f.name: f for f in command.fields}
        self._position = {f.name: i for i, f in enumerate(command.fields)}
        self.rows = LazyRows([f.name for f in command.fields], self._build_row)
        self.sections: dict[str, QWidget] = {}
        self._section_rows: dict[str, tuple[str, ...]] = {}
        self._section_layouts: dict[str, QVBoxLayout] = {}
        self._pending: dict[str, str] = {}  # text for rows not built yet
        self._placing = False  # rows built after the form must be put in the tab order
        self._hidden: set[str] = set()
        self._later: list[str] = []  # shown rows left for build_later, in the order shown
        self._disabled: set[str] = set()
        self._loading = False
        # Until a send is tried, a value nobody has typed yet is asked for calmly, not in red.
        self.attempted = False

        self.content = QWidget()
        self.content_layout = QVBoxLayout(self.content)
        self.content_layout.setSpacing(10)
        intro = QLabel(f"<b>{command.title}</b> — {command.purpose}")
        intro.setWordWrap(True)
        self.content_layout.addWidget(intro)
        if command.from_field_notes:
            note = QLabel(
                "This command is not in the contract; its fields come from the field notes "
                "(public v4 documentation of deployed gateways)."
            )
            note.setWordWrap(True)
            self.content_layout.addWidget(note)
        self._hint: Hint | None = None
        self._hint_open = False
        self.hint = QLabel()  # test data of a sandbox environment; never on production
        self.hint.setObjectName("sandbox-hint")
        self.hint.setWordWrap(True)
        self.hint.setFrameShape(QFrame.Shape.StyledPanel)  # test data, set apart from the form
        self.hint.setMargin(6)
        self.hint.setVisible(False)
        self.hint.setAccessibleDescription("Sandbox test data")  # its text is its name
        # The mouse follows its links; the keyboard has the button under it, a stop of its
        # own that Tab shows (a link inside a label takes no focus a scroll area can follow).
        self.hint.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.hint.setOpenExternalLinks(False)
        self.hint.linkActivated.connect(self._hint_link)
        self.hint_more = QPushButton("More test data…")
        self.hint_more.setObjectName("sandbox-hint-more")
        self.hint_more.setFlat(True)
        self.hint_more.setVisible(False)
        self.hint_more.clicked.connect(
            lambda: self._hint_link("hint:less" if self._hint_open else "hint:more")
        )
        self.content_layout.addWidget(self.hint)
        self.content_layout.addWidget(self.hint_more, 0, Qt.AlignmentFlag.AlignLeft)
        self.build_choices(self.content_layout)
        self._build_sections(first_rows)
        self.content_layout.addStretch(1)

        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setWidget(self.content)
        self.scroller.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # not a stop: nothing shows it
        # narrower than this the editors get too short; the scroll area scrolls sideways then
        self.content.setMinimumWidth(400)
        # a stop reached from outside (Tab from Send, a shortcut) is scrolled into sight:
        # the scroll area follows only Tab among its own stops
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow_focus)
        self.outer = QHBoxLayout(self)
        self.outer.setContentsMargins(0, 0, 0, 0)
        self.outer.addWidget(self.scroller, 3)

    def _follow_focus(self, _old: QWidget | None, now: QWidget | None) -> None:
        if now is not None and self.content.isAncestorOf(now):
            self.scroller.ensureWidgetVisible(now)

    # -- building ----------------------------------------------------------------------
    def set_hint(self, hint: Hint | None) -> None:
        """Show the environment's test data: one line, all of it on "More" (None hides it)."""
        self._hint = hint
        self._show_hint()

    def _show_hint(self) -> None:
        hint = self._hint
        if hint is None:
            self.hint.setText("")
            self.hint.setVisible(False)
            self.hint_more.setVisible(False)
            return
        self.hint.setText(hint.full if self._hint_open else hint.short)
        self.hint_more.setText("Less test data" if self._hint_open else "More test data…")
        self.hint.setVisible(True)
        self.hint_more.setVisible(True)

    def _hint_link(self, link: str) -> None:
        if link in ("hint:more", "hint:less"):
            self._hint_open = link == "hint:more"
            self._show_hint()
        elif link.startswith("seed:"):
            self.load(seed_link(link))

    def build_choices(self, layout: QVBoxLayout) -> None:
        """Hook: add choice widgets above the sections."""

    def section_title(self, key: str) -> str:
        return SECTION_TITLES.get(key, key.replace("-", " ").capitalize())

    def required_by_choices(self) -> Collection[str]:
        """Hook: the fields the current choices make necessary (marked with *)."""
        return ()

    def initially_hidden(self) -> set[str]:
        """Hook: the rows the choices hide at first (built when first shown)."""
        return set()

    def with_choices(self, problems: list[Problem], values: Mapping[str, str]) -> list[Problem]:
        """Hook: the core's problems as the form's choices narrow them (a chosen receiver
        or callback names its own fields)."""
        return problems

    def _build_sections(self, first_rows: int | None) -> None:
        order = list(self.SECTION_ORDER)
        for f in self.command.fields:
            if f.section not in order:
                order.append(f.section)
        for key in order:
            names = shown_order(f.name for f in self.command.fields if f.section == key)
            if not names:
                continue
            # a bold heading over a frame: a bold group box title would make every child bold
            section = QWidget()
            section.setObjectName(f"section:{key}")
            outer = QVBoxLayout(section)
            outer.setContentsMargins(0, 0, 0, 0)
            outer.setSpacing(2)
            outer.addWidget(QLabel(f"<b>{self.section_title(key)}</b>"))
            box = QGroupBox()
            outer.addWidget(box)
            if key in self.SKIP_TO_SEND_AFTER:
                skip = QPushButton("Skip to Send")
                skip.setObjectName(f"skip-to-send:{key}")
                skip.setFlat(True)
                skip.setToolTip("Put the cursor on Send, past the optional sections below")
                skip.clicked.connect(self.skip_to_send)
                outer.addWidget(skip, 0, Qt.AlignmentFlag.AlignLeft)
            lay = QVBoxLayout(box)
            lay.setSpacing(2)
            self.sections[key] = section
            self._section_rows[key] = names
            self._section_layouts[key] = lay
            self.content_layout.addWidget(section)
        deferred = self.initially_hidden() & self._fields.keys()
        self._hidden |= deferred
        if first_rows is not None:
            shown = [n for names in self._section_rows.values() for n in names]
            self._later = [n for n in shown if n not in deferred][first_rows:]
        later = set(self._later)
        for f in self.command.fields:
            if f.name not in deferred and f.name not in later:
                self._build_row(f.name)
        self._placing = True
        if not self._later:  # else once those are built too (build_later, after the paint)
            self.follow_visual_tab_order()

    def build_later(self) -> bool:
        """Build the shown rows that ``first_rows`` left out (they are below the first
        picture), in one go; False when there were none."""
        if not self._later:
            return False
        self._placing = False  # one tab order for them all, below
        try:
            for name in list(self._later):
                self._build_row(name)
        finally:
            self._placing = True
        self.follow_visual_tab_order()
        return True

    def follow_visual_tab_order(self) -> None:
        """Tab goes where the eye goes: choices, then each section's rows and their buttons,
        in the order they are shown (not the contract table's order)."""
        chain = visual_chain(self.content)
        if len(chain) > 1:
            place_in_tab_order(chain[0], chain[1:])

    def _build_row(self, name: str) -> FieldRow:
        """Create one row in its place: section position, tab order, state, loaded text."""
        field = self._fields[name]
        row = FieldRow(field)
        row.edited.connect(self._edited)
        if name in self._hidden:
            row.setVisible(False)  # before it joins the shown form: no flash
        if name in self._disabled:
            row.setEnabled(False)
        shown = self._section_rows[field.section]  # in the order the section shows them
        before = [n for n in shown[: shown.index(name)] if self.rows.is_built(n)]
        self._section_layouts[field.section].insertWidget(len(before), row)
        self.rows.add(name, row)
        if name in self._later:  # by build_later, or asked for before it
            self._later.remove(name)
            # the form may be shown already: shown now, not on Qt's next round
            row.setVisible(name not in self._hidden)
        self.decorate_row(row)
        if self._placing:
            self.follow_visual_tab_order()
        text = self._pending.pop(name, "")
        if text:
            loading, self._loading = self._loading, True
            try:
                row.set_text(text)
            finally:
                self._loading = loading
        return row

    def decorate_row(self, row: FieldRow) -> None:
        """Hook: add buttons next to a row's editor (generate id, reveal, ...)."""

    def _edited(self, _name: str = "") -> None:
        if not self._loading:
            self.changed.emit()

    # -- visibility --------------------------------------------------------------------
    def set_hidden(self, names: Iterable[str], hidden: bool) -> None:
        """Hide rows that do not apply; a section with no visible row is hidden too."""
        for name in sorted(names, key=lambda n: self._position.get(n, -1)):  # contract order
            if name not in self._fields:
                continue
            if hidden:
                self._hidden.add(name)
                if self.rows.is_built(name):
                    self.rows[name].setVisible(False)
            else:
                self._hidden.discard(name)
                if name not in self._later:  # those are built (shown) by build_later
                    self.rows[name].setVisible(True)  # built now if it never was
        for key, box in self.sections.items():
            box.setVisible(any(n not in self._hidden for n in self._section_rows[key]))

    def set_disabled(self, names: Iterable[str], disabled: bool) -> None:
        """Disable rows that the current choice does not support (they are not sent)."""
        for name in names:
            if name in self._fields:
                (self._disabled.add if disabled else self._disabled.discard)(name)
                if self.rows.is_built(name):
                    self.rows[name].setEnabled(not disabled)

    def is_active(self, name: str) -> bool:
        return name not in self._hidden and name not in self._disabled

    # -- values ------------------------------------------------------------------------
    def text_of(self, name: str) -> str:
        """A row's text by wire name, without building a row that is not built yet."""
        if self.rows.is_built(name):
            return self.rows[name].text()
        return self._pending.get(name, "")

    def values(self) -> dict[str, str]:
        """What would be sent: active rows with text, plus :meth:`extra_values`."""
        # a row not built yet is hidden (never active), or left for build_later: its loaded
        # text is sent as the row would send it
        out = {n: text for n in self.rows.names if self.is_active(n) and (text := self.text_of(n))}
        out.update(self.extra_values())
        return out

    def extra_values(self) -> dict[str, str]:
        """Hook: values the choices add (a redirect placeholder, for instance)."""
        return {}

    def choices(self) -> dict[str, str]:
        """Hook: the choice widgets' state, for drafts."""
        return {}

    def set_choices(self, choices: Mapping[str, str]) -> None:
        """Hook: restore :meth:`choices`."""

    def implied_choices(self, values: Mapping[str, str]) -> dict[str, str]:
        """Hook: the choices that wire values imply (loading an example or a history row)."""
        return {}

    def draft(self) -> dict[str, str]:
        """Everything typed (hidden rows too) and the choices."""
        out = {n: text for n in self.rows.names if (text := self.text_of(n))}
        out.update({CHOICE_PREFIX + k: v for k, v in self.choices().items()})
        return out

    def load(self, values: Mapping[str, str], *, clear: bool = False) -> None:
        """Fill rows (and choices, from ``@`` keys) without one signal per field."""
        self._loading = True
        if clear:
            self.attempted = False  # a fresh start is calm again
            for row in self.rows.built().values():
                row.reset_left()
        try:
            choices = self.implied_choices(values)
            choices.update(
                {
                    k[len(CHOICE_PREFIX) :]: v
                    for k, v in values.items()
                    if k.startswith(CHOICE_PREFIX)
                }
            )
            if choices:
                self.set_choices(choices)
            for name, field in self._fields.items():
                text = values.get(name, values.get(field.alias or "", None))
                if self.rows.is_built(name):
                    if text is not None:
                        self.rows[name].set_text(text)
                    elif clear:
                        self.rows[name].set_text("")
                elif text:
                    self._pending[name] = text  # put in the row when it is built
                elif text is not None or clear:
                    self._pending.pop(name, None)
        finally:
            self._loading = False
        self.changed.emit()

    # -- validation --------------------------------------------------------------------
    def is_pending(self, problem: Problem) -> bool:
        """True when ``problem`` concerns only fields nobody has finished yet (empty, or still
        being typed in) and no send was tried.

        Such a problem still blocks Send, but it is not shown as a mistake: it is listed in a
        neutral tone. A field turns red when the person leaves it, or tries to send.
        """
        if self.attempted or not problem.fields:
            return False
        names = [f.name for n in problem.fields if (f := self.command.field(n)) is not None]
        if not names:
            return False
        empty = [n for n in names if not self.text_of(n)]
        if empty:
            # it asks for a value: calm until the person has left one of those fields empty
            return not any(self._left(n) for n in empty)
        # it is about values given: calm while one of them is still being typed
        return not all(self._left(n) for n in names)

    def _left(self, name: str) -> bool:
        """The person has been in the field and moved on, or it was filled whole."""
        if self.rows.is_built(name):
            return self.rows[name].left
        return bool(self._pending.get(name))  # loaded into a row not built yet

    def apply_problems(self, problems: Sequence[Problem]) -> None:
        """Show each row's state: required, fine, warning or error, with the message."""
        worst: dict[str, Problem] = {}
        for p in problems:
            for name in p.fields:
                field = self.command.field(name)
                if field is None:
                    continue
                key = field.name
                have = worst.get(key)
                if have is None or (
                    have.severity is Severity.WARNING and p.severity is Severity.ERROR
                ):
                    worst[key] = p
        chosen = self.required_by_choices()
        for name, row in self.rows.built().items():  # a row not built yet is hidden: no state
            found = worst.get(name)
            needed = row.field.necessity is Necessity.REQUIRED or name in chosen
            row.set_required(needed)
            if not self.is_active(name):
                row.set_state("")
            elif found is None:
                filled = bool(row.text())
                row.set_state("fine" if filled else ("required" if needed else ""))
            elif found.code == "required" and not row.text() and not self.attempted:
                row.set_state("required")  # the mark and the summary say it; less noise
            elif self.is_pending(found):
                row.set_state("required", found.message)  # an either-or rule asking for one
            else:
                row.set_state(str(found.severity), found.message)

    def tab_stops(self) -> list[QWidget]:
        """The form's stops in the order Tab visits them (as the eye reads them)."""
        return visual_chain(self.content)

    def focus_ring(self) -> list[QWidget]:
        """The widgets of this form Tab stops at, in the window's focus chain order."""
        found: list[QWidget] = []
        start = self.window()
        widget = start.nextInFocusChain()
        while widget is not start and widget is not None and len(found) < 10_000:
            if (
                self.isAncestorOf(widget)
                and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
                and widget.focusProxy() is None
            ):
                found.append(widget)
            widget = widget.nextInFocusChain()
        return found

    def focus_first(self, reason: Qt.FocusReason = Qt.FocusReason.TabFocusReason) -> bool:
        """Put the cursor on the form's first stop that is shown; False when none is."""
        for widget in self.tab_stops():
            if widget is self.hint_more:
                continue  # the test data above the form is a Shift+Tab away
            if widget.isVisibleTo(self) and widget.isEnabled():
                self.scroller.ensureWidgetVisible(widget)
                widget.setFocus(reason)
                return True
        return False

    def focus_field(self, name: str) -> bool:
        """Scroll to a field and put the cursor in it; False when it is not shown."""
        field = self.command.field(name)
        if field is None or not self.is_active(field.name):
            return False
        row = self.rows[field.name]
        self.scroller.ensureWidgetVisible(row)
        row.editor.setFocus()
        return True
