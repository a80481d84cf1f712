"""The SQLite journal's before-send at its edges: what it refuses to write, what it says when
the pending row cannot be written, how long a row counts as on its way by default, which
rows a claim takes for interrupted (and tells the listeners of), and an answer it could not
store announced."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.errors import JournalUnavailableError
from console.core.history import History
from console.core.history.interrupted import IN_FLIGHT_MARGIN
from console.core.prepared import prepare
from console.core.transport import Timeouts
from tests.helpers.history_data import BASE_URL, answered, prepared

ACCEPTED = "type=async-response&serial-number=s&gateway-order-id=77"


def _refuse(history: History, when: str) -> None:
    """Make every ``when`` (INSERT or UPDATE) of a request row fail, as a failing disk does."""
    with history.writing() as db:
        db.execute(
            f"CREATE TRIGGER refused BEFORE {when} ON requests"
            " BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END"
        )


def _admit_all(_rows: object) -> None:
    """A guard that lets every send through."""


def test_an_unsigned_request_is_never_journalled(rsa_key: rsa.RSAPrivateKey) -> None:
    unsigned = prepare(
        "payout-check", {}, base_url=BASE_URL, login="acme", private_key=rsa_key, endpoint_id="1"
    )
    assert unsigned.signed is None
    with History() as history:
        with pytest.raises(ValueError) as refused:
            history.journal("sb").before_send(unsigned)
        assert history.count() == 0
    assert str(refused.value) == "Only signed requests are journalled."


def test_a_pending_row_that_cannot_be_written_names_the_file_and_why(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        _refuse(history, "INSERT")
        with pytest.raises(JournalUnavailableError) as refused:
            history.journal("sb").before_send(prepared(rsa_key), _admit_all)
        message = refused.value.message
        assert str(history.path) in message
        assert "the disk refused the write" in message
        assert history.count() == 0


def test_by_default_a_row_is_on_its_way_as_long_as_a_transport_waits_and_a_margin(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    waits = Timeouts()
    with History() as history:
        row_id = history.journal("sb").before_send(prepared(rsa_key))
        with history.reading() as db:
            created, deadline = db.execute(
                "SELECT created, deadline FROM requests WHERE id = ?", (row_id,)
            ).fetchone()
    assert deadline - created == pytest.approx(waits.connect + waits.read + IN_FLIGHT_MARGIN)


def test_a_claim_takes_a_stopped_send_for_interrupted_and_tells_the_listeners(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history, History() as late:
        heard: list[tuple[str, int]] = []
        history.subscribe(lambda event, row_id: heard.append((event, row_id)))
        # another console's send, past its deadline
        late_id = late.begin("sb", prepared(rsa_key, client_orderid="po-1"), window=-1.0)
        new_id = history.journal("sb").before_send(
            prepared(rsa_key, client_orderid="po-2"), _admit_all
        )
        assert heard == [("changed", late_id), ("added", new_id)]
        assert history.get(late_id).outcome_unknown


def test_a_claim_never_takes_a_send_of_this_console_for_interrupted(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        # this console's own send, still waiting for its answer past its deadline
        own = history.begin("sb", prepared(rsa_key, client_orderid="po-1"), window=-1.0)
        history.journal("sb").before_send(prepared(rsa_key, client_orderid="po-2"), _admit_all)
        assert history.get(own).outcome == "pending"


def test_an_answer_that_cannot_be_stored_is_announced_for_its_row(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        heard: list[tuple[str, int]] = []
        hooks = history.journal("sb")
        req = prepared(rsa_key)
        row_id = hooks.before_send(req)
        _refuse(history, "UPDATE")
        history.subscribe(lambda event, row: heard.append((event, row)))
        hooks.after_answer(row_id, answered(req, ACCEPTED))
        assert heard == [("journal-failed", row_id)]
        assert hooks.last_error is not None


def test_the_guard_is_given_the_ids_sends_to_this_gateway_and_those_from_before_gateways(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        hooks = history.journal("sb")
        elsewhere = prepared(
            rsa_key, base_url="https://other.example/paynet", client_orderid="po-1"
        )
        hooks.after_answer(hooks.before_send(elsewhere), answered(elsewhere, ACCEPTED))
        old = prepared(rsa_key, client_orderid="po-1")
        old_id = hooks.before_send(old)
        hooks.after_answer(old_id, answered(old, ACCEPTED))
        with history.writing() as db:  # written before the journal recorded gateways
            db.execute("UPDATE requests SET gateway = NULL WHERE id = ?", (old_id,))
        given: list[list[int]] = []
        hooks.before_send(
            prepared(rsa_key, client_orderid="po-1"),
            lambda rows: given.append([row.id for row in rows]),
        )
    # the other gateway's send of po-1 is another order; the one from before gateways counts
    assert given == [[old_id]]
