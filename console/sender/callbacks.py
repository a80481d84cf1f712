"""The team sender's callback listeners: the gateway calls the machine that sent the payout.

For each environment it serves whose callback listener is on, the sender runs the console's
own listener (:class:`~console.core.callbacks.CallbackListener` and its
:class:`~console.core.callbacks.CallbackRecorder`: one parser, one check, the same limits,
so slow or idle connections never keep a callback out). Where it listens is the
environment's saved callback settings (``env edit NAME --callback-listener on
--callback-host HOST --callback-port PORT``), or ``team sender --callback-listen HOST:PORT``.

Each callback is:

* recorded in the sender's own journal (its profile's callbacks list, as a console keeps
  its own): the team database keeps no callbacks, only the final statuses, each audited
  with its evidence;
* checked with the merchant control secret the sender holds: one that fails (forged, no
  ``control``, malformed) is recorded as such and changes nothing;
* when it passes, and is new, its order is settled in the team journal through
  ``gateway.set_final_status``, which verifies the ``control`` again with the secret an
  admin stored (``team callback-secret ENV``). That secret is the authoritative one: the
  database settles none of the sender's sends from a callback it could not verify (schema
  9), so a sender whose secret differs settles nothing, and says so.

A listener reachable from other computers does not start without a secret (the core's rule).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from console.core.callbacks import CallbackListener, CallbackRecorder
from console.core.environments import CallbackListenerSettings, Environment
from console.core.history import CallbackEvent, History
from console.core.history.callback_log import Orders

_log = logging.getLogger(__name__)
Say = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Listening:
    """Where the sender listens for one environment's callbacks, and its secret.

    Attributes:
        environment: the environment's name.
        host: the address to listen on.
        port: the port (0: any free one).
        secret: the merchant control secret callbacks are checked with (None: none here).
    """

    environment: str
    host: str
    port: int
    secret: str | None


def listening(
    env: Environment, secret: str | None, where: tuple[str, int] | None = None
) -> Listening | None:
    """Where to listen for ``env``'s callbacks: ``where`` when given, else its saved callback
    settings when its listener is on; None: the sender does not listen for it."""
    if where is not None:
        return Listening(env.name, where[0], where[1], secret)
    saved: CallbackListenerSettings = env.callback
    if not saved.enabled:
        return None
    return Listening(env.name, saved.host, saved.port, secret)


class SenderCallbacks:
    """The sender's listeners, started together and stopped together.

    Args:
        history: the sender's own journal, where every callback is recorded.
        journal: the team journal, where a callback's order is found and settled.
        say: where a line about each callback goes.
    """

    def __init__(self, history: History, journal: Orders, *, say: Say = _log.info) -> None:
        self.history = history
        self.journal = journal
        self.say = say
        self.listeners: list[CallbackListener] = []

    def start(self, plans: list[Listening]) -> list[CallbackListener]:
        """Start one listener per plan; on a refusal, stop those started and raise it.

        Raises:
            CallbackListenerError: a port in use, or a listener reachable from other
                computers without a secret.
        """
        try:
            for plan in plans:
                recorder = CallbackRecorder(
                    self.history, plan.environment, plan.secret, journal=self.journal
                )
                recorder.subscribe(lambda event: self.say(said(event)))
                listener = CallbackListener(recorder, plan.host, plan.port).start()
                self.listeners.append(listener)
                self.say(f"listens for {plan.environment}'s callbacks at {address(listener)}.")
        except BaseException:
            self.stop()
            raise
        return list(self.listeners)

    def stop(self) -> None:
        """Stop every listener: each ends with the callback it is recording."""
        for listener in self.listeners:
            listener.ask_to_stop()
        for listener in self.listeners:
            listener.stop()
        self.listeners.clear()

    def __enter__(self) -> SenderCallbacks:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def address(listener: CallbackListener) -> str:
    """``HOST:PORT`` a listener is on (all addresses: ``0.0.0.0``), with its path."""
    host = f"[{listener.host}]" if ":" in listener.host else listener.host or "0.0.0.0"  # noqa: S104
    return f"http://{host}:{listener.port}/callback"


def said(event: CallbackEvent) -> str:
    """The sender's line about one recorded callback (never its ``control`` code)."""
    order = event.client_orderid or event.orderid or "(no order id)"
    head = f"callback {event.environment} {order} {event.status or '(no status)'}"
    if event.remote:
        head += f" from {event.remote}"
    if not event.check.trusted:
        return f"{head}: {event.check}; recorded, nothing changed"
    if event.duplicate_of is not None:
        return f"{head}: a repeat of callback {event.duplicate_of}; nothing changed"
    if event.updated:
        rows = ", ".join(str(r) for r in event.updated)
        return f"{head}: verified; final status {event.status} on row {rows}"
    if event.request_id is None:
        return f"{head}: verified, but the team sent no such order; nothing changed"
    return (
        f"{head}: verified here, but the team database settled nothing (its secret, set by "
        f"`team callback-secret {event.environment}`, differs from this sender's, or the "
        "order is settled already)"
    )
