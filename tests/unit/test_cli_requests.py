"""The sign / validate commands as an integrator uses them from a shell."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from console.cli import main
from tests.helpers.signed_json import SIGNED_JSON_KEYS

PAN = "4444444444444448"


def _sign_args(key_file: Path, *extra: str) -> list[str]:
    return [
        "sign",
        "payout-check",
        "--base-url",
        "https://gateway.example/paynet",
        "--login",
        "merchant",
        "--endpoint-id",
        "123",
        "--key-file",
        str(key_file),
        "--nonce",
        "n0nce",
        "--timestamp",
        "1700000000",
        "-f",
        "client_orderid=hf-1",
        "-f",
        "amount=10.50",
        "-f",
        "currency=USD",
        "-f",
        f"credit_card_number={PAN}",
        "-f",
        "card_printed_name=JOHN SMITH",
        "-f",
        "expire_month=12",
        "-f",
        "expire_year=2099",
        "-f",
        "cvv2=123",
        *extra,
    ]


def test_sign_json_has_every_value_and_a_signature_that_verifies(
    key_file: Path, rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_sign_args(key_file, "--json", "--reveal")) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= SIGNED_JSON_KEYS
    assert out["url"] == "https://gateway.example/paynet/api/v4/payout-check/123"
    assert out["oauth"]["oauth_nonce"] == "n0nce"
    assert out["oauth"]["oauth_timestamp"] == "1700000000"
    signature = base64.b64decode(out["signature_base64"])
    assert signature.hex() == out["signature_hex"]
    rsa_key.public_key().verify(
        signature, out["base_string"].encode(), padding.PKCS1v15(), hashes.SHA256()
    )
    assert out["base_string"].startswith(
        "POST&https%3A%2F%2Fgateway.example%2Fpaynet%2Fapi%2Fv4%2Fpayout-check%2F123&"
    )


def test_sign_masks_card_data_unless_revealed(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_sign_args(key_file)) == 0
    text = capsys.readouterr().out
    assert "Signature base string" in text
    assert "debug only, never sent" in text
    assert PAN not in text
    assert "444444******4448" in text
    assert "cvv2%3D123" not in text
    assert "cvv2 = 123" not in text
    assert main(_sign_args(key_file, "--reveal")) == 0
    assert PAN in capsys.readouterr().out


def test_same_inputs_sign_identically(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(_sign_args(key_file, "--json"))
    first = json.loads(capsys.readouterr().out)
    main(_sign_args(key_file, "--json"))
    assert json.loads(capsys.readouterr().out)["authorization"] == first["authorization"]


def test_group_path_is_signed(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = _sign_args(key_file, "--json")
    args[args.index("--endpoint-id")] = "--group-id"
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["url"].endswith("/api/v4/payout-check/group/123")
    assert "payout-check%2Fgroup%2F123" in out["base_string"]


def test_sign_refuses_invalid_fields_and_names_them(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_sign_args(key_file, "-f", "currency=", "--json")) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["result"] == "invalid"
    assert any("currency" in p["fields"] for p in out["problems"])


def test_login_as_a_body_field_is_refused(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_sign_args(key_file, "-f", "login=merchant")) == 1
    assert "consumer key" in capsys.readouterr().err


def test_missing_connection_options_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sign", "create-card-ref", "-f", "orderid=1"]) == 2
    err = capsys.readouterr().err
    assert "--base-url" in err
    assert "--key-file" in err


def test_passphrase_comes_from_the_environment(
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "enc.pem"
    path.write_bytes(
        rsa_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"s3cret"),
        )
    )
    args = _sign_args(path, "--key-passphrase-env", "GC_TEST_PASS")
    assert main(args) == 2
    assert "GC_TEST_PASS is not set" in capsys.readouterr().err
    monkeypatch.setenv("GC_TEST_PASS", "s3cret")
    assert main(args) == 0


def test_validate_exit_status_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    good = ["validate", "create-card-ref", "-f", "client_orderid=hf-1", "-f", "orderid=42"]
    assert main(good) == 0
    capsys.readouterr()
    bad = ["validate", "payout-check", "-f", "amount=10,50", "--json"]
    assert main(bad) == 1
    problems = json.loads(capsys.readouterr().out)
    assert all(set(p) >= {"fields", "severity", "message"} for p in problems)
    assert any("amount" in p["fields"] and p["severity"] == "error" for p in problems)


def test_fields_file_and_bad_field_syntax(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "fields.json"
    f.write_text(json.dumps({"client_orderid": "hf-1", "orderid": 42}))
    assert main(["validate", "create-card-ref", "--fields-file", str(f)]) == 0
    assert main(["validate", "create-card-ref", "-f", "orderid"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_a_field_without_its_equals_sign_is_not_echoed_with_the_card_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["validate", "payout-check", "-f", "credit_card_number 4444444444444448"]) == 2
    err = capsys.readouterr().err
    assert "NAME=VALUE" in err
    assert "4444444444444448" not in err
    assert "444444******4448" in err


def test_version_goes_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    from console import __version__

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"gateway-console {__version__}\n"


def test_sign_prints_each_value_on_one_line_so_a_copy_is_exact(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_sign_args(key_file, "--json")) == 0
    signed = json.loads(capsys.readouterr().out)
    assert main(_sign_args(key_file)) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert len(signed["base_string"]) > 100
    for key in ("normalized_parameters", "base_string", "signature_hex", "authorization", "body"):
        assert signed[key] in lines, key


def test_sign_signs_and_sends_values_exactly_as_given_and_warns_about_spaces(
    key_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fields = tmp_path / "fields.json"
    fields.write_text(json.dumps({"order_desc": "gift\u0000"}))
    extra = ("-f", "card_printed_name= JOHN SMITH ", "--fields-file", str(fields))
    assert main(_sign_args(key_file, *extra, "--json", "--reveal")) == 1  # a NUL: an error
    assert "order_desc holds a NUL" in capsys.readouterr().out
    extra += ("--no-validate",)  # signed anyway when asked: exactly as given
    assert main(_sign_args(key_file, *extra, "--json", "--reveal")) == 0
    out = json.loads(capsys.readouterr().out)
    assert ["card_printed_name", " JOHN SMITH "] in out["params"]
    assert "card_printed_name=%20JOHN%20SMITH%20" in out["body"].split("&")
    assert "order_desc=gift%00" in out["body"].split("&")
    assert main(_sign_args(key_file, *extra, "--reveal")) == 0
    text = capsys.readouterr().out
    assert "card_printed_name = ' JOHN SMITH '" in text
    assert "order_desc = 'gift\\x00'" in text
    assert "WARNING card_printed_name: card_printed_name has white space" in text


def test_text_with_no_utf8_form_is_refused_naming_the_field(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # what Python makes of command line bytes that are not UTF-8
    assert main(_sign_args(key_file, "-f", "order_desc=caf\udce9")) == 1  # invalid input
    err = capsys.readouterr().err
    assert "order_desc" in err
    assert "Traceback" not in err
