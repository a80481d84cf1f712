"""``gateway-console history``: list, search, filter and export."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core.history import History
from tests.helpers.history_data import answered, lost, prepared


@pytest.fixture(autouse=True)
def _journal(rsa_key: rsa.RSAPrivateKey) -> None:
    with History() as history:
        sb = history.journal("acme-sb")
        for order, card in (("po-1", "4444444444444448"), ("po-2", "5555555555554444")):
            req = prepared(rsa_key, client_orderid=order, credit_card_number=card)
            sb.after_answer(
                sb.before_send(req), answered(req, "type=async-response&serial-number=s-" + order)
            )
        live = history.journal("acme-live")
        req = prepared(rsa_key, client_orderid="po-3")
        live.after_answer(live.before_send(req), lost(req))


def test_list_newest_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["TIME", "ENV", "COMMAND"]
    assert [line.split()[4] for line in lines[1:]] == ["po-3", "po-2", "po-1"]
    assert "outcome unknown" in lines[1]


def test_search_limit_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--search", "4448", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["client_orderid"] for r in rows] == ["po-3", "po-1"]
    assert rows[0]["receiver"] == "card 444444******4448"
    assert main(["history", "--limit", "1"]) == 0
    assert "(1 of 3 shown" in capsys.readouterr().out
    assert main(["history", "--env", "acme-live", "--outcome", "unknown", "--json"]) == 0
    assert [r["client_orderid"] for r in json.loads(capsys.readouterr().out)] == ["po-3"]
    assert main(["history", "--search", "zzz"]) == 0
    assert capsys.readouterr().out == "No requests match.\n"


def test_dates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--until", "2000-01-01"]) == 0
    assert capsys.readouterr().out == "No requests match.\n"
    assert main(["history", "--since", "2000-01-01", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3
    assert main(["history", "--since", "last week"]) == 2
    assert "not a date" in capsys.readouterr().err


def test_export_with_filters_on_either_side(tmp_path: Path) -> None:
    out = tmp_path / "sb.csv"
    assert main(["history", "--env", "acme-sb", "export", str(out)]) == 0
    with out.open(encoding="utf-8", newline="") as fh:
        assert [r["client_orderid"] for r in csv.DictReader(fh)] == ["po-2", "po-1"]
    assert main(["history", "export", str(tmp_path / "one.json"), "--search", "po-3"]) == 0
    data = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    assert [r["client_orderid"] for r in data["rows"]] == ["po-3"]
    assert main(["history", "export", str(tmp_path / "x.txt")]) == 2
