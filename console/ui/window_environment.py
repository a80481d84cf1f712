"""The main window and the active environment: banner and title, the forms' hints, and the
built-in local sandbox started on a worker."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEventLoop

from console import APP_NAME
from console.ui import window_forms, window_journal, window_sending
from console.ui.session import LaunchedSandbox, launch_sandbox

if TYPE_CHECKING:
    from console.ui.main_window import MainWindow


# Values that name something in one environment only: an order or a stored card there.
ENVIRONMENT_IDS = ("card_recurring_payment_id", "recurring-payment-id", "orderid", "by-request-sn")


def session_changed(w: MainWindow) -> None:
    """Show the active environment: banner, title (PRODUCTION loud), hints, Send. Moving to
    another environment leaves behind what belongs to the old one."""
    env = w.session.environment
    name = env.name if env is not None else None
    if name != w.shown_environment:
        if w.shown_environment is not None:
            _leave_environment(w)
        w.shown_environment = name
    w.banner.show_environment(env, w.session.problem)
    title = APP_NAME if env is None else f"{APP_NAME} — {env.name}"
    w.setWindowTitle(title + (" — PRODUCTION" if w.session.is_production else ""))
    window_forms.refresh_environment(w)
    window_sending.update_send(w)


def _leave_environment(w: MainWindow) -> None:
    """Result lines, answers (Use in payout), ids of orders and stored cards, and order ids
    of the old environment do not follow the person into the new one."""
    from console.core.pipeline import ORDER_ID_FIELDS
    from console.ui.forms.choices import new_client_orderid

    w._results.clear()
    w._outcomes.clear()
    w._last_outcome = None
    built = w.forms.built()
    for form in built:
        cleared = {n: "" for n in ENVIRONMENT_IDS if form.text_of(n)}
        fresh = {n: new_client_orderid() for n in ORDER_ID_FIELDS if form.text_of(n)}
        if cleared or fresh:
            form.load({**cleared, **fresh})
    for name in set(w.forms) - {f.command.name for f in built}:  # built later, from drafts
        draft = {k: v for k, v in w.drafts.get(name).items() if k not in ENVIRONMENT_IDS}
        draft.update({n: new_client_orderid() for n in ORDER_ID_FIELDS if draft.get(n)})
        w.drafts.put(name, draft)
    window_sending.render_result(w)


def environment_kind(w: MainWindow) -> str | None:
    """The active environment's kind as text ("local-sandbox", ...), or None."""
    env = w.session.environment
    return None if env is None else str(env.kind)


def start_local_sandbox(w: MainWindow, **options: Any) -> None:
    """Start the built-in sandbox on a worker; the window is usable meanwhile. It waits for
    the journal (opened on a worker too), which sets the sandbox's defaults (the listener's
    control); an unavailable journal does not keep the sandbox from starting."""
    w.banner.show_starting()
    window_journal.open_in_background(w)
    window_journal.when_settled(w, lambda: _launch(w, options))


def _launch(w: MainWindow, options: dict[str, Any]) -> None:
    options = {**w.sandbox_defaults, **options}
    w.tasks.run(
        lambda: launch_sandbox(**options),
        lambda launched: _sandbox_started(w, launched),
        lambda exc, _tb: w._show_result("warning", f"The local sandbox could not start: {exc}"),
    )


def _sandbox_started(w: MainWindow, launched: object) -> None:
    assert isinstance(launched, LaunchedSandbox)
    if w._closed:  # closed while it was starting: do not leave it running
        launched.handle.stop()
        return
    w.session.adopt_sandbox(launched)


def wait_ready(w: MainWindow, msecs: int) -> bool:
    """Process events until an environment with a key is active (screenshots, tests)."""
    deadline = time.monotonic() + msecs / 1000
    app = QCoreApplication.instance()
    while not w.session.ready and time.monotonic() < deadline and app is not None:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.005)
    return w.session.ready
