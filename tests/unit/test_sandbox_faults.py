"""The --faults syntax."""

from __future__ import annotations

import pytest

from console.sandbox.faults import FaultSet, parse_faults


def test_no_spec_means_no_faults() -> None:
    for spec in (None, "", "  "):
        assert not parse_faults(spec).for_command("payout-check").active


@pytest.mark.parametrize("fault", ["500", "drop", "truncate", "garbage"])
def test_each_answer_fault_applies_to_every_command(fault: str) -> None:
    faults = parse_faults(fault)
    for command in ("payout-check", "status", "create-card-ref", "create-recurring-payment"):
        assert faults.for_command(command) == FaultSet(None, fault)


def test_latency_and_an_answer_fault_combine() -> None:
    assert parse_faults("latency=2.5, drop").for_command("status") == FaultSet(2.5, "drop")


def test_command_items_win_over_global_ones() -> None:
    faults = parse_faults(
        "latency=1,500,payout-check:latency=0.25,status:none,create-card-ref:garbage"
    )
    assert faults.for_command("payout-check") == FaultSet(0.25, "500")
    assert faults.for_command("status") == FaultSet(1.0, None)
    assert faults.for_command("create-card-ref") == FaultSet(1.0, "garbage")
    assert faults.for_command("create-recurring-payment") == FaultSet(1.0, "500")
    assert not faults.for_command("status").answer


def test_a_scoped_fault_leaves_other_commands_alone() -> None:
    faults = parse_faults("payout-check:truncate")
    assert faults.for_command("payout-check").answer == "truncate"
    assert not faults.for_command("status").active


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("explode", "not known"),
        ("latency", "delay in seconds"),
        ("latency=soon", "not a number"),
        ("latency=-1", "between 0"),
        ("latency=1,latency=2", "twice"),
        ("500,drop", "only one of"),
        ("sale:500", "not a command"),
        ("payout-check:drop=1", "not known"),
    ],
)
def test_bad_specs_are_explained(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_faults(spec)
