"""Per-environment batch limits: the most rows, and the most money per currency, one batch may
send. Kept in ``batch-limits.json`` in the config folder (beside ``environments.json``)::

    {"limits": {"live": {"max_rows": 500, "max_total": "20000.00"}}}

An environment without an entry gets the defaults: production 1,000 rows, other
environments 10,000 rows; no money limit unless one is set. A damaged file is refused with
its path named, never rewritten over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from console.core import paths as app_paths
from console.core.atomic import write_atomic
from console.core.errors import InputError
from console.core.money import MoneyFactError, read_amount

DEFAULT_PRODUCTION_ROWS = 1000
DEFAULT_ROWS = 10_000
MAX_CONCURRENCY = 16  # rows a run has in flight at once, at most (the runner's threads)
FILE_NAME = "batch-limits.json"


class LimitsFileError(InputError):
    """batch-limits.json cannot be read or holds a value that is not a limit."""


@dataclass(frozen=True, slots=True)
class BatchLimits:
    """How much one batch may send in one environment.

    Attributes:
        max_rows: the most rows sent in one batch.
        max_total: the most money per currency in one batch (None: no limit).
    """

    max_rows: int
    max_total: Decimal | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "max_rows": self.max_rows,
            "max_total": None if self.max_total is None else str(self.max_total),
        }


def default_limits(production: bool) -> BatchLimits:
    return BatchLimits(DEFAULT_PRODUCTION_ROWS if production else DEFAULT_ROWS)


def limits_file() -> Path:
    return app_paths.resolve().config_dir / FILE_NAME


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise LimitsFileError(
            f"{path} cannot be read ({exc}): fix it or move it away to use the defaults."
        ) from exc
    limits = data.get("limits") if isinstance(data, dict) else None
    if not isinstance(limits, dict):
        raise LimitsFileError(f'{path}: expected {{"limits": {{ENVIRONMENT: {{...}}}}}}.')
    return limits


def _parse(path: Path, name: str, entry: Any) -> BatchLimits:
    try:
        rows = int(entry["max_rows"])
        total = entry.get("max_total")
        max_total = None if total in (None, "") else read_amount(str(total), "max_total")
    except (TypeError, KeyError, ValueError, MoneyFactError) as exc:
        raise LimitsFileError(
            f"{path}: the limits of {name} are not readable ({exc!r}): max_rows must be a "
            "whole number and max_total an amount like 20000.00."
        ) from exc
    if rows < 1 or (max_total is not None and max_total <= 0):
        raise LimitsFileError(f"{path}: the limits of {name} must be above zero.")
    return BatchLimits(rows, max_total)


def limits_for(environment: str, *, production: bool, path: Path | None = None) -> BatchLimits:
    """The limits of ``environment`` (the defaults when none are set).

    Raises:
        LimitsFileError: the file is damaged.
    """
    path = path or limits_file()
    entry = _read(path).get(environment)
    return default_limits(production) if entry is None else _parse(path, environment, entry)


def set_limits(environment: str, limits: BatchLimits | None, *, path: Path | None = None) -> None:
    """Set (or with None remove) the limits of ``environment``; written atomically."""
    path = path or limits_file()
    current = _read(path)
    if limits is None:
        current.pop(environment, None)
    else:
        current[environment] = limits.to_json()
    write_atomic(path, lambda fh: json.dump({"limits": current}, fh, indent=2, sort_keys=True))
