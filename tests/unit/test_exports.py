"""The exports' rules that need no runtime: the OpenAPI description against the contract,
each language's literals, and the command line's refusals."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from console.cli import main
from console.core.exports import literals, openapi_document, render_code
from console.core.spec import COMMANDS, FieldType, example_values
from tests.helpers.examples import changed_example

HOSTILE = "a b+c~d*e&f=g%h/i?j ü€😀 \"'\\$@URL@ {x} \n\t\x7f"


def _request_schema(doc: dict[str, Any], command: str) -> Draft202012Validator:
    name = "".join(part.title() for part in command.split("-")) + "Request"
    return Draft202012Validator(doc["components"]["schemas"][name])


def test_the_openapi_file_passes_the_validator_and_holds_every_field(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    assert (
        main(["export", "openapi", "--base-url", "https://gw.example/paynet", "-o", str(out)]) == 0
    )
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate_openapi(doc)
    assert doc["servers"] == [{"url": "https://gw.example/paynet"}]
    assert set(doc["paths"]) == {t for c in COMMANDS.values() for t in c.path_templates.values()}
    for command in COMMANDS.values():
        schema = _request_schema(doc, command.name).schema
        for field in command.fields:
            prop = schema["properties"][field.name]
            assert prop.get("maxLength") in (None, field.length.max), field.name
            if field.type is FieldType.STRING and not field.choices:
                assert prop.get("maxLength") == field.length.max, field.name
            assert field.meaning in prop["description"]
    broken = json.loads(json.dumps(doc))
    del broken["paths"]["/api/v4/status/{endpoint_id}"]["post"]["parameters"][0]["in"]
    with pytest.raises(OpenAPIValidationError):  # the validator is not a formality
        validate_openapi(broken)


def test_the_openapi_schemas_take_the_examples_and_refuse_the_either_or_breaches() -> None:
    doc = openapi_document()
    for command in COMMANDS:
        assert not list(_request_schema(doc, command).iter_errors(example_values(command)))
    recurring = _request_schema(doc, "create-recurring-payment")
    two_amounts = {**example_values("create-recurring-payment"), "amount-sequence": "1.00,2.00"}
    assert not recurring.is_valid(two_amounts)
    dst = {**example_values("create-recurring-payment"), "rp_card_type": "DST"}
    assert not recurring.is_valid(dst)  # SRC-only fields on a DST profile
    payout = example_values("payout-check")
    del payout["credit_card_number"]
    assert not _request_schema(doc, "payout-check").is_valid(payout)  # nobody receives it


def test_literals_are_ascii_and_read_back_as_the_same_text() -> None:
    assert ast.literal_eval(literals.python(HOSTILE)) == HOSTILE
    assert json.loads(literals.javascript(HOSTILE)) == HOSTILE
    for write in (literals.python, literals.javascript, literals.php, literals.java, literals.go):
        assert write(HOSTILE).isascii()
    # Java reads \u000a before it lexes: a line feed must be an octal escape.
    assert literals.java("a\nb") == '"a\\012b"'
    assert literals.java("😀") == '"\\ud83d\\ude00"'
    assert literals.go("😀\x01") == '"\\U0001f600\\x01"'
    assert literals.php("$x ü") == '"\\$x \\u{fc}"'


def _code(*extra: str) -> int:
    return main(
        [
            "code",
            "node",
            "payout-check",
            "--base-url",
            "https://gw.example/paynet",
            "--login",
            "merchant",
            "--endpoint-id",
            "7",
            *extra,
        ]
    )


def test_code_refuses_fields_that_break_the_contract_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.js"
    assert _code("-f", "amount=ten", "-o", str(out)) == 1
    assert "client_orderid" in capsys.readouterr().err
    assert not out.exists()


def test_code_names_what_it_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["code", "go", "status", "-f", "client_orderid=1"]) == 2
    err = capsys.readouterr().err
    assert "--base-url" in err
    assert "--login" in err
    assert "--endpoint-id" in err


def test_code_keeps_card_data_and_the_key_out_of_the_program(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = example_values("payout-check")
    fields = [a for name, value in values.items() for a in ("-f", f"{name}={value}")]
    assert _code("--key-file", str(key_file), "--json", *fields) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variables"] == ["CREDIT_CARD_NUMBER", "CVV2"]
    assert values["credit_card_number"] not in out["source"]
    assert '"123"' not in out["source"]
    assert str(key_file) in out["source"]
    assert "PRIVATE KEY-----" not in out["source"]
    assert _code("--key-file", str(key_file), "--key-passphrase-env", "X", *fields) == 2


def test_a_program_made_from_a_request_holds_no_card_data_and_needs_its_login() -> None:
    from console.core.errors import InputError
    from console.core.exports import program_for_request

    url = "https://Gateway.Example:443/paynet/api/v4/payout-check/1001?x=1"
    params = [
        ("client_orderid", "o-1"),
        ("credit_card_number", "4111111111111111"),
        ("cvv2", "987"),
    ]
    program = program_for_request("payout-check", url, "merchant", params)
    assert program.url == "https://gateway.example/paynet/api/v4/payout-check/1001"
    assert program.fields == (("client_orderid", "o-1"), ("credit_card_number", ""), ("cvv2", ""))
    assert program.variables == ("CREDIT_CARD_NUMBER", "CVV2")
    with pytest.raises(InputError, match="names no login"):
        program_for_request("payout-check", url, " ", params)
    with pytest.raises(InputError, match="unknown command"):
        program_for_request("refund", url, "merchant", params)


@pytest.mark.parametrize(
    ("command", "change"),
    [
        ("payout-check", {"notify_url": "https://merchant.example/notify"}),
        ("payout-check", {"card_recurring_payment_id": "987654"}),
        ("payout-check", {"expire_year": None}),
        ("payout-check", {"redirect_success_url": "https://merchant.example/ok"}),
        ("create-recurring-payment", {"server_callback_url": "https://merchant.example/cb"}),
        ("create-recurring-payment", {"interval": None}),
    ],
)
def test_the_schema_refuses_what_validation_refuses_across_fields(
    command: str, change: dict[str, str | None]
) -> None:
    from console.core.spec import validate
    from console.core.spec.model import Severity

    values = changed_example(command, change)
    refused = [p for p in validate(command, values) if p.severity is Severity.ERROR]
    assert refused, "validation refuses the combination"
    assert not _request_schema(openapi_document(), command).is_valid(values)


@pytest.mark.parametrize(
    ("command", "name"),
    [("payout-check", "client_orderid"), ("create-recurring-payment", "client-orderid")],
)
def test_a_program_from_a_request_not_sent_gets_a_fresh_order_id_and_says_so(
    command: str, name: str
) -> None:
    from console.core.exports import program_for_request
    from console.core.exports.program import PLACEHOLDER_ORDER_ID_PREFIX

    url = f"https://gateway.example/paynet/api/v4/{command}/1001"
    params = list(example_values(command).items())
    kept = dict(params)[name]
    first = program_for_request(command, url, "merchant", params, sent=False)
    again = program_for_request(command, url, "merchant", params, sent=False)
    placeholder = dict(first.fields)[name]
    assert placeholder.startswith(PLACEHOLDER_ORDER_ID_PREFIX)
    assert placeholder != dict(again.fields)[name]  # fresh every time
    for language in ("python", "node", "php", "java", "go"):
        text = render_code(language, first)
        assert kept not in text, language
        lines = [line for line in text.splitlines() if not line.startswith(("#!", "<?php"))]
        assert lines[0].startswith(("# NOT SENT:", "// NOT SENT:")), language
        assert f"{name} is a fresh placeholder" in lines[0]
    compile(render_code("python", first), "gateway_request.py", "exec")  # still a program
    sent = program_for_request(command, url, "merchant", params)
    assert dict(sent.fields)[name] == kept
    assert "NOT SENT" not in render_code("python", sent)


def test_a_program_from_a_status_not_sent_keeps_the_ids_it_looks_up() -> None:
    from console.core.exports import program_for_request

    url = "https://gateway.example/paynet/api/v4/status/1001"
    params = [("client_orderid", "payout-7"), ("orderid", "10000007")]
    program = program_for_request("status", url, "merchant", params, sent=False)
    assert program.fields == tuple(params)
    text = render_code("go", program)
    assert text.splitlines()[0] == (
        "// NOT SENT: this program was made from a request the console did not send."
    )


def test_a_postman_export_for_the_local_sandbox_runs_as_exported(
    tmp_path: Path, key_file: Path
) -> None:
    """Without newman: the files a person imports. A sandbox's environment names the first
    payment the sandbox seeds and carries its key readable by its owner only; every request
    tests its answer's type and keeps the ids the next request needs."""
    code = main(
        [
            "export", "postman", "--base-url", "http://127.0.0.1:8080/paynet", "--login",
            "demo", "--endpoint-id", "1001", "--with-key", str(key_file), "--output-dir",
            str(tmp_path),
        ]
    )  # fmt: skip
    assert code == 0
    collection = json.loads((tmp_path / "gateway-v4.postman_collection.json").read_text())
    environment_file = tmp_path / "gateway-v4.postman_environment.json"
    values = {v["key"]: v["value"] for v in json.loads(environment_file.read_text())["values"]}
    assert "9000001" in values.values()
    assert "first-payment-1" in values.values()
    assert "sale-0001" not in values.values()
    assert values["privateKey"].startswith("-----BEGIN")
    assert environment_file.stat().st_mode & 0o777 == 0o600
    for item in collection["item"]:
        tests = "\n".join(e["script"]["exec"][0] for e in item["event"] if e["listen"] == "test")
        assert "pm.test(" in "\n".join(
            line for e in item["event"] for line in e["script"]["exec"]
        ), item["name"]
        assert tests


def test_a_private_key_goes_into_a_postman_environment_only_for_a_sandbox(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "export", "postman", "--base-url", "https://gateway.example/paynet", "--login",
            "m", "--endpoint-id", "1", "--with-key", str(key_file), "--output-dir",
            str(tmp_path),
        ]
    )  # fmt: skip
    assert code != 0
    assert "only for a sandbox" in capsys.readouterr().err
    assert not (tmp_path / "gateway-v4.postman_environment.json").exists()
