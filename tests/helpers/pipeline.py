"""Sending through the core's pipeline in tests, journalled like every front's sends."""

from __future__ import annotations

from typing import Any

from console.core.client import Outcome
from console.core.gateway_identity import gateway_for
from console.core.history import History
from console.core.journals import Journal
from console.core.pipeline import Decision, Pipeline
from console.core.prepared import PreparedRequest
from console.core.transport import Transport


def journalled_send(
    history: History,
    environment: str,
    prepared: PreparedRequest,
    transport: Any = None,
    *,
    production: bool = False,
) -> Outcome:
    """Send ``prepared`` once through the pipeline (as decided: confirmed, resend allowed)."""
    pipeline = Pipeline(
        environment,
        gateway=lambda _command: prepared.gateway,
        production=production,
        journal=history,
        transport=(lambda: transport) if transport is not None else Transport,
        close_transport=transport is None,
    )
    return pipeline.send(prepared, Decision(True, True)).outcome


def batch_pipeline(journal: Journal | None, conn: dict[str, object]) -> Pipeline:
    """The pipeline a batch of environment "test" sends through, to the gateway ``conn``
    (``base_url``, ``login``, ``private_key``, ``endpoint_id``) names."""
    return Pipeline(
        "test",
        gateway=lambda command: gateway_for(command, **conn),  # type: ignore[arg-type]
        production=False,
        journal=journal,
        transport=Transport,
    )
