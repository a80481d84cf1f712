"""What a batch row meets at its turn, through the pipeline's conversation: an id another
console lost meanwhile stops the batch (its outcome is unknown), no journal sends nothing, and
a dry run of a file with errors is refused like the run."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch as core
from console.core.history import History
from console.core.pipeline import Decision, Pipeline
from tests.helpers.batch_files import card_file, card_row, write_csv
from tests.helpers.http_server import DROP, Reply, serve
from tests.helpers.pipeline import batch_pipeline
from tests.helpers.team import FORM, accepted, prepare_values


def _plan(path: Path, pipeline: Pipeline, **choices: bool) -> core.Plan:
    validation = core.check_batch(
        core.read_batch(path), lambda oid: pipeline.verdict(core.COMMAND, oid)
    )
    return core.Plan(validation, "test", False, core.BatchLimits(10), **choices)


def test_an_id_another_console_lost_meanwhile_stops_the_batch_at_its_row(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 2)
    with serve(lambda r: DROP) as server, History() as history:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        batch = batch_pipeline(history, conn)
        plan = _plan(path, batch)  # checked while b-0 was never sent
        other = batch_pipeline(history, conn)
        values = dict(plan.to_send[0].row.values)
        lost = other.send(prepare_values(server.url, rsa_key, values), Decision())
        assert str(lost.result) == "unknown"
        report = core.BatchRunner(batch, conn, plan, core.BatchDecision()).run()
    assert [r.result for r in report.results] == ["unknown"]
    assert "unknown outcome" in report.results[0].message
    # no outcome of its own to name: the stop gives the refusal's words
    assert report.stopped == f"Stopped at row 2: {report.results[0].message}."
    assert len(server.received) == 1  # b-0 was not sent again, b-1 not at all


def test_a_row_whose_outcome_is_unknown_is_sent_again_when_the_person_chose_to_resend(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 2)
    answers = iter([DROP, Reply(200, accepted("b-0"), FORM), Reply(200, accepted("b-1"), FORM)])
    with serve(lambda r: next(answers)) as server, History() as history:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        batch = batch_pipeline(history, conn)
        values = dict(_plan(path, batch).to_send[0].row.values)
        lost = batch.send(prepare_values(server.url, rsa_key, values), Decision())
        assert str(lost.result) == "unknown"
        plan = _plan(path, batch, resend_unknown=True)  # b-0's outcome unknown now
        decision = core.BatchDecision(resend_unknown=True)
        report = core.BatchRunner(batch, conn, plan, decision).run()
    assert [(r.number, str(r.result)) for r in report.results] == [(2, "accepted"), (3, "accepted")]
    assert report.stopped == ""
    assert len(server.received) == 3  # b-0 lost, b-0 again, b-1


def test_without_a_journal_no_row_is_sent(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    path = card_file(tmp_path / "b.csv", 2)
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        nowhere = batch_pipeline(None, conn)
        report = core.BatchRunner(nowhere, conn, _plan(path, nowhere), core.BatchDecision()).run()
    assert [r.result for r in report.results] == ["not-sent"]
    assert "journal" in report.results[0].message
    assert report.stopped == f"Stopped at row 2: {report.results[0].message}."
    assert server.received == []


def test_a_dry_run_of_a_file_with_errors_is_refused_like_the_run(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = write_csv(tmp_path / "b.csv", [card_row("b-0"), card_row("b-1", "ten")])
    conn = {"base_url": "http://127.0.0.1:9", "login": "merchant", "private_key": rsa_key}
    conn["endpoint_id"] = "1"
    with History() as history:
        pipeline = batch_pipeline(history, conn)
        plan = _plan(path, pipeline)
        with pytest.raises(core.BatchRefusedError) as dry:
            core.sign_rows(pipeline, conn, plan)
        with pytest.raises(core.BatchRefusedError) as run:
            core.BatchRunner(pipeline, conn, plan, core.BatchDecision())
        assert dry.value.message == run.value.message
        assert "row 3" in dry.value.message
        signed = core.sign_rows(pipeline, conn, _plan(path, pipeline, skip_invalid=True))
    assert [r.result for r in signed.results] == [core.SIGNED]


def test_a_results_file_that_cannot_be_written_stops_the_batch_and_says_why(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 8)

    def full_disk(_result: core.RowResult, _progress: object) -> None:
        raise OSError(28, "No space left on device")

    with serve(lambda r: Reply(200, accepted(), FORM)) as server, History() as history:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        batch = batch_pipeline(history, conn)
        runner = core.BatchRunner(
            batch, conn, _plan(path, batch), core.BatchDecision(), concurrency=2, on_row=full_disk
        )
        with pytest.raises(OSError, match="No space left"):
            runner.run()
    # the rows already on the wire finish; no thread takes a further row
    assert 1 <= len(server.received) <= 2
