"""The journal: pending before sending, updated after, crash-proof, and no card data kept."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import parse_qs, quote

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import keys, paths
from console.core.history import History
from console.core.history.rows import NOT_KEPT
from console.core.history.schema import MIGRATIONS, SCHEMA_VERSION, _statements
from console.core.order_facts import client_orderid
from console.core.outcome_view import masked_outcome
from console.core.prepared import prepare
from tests.helpers.history_data import answered, lost, prepared
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.pipeline import journalled_send

PAN = "4111111111111111"
CVV = "9173"
FORM = {"Content-Type": "text/html;charset=utf-8"}


def _outcome(db_path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db_path) as other:  # a separate reader: sees committed rows only
        return other.execute("SELECT id, outcome FROM requests").fetchall()


def test_pending_row_is_committed_before_the_request_leaves(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    seen_by_server: list[list[tuple[object, ...]]] = []

    def gateway(request: Received) -> Reply:
        seen_by_server.append(_outcome(history.path))
        return Reply(200, b"type=async-response\n&serial-number=s-1\n&gateway-order-id=777\n", FORM)

    with serve(gateway) as server:
        req = prepare(
            "payout-check",
            dict(prepared(rsa_key, client_orderid="order-1").params),
            base_url=server.url + "/paynet",
            login="acme",
            private_key=rsa_key,
            endpoint_id="1234",
        )
        outcome = journalled_send(history, "local", req)
    assert seen_by_server == [[(1, "pending")]]
    row = history.get(1)
    assert outcome.result == "accepted"
    assert row.outcome == "accepted"
    assert row.gateway_order_id == "777"
    assert row.serial_number == "s-1"
    assert row.http_status == 200
    assert row.elapsed is not None
    assert row.elapsed >= 0
    assert row.finished is not None
    assert row.finished >= row.created


def test_row_columns_for_the_pane(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    req = prepared(rsa_key, client_orderid="order-7", amount="12.30", currency="EUR")
    hooks = history.journal("acme-sb")
    row_id = hooks.before_send(req)
    pending = history.get(row_id)
    assert pending.outcome_text == "sending…"
    hooks.after_answer(
        row_id, answered(req, "type=async-response&serial-number=9&gateway-order-id=55")
    )
    row = history.get(row_id)
    assert (row.environment, row.command, row.client_orderid) == (
        "acme-sb",
        "payout-check",
        "order-7",
    )
    assert row.amount_text == "12.30 EUR"
    assert row.receiver == "card 444444******4448"
    assert row.last4 == "4448"
    assert (row.outcome_text, row.gateway_order_id, row.serial_number) == ("accepted", "55", "9")


def test_a_lost_answer_is_outcome_unknown(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    req = prepared(rsa_key)
    hooks = history.journal("sb")
    row_id = hooks.before_send(req)
    hooks.after_answer(row_id, lost(req))
    row = history.get(row_id)
    assert row.outcome_unknown
    assert row.outcome_text == "outcome unknown"
    assert history.details(row_id).response == {
        "error": "No answer within 60 s; the request may have arrived.",
        "error_class": "OutcomeUnknownError",
    }


_CHILD = """
import os, signal, sys
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from console.core.history import History
from tests.helpers.history_data import prepared
from tests.helpers.pipeline import journalled_send

class DiesWhileSending:
    def post(self, url, *, headers, body):
        print("sending", flush=True)
        if hasattr(signal, "SIGKILL"):
            os.kill(os.getpid(), signal.SIGKILL)
        os._exit(9)

key = load_pem_private_key(sys.stdin.buffer.read(), None)
history = History()
journalled_send(history, "acme-sb", prepared(key, client_orderid="crash-1"), DiesWhileSending())
print("never reached", flush=True)
"""


def test_a_console_killed_mid_send_leaves_outcome_unknown(rsa_key: rsa.RSAPrivateKey) -> None:
    root = Path(__file__).resolve().parents[2]
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CHILD)],
        input=keys.private_key_pem(rsa_key),
        capture_output=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=60,
        check=False,
    )
    assert child.stdout == b"sending\n", child.stderr
    assert child.returncode != 0
    history = History()  # the next start
    assert history.recovered == [1]
    row = history.get(1)
    assert row.client_orderid == "crash-1"
    assert row.outcome_unknown
    assert row.interrupted
    assert "Check the order status" in (row.summary or "")
    assert history.count() == 1


def test_a_pending_row_of_a_running_console_is_left_alone(rsa_key: rsa.RSAPrivateKey) -> None:
    sending = History()
    row_id = sending.journal("sb").before_send(prepared(rsa_key))
    other = History()  # e.g. the command line opening the journal while the window sends
    assert other.recovered == []
    assert other.get(row_id).outcome == "pending"
    late = sending.begin("sb", prepared(rsa_key), window=-1.0)  # its deadline has passed
    sending._in_flight.discard(late)
    assert other.recover_interrupted() == [late]


def test_journal_keeps_no_card_number_and_no_cvv2(rsa_key: rsa.RSAPrivateKey) -> None:
    echo = f"Card {PAN} with cvv2={CVV} was refused".encode()

    def gateway(request: Received) -> Reply:
        if b"client_orderid=ok-1" in request.body:
            return Reply(
                200, b"type=async-response\n&serial-number=1\n&gateway-order-id=31\n", FORM
            )
        return Reply(
            200, b"type=validation-error\n&error-message=" + echo + b"\n&error-code=2\n", FORM
        )

    history = History()
    with serve(gateway) as server:
        for order in ("ok-1", "echo-1"):
            fields = dict(prepared(rsa_key).params)
            fields.update(client_orderid=order, credit_card_number=PAN, cvv2=CVV)
            req = prepare(
                "payout-check", fields, base_url=server.url + "/paynet", login="acme",
                private_key=rsa_key, endpoint_id="1234", nonce="n0nce", timestamp=1700000000,
            )  # fmt: skip
            journalled_send(history, "sb", req)
    assert [r.outcome for r in history.fetch()] == ["rejected", "accepted"]
    details = history.details(1)
    assert details.request["signature_hex"] == NOT_KEPT
    assert NOT_KEPT in details.request["authorization"]
    assert ["credit_card_number", "411111******1111"] in details.request["params"]
    assert "cvv2" in details.request["base_string"]
    assert CVV not in details.request["base_string"]
    db = paths.resolve().history_db
    raw = b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())
    assert len(raw) > 10_000
    assert PAN.encode() not in raw
    assert PAN.replace("1", "%31").encode() not in raw
    assert CVV.encode() not in raw
    assert not re.search(rb"cvv2\W{0,6}" + CVV.encode(), raw)
    assert b"411111******1111" in raw  # the masked form is there: the grep looks at real data


def test_a_card_number_echoed_dotted_or_in_full_width_digits_is_kept_masked(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    pan = "5555555555554444"
    full_width = pan.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    dotted = ".".join(pan[i : i + 4] for i in range(0, 16, 4))
    echoes = {
        "dotted": dotted.encode(),
        "full-width": full_width.encode(),  # raw UTF-8 in the form body
        "encoded": quote(f"card {full_width}").encode(),  # percent-encoded, as forms are
    }

    def gateway(request: Received) -> Reply:
        order = parse_qs(request.body.decode())["client_orderid"][0]
        body = b"type=validation-error\n&error-message=Card " + echoes[order] + b" refused\n"
        return Reply(200, body + b"&error-code=2\n", FORM)

    history = History()
    with serve(gateway) as server:
        for order in echoes:
            fields = dict(prepared(rsa_key).params)
            fields.update(client_orderid=order, credit_card_number=pan, cvv2=CVV)
            req = prepare(
                "payout-check", fields, base_url=server.url + "/paynet", login="acme",
                private_key=rsa_key, endpoint_id="1234", nonce="n0nce", timestamp=1700000000,
            )  # fmt: skip
            journalled_send(history, "sb", req)
    assert [r.summary.count("555555******4444") for r in history.fetch()] == [1, 1, 1]
    db = paths.resolve().history_db
    raw = b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())
    for spelling in (
        pan.encode(),
        dotted.encode(),
        full_width.encode(),
        json.dumps(full_width).encode(),  # JSON's \uff15 escapes
        quote(full_width).encode(),
    ):
        assert spelling.strip(b'"') not in raw


def test_a_card_number_typed_into_a_description_is_kept_masked(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    full_width = "５５５５ ５５５５ ５５５５ ４４４４"
    history = History()
    hooks = history.journal("sb")
    for text in ("card 5555.5555.5555.4444 please", full_width):
        req = prepared(rsa_key, order_desc=text, client_orderid="d-1")
        hooks.after_answer(hooks.before_send(req), lost(req))
    details = history.details(2)
    assert ["order_desc", "555555******4444"] in details.request["params"]
    assert ["client_orderid", "d-1"] in details.request["params"]
    raw = (
        history.path.read_bytes() + history.path.with_name(history.path.name + "-wal").read_bytes()
    )
    for spelling in ("5555.5555.5555.4444", full_width, json.dumps(full_width).strip('"')):
        assert spelling.encode() not in raw
        assert quote(spelling).encode() not in raw  # nor in the stored body


def test_the_signature_is_kept_once_answered_when_no_card_data_was_sent(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, "create-card-ref", client_orderid="first-1", orderid="900")
    row_id = hooks.before_send(req)
    assert req.signed is not None
    assert history.get(row_id).gateway_order_id == "900"  # the order it refers to is searchable
    # on its way: nothing in the history that a terminal could send past the console
    waiting = history.details(row_id).request
    assert waiting["signature_base64"] == ""
    assert req.signed.signature_base64 not in json.dumps(waiting)
    assert 'oauth_signature="SIGN-ME"' in waiting["authorization"]
    body = "type=create-card-ref-response&status=approved&card-ref-id=cr-1"
    hooks.after_answer(row_id, answered(req, body))  # its nonce is spent at the gateway
    assert history.details(row_id).request["signature_base64"] == req.signed.signature_base64


def test_a_request_whose_answer_never_came_keeps_no_signature(rsa_key: rsa.RSAPrivateKey) -> None:
    """An unknown outcome may be resent by someone with a terminal: the history must not
    hold a copy that goes past the guard, the confirmation and the journal."""
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, "create-card-ref", client_orderid="first-2", orderid="901")
    row_id = hooks.before_send(req)
    hooks.after_answer(row_id, lost(req))
    assert req.signed is not None
    stored = history.details(row_id).request
    assert req.signed.signature_base64 not in json.dumps(stored)
    assert req.signed.signature_hex not in json.dumps(stored)


def test_status_answers_become_final_status_of_the_payout(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    hooks = history.journal("sb")
    payout = prepared(rsa_key, client_orderid="p-1")
    pid = hooks.before_send(payout)
    hooks.after_answer(pid, answered(payout, "type=async-response&gateway-order-id=777"))
    check = prepared(rsa_key, "status", client_orderid="p-1", orderid="777")
    sid = hooks.before_send(check)
    hooks.after_answer(sid, answered(check, "type=status-response&status=processing&orderid=777"))
    assert history.get(sid).final_status == "processing"
    assert history.set_final_status("sb", "p-1", "approved", orderid="777", source="status") == [
        pid
    ]
    row = history.get(pid)
    assert (row.final_status, row.final_status_source) == ("approved", "status")
    assert history.set_final_status("other-env", "p-1", "declined", source="callback") == []


def test_listeners_hear_of_new_and_changed_rows(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    heard: list[tuple[str, int]] = []
    stop = history.subscribe(lambda event, row_id: heard.append((event, row_id)))
    hooks = history.journal("sb")
    req = prepared(rsa_key)
    row_id = hooks.before_send(req)
    hooks.after_answer(row_id, lost(req))
    stop()
    hooks.before_send(req)
    assert heard == [("added", 1), ("changed", 1)]


def test_database_uses_wal_and_the_current_schema() -> None:
    history = History()
    with history.reading() as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_migrates_from_version_0_and_keeps_rows_from_version_1(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).close()  # user_version 0, nothing in it
    with History(empty) as history:
        assert history.count() == 0
    old = tmp_path / "v1.sqlite3"
    with sqlite3.connect(old) as db:
        for statement in _statements(MIGRATIONS[0]):
            db.execute(statement)
        db.execute(
            "INSERT INTO requests (created, environment, command, url, outcome, client_orderid)"
            " VALUES (1700000000, 'sb', 'payout-check', 'https://x/api', 'accepted', 'kept-1')"
        )
        db.execute("PRAGMA user_version=1")
    with History(old) as history:
        row = history.fetch()[0]
        assert (row.client_orderid, row.final_status) == ("kept-1", None)
        with history.reading() as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert db.execute("SELECT count(*) FROM callbacks").fetchone()[0] == 0


def test_export_json_holds_masked_details(rsa_key: rsa.RSAPrivateKey, tmp_path: Path) -> None:
    from console.core.history import export

    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, client_orderid="x-1")
    hooks.after_answer(
        hooks.before_send(req), answered(req, "type=async-response&gateway-order-id=5")
    )
    out = tmp_path / "out.json"
    assert export(history, out) == 1
    data = json.loads(out.read_text(encoding="utf-8"))
    item = data["rows"][0]
    assert item["client_orderid"] == "x-1"
    assert item["response"]["fields"]["gateway-order-id"] == "5"
    assert "4444444444444448" not in out.read_text(encoding="utf-8")


def test_an_answer_is_stored_alike_whether_the_pipeline_masked_it_or_not(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    # The pipeline hands the journal its masked view, which the journal keeps as it is; an
    # answer handed over as it came is masked by the journal itself, to the same result.
    pan = "4444444444444448"
    req = prepared(rsa_key)
    echo = (
        f"type=validation-error&error-message=Card {pan} cvv2={CVV} refused"
        f"&merchant-order-id={client_orderid(req.params)}&error-code=2"
    )
    history = History()
    hooks = history.journal("acme-sb")
    stored = []
    for outcome in (answered(req, echo), masked_outcome(answered(req, echo))):
        row_id = hooks.before_send(req)
        hooks.after_answer(row_id, outcome)
        detail = history.details(row_id)
        stored.append((detail.row.summary, detail.response))
    assert stored[0] == stored[1]
    summary, response = stored[0]
    assert "444444******4448" in summary
    assert pan not in json.dumps(response)
    assert CVV not in json.dumps(response["fields"])


def test_an_error_id_with_a_card_shaped_run_is_quoted_whole_to_support(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    error_id = "9cfb17b79e9549299421914697326a73"  # 19 digits inside pass the Luhn check
    req = prepared(rsa_key)
    body = f"Internal error occurred while processing the request [{error_id}]\n"
    outcome = masked_outcome(answered(req, body, status=500))
    assert outcome.response is not None
    assert outcome.response.error_id == error_id
    assert error_id in outcome.response.raw.decode()
    assert error_id in (outcome.response.error_message or "")
    assert error_id in outcome.response.summary


def test_ids_with_long_digit_runs_stay_readable_while_card_data_is_masked(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    order = "gc-20261122-144859-db1b0a"  # 14 digits and a dash: card-number shaped
    req = prepared(rsa_key, client_orderid=order)
    hooks = history.journal("acme-sb")
    row_id = hooks.before_send(req)
    hooks.after_answer(
        row_id,
        answered(req, f"type=async-response&merchant-order-id={order}&gateway-order-id=55"),
    )
    detail = history.details(row_id)
    assert order in detail.row.summary
    assert detail.response["fields"]["merchant-order-id"] == order
    stored = (
        history.path.read_bytes() + history.path.with_name(history.path.name + "-wal").read_bytes()
    )
    assert b"4444444444444448" not in stored
