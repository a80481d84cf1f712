"""Sending through the core's pipeline in tests, journalled like every front's sends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from console.core import batch
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


def batch_pipeline(
    journal: Journal | None,
    conn: dict[str, Any],
    *,
    env: str = "test",
    production: bool = False,
    holds: Any = None,
) -> Pipeline:
    """The pipeline a batch of environment ``env`` sends through, to the gateway ``conn``
    (``base_url``, ``login``, ``private_key``, ``endpoint_id``) names; ``holds``: a team's
    approval rule."""
    return Pipeline(
        env,
        gateway=lambda command: gateway_for(command, **conn),
        production=production,
        journal=journal,
        transport=Transport,
        holds=holds,
    )


def planned_batch(
    journal: Journal | None, path: Path, conn: dict[str, Any], **kw: Any
) -> tuple[Pipeline, batch.Plan]:
    """The pipeline of :func:`batch_pipeline` (``kw``: its options) and the plan of the batch
    file at ``path`` checked through it (limit 10 rows)."""
    pipeline = batch_pipeline(journal, conn, **kw)
    validation = batch.check_batch(
        batch.read_batch(path), lambda oid: pipeline.verdict(batch.COMMAND, oid)
    )
    return pipeline, batch.Plan(
        validation, pipeline.environment, pipeline.production, batch.BatchLimits(10)
    )
