"""File > Export: a Postman collection that runs as written and an OpenAPI file that
validates, for the active environment; a production key never leaves the window."""

from __future__ import annotations

import dataclasses
import json
import stat
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question
from tests.helpers.newman import run_newman
from tests.helpers.runtimes import require_newman


def _save_to(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """The save dialog answers ``path``, as a person types it."""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(path), ""))


def _result(qtbot: Any, window: MainWindow) -> str:
    """The text of the export's result message, once it shows."""
    qtbot.waitUntil(
        lambda: window.findChild(QMessageBox, "export-result") is not None, timeout=20_000
    )
    box = window.findChild(QMessageBox, "export-result")
    assert box is not None
    text = box.text()
    box.close()
    return text


def test_a_postman_export_with_the_sandbox_key_runs_with_newman(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    require_newman()
    window.session.sandbox.seed_first_payment("sale-0001", orderid=1234567)
    collection = tmp_path / "mine.postman_collection.json"
    _save_to(monkeypatch, collection)
    asked: list[str] = []
    answer_next_question(True, asked)
    window.actions_by_name["export-postman"].trigger()
    said = _result(qtbot, window)
    environment = tmp_path / "mine.postman_environment.json"
    assert asked
    assert "not a production environment" in asked[0]
    assert str(collection) in said
    assert str(environment) in said
    assert "filled in" in said
    assert "PRIVATE KEY" not in collection.read_text(encoding="utf-8")
    values = {v["key"]: v for v in json.loads(environment.read_text(encoding="utf-8"))["values"]}
    assert values["privateKey"]["type"] == "secret"
    assert "PRIVATE KEY" in values["privateKey"]["value"]
    assert values["baseUrl"]["value"] == window.session.environment.base_url  # type: ignore[union-attr]
    assert stat.S_IMODE(environment.stat().st_mode) == 0o600
    run = run_newman(collection, environment, tmp_path / "report.json")
    assert run["stats"]["requests"] == {"total": 4, "pending": 0, "failed": 0}
    assert run["stats"]["assertions"] == {"total": 8, "pending": 0, "failed": 0}


def test_a_production_export_never_offers_the_key(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(live, window.session.private_key)
    collection = tmp_path / "live.postman_collection.json"
    _save_to(monkeypatch, collection)
    asked: list[object] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: asked.append(box.text()))
    window.actions_by_name["export-postman"].trigger()
    said = _result(qtbot, window)
    assert asked == []  # no question about the key was put
    assert "left empty" in said
    assert "privateKey" in said
    environment = tmp_path / "live.postman_environment.json"
    text = environment.read_text(encoding="utf-8")
    assert "PRIVATE KEY" not in text
    values = {v["key"]: v["value"] for v in json.loads(text)["values"]}
    assert values["privateKey"] == ""
    assert values["cardNumber"] == ""
    assert values["login"] == live.login


def test_the_openapi_export_is_a_valid_description_of_the_active_gateway(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from openapi_spec_validator import validate

    target = tmp_path / "api.json"
    _save_to(monkeypatch, target)
    window.actions_by_name["export-openapi"].trigger()
    said = _result(qtbot, window)
    assert said == f"Exported the OpenAPI description to {target}."
    document = json.loads(target.read_text(encoding="utf-8"))
    validate(document)
    env = window.session.environment
    assert env is not None
    assert document["servers"] == [{"url": env.base_url.rstrip("/")}]
    assert "/api/v4/payout-check/{endpoint_id}" in document["paths"]


def test_a_file_that_cannot_be_written_is_said_and_nothing_else_happens(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    _save_to(monkeypatch, blocker / "api.json")
    window.actions_by_name["export-openapi"].trigger()
    said = _result(qtbot, window)
    assert said.startswith("Nothing exported: ")
    assert "a-file" in said
    assert blocker.read_text(encoding="utf-8") == "not a folder"
