"""Why an environment cannot send: one short line in the banner, the whole text on demand."""

from __future__ import annotations

import dataclasses

from console.core.environments import EnvKind
from console.core.secret_store import no_backend_message
from console.ui.main_window import MainWindow


def test_no_keyring_is_one_short_line_with_details_on_demand(window: MainWindow) -> None:
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    problem = f"No key: {no_backend_message()}"
    window.session.use(live, None, problem)
    banner = window.banner
    assert banner.details_button.isVisible()
    text = banner.detail.text()
    assert "No OS keyring" in text
    assert len(text.split("<br>")[-1]) < 140  # one short line, not seven
    assert "KeePassXC" not in text  # the rest is behind Details…
    assert banner.problem == problem
    assert problem not in window.panel.result.text()
