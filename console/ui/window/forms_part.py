"""The command forms: a tab per command, each form built on first use, validated with the
core's rules on every change, filled with examples, kept as drafts, and cleared of what
belongs to an environment left behind."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QStackedWidget, QTabBar, QVBoxLayout, QWidget

from console.core.environments import EnvKind
from console.core.masking import is_sensitive
from console.core.order_facts import NEW_ORDER_COMMANDS, ORDER_ID_FIELDS
from console.core.spec import COMMANDS, Problem, example_values, validate
from console.core.spec.callbacks import loopback_without_listener
from console.core.spec.codes import Code
from console.ui.drafts import DraftStore
from console.ui.forms import make_form
from console.ui.forms.choices import CallbackChoice, new_client_orderid
from console.ui.forms.generator import CommandForm
from console.ui.forms.payout_form import PayoutForm
from console.ui.forms.sandbox_hints import hint_for, sandbox_example
from console.ui.session import Session

if TYPE_CHECKING:
    from console.core.history import HistoryDetail

COMMAND_ORDER = ("payout-check", "create-card-ref", "create-recurring-payment", "status")

# Values that name something in one environment only: an order or a stored card there.
ENVIRONMENT_IDS = ("card_recurring_payment_id", "recurring-payment-id", "orderid", "by-request-sn")


def command_names() -> list[str]:
    """Every command with a form: the usual order first, then any the spec adds."""
    return [n for n in COMMAND_ORDER if n in COMMANDS] + [
        n for n in COMMANDS if n not in COMMAND_ORDER
    ]


class LazyForms(Mapping[str, CommandForm]):
    """The command forms by name, each built on first access."""

    def __init__(self, names: list[str], build: Callable[[str], CommandForm]) -> None:
        self.names = names
        self._build = build
        self._built: dict[str, CommandForm] = {}

    def __getitem__(self, name: str) -> CommandForm:
        if name not in self.names:
            raise KeyError(name)
        if name not in self._built:
            self._built[name] = self._build(name)
        return self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def built(self) -> list[CommandForm]:
        """Only the forms that exist already."""
        return list(self._built.values())


class FormsPart(QWidget):
    """The tab bar and the form under it.

    Signals:
        validated(form, problems): after each validation of a form.
        shown(command): another form is shown.
        drafts_due: typing stopped a moment ago; the drafts may be written.
    """

    validated = Signal(object, object)
    shown = Signal(str)
    drafts_due = Signal()
    skip_to_send = Signal()

    def __init__(self, session: Session, drafts: DraftStore, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.drafts = drafts
        self.example_overrides: dict[str, str] = {}  # example values the environment sets
        self.listener_url = ""  # this console's callback listener for the active environment
        # rows the next form built may leave for after the first paint (see build_later)
        self.first_rows: int | None = None
        self.tabs = QTabBar()
        self.tabs.setObjectName("commands")
        self.tabs.setAccessibleName("Commands")
        self.tabs.setExpanding(False)
        self.tabs.setDocumentMode(True)
        self.stack = QStackedWidget()
        names = command_names()
        self.forms = LazyForms(names, self._build)
        for name in names:
            self.stack.addWidget(QWidget())  # replaced by the form when first shown
            self.tabs.addTab(COMMANDS[name].title)
            self.tabs.setTabToolTip(self.tabs.count() - 1, COMMANDS[name].purpose)
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(800)  # drafts reach the disk shortly after typing stops
        self._draft_timer.timeout.connect(self.drafts_due)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.tabs)
        lay.addWidget(self.stack, 1)
        self.tabs.currentChanged.connect(self._switch)

    # -- which form --------------------------------------------------------------------------
    @property
    def command(self) -> str:
        return self.forms.names[self.stack.currentIndex()]

    @property
    def form(self) -> CommandForm:
        return self.forms[self.command]

    def show_command(self, name: str) -> None:
        """Switch to a command's form (drafts of the others are kept)."""
        index = self.forms.names.index(name)
        if self.tabs.currentIndex() == index:
            self._switch(index)  # the tab bar does not signal the current tab
        else:
            self.tabs.setCurrentIndex(index)

    def open_command(self, name: str) -> None:
        """Show a command's form with the cursor on its first stop (Ctrl+1, Ctrl+2...)."""
        self.show_command(name)
        # as a shortcut: the style then shows the focus, also on a choice (where an arrow
        # key would change it); a cursor put there silently is easily missed
        self.form.focus_first(Qt.FocusReason.ShortcutFocusReason)

    def _switch(self, row: int) -> None:
        if row < 0:
            return
        self.forms[self.forms.names[row]]
        self.stack.setCurrentIndex(row)
        self.drafts.last_command = self.command
        self.validate()
        self.shown.emit(self.command)

    def _build(self, name: str) -> CommandForm:
        """Create a form the first time it is needed (start-up builds only the first)."""
        form = make_form(COMMANDS[name], first_rows=self.first_rows)
        self.first_rows = None  # a form built once the window is up builds all it shows
        if isinstance(form, PayoutForm):
            form.set_placeholder(self.session.redirect_placeholder)
        form.set_hint(hint_for(name, self.environment_kind()))
        callback = getattr(form, "callback", None)
        if callback is not None:
            callback.listener_url = lambda: self.listener_url
        form.load(self.drafts.get(name))
        form.changed.connect(lambda f=form: self.validate(f))
        form.skip_to_send.connect(self.skip_to_send)
        index = self.forms.names.index(name)
        current = self.stack.currentIndex()
        old = self.stack.widget(index)
        self.stack.insertWidget(index, form)
        if old is not None:
            self.stack.removeWidget(old)
            old.deleteLater()
        self.stack.setCurrentIndex(current)  # replacing a page must not change the page shown
        return form

    def build_later(self) -> None:
        """Build the rows a form left for after the first paint and show their states."""
        if any([form.build_later() for form in self.forms.built()]):
            self.validate()

    # -- values ------------------------------------------------------------------------------
    def fill_example(self) -> None:
        """Fill the current form with the contract's realistic example (not the status
        form: its example is an order of the journal, see the window)."""
        values = example_values(self.command)
        values.update(
            {k: v for k, v in self.example_overrides.items() if k in values or k.startswith("@")}
        )
        values.update(sandbox_example(self.command, self.environment_kind()))
        if self.command in NEW_ORDER_COMMANDS:
            # the example's fixed order id works once; a second send would be refused (202)
            for name in ORDER_ID_FIELDS:
                if name in values:
                    values[name] = new_client_orderid()
        self.form.load(values, clear=True)

    def clear(self) -> None:
        self.form.load({}, clear=True)

    def focus_field(self, name: str) -> bool:
        return self.form.focus_field(name)

    def new_order_id(self) -> bool:
        """Put a fresh client_orderid in the form shown; False when it has none."""
        for name in ORDER_ID_FIELDS:
            row = self.form.rows.get(name)
            if row is not None:
                row.set_text(new_client_orderid())
                return True
        return False

    def use_in_payout(self, recurring_payment_id: str, *, profile: bool = False) -> None:
        """Open the payout form with a stored card reference (``profile``: a recurring
        payment profile's id) as the receiver."""
        form = self.forms["payout-check"]
        if profile:
            form.load({"@receiver": "rpi", "recurring-payment-id": recurring_payment_id})
        else:
            form.load({"@receiver": "card-ref", "card_recurring_payment_id": recurring_payment_id})
        self.show_command("payout-check")
        form.focus_field("amount")

    def repeat(self, detail: HistoryDetail) -> bool:
        """A journalled request in its form again, with a fresh client_orderid (card number
        and CVV2 were never stored); False when no form has its command."""
        command = detail.row.command
        if command not in self.forms:
            return False
        values = {
            str(n): str(v) for n, v in detail.request.get("params", []) if not is_sensitive(n)
        }
        values.update({n: new_client_orderid() for n in ORDER_ID_FIELDS if n in values})
        self.forms[command].load(values, clear=True)
        self.show_command(command)
        return True

    def use_listener(self, url: str, examples_call_back: bool) -> None:
        """This console's callback listener for the active environment ("" when none);
        ``examples_call_back``: the examples point their callback address there."""
        self.listener_url = url
        self.example_overrides = (
            {"@callback": "listener", "server_callback_url": "", "notify_url": ""}
            if examples_call_back
            else {}
        )
        for form in self.forms.built():  # the help lines name the listener's address
            for choice in form.findChildren(CallbackChoice):
                choice.refresh_help()
        self.validate()  # a callback address on this computer may have lost its listener

    def put_drafts(self) -> None:
        """Every built form's draft into the store (card number and CVV2 are dropped there)."""
        for form in self.forms.built():
            self.drafts.put(form.command.name, form.draft())

    # -- rules -------------------------------------------------------------------------------
    def problems_of(self, form: CommandForm) -> list[Problem]:
        """The core's verdict on a form's values, in the active environment."""
        values = form.values()
        problems = validate(form.command.name, values)
        env = self.session.environment
        if env is not None and env.builtin:
            # The callback-port warning is about deployed gateways (field notes); the local
            # sandbox calls any port, and its own listener's port is a random one.
            problems = [p for p in problems if p.code != Code.CALLBACK_PORT]
        problems.extend(loopback_without_listener(values, self.listener_url))
        return form.with_choices(problems, values)

    def validate(self, form: CommandForm | None = None) -> None:
        """Per keystroke: core rules -> field states; ``validated`` tells the send panel."""
        form = form if form is not None else self.form
        problems = self.problems_of(form)
        form.apply_problems(problems)
        self._draft_timer.start()
        self.validated.emit(form, problems)

    def attempted(self) -> None:
        """The person tried to send: what was calmly "required" is now a mistake."""
        self.form.attempted = True
        self.validate()

    # -- environment -------------------------------------------------------------------------
    def environment_kind(self) -> str | None:
        """The active environment's kind as text ("local-sandbox", ...), or None; the
        built-in sandbox's while it is about to start."""
        env = self.session.environment
        if env is None:
            return str(EnvKind.LOCAL_SANDBOX) if self.session.sandbox_coming else None
        return str(env.kind)

    def refresh_environment(self) -> None:
        """Give the built forms the active environment's placeholder and sandbox hints."""
        for form in self.forms.built():
            if isinstance(form, PayoutForm):
                form.set_placeholder(self.session.redirect_placeholder)
            form.set_hint(hint_for(form.command.name, self.environment_kind()))

    def leave_environment(self) -> None:
        """Ids of orders and stored cards of the old environment do not follow the person
        into the new one; order ids are made fresh."""
        built = self.forms.built()
        for form in built:
            cleared = {n: "" for n in ENVIRONMENT_IDS if form.text_of(n)}
            fresh = {n: new_client_orderid() for n in ORDER_ID_FIELDS if form.text_of(n)}
            if cleared or fresh:
                form.load({**cleared, **fresh})
        for name in set(self.forms) - {f.command.name for f in built}:  # built later
            draft: dict[str, Any] = {
                k: v for k, v in self.drafts.get(name).items() if k not in ENVIRONMENT_IDS
            }
            draft.update({n: new_client_orderid() for n in ORDER_ID_FIELDS if draft.get(n)})
            self.drafts.put(name, draft)
