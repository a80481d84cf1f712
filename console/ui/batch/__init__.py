"""The window's batch payouts dialog (File -> Batch payouts...); the rules are the core's
(``console.core.batch``)."""

from __future__ import annotations

from .dialog import BatchDialog, open_batch_dialog

__all__ = ["BatchDialog", "open_batch_dialog"]
