"""``gateway-console env ...`` as a person types it."""

from __future__ import annotations

import json

import pytest

from console.cli import main
from console.core import paths
from console.core.environments import EnvironmentStore, EnvKind

ADD = ["env", "add", "acme-sb", "--kind", "sandbox", "--base-url", "https://sb.example/paynet",
       "--login", "acme", "--endpoint-id", "1234"]  # fmt: skip


def test_add_list_show_use(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ADD, "--use"]) == 0
    assert "keys import FILE --env acme-sb" in capsys.readouterr().out
    assert main(["env", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:2] == ["local-sandbox", "local-sandbox"]
    assert lines[2].split()[:3] == ["*", "acme-sb", "sandbox"]
    assert main(["env", "show", "acme-sb", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (
        shown["path_templates"]["payout-check"]["endpoint"] == "/api/v4/payout-check/{endpoint_id}"
    )
    assert main(["env", "use", "local-sandbox"]) == 0
    assert EnvironmentStore().active().name == "local-sandbox"


def test_bad_settings_name_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["env", "add", "x", "--kind", "production", "--base-url", "http://gw.example/p",
                 "--login", "acme", "--endpoint-id", "1"]) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert "base_url:" in err
    assert "https" in err
    assert not paths.resolve().environments_file.exists()


def test_path_templates_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ADD, "--path", "payout-check:endpoint=/api/v5/payout/{endpoint_id}"]) == 0
    assert EnvironmentStore().get("acme-sb").templates_for("payout-check")["endpoint"] == (
        "/api/v5/payout/{endpoint_id}"
    )
    assert main(["env", "edit", "acme-sb", "--path", "payout-check:endpoint="]) == 0
    assert EnvironmentStore().get("acme-sb").path_templates == {}
    assert main(["env", "edit", "acme-sb", "--path", "payout-check/endpoint"]) == 2
    assert "COMMAND:FORM=TEMPLATE" in capsys.readouterr().err


def test_production_address_change_needs_yes(capsys: pytest.CaptureFixture[str]) -> None:
    main([*ADD])
    assert main(["env", "edit", "acme-sb", "--kind", "production"]) == 4
    assert "--yes" in capsys.readouterr().err
    assert EnvironmentStore().get("acme-sb").kind is EnvKind.SANDBOX
    assert main(["env", "edit", "acme-sb", "--kind", "production", "--yes"]) == 0
    assert main(["env", "edit", "acme-sb", "--base-url", "https://elsewhere.example/p"]) == 4
    assert main(["env", "edit", "acme-sb", "--read-timeout", "30"]) == 0  # no question
    assert EnvironmentStore().get("acme-sb").read_timeout == 30.0


def test_rename_and_remove_carry_the_secrets(rsa_key: object) -> None:
    from console.core.vault import Vault

    main([*ADD])
    Vault().store_key("acme-sb", rsa_key)  # type: ignore[arg-type]
    assert main(["env", "edit", "acme-sb", "--rename", "acme-test"]) == 0
    assert Vault().has_key("acme-test")
    assert not Vault().has_key("acme-sb")
    assert main(["env", "remove", "acme-test"]) == 0
    assert not Vault().has_key("acme-test")
    assert main(["env", "remove", "local-sandbox"]) == 1
