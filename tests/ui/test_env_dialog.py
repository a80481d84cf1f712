"""The environment manager: add and edit with the https rule live, production confirmation."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from console.core.environments import EnvironmentStore, EnvKind
from console.core.paths import resolve
from console.core.vault import Vault
from console.ui.environments_dialog import EnvironmentsDialog
from console.ui.main_window import MainWindow
from console.ui.secrets_access import SecretsAccess
from console.ui.theme import apply_theme
from tests.helpers.contrast import text_contrast_inside


def _fill(dialog: EnvironmentsDialog, name: str, url: str, kind: EnvKind = EnvKind.SANDBOX) -> None:
    dialog.new_environment()
    form = dialog.form
    form.name.setText(name)
    form.kind.setCurrentIndex(form.kind.findData(kind))
    form.base_url.setText(url)
    form.base_url.editingFinished.emit()  # the person moves on to the next field
    form.login.setText("acme")
    form.endpoint_id.setText("1234")


def _saved(qtbot: Any, dialog: EnvironmentsDialog, expected: str) -> None:
    """Save; the result line says ``expected`` once the file and the keyring have answered."""
    assert dialog.save()
    _shows(qtbot, dialog, expected)


def _shows(qtbot: Any, dialog: EnvironmentsDialog, expected: str) -> None:
    qtbot.waitUntil(lambda: expected in dialog.message.text(), timeout=30_000)


def test_a_new_environment_form_is_calm_until_something_is_typed(
    qtbot: Any, window: MainWindow
) -> None:
    from console.ui.theme import state_colour

    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    dialog.new_environment()
    red = state_colour("error", dialog.palette()).name()
    assert red not in dialog.form.url_rule.text()
    assert red not in dialog.form.problems.text()
    assert "name" in dialog.form.problems.text()  # what is missing is still said, calmly
    assert not dialog.save()  # trying to save makes the missing values mistakes
    assert red in dialog.form.problems.text()


def test_add_with_the_https_rule_shown_while_typing(qtbot: Any, window: MainWindow) -> None:
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    assert dialog.list.item(0).text().startswith("local-sandbox")
    assert dialog.form.base_url.isReadOnly()  # built in: to read, not to change
    _fill(dialog, "acme-sb", "http://sandbox.gateway.example/paynet")
    assert "must use https" in dialog.form.url_rule.text()
    assert not dialog.save()
    assert "base_url" in dialog.message.text()
    assert [e.name for e in EnvironmentStore(resolve()).environments()] == ["local-sandbox"]
    dialog.form.base_url.setText("http://127.0.0.1:8080/paynet")  # loopback may be http
    assert "must use https" not in dialog.form.url_rule.text()
    dialog.form.base_url.setText("https://sandbox.gateway.example/paynet")
    rows = dialog.form.templates
    payout = next(r for r in range(rows.rowCount()) if rows.item(r, 0).text() == "payout-check")
    assert rows.item(payout, 2).text() == "/api/v4/payout-check/{endpoint_id}"  # the contract's
    dialog.form.read_timeout.setValue(45)
    dialog.form.listen.setChecked(True)
    dialog.form.control_secret.setText("shared-secret")
    _saved(qtbot, dialog, "Saved acme-sb.")
    stored = EnvironmentStore(resolve()).get("acme-sb")
    assert stored.base_url == "https://sandbox.gateway.example/paynet"
    assert stored.read_timeout == 45
    assert stored.callback.enabled
    assert stored.path_templates == {}  # defaults are not copied into the file
    assert Vault().merchant_control("acme-sb") == "shared-secret"
    assert "shared-secret" not in resolve().environments_file.read_text(encoding="utf-8")


def test_production_address_change_asks_first(qtbot: Any, window: MainWindow) -> None:
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    _fill(dialog, "acme-live", "https://gateway.example/paynet", EnvKind.PRODUCTION)
    asked: list[str] = []
    dialog.confirm = lambda _w, text: bool(asked.append(text))  # says no
    _saved(qtbot, dialog, "Saved acme-live.")
    assert asked == []  # adding asks nothing: nothing was pointing anywhere yet
    dialog.form.base_url.setText("https://other.gateway.example/paynet")
    _saved(qtbot, dialog, "the production address was not changed")
    assert "real money" in asked[0]
    assert EnvironmentStore(resolve()).get("acme-live").base_url == "https://gateway.example/paynet"
    dialog.confirm = lambda _w, _t: True
    _saved(qtbot, dialog, "Saved acme-live.")
    assert EnvironmentStore(resolve()).get("acme-live").base_url == (
        "https://other.gateway.example/paynet"
    )
    dialog.form.login.setText("acme2")  # other changes of production ask nothing
    asked.clear()
    dialog.confirm = lambda _w, text: bool(asked.append(text))
    _saved(qtbot, dialog, "Saved acme-live.")
    assert asked == []


def test_use_an_environment_switches_the_window(
    qtbot: Any, window: MainWindow, rsa_key: Any
) -> None:
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    _fill(dialog, "acme-sb", "https://sandbox.gateway.example/paynet")
    _saved(qtbot, dialog, "Saved acme-sb.")
    dialog.use_button.click()
    assert window.session.environment.name == "acme-sb"
    assert not window.session.ready  # the key is read from the keyring off the GUI thread
    qtbot.waitUntil(lambda: "no private key" in window.session.problem.lower())
    assert not window.session.ready  # no key: said, and Send stays off
    assert "no private key" in dialog.message.text().lower()
    Vault().store_key("acme-sb", rsa_key)
    dialog.use_button.click()
    qtbot.waitUntil(lambda: window.session.ready)
    dialog.list.setCurrentRow(0)
    dialog.use_button.click()
    assert window.session.environment.name == "local-sandbox"
    assert window.session.ready


def test_the_built_in_sandbox_starts_when_chosen_after_starting_elsewhere(
    qtbot: Any, make_window: Any, rsa_key: Any
) -> None:
    from console.core.environments import Environment

    store = EnvironmentStore(resolve())
    store.add(
        Environment(
            name="acme-sb",
            kind=EnvKind.SANDBOX,
            base_url="https://sandbox.gateway.example/paynet",
            login="acme",
            endpoint_id="1234",
        )
    )
    store.set_active("acme-sb")
    Vault().store_key("acme-sb", rsa_key)
    window = make_window(ready=False)
    assert window.session.environment.name == "acme-sb"
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    from console.ui.theme import state_colour

    row = next(
        i for i in range(dialog.list.count()) if dialog.list.item(i).text().startswith("local")
    )
    dialog.list.setCurrentRow(row)  # the built-in sandbox
    assert dialog.current_name() == "local-sandbox"
    assert "not running" in dialog.builtin_note.text()
    assert "HOST" not in dialog.form.base_url.placeholderText()  # nothing for a person to write
    red = state_colour("error", dialog.palette()).name()
    assert red not in dialog.form.url_rule.text()  # nothing to fill in for it
    assert red not in dialog.form.problems.text()
    dialog.use_button.click()
    assert not window.session.ready  # while it starts, nothing goes to acme-sb
    qtbot.waitUntil(lambda: window.session.ready, timeout=30_000)
    assert window.session.environment.name == "local-sandbox"
    assert window.session.environment.base_url.startswith("http://127.0.0.1:")
    # the dialog, still open, shows the sandbox as it runs now, not an address to write
    assert dialog.form.base_url.text() == window.session.environment.base_url
    assert dialog.form.login.text() == window.session.environment.login != ""
    assert "not running" not in dialog.builtin_note.text()


def test_saving_renaming_and_removing_write_the_keyring_off_the_gui_thread(
    qtbot: Any, rsa_key: Any, keyring_threads: list[threading.Thread]
) -> None:
    dialog = EnvironmentsDialog(SecretsAccess(resolve()))
    qtbot.addWidget(dialog)
    _fill(dialog, "acme-sb", "https://sandbox.gateway.example/paynet")
    dialog.form.control_secret.setText("shared-secret")
    _saved(qtbot, dialog, "Saved acme-sb.")
    assert dialog.current_name() == "acme-sb"
    calls = list(keyring_threads)
    assert calls
    assert threading.main_thread() not in calls
    assert Vault().merchant_control("acme-sb") == "shared-secret"
    Vault().store_key("acme-sb", rsa_key)
    keyring_threads.clear()
    dialog.form.name.setText("acme-test")  # a rename moves the key and the control secret
    _saved(qtbot, dialog, "Saved acme-test.")
    assert dialog.remove("acme-test")
    _shows(qtbot, dialog, "Removed acme-test.")
    calls = list(keyring_threads)
    assert calls
    assert threading.main_thread() not in calls
    assert [e.name for e in EnvironmentStore(resolve()).environments()] == ["local-sandbox"]
    assert Vault().merchant_control("acme-test") is None  # gone with it
    assert not Vault().has_key("acme-test")


def test_saving_says_so_and_holds_the_list_until_the_keyring_answers(
    qtbot: Any, slow_keyring: threading.Event
) -> None:
    dialog = EnvironmentsDialog(SecretsAccess(resolve()))
    qtbot.addWidget(dialog)
    _fill(dialog, "acme-sb", "https://sandbox.gateway.example/paynet")
    dialog.form.control_secret.setText("shared-secret")
    assert dialog.save()
    assert "Saving…" in dialog.message.text()
    for widget in (dialog.save_button, dialog.use_button, dialog.list, dialog.add_button):
        assert not widget.isEnabled()
    slow_keyring.set()
    _shows(qtbot, dialog, "Saved acme-sb.")
    assert dialog.save_button.isEnabled()
    assert dialog.list.isEnabled()
    assert Vault().merchant_control("acme-sb") == "shared-secret"


def test_a_removal_the_keyring_refuses_is_said(qtbot: Any, monkeypatch: Any) -> None:
    from console.core.secret_store import KeyringStore

    dialog = EnvironmentsDialog(SecretsAccess(resolve()))
    qtbot.addWidget(dialog)
    _fill(dialog, "acme-sb", "https://sandbox.gateway.example/paynet")
    dialog.form.control_secret.setText("shared-secret")
    _saved(qtbot, dialog, "Saved acme-sb.")

    def refused(_self: KeyringStore, _name: str) -> None:
        raise RuntimeError("the keychain is locked")

    monkeypatch.setattr(KeyringStore, "delete", refused)
    assert dialog.remove("acme-sb")
    _shows(qtbot, dialog, "Not removed: the keychain is locked")
    assert "acme-sb" in EnvironmentStore(resolve()).names()  # nothing half done
    assert dialog.current_name() == "acme-sb"
    assert dialog.remove_button.isEnabled()


@pytest.fixture
def _system_theme_afterwards() -> Any:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "system", set_style=False)


@pytest.mark.usefixtures("_system_theme_afterwards")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_built_in_sandbox_s_settings_are_readable(
    qtbot: Any, window: MainWindow, theme: str
) -> None:
    window.actions_by_name[f"theme:{theme}"].trigger()
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    qtbot.wait(50)
    form = dialog.form
    for edit in (form.name, form.base_url, form.login, form.endpoint_id):
        assert edit.isReadOnly()
        assert edit.text()
        ratio, text, background = text_contrast_inside(edit)
        assert ratio >= 4.5, (theme, edit.text(), text, background)
    edited = form.base_url.text()
    form.base_url.setFocus()
    qtbot.keyClicks(form.base_url, "x")
    assert form.base_url.text() == edited  # nothing changes
