"""``send --env``: production asks first, status answers reach the order's history row."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from console.cli import main
from console.core.spec import example_values
from tests.helpers.http_server import Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = b"type=async-response\n&merchant-order-id=p-1\n&gateway-order-id=9001\n"
STATUS_OK = (
    b"type=status-response\n&status=approved\n&gateway-order-id=9001\n&merchant-order-id=p-1\n"
)


def _environment(url: str, kind: str, key_file: Path) -> None:
    assert (
        main(
            [
                "env",
                "add",
                "gw",
                "--kind",
                kind,
                "--base-url",
                url,
                "--login",
                "merchant",
                "--endpoint-id",
                "1001",
            ]
        )
        == 0
    )
    assert main(["keys", "import", str(key_file), "--env", "gw"]) == 0


def _payout(*extra: str) -> list[str]:
    args = ["send", "payout-check", "--env", "gw", "--json", *extra]
    for name, value in example_values("payout-check").items():
        args += ["-f", f"{name}={value}"]
    return [*args, "-f", "client_orderid=p-1"]


def test_production_send_needs_yes_when_no_one_can_be_asked(
    key_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        _environment(server.url, "production", key_file)
        capsys.readouterr()
        assert main(_payout()) == 2
        err = capsys.readouterr().err
        assert "PRODUCTION" in err
        assert "444444******4448" in err
        assert "--yes" in err
        assert server.received == []
        assert main(_payout("--yes")) == 0
        assert len(server.received) == 1


def test_sandbox_send_does_not_ask(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        _environment(server.url, "sandbox", key_file)
        assert main(_payout()) == 0
    assert "PRODUCTION" not in capsys.readouterr().err


def test_a_status_answer_sets_the_payouts_final_status(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter([ASYNC_OK, STATUS_OK])
    with serve(lambda r: Reply(200, next(answers), FORM)) as server:
        _environment(server.url, "sandbox", key_file)
        assert main(_payout()) == 0
        assert (
            main(
                ["send", "status", "--env", "gw", "-f", "client_orderid=p-1", "-f", "orderid=9001"]
            )
            == 0
        )
    capsys.readouterr()
    assert main(["history", "--command", "payout-check", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["final_status"] == "approved"


def test_missing_passphrase_points_at_the_option(
    tmp_path: Path, rsa_key: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from console.core.keys import private_key_pem

    path = tmp_path / "enc.pem"
    path.write_bytes(private_key_pem(rsa_key, "s3cret"))  # type: ignore[arg-type]
    args = [
        "sign",
        "create-card-ref",
        "--base-url",
        "https://gw.example/p",
        "--login",
        "m",
        "--endpoint-id",
        "1",
        "--key-file",
        str(path),
        "-f",
        "client_orderid=a",
        "-f",
        "orderid=1",
    ]
    assert main(args) == 2
    assert "--key-passphrase-env" in capsys.readouterr().err


ECHOED_CARD = (
    b"type=validation-error\n&error-message=Card 4444444444444448 cvv2=123 refused\n"
    b"&error-code=2\n&credit_card_number=4444444444444448\n&cvv2=123\n"
)


@pytest.mark.parametrize("json_output", [True, False])
def test_an_answer_echoing_the_card_is_printed_masked(
    key_file: Path, capsys: pytest.CaptureFixture[str], json_output: bool
) -> None:
    with serve(lambda r: Reply(200, ECHOED_CARD, FORM)) as server:
        _environment(server.url, "sandbox", key_file)
        args = _payout()
        if not json_output:
            args.remove("--json")
        capsys.readouterr()
        assert main(args) == 3
    out = capsys.readouterr().out
    assert "4444444444444448" not in out
    assert "444444******4448" in out
    assert "cvv2=123" not in out
    assert "cvv2 = 123" not in out
    if json_output:
        answer = json.loads(out)
        assert answer["fields"]["credit_card_number"] == "444444******4448"
        assert answer["fields"]["cvv2"] == "***"
        assert "4444444444444448" not in answer["error_message"]


def test_an_explicit_key_file_works_without_a_keyring(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import keyring
    from keyring.backends import fail

    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        add = ["env", "add", "gw", "--kind", "sandbox", "--base-url", server.url,
               "--login", "merchant", "--endpoint-id", "1001"]  # fmt: skip
        assert main(add) == 0
        keyring.set_keyring(fail.Keyring())  # no OS keyring on this computer
        capsys.readouterr()
        assert main(_payout("--key-file", str(key_file))) == 0
        assert len(server.received) == 1
    assert "No OS keyring" not in capsys.readouterr().err
