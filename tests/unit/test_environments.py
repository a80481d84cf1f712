"""Environments: a readable file without secrets, the https rule, production confirmation."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import keys, paths
from console.core.environments import (
    LOCAL_SANDBOX_NAME,
    BuiltinEnvironmentError,
    ConfirmationRequiredError,
    Environment,
    EnvironmentFileError,
    EnvironmentNotReadyError,
    EnvironmentStore,
    EnvKind,
    InvalidEnvironmentError,
    UnknownEnvironmentError,
    connect,
)
from console.core.vault import NoKeyError, Vault


def _env(name: str = "acme-sb", kind: EnvKind = EnvKind.SANDBOX, **kw: object) -> Environment:
    values: dict[str, object] = {
        "base_url": "https://sandbox.gateway.example/paynet",
        "login": "acme",
        "endpoint_id": "1234",
    }
    values.update(kw)
    return Environment(name, kind, **values)  # type: ignore[arg-type]


def _fields(exc: pytest.ExceptionInfo[InvalidEnvironmentError]) -> set[str]:
    return {p.field for p in exc.value.problems}


def test_added_environment_is_kept_in_a_readable_file() -> None:
    store = EnvironmentStore()
    store.add(_env(read_timeout=45.0, redirect_placeholder="https://example.com/none"))
    data = json.loads(paths.resolve().environments_file.read_text(encoding="utf-8"))
    assert data["schema"] == 1
    assert data["environments"][0]["base_url"] == "https://sandbox.gateway.example/paynet"
    again = EnvironmentStore().get("acme-sb")
    assert again.read_timeout == 45.0
    assert again.redirect_placeholder == "https://example.com/none"
    assert again.kind is EnvKind.SANDBOX


def test_the_file_never_holds_a_secret(rsa_key: rsa.RSAPrivateKey) -> None:
    vault = Vault()
    store = EnvironmentStore(vault=vault)
    store.add(_env())
    vault.store_key("acme-sb", rsa_key)
    vault.set_merchant_control("acme-sb", "merchant-control-secret-42")
    store.set_active("acme-sb")
    store.update("acme-sb", _env("acme-renamed"))
    text = paths.resolve().environments_file.read_text(encoding="utf-8")
    assert "PRIVATE KEY" not in text
    assert "merchant-control-secret-42" not in text
    pem_body = keys.private_key_pem(rsa_key).decode().splitlines()[1]
    assert pem_body not in text
    assert vault.merchant_control("acme-renamed") == "merchant-control-secret-42"


def test_credentials_in_the_address_are_refused() -> None:
    with pytest.raises(InvalidEnvironmentError) as err:
        EnvironmentStore().add(_env(base_url="https://acme:hunter2@gw.example/paynet"))
    assert _fields(err) == {"base_url"}
    assert not paths.resolve().environments_file.exists()


@pytest.mark.parametrize("kind", [EnvKind.SANDBOX, EnvKind.PRODUCTION])
@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://gw.example/paynet", True),
        ("http://gw.example/paynet", False),
        ("http://10.0.0.5:8080/paynet", False),
        ("http://128.0.0.1/paynet", False),
        ("http://127.0.0.1:8080/paynet", True),
        ("http://127.3.4.5/paynet", True),
        ("http://localhost:9000/paynet", True),
        ("http://gw.localhost:9000/paynet", False),  # a resolver may ask DNS for it
        ("http://[::1]:9000/paynet", True),
        ("ftp://gw.example/paynet", False),
        ("gw.example/paynet", False),
    ],
)
def test_https_unless_loopback(kind: EnvKind, url: str, ok: bool) -> None:
    store = EnvironmentStore()
    if ok:
        store.add(_env(kind=kind, base_url=url))
        assert store.get("acme-sb").base_url == url
    else:
        with pytest.raises(InvalidEnvironmentError) as err:
            store.add(_env(kind=kind, base_url=url))
        assert _fields(err) == {"base_url"}


def test_each_problem_names_its_field() -> None:
    bad = _env(
        name="bad name!",
        login=" ",
        endpoint_id="",
        connect_timeout=0.0,
        ca_bundle="/nowhere/ca.pem",
        path_templates={"payout-check": {"endpoint": "/api/v4/payout-check"}},
    )
    with pytest.raises(InvalidEnvironmentError) as err:
        EnvironmentStore().add(bad)
    assert _fields(err) == {
        "name",
        "login",
        "endpoint_id",
        "connect_timeout",
        "ca_bundle",
        "path_templates.payout-check.endpoint",
    }
    assert "{endpoint_id}" in str(err.value)


def test_path_templates_default_to_the_contract_and_keep_only_changes() -> None:
    store = EnvironmentStore()
    store.add(
        _env(
            path_templates={
                "payout-check": {"endpoint": "/api/v5/payout-check/{endpoint_id}"},
                "status": {"endpoint": "/api/v4/status/{endpoint_id}"},  # same as the contract
            }
        )
    )
    env = store.get("acme-sb")
    assert env.path_templates == {
        "payout-check": {"endpoint": "/api/v5/payout-check/{endpoint_id}"}
    }
    assert env.templates_for("payout-check") == {
        "endpoint": "/api/v5/payout-check/{endpoint_id}",
        "group": "/api/v4/payout-check/group/{endpoint_group_id}",
    }
    assert (
        env.templates_for("create-card-ref")["endpoint"] == "/api/v4/create-card-ref/{endpoint_id}"
    )
    with pytest.raises(InvalidEnvironmentError) as err:
        store.update(
            "acme-sb",
            _env(path_templates={"create-recurring-payment": {"group": "/g/{endpoint_group_id}"}}),
        )
    assert _fields(err) == {"path_templates.create-recurring-payment.group"}


def test_changing_a_production_address_needs_confirmation() -> None:
    store = EnvironmentStore()
    store.add(_env("live", EnvKind.PRODUCTION, base_url="https://gw.example/paynet"))
    store.update(
        "live",
        _env("live", EnvKind.PRODUCTION, base_url="https://gw.example/paynet", login="acme2"),
    )
    moved = _env("live", EnvKind.PRODUCTION, base_url="https://other.example/paynet")
    with pytest.raises(ConfirmationRequiredError) as err:
        store.update("live", moved)
    assert err.value.new_url == "https://other.example/paynet"
    assert "https://other.example/paynet" in str(err.value)
    assert store.get("live").base_url == "https://gw.example/paynet"
    store.update("live", moved, confirm=True)
    assert store.get("live").base_url == "https://other.example/paynet"


def test_turning_a_sandbox_into_production_needs_confirmation() -> None:
    store = EnvironmentStore()
    store.add(_env())
    store.update("acme-sb", _env(base_url="https://sandbox2.example/paynet"))  # no question
    with pytest.raises(ConfirmationRequiredError):
        store.update(
            "acme-sb", _env(kind=EnvKind.PRODUCTION, base_url="https://sandbox2.example/paynet")
        )
    assert store.get("acme-sb").kind is EnvKind.SANDBOX


def test_local_sandbox_is_built_in_and_not_stored() -> None:
    store = EnvironmentStore()
    assert store.names() == [LOCAL_SANDBOX_NAME]
    assert store.active().kind is EnvKind.LOCAL_SANDBOX
    with pytest.raises(BuiltinEnvironmentError):
        store.update(LOCAL_SANDBOX_NAME, _env())
    with pytest.raises(BuiltinEnvironmentError):
        store.remove(LOCAL_SANDBOX_NAME)
    with pytest.raises(InvalidEnvironmentError):
        store.add(_env(LOCAL_SANDBOX_NAME))
    store.add(_env())
    assert store.names() == [LOCAL_SANDBOX_NAME, "acme-sb"]
    text = paths.resolve().environments_file.read_text(encoding="utf-8")
    assert LOCAL_SANDBOX_NAME not in text


def test_active_environment_is_remembered_and_follows_renames() -> None:
    store = EnvironmentStore()
    store.add(_env())
    store.set_active("acme-sb")
    assert EnvironmentStore().active().name == "acme-sb"
    store.update("acme-sb", _env("acme-2"))
    assert EnvironmentStore().active().name == "acme-2"
    store.remove("acme-2")
    assert EnvironmentStore().active().name == LOCAL_SANDBOX_NAME
    with pytest.raises(UnknownEnvironmentError, match="Known: local-sandbox"):
        store.get("acme-2")


def test_duplicate_names_are_refused() -> None:
    store = EnvironmentStore()
    store.add(_env())
    store.add(_env("other"))
    with pytest.raises(InvalidEnvironmentError, match="exists already"):
        store.add(_env())
    with pytest.raises(InvalidEnvironmentError, match="exists already"):
        store.update("other", _env())


def test_writes_are_atomic_and_leave_no_temporary_files() -> None:
    store = EnvironmentStore()
    for i in range(3):
        store.add(_env(f"env{i}"))
    folder = paths.resolve().environments_file.parent
    # the lock file stays (removing it would race with the next writer); it is empty
    assert sorted(p.name for p in folder.iterdir()) == [
        "environments.json",
        "environments.json.lock",
    ]


def test_a_damaged_file_is_reported_and_left_alone() -> None:
    file = paths.resolve().environments_file
    file.parent.mkdir(parents=True)
    file.write_text('{"schema": 1, "environments": [{"nam', encoding="utf-8")
    store = EnvironmentStore()
    with pytest.raises(EnvironmentFileError, match="damaged"):
        store.add(_env())
    assert file.read_text(encoding="utf-8") == '{"schema": 1, "environments": [{"nam'


def test_a_newer_file_is_not_overwritten() -> None:
    file = paths.resolve().environments_file
    file.parent.mkdir(parents=True)
    file.write_text('{"schema": 99, "environments": []}', encoding="utf-8")
    with pytest.raises(EnvironmentFileError, match="newer"):
        EnvironmentStore().add(_env())
    assert "99" in file.read_text(encoding="utf-8")


def test_connect_gives_everything_prepare_needs(rsa_key: rsa.RSAPrivateKey) -> None:
    store = EnvironmentStore()
    store.add(_env(endpoint_group_id="77", connect_timeout=5.0))
    with pytest.raises(NoKeyError):
        connect("acme-sb", store=store)
    Vault().store_key("acme-sb", rsa_key)
    conn = connect("acme-sb", store=store)
    kwargs = conn.prepare_kwargs("payout-check")
    assert kwargs["base_url"] == "https://sandbox.gateway.example/paynet"
    assert kwargs["login"] == "acme"
    assert kwargs["endpoint_id"] == "1234"
    assert kwargs["endpoint_group_id"] == "77"
    assert kwargs["path_templates"]["endpoint"] == "/api/v4/payout-check/{endpoint_id}"
    assert kwargs["private_key"].private_numbers() == rsa_key.private_numbers()
    assert conn.timeouts == (5.0, 60.0)
    assert conn.environment.verify is True


def test_connect_local_sandbox_only_when_running_here(rsa_key: rsa.RSAPrivateKey) -> None:
    store = EnvironmentStore()
    with pytest.raises(EnvironmentNotReadyError, match="gateway-console sandbox"):
        connect(LOCAL_SANDBOX_NAME, store=store)
    store.attach_local_sandbox("http://127.0.0.1:4321/paynet", "demo", "1", private_key=rsa_key)
    conn = connect(None, store=store)  # the active one: nothing chosen, so the local sandbox
    assert conn.prepare_kwargs("status")["base_url"] == "http://127.0.0.1:4321/paynet"
    assert conn.environment.callback.enabled


def test_ca_bundle_becomes_verify(tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    store = EnvironmentStore()
    store.add(_env(ca_bundle=str(bundle)))
    assert store.get("acme-sb").verify == str(bundle)
    assert dataclasses.replace(store.get("acme-sb"), ca_bundle="").verify is True
