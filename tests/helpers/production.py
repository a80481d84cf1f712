"""Window steps on production: the session moved to a production copy of its environment,
and a payout cancelled at the production confirmation."""

from __future__ import annotations

import dataclasses

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question


def go_live(window: MainWindow) -> None:
    """Point the window's session at a production copy ("live") of its environment."""
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(live, window.session.private_key)


def cancel_on_production(window: MainWindow) -> None:
    """Send the example payout on production and answer Cancel at its confirmation."""
    go_live(window)
    window.fill_example()
    answer_next_question(False, [])
    window.send()
