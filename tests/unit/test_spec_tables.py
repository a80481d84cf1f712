"""The tables in console.core.spec say what the contract says, row by row."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from console.core.spec import (
    COMMANDS,
    SECTION_TITLES,
    CardType,
    Field,
    FieldType,
    Necessity,
    get_command,
    sections,
)
from console.core.spec.build import length

SRC = frozenset({CardType.SRC})
BOTH = frozenset({CardType.SRC, CardType.DST})
CONTRACT = Path(__file__).resolve().parents[3] / "shared" / "spec" / "api-v4.md"


def field(command: str, name: str) -> Field:
    f = get_command(command).field(name)
    assert f is not None, f"{command} has no field {name}"
    return f


def test_commands_are_the_four_named_ones() -> None:
    assert set(COMMANDS) == {
        "payout-check",
        "create-card-ref",
        "create-recurring-payment",
        "status",
    }
    assert [f.name for f in COMMANDS["status"].fields] == [
        "client_orderid",
        "orderid",
        "by-request-sn",
    ]
    assert COMMANDS["status"].from_field_notes
    assert not any(COMMANDS[c].from_field_notes for c in COMMANDS if c != "status")


def test_unknown_command_lists_the_valid_names() -> None:
    with pytest.raises(KeyError, match=r"payout-check.*create-card-ref.*status"):
        get_command("payout")


@pytest.mark.parametrize(
    ("command", "count", "first", "last"),
    [
        ("payout-check", 53, "client_orderid", "recurring-payment-id"),
        ("create-card-ref", 2, "client_orderid", "orderid"),
        ("create-recurring-payment", 33, "rp_card_type", "server_callback_url"),
    ],
)
def test_every_row_in_contract_order(command: str, count: int, first: str, last: str) -> None:
    names = [f.name for f in COMMANDS[command].fields]
    assert len(names) == count
    assert len(set(names)) == count
    assert (names[0], names[-1]) == (first, last)


def test_login_is_not_a_body_field_of_create_card_ref() -> None:
    assert get_command("create-card-ref").field("login") is None
    assert any("consumer key" in n for n in get_command("create-card-ref").notes)


@pytest.mark.parametrize(
    ("command", "name", "necessity", "type_", "text", "low", "high"),
    [
        ("payout-check", "client_orderid", "required", "String", "128", None, 128),
        ("payout-check", "amount", "required", "Numeric", "10", None, 10),
        ("payout-check", "ipaddress", "conditional", "String", "7-45", 7, 45),
        ("payout-check", "cvv2", "conditional", "Numeric", "3-4", 3, 4),
        ("payout-check", "redirect_success_url", "optional", "String", "1024", None, 1024),
        ("payout-check", "bank_zip_code", "conditional", "String", "255", None, 255),
        ("payout-check", "routing_number", "conditional", "String", "16", None, 16),
        ("payout-check", "receiver_birthday", "conditional", "Numeric", "30", None, 30),
        ("payout-check", "receiver_state", "conditional", "String", "4", None, 4),
        ("payout-check", "receiver_address1", "conditional", "String", "256", None, 256),
        ("payout-check", "merchant_data", "optional", "String", "64k", None, 65536),
        ("payout-check", "customer_level", "optional", "Varchar", "32", None, 32),
        ("payout-check", "customer_id", "optional", "Int", "10", None, 10),
        ("payout-check", "card_recurring_payment_id", "conditional", "Long", "-", None, None),
        ("payout-check", "recurring-payment-id", "conditional", "Long", "-", None, None),
        ("create-recurring-payment", "rp_card_type", "required", "Enum", "3", None, 3),
        ("create-recurring-payment", "credit-card-number", "required", "Numeric", "19", None, 19),
        (
            "create-recurring-payment",
            "card-printed-name",
            "conditional",
            "String",
            "128",
            None,
            128,
        ),
        ("create-recurring-payment", "zip-code", "required", "String", "10", None, 10),
        ("create-recurring-payment", "interval", "conditional", "Int", "-", None, None),
        ("create-recurring-payment", "order_desc", "optional", "String", "65K", None, 66560),
        ("create-recurring-payment", "customer-ip", "optional", "String", "45", None, 45),
        ("create-recurring-payment", "state", "optional", "String", "2-3", 2, 3),
        ("create-recurring-payment", "start-date", "optional", "Date", "8", None, 8),
        ("create-recurring-payment", "birthday", "optional", "Date", "8", None, 8),
        ("create-recurring-payment", "max-repeats-number", "optional", "Int", "-", None, None),
        ("create-recurring-payment", "notify_url", "optional", "String", "1024", None, 1024),
        ("create-recurring-payment", "server_callback_url", "optional", "String", "128", None, 128),
    ],
)
def test_row_columns(
    command: str,
    name: str,
    necessity: str,
    type_: str,
    text: str,
    low: int | None,
    high: int | None,
) -> None:
    f = field(command, name)
    assert (f.necessity, f.type, f.length.text) == (Necessity(necessity), FieldType(type_), text)
    assert (f.length.min, f.length.max) == (low, high)


@pytest.mark.parametrize(
    ("long", "alias"),
    [
        ("receiver_first_name", "first_name"),
        ("receiver_last_name", "last_name"),
        ("receiver_middle_name", "middle_name"),
        ("receiver_birthday", "birthday"),
        ("receiver_country_code", "country"),
        ("receiver_state", "state"),
        ("receiver_city", "city"),
        ("receiver_zip_code", "zip_code"),
        ("receiver_address1", "address1"),
        ("receiver_phone", "phone"),
        ("receiver_email", "email"),
        ("receiver_identity_document_id", "identity_document_id"),
        ("receiver_identity_document_number", "identity_document_number"),
    ],
)
def test_payout_aliases(long: str, alias: str) -> None:
    f = field("payout-check", alias)
    assert (f.name, f.alias) == (long, alias)
    assert f.meaning.startswith(f"Alias: `{alias}`.")


def test_only_the_thirteen_receiver_fields_and_notify_url_have_aliases() -> None:
    aliased = [(c.name, f.name) for c in COMMANDS.values() for f in c.fields if f.alias]
    assert len(aliased) == 14
    assert field("create-recurring-payment", "notify-url").name == "notify_url"


@pytest.mark.parametrize(
    ("name", "types"),
    [
        ("client-orderid", BOTH),
        ("credit-card-number", BOTH),
        ("card-printed-name", BOTH),
        ("expire-month", BOTH),
        ("amount", BOTH),
        ("currency", BOTH),
        ("country", SRC),
        ("city", SRC),
        ("zip-code", SRC),
        ("address1", SRC),
        ("first-name", SRC),
        ("last-name", SRC),
        ("email", SRC),
        ("amount-sequence", BOTH),
        ("period", SRC),
        ("interval", SRC),
        ("order_desc", BOTH),
        ("customer-ip", BOTH),
        ("ssn", SRC),
        ("birthday", SRC),
        ("phone", SRC),
        ("state", SRC),
        ("start-date", BOTH),
        ("finish-date", BOTH),
        ("max-repeats-number", BOTH),
        ("purpose", SRC),
        ("notify_url", BOTH),
        ("rp_card_type", None),
        ("cvv2", None),
        ("server_callback_url", None),
    ],
)
def test_recurring_card_types_follow_the_wording(
    name: str, types: frozenset[CardType] | None
) -> None:
    f = field("create-recurring-payment", name)
    assert f.card_types == types
    if types == SRC:
        assert f.meaning.endswith("Not supported for DST.")


@pytest.mark.parametrize("name", ["card-printed-name", "expire-year", "expire-month"])
def test_src_required_rows_keep_their_note(name: str) -> None:
    f = field("create-recurring-payment", name)
    assert f.necessity is Necessity.CONDITIONAL
    assert f.note == "Required for SRC, optional for DST."


@pytest.mark.parametrize("name", ["start-date", "finish-date", "birthday"])
def test_recurring_dates_keep_the_contract_type_in_the_note(name: str) -> None:
    assert "Numeric, DD.MM.YYYY" in field("create-recurring-payment", name).note


@pytest.mark.parametrize(
    ("command", "name", "meaning"),
    [
        (
            "payout-check",
            "amount",
            "Amount in the highest currency units with `.` as the "
            "delimiter (10.5 means 10 units and 50 subunits).",
        ),
        (
            "payout-check",
            "receiver_state",
            "Alias: `state`. Should be given for countries "
            "that have states (USA, Canada, Australia).",
        ),
        (
            "payout-check",
            "customer_id",
            "Customer id in the CMS system. Required when the "
            "transaction goes via the CMS in Payment Gateway mode.",
        ),
        ("payout-check", "routing_number", "Routing number identifying bank branches in China."),
        (
            "create-card-ref",
            "orderid",
            "The order id assigned by the service to the first payment.",
        ),
        (
            "create-recurring-payment",
            "amount-to",
            "Upper bound of a random amount per charge. "
            "Required under the same condition as `amount-from`. SRC and DST.",
        ),
        (
            "create-recurring-payment",
            "notify_url",
            "Callback address. `server_callback_url` "
            "can be used instead. SRC and DST. A sample request spells it `notify-url`.",
        ),
    ],
)
def test_meanings_word_for_word(command: str, name: str, meaning: str) -> None:
    assert field(command, name).meaning == meaning


def test_every_field_and_response_field_has_a_meaning() -> None:
    for command in COMMANDS.values():
        for f in command.fields:
            assert f.meaning.strip(), (command.name, f.name)
            assert f.section in SECTION_TITLES, (command.name, f.name)
        assert command.response_fields
        for r in command.response_fields:
            assert r.meaning.strip(), (command.name, r.name)


@pytest.mark.parametrize(
    ("command", "names"),
    [
        (
            "payout-check",
            [
                "type",
                "gateway-order-id",
                "merchant-order-id",
                "serial-number",
                "end-point-id",
                "error-message",
                "error-code",
            ],
        ),
        (
            "create-card-ref",
            [
                "type",
                "serial-number",
                "card-ref-id",
                "unq-card-ref-id",
                "recurring-payment-id",
                "dst-card-ref-id",
                "dst-unq-card-ref-id",
                "dst-recurring-payment-id",
                "error-message",
                "error-code",
                "status",
            ],
        ),
        (
            "create-recurring-payment",
            [
                "type",
                "recurring-payment-id",
                "status",
                "serial-number",
                "error-message",
                "error-code",
            ],
        ),
    ],
)
def test_response_fields(command: str, names: list[str]) -> None:
    assert [r.name for r in COMMANDS[command].response_fields] == names


@pytest.mark.parametrize(
    ("command", "success_type"),
    [
        ("payout-check", "async-response"),
        ("create-card-ref", "create-card-ref-response"),
        ("create-recurring-payment", "create-recurring-payment-response"),
    ],
)
def test_success_types(command: str, success_type: str) -> None:
    assert COMMANDS[command].success_type == success_type
    assert f"`{success_type}`" in COMMANDS[command].response_fields[0].meaning


@pytest.mark.parametrize(
    ("command", "templates"),
    [
        (
            "payout-check",
            {
                "endpoint": "/api/v4/payout-check/{endpoint_id}",
                "group": "/api/v4/payout-check/group/{endpoint_group_id}",
            },
        ),
        (
            "create-card-ref",
            {
                "endpoint": "/api/v4/create-card-ref/{endpoint_id}",
                "group": "/api/v4/create-card-ref/group/{endpoint_group_id}",
            },
        ),
        (
            "create-recurring-payment",
            {"endpoint": "/api/v4/create-recurring-payment/{endpoint_id}"},
        ),
        (
            "status",
            {
                "endpoint": "/api/v4/status/{endpoint_id}",
                "group": "/api/v4/status/group/{endpoint_group_id}",
            },
        ),
    ],
)
def test_path_templates(command: str, templates: dict[str, str]) -> None:
    assert COMMANDS[command].path_templates == templates


def test_only_payout_check_is_asynchronous() -> None:
    assert [c.name for c in COMMANDS.values() if c.asynchronous] == ["payout-check"]


@pytest.mark.parametrize(
    ("command", "name", "sensitive"),
    [
        ("payout-check", "credit_card_number", "pan"),
        ("payout-check", "cvv2", "cvv"),
        ("create-recurring-payment", "credit-card-number", "pan"),
        ("create-recurring-payment", "cvv2", "cvv"),
    ],
)
def test_sensitive_fields(command: str, name: str, sensitive: str) -> None:
    assert field(command, name).sensitive == sensitive
    others = [f.name for f in COMMANDS[command].fields if f.sensitive and f.name != name]
    assert len(others) == 1


@pytest.mark.parametrize(
    ("command", "name", "choices"),
    [
        ("create-recurring-payment", "rp_card_type", ("SRC", "DST")),
        ("create-recurring-payment", "period", ("day", "week", "month")),
    ],
)
def test_choices(command: str, name: str, choices: tuple[str, ...]) -> None:
    assert field(command, name).choices == choices


@pytest.mark.parametrize(
    ("command", "section", "members"),
    [
        (
            "payout-check",
            "card",
            {"credit_card_number", "card_printed_name", "expire_month", "expire_year", "cvv2"},
        ),
        ("payout-check", "stored-card", {"card_recurring_payment_id", "recurring-payment-id"}),
        ("payout-check", "callbacks", {"server_callback_url", "notify_url"}),
        (
            "payout-check",
            "redirects",
            {"redirect_url", "redirect_success_url", "redirect_fail_url"},
        ),
        ("payout-check", "cms", {"customer_level", "customer_id", "merchant_customer_identifier"}),
        (
            "create-recurring-payment",
            "schedule",
            {"period", "interval", "start-date", "finish-date", "max-repeats-number"},
        ),
        (
            "create-recurring-payment",
            "amount",
            {"amount", "currency", "amount-from", "amount-to", "amount-sequence"},
        ),
    ],
)
def test_sections(command: str, section: str, members: set[str]) -> None:
    found = {key: set(names) for key, _title, names in sections(COMMANDS[command])}
    assert found[section] == members


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("128", None, 128),
        ("3-4", 3, 4),
        ("7-45", 7, 45),
        ("64k", None, 65536),
        ("65K", None, 66560),
        ("-", None, None),
    ],
)
def test_length_spellings(text: str, low: int | None, high: int | None) -> None:
    parsed = length(text)
    assert (parsed.min, parsed.max, parsed.text) == (low, high, text)


def test_unknown_length_spelling_is_refused() -> None:
    with pytest.raises(ValueError, match="12 chars"):
        length("12 chars")


# The contract document itself, when it is beside the project: every request row compared.

_ROW = re.compile(
    r"^\| ([a-z0-9_-]+) \| (Required|Optional|Conditional) \| ([^|]+) \| ([^|]+) \| "
    r"(.+) \|$"
)


def _contract_rows(section: str) -> list[tuple[str, ...]]:
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index(section)
    end = text.index("\n### ", start + 1) if "\n### " in text[start + 1 :] else len(text)
    rows = []
    for line in text[start:end].splitlines():
        if m := _ROW.match(line):
            rows.append(m.groups())
    return rows


@pytest.mark.skipif(not CONTRACT.exists(), reason="the contract document is not beside the tree")
@pytest.mark.parametrize(
    ("command", "section"),
    [
        ("payout-check", "### 4.2 payout-check"),
        ("create-recurring-payment", "### 4.3 create-recurring-payment"),
    ],
)
def test_tables_match_the_contract_document(command: str, section: str) -> None:
    rows = _contract_rows(section)
    fields = COMMANDS[command].fields
    assert [r[0] for r in rows] == [f.name for f in fields]
    for (name, necessity, type_, size, meaning), f in zip(rows, fields, strict=True):
        assert f.necessity is Necessity(necessity.lower()), name
        assert f.length.text == size, name
        assert f.meaning == meaning, name
        expected = FieldType.DATE if type_.startswith("Numeric, DD.MM.YYYY") else FieldType(type_)
        assert f.type is expected, name


def _two_column_rows(section: str, after: str) -> list[tuple[str, str]]:
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index(after, text.index(section))
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] not in ("Parameter", "---"):
            rows.append((cells[0], cells[1]))
    return rows


@pytest.mark.skipif(not CONTRACT.exists(), reason="the contract document is not beside the tree")
@pytest.mark.parametrize(
    ("command", "section"),
    [
        ("payout-check", "### 4.2 payout-check"),
        ("create-card-ref", "### 4.1 create-card-ref"),
        ("create-recurring-payment", "### 4.3 create-recurring-payment"),
    ],
)
def test_response_tables_match_the_contract_document(command: str, section: str) -> None:
    rows = _two_column_rows(section, "Response parameters:")
    assert rows == [(r.name, r.meaning) for r in COMMANDS[command].response_fields]


@pytest.mark.skipif(not CONTRACT.exists(), reason="the contract document is not beside the tree")
def test_card_ref_request_matches_the_contract_document_except_login() -> None:
    rows = _two_column_rows("### 4.1 create-card-ref", "Request body:")
    assert rows[0][0] == "login"
    fields = COMMANDS["create-card-ref"].fields
    assert rows[1:] == [(f.name, f.meaning) for f in fields]


def test_the_card_data_list_names_fields_of_the_tables_and_marks_them() -> None:
    from console.core.spec import COMMANDS
    from console.core.spec.sensitive import CARD_NUMBER_FIELDS, CVV_FIELDS

    marked = {f.name: f.sensitive for c in COMMANDS.values() for f in c.fields if f.sensitive}
    assert marked == {
        **dict.fromkeys(CARD_NUMBER_FIELDS, "pan"),
        **dict.fromkeys(CVV_FIELDS, "cvv"),
    }
