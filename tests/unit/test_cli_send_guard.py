"""``send`` follows the pipeline's rules with documented exit statuses, like the window asks."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import (
    EXIT_ALREADY_ACCEPTED,
    EXIT_ASK_UNKNOWN,
    EXIT_INTERNAL,
    EXIT_JOURNAL,
    EXIT_NOT_CONFIRMED,
)
from console.core.paths import resolve
from console.core.spec import example_values
from tests.helpers.http_server import Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = b"type=async-response\n&merchant-order-id=p-1\n&gateway-order-id=9001\n"
PAN = "4444444444444448"


def _send(url: str, key_file: Path, *extra: str) -> list[str]:
    args = ["send", "payout-check", "--base-url", url, "--login", "merchant"]
    args += ["--endpoint-id", "1001", "--key-file", str(key_file), *extra]
    for name, value in example_values("payout-check").items():
        args += ["-f", f"{name}={value}"]
    return [*args, "-f", "client_orderid=p-1"]


def test_an_accepted_client_orderid_is_refused_with_its_own_exit_status(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        assert main(_send(server.url, key_file)) == 0
        capsys.readouterr()
        assert main(_send(server.url, key_file, "--yes")) == EXIT_ALREADY_ACCEPTED
        assert len(server.received) == 1
    err = capsys.readouterr().err
    assert "Already sent and accepted" in err
    assert "gateway order 9001" in err


def test_an_unknown_outcome_needs_a_status_check_or_an_explicit_flag(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = iter([Reply(500, b"Internal error [e-1]", {"Content-Type": "text/plain"})])
    with serve(lambda r: next(replies, Reply(200, ASYNC_OK, FORM))) as server:
        assert main(_send(server.url, key_file)) == 5
        capsys.readouterr()
        assert main(_send(server.url, key_file)) == EXIT_ASK_UNKNOWN
        assert "--resend-unknown" in capsys.readouterr().err
        assert len(server.received) == 1
        assert main(_send(server.url, key_file, "--resend-unknown")) == 0
        assert len(server.received) == 2


def test_a_declined_production_confirmation_sends_nothing(
    key_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        base = ["--base-url", server.url, "--login", "m", "--endpoint-id", "1"]
        assert main(["env", "add", "live", "--kind", "production", *base]) == 0
        assert main(["keys", "import", str(key_file), "--env", "live"]) == 0
        monkeypatch.setattr("sys.stdin", _Tty("n\n"))
        args = ["send", "payout-check", "--env", "live", "-f", f"credit_card_number={PAN}"]
        for name, value in example_values("payout-check").items():
            args += ["-f", f"{name}={value}"] if name != "credit_card_number" else []
        capsys.readouterr()
        assert main(args) == EXIT_NOT_CONFIRMED
        assert server.received == []
    err = capsys.readouterr().err
    assert "PRODUCTION" in err
    assert "444444******4448" in err
    assert PAN not in err
    assert "published test card" in err


def test_an_unusable_journal_sends_nothing(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = resolve().history_db
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.mkdir()  # a folder where the journal file should be
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        assert main(_send(server.url, key_file)) == EXIT_JOURNAL
        assert server.received == []
    err = capsys.readouterr().err
    assert "journal" in err
    assert "Traceback" not in err


def test_a_bug_after_the_money_moved_is_an_internal_error_and_the_outcome_is_still_said(
    key_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_a: object, **_k: object) -> None:
        raise KeyError("gateway-order-id")

    monkeypatch.setattr("console.cli.send_cmd.print_outcome", broken)
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        assert main(_send(server.url, key_file)) == 0  # accepted: the status says what happened
    err = capsys.readouterr().err
    assert "ACCEPTED" in err
    assert "usage" not in err.lower()


def test_a_programming_error_is_reported_as_internal_never_as_bad_input(
    key_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_a: object, **_k: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr("console.cli.send_cmd.read_fields", broken)
    assert main(_send("http://127.0.0.1:9", key_file)) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "internal error" in err
    assert "not a problem with your input" in err
    log = resolve().log_file.read_text()
    assert "Traceback" in log
    assert "KeyError" in log


def test_send_json_masks_a_card_the_gateway_echoes(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    echo = f"type=async-response\n&gateway-order-id=9001\n&note=card {PAN}\n".encode()
    with serve(lambda r: Reply(200, echo, FORM)) as server:
        assert main(_send(server.url, key_file, "--json", "-f", f"credit_card_number={PAN}")) == 0
    out = capsys.readouterr().out
    assert PAN not in out
    assert json.loads(out)["fields"]["note"] == "card 444444******4448"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_an_environment_address_overridden_to_plain_http_is_refused(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--login", "m", "--endpoint-id", "1"]
    assert (
        main(
            [
                "env",
                "add",
                "live",
                "--kind",
                "production",
                "--base-url",
                "https://gw.example/p",
                *base,
            ]
        )
        == 0
    )
    assert main(["keys", "import", str(key_file), "--env", "live"]) == 0
    args = ["send", "payout-check", "--env", "live", "--yes", "--base-url", "http://gw.example/p"]
    for name, value in example_values("payout-check").items():
        args += ["-f", f"{name}={value}"]
    capsys.readouterr()
    assert main(args) == 2
    assert "plain http" in capsys.readouterr().err


def test_a_card_number_failing_luhn_needs_an_explicit_flag(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        bad = ["-f", "credit_card_number=4444444444444441"]
        assert main([*_send(server.url, key_file), *bad]) == 1
        assert server.received == []
        assert "--confirm-card-number" in capsys.readouterr().err
        assert main([*_send(server.url, key_file, "--confirm-card-number"), *bad]) == 0
        assert len(server.received) == 1


@pytest.mark.parametrize(
    ("first", "second"), [(" dup-1", " dup-1"), ("dup-1", " dup-1"), (" dup-1 ", "dup-1  ")]
)
def test_an_accepted_client_orderid_with_spaces_around_it_is_refused_too(
    key_file: Path, capsys: pytest.CaptureFixture[str], first: str, second: str
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        assert main([*_send(server.url, key_file), "-f", f"client_orderid={first}"]) == 0
        capsys.readouterr()
        again = [*_send(server.url, key_file, "--yes"), "-f", f"client_orderid={second}"]
        assert main(again) == EXIT_ALREADY_ACCEPTED
        assert len(server.received) == 1
    assert "Already sent and accepted" in capsys.readouterr().err
