"""Injected failures: ``--faults SPEC``.

A spec is a comma-separated list of items, each ``[COMMAND:]FAULT``:

* ``latency=SECONDS`` waits that long before answering (the request is processed first).
* ``500`` answers HTTP 500 with a plain-text internal-error body and a bracketed unique id;
  the request is not processed.
* ``drop`` processes the request, then closes the connection without answering.
* ``truncate`` processes the request, then sends the headers and only half of the body.
* ``garbage`` processes the request, then answers 200 with bytes that are not form data.
* ``none`` turns an answer fault off (useful to exempt one command from a global fault).

Items without ``COMMAND:`` apply to every command; a command's own items win over them.
Example: ``latency=0.5,payout-check:drop,status:none``. Faults apply to requests that passed
authentication (a bad signature is still answered 403); control paths are never affected.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COMMAND_NAMES = ("create-card-ref", "payout-check", "create-recurring-payment", "status")
ANSWER_FAULTS = ("500", "drop", "truncate", "garbage", "none")
MAX_LATENCY = 600.0


@dataclass(frozen=True, slots=True)
class FaultSet:
    """The faults for one request: a delay and at most one damaged answer."""

    latency: float | None = None
    answer: str | None = None

    @property
    def active(self) -> bool:
        return bool(self.latency) or self.answer not in (None, "none")


@dataclass(frozen=True, slots=True)
class Faults:
    """A parsed spec: the global faults and the per-command ones."""

    spec: str = ""
    default: FaultSet = FaultSet()
    per_command: dict[str, FaultSet] = field(default_factory=dict)

    def for_command(self, command: str) -> FaultSet:
        """The faults that apply to ``command`` (its own items win over global ones)."""
        own = self.per_command.get(command, FaultSet())
        latency = own.latency if own.latency is not None else self.default.latency
        answer = own.answer if own.answer is not None else self.default.answer
        return FaultSet(latency, None if answer == "none" else answer)


NO_FAULTS = Faults()


def parse_faults(spec: str | None) -> Faults:
    """Parse a fault spec; an empty or missing spec means no faults.

    Raises:
        ValueError: a message naming the item that is wrong and what is allowed.
    """
    if spec is None or not spec.strip():
        return NO_FAULTS
    default = FaultSet()
    per_command: dict[str, FaultSet] = {}
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            continue
        scope, sep, fault = item.rpartition(":")
        if sep and scope not in COMMAND_NAMES:
            raise ValueError(
                f"Fault {item!r}: {scope!r} is not a command; use one of "
                f"{', '.join(COMMAND_NAMES)} before the colon, or no prefix for all commands."
            )
        current = per_command.get(scope, FaultSet()) if sep else default
        updated = _apply(item, fault.strip(), current)
        if sep:
            per_command[scope] = updated
        else:
            default = updated
    return Faults(spec.strip(), default, per_command)


def _apply(item: str, fault: str, current: FaultSet) -> FaultSet:
    name, eq, value = fault.partition("=")
    name = name.strip().lower()
    if name == "latency":
        if not eq:
            raise ValueError(f"Fault {item!r}: write the delay in seconds, e.g. latency=2.5.")
        try:
            seconds = float(value)
        except ValueError:
            raise ValueError(
                f"Fault {item!r}: {value!r} is not a number of seconds (e.g. latency=2.5)."
            ) from None
        if not 0 <= seconds <= MAX_LATENCY:
            raise ValueError(f"Fault {item!r}: latency must be between 0 and {MAX_LATENCY:g} s.")
        if current.latency is not None:
            raise ValueError(f"Fault {item!r}: latency is given twice for the same scope.")
        return FaultSet(seconds, current.answer)
    if name in ANSWER_FAULTS and not eq:
        if current.answer is not None:
            raise ValueError(
                f"Fault {item!r}: only one of {', '.join(ANSWER_FAULTS)} per scope "
                f"({current.answer!r} is already set)."
            )
        return FaultSet(current.latency, name)
    raise ValueError(
        f"Fault {item!r} is not known. Use latency=SECONDS, 500, drop, truncate, garbage or "
        "none, optionally prefixed by a command and a colon (payout-check:500)."
    )
