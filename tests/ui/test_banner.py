"""Why an environment cannot send: one short line in the banner, the whole text on demand."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from console.core.environments import EnvKind
from console.core.secret_store import no_backend_message
from console.core.vault import NoKeyError
from console.ui.main_window import MainWindow
from console.ui.theme import apply_theme
from tests.helpers.contrast import luminance, pixels, rendered_text_contrast


@pytest.fixture(autouse=True)
def _system_theme_afterwards() -> Any:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "system", set_style=False)


def test_no_keyring_is_one_short_line_with_details_on_demand(window: MainWindow) -> None:
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    problem = f"No key: {no_backend_message()}"
    window.session.use(live, None, problem)
    banner = window.banner
    assert banner.details_button.isVisible()
    text = banner.state_text
    assert "No OS keyring" in text
    assert len(text) < 140  # one short line, not seven
    assert "KeePassXC" not in text  # the rest is behind Details…
    assert "KeePassXC" not in banner.detail.text()
    assert banner.problem == problem
    assert problem not in window.panel.result.text()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_details_box_of_a_production_banner_is_readable(
    qtbot: Any, window: MainWindow, theme: str
) -> None:
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.actions_by_name[f"theme:{theme}"].trigger()
    window.session.use(live, None, f"No key: {no_backend_message()}")
    measured: list[tuple[float, str, str]] = []

    def look() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, look)
            return
        label = box.findChild(QLabel, "qt_msgbox_label")
        measured.append(rendered_text_contrast(label))
        box.accept()

    QTimer.singleShot(20, look)
    window.banner.details_button.click()
    qtbot.waitUntil(lambda: bool(measured), timeout=5_000)
    ratio, text, background = measured[0]
    assert ratio >= 4.5, (text, background)


def test_under_the_form_the_keyring_problem_is_one_short_line(window: MainWindow) -> None:
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.fill_example()
    window.session.use(live, None, f"No key: {no_backend_message()}")
    window.panel.update_send()
    said = window.panel.summary.headline.text()
    assert "No OS keyring" in said
    assert "KeePassXC" not in said  # the rest is behind the banner's Details…
    assert len(re.sub("<[^>]+>", "", said)) < 160


def test_a_key_arriving_or_going_keeps_the_banner_and_the_form_in_place(
    qtbot: Any, window: MainWindow
) -> None:
    from PySide6.QtCore import QPoint

    from tests.ui.journal_helpers import settle

    window.resize(1024, 700)
    settle(qtbot)
    env, key = window.session.environment, window.session.private_key
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)

    def places() -> tuple[int, int]:
        settle(qtbot)
        return window.banner.height(), window.forms_part.mapTo(window, QPoint(0, 0)).y()

    window.session.use(live, None, f"No key: {no_backend_message()}")
    without = places()
    window.session.use(live, key)  # a key generated or imported for it
    assert places() == without
    window.session.use(live, None, "No key: live has no private key yet.")
    assert places() == without


def test_the_state_line_leaves_production_s_size_behind(window: MainWindow) -> None:
    env, key = window.session.environment, window.session.private_key
    assert env is not None
    calm = window.banner.state_line.fontInfo().pointSizeF()
    window.session.use(dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION), key)
    assert window.banner.state_line.fontInfo().pointSizeF() > calm  # loud on production
    window.session.use(env, key)
    assert window.banner.state_line.fontInfo().pointSizeF() == calm


@pytest.mark.parametrize(("first", "then"), [("dark", "light"), ("light", "dark")])
def test_the_calm_banner_follows_a_theme_switch(
    qtbot: Any, window: MainWindow, first: str, then: str
) -> None:
    window.actions_by_name[f"theme:{first}"].trigger()
    env, key = window.session.environment, window.session.private_key
    assert env is not None
    window.session.use(dataclasses.replace(env, name="other"), key)  # the banner drawn again
    window.actions_by_name[f"theme:{then}"].trigger()
    qtbot.wait(50)
    background = QColor(pixels(window.banner.grab().toImage()).most_common(1)[0][0])
    window_colour = window.palette().color(window.backgroundRole())
    # a light banner in the light theme, a dark one in the dark theme
    assert (luminance(background) > 0.4) == (luminance(window_colour) > 0.4), background.name()
    ratio, text, behind = rendered_text_contrast(window.banner.detail)
    assert ratio >= 4.5, (text, behind)


def test_details_point_a_window_user_to_the_keys_dialog(qtbot: Any, window: MainWindow) -> None:
    env = window.session.environment
    assert env is not None
    nokey = dataclasses.replace(env, name="nokey", kind=EnvKind.SANDBOX)

    def connect() -> Any:
        raise NoKeyError("nokey")

    window.environment.switch_to(nokey, connect)
    qtbot.waitUntil(lambda: "private key" in window.banner.problem, timeout=5_000)
    assert "Environment → Keys…" in window.banner.problem
    assert "gateway-console" not in window.banner.problem
