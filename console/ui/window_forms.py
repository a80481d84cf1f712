"""The main window's command forms: built on first use, switched, validated, filled with
examples. Functions of the window (``MainWindow`` keeps the methods people and tests call)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from console.core.pipeline import NEW_ORDER_COMMANDS, ORDER_ID_FIELDS
from console.core.spec import COMMANDS, example_values, validate
from console.core.spec.codes import Code
from console.ui import window_sending
from console.ui.forms import make_form
from console.ui.forms.generator import CommandForm
from console.ui.forms.payout_form import PayoutForm
from console.ui.forms.sandbox_hints import hint_for

if TYPE_CHECKING:
    from console.ui.main_window import MainWindow

COMMAND_ORDER = ("payout-check", "create-card-ref", "create-recurring-payment", "status")


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


def build_form(w: MainWindow, name: str) -> CommandForm:
    """Create a form the first time it is needed (start-up builds only the first)."""
    form = make_form(COMMANDS[name])
    if isinstance(form, PayoutForm):
        form.set_placeholder(w.session.redirect_placeholder)
    form.set_hint(hint_for(name, w._environment_kind()))
    callback = getattr(form, "callback", None)
    if callback is not None:
        callback.listener_url = lambda: w.callback_listener_url
    form.load(w.drafts.get(name))
    form.changed.connect(w._validate)
    index = w.forms.names.index(name)
    current = w.stack.currentIndex()
    old = w.stack.widget(index)
    w.stack.insertWidget(index, form)
    if old is not None:
        w.stack.removeWidget(old)
        old.deleteLater()
    w.stack.setCurrentIndex(current)  # replacing a page must not change the page shown
    return form


def switch(w: MainWindow, row: int) -> None:
    """Show the form in tab ``row`` (built now if it is the first time)."""
    if row < 0:
        return
    w.forms[w.forms.names[row]]
    w.stack.setCurrentIndex(row)
    w.drafts.last_command = w.command
    validate_form(w)
    window_sending.render_result(w)


def refresh_environment(w: MainWindow) -> None:
    """Give the built forms the active environment's placeholder and sandbox hints."""
    for form in w.forms.built():
        if isinstance(form, PayoutForm):
            form.set_placeholder(w.session.redirect_placeholder)
        form.set_hint(hint_for(form.command.name, w._environment_kind()))


def fill_example(w: MainWindow) -> None:
    """Fill the current form with the contract's realistic example (the status form:
    with the last payout of this environment, an order the gateway knows)."""
    if w.command == "status":
        _fill_status_example(w)
        return
    values = example_values(w.command)
    values.update(
        {k: v for k, v in w.example_overrides.items() if k in values or k.startswith("@")}
    )
    if w.command in NEW_ORDER_COMMANDS:
        # the example's fixed order id works once; a second send would be refused (202)
        from console.ui.forms.choices import new_client_orderid

        for name in ORDER_ID_FIELDS:
            if name in values:
                values[name] = new_client_orderid()
    w.form.load(values, clear=True)


def _fill_status_example(w: MainWindow) -> None:
    from console.ui.history.examples import SEND_A_PAYOUT_FIRST, last_payout, status_example

    env = w.session.environment
    wiring = w.attach_journal()
    row = None if env is None or wiring is None else last_payout(wiring.history, env.name)
    if row is None:
        w.form.load(example_values("status"), clear=True)
        w._show_result("", SEND_A_PAYOUT_FIRST, "status")
        return
    values, words = status_example(row)
    w.form.load(values, clear=True)
    w._show_result("", words, "status")


def validate_form(w: MainWindow, form: CommandForm | None = None) -> None:
    """Per keystroke: core rules -> field states, summary, Send enabled."""
    form = form if form is not None else w.form
    problems = validate(form.command.name, form.values())
    env = w.session.environment
    if env is not None and env.builtin:
        # The callback-port warning is about deployed gateways (field notes); the local
        # sandbox calls any port, and its own listener's port is a random one.
        problems = [p for p in problems if p.code != Code.CALLBACK_PORT]
    form.apply_problems(problems)
    w._draft_timer.start()
    if form is w.form:
        w.summary.set_problems(problems, form.is_pending)
        window_sending.update_send(w)
