"""The sandbox's log takes what clients send at face value only in a safe form: control
characters are escaped (a ``%0A`` in a login cannot forge a log line) and every message is
cut to a sane length (a megabyte body with a bad signature writes a few kilobytes, not more).
"""

from __future__ import annotations

import logging
import re

MAX_MESSAGE = 4000
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def safe_text(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` with control characters escaped, cut to ``limit`` characters."""
    escaped = _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)
    if len(escaped) > limit:
        escaped = f"{escaped[:limit]}… ({len(escaped) - limit} more characters not logged)"
    return escaped


class SafeRecords(logging.Filter):
    """Rewrites each record's message through :func:`safe_text` (tracebacks are the
    sandbox's own and stay as they are)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = safe_text(record.getMessage())
        record.args = None
        return True


def install(logger: logging.Logger) -> None:
    """Put the filter on ``logger`` once (every sandbox module logs through it)."""
    if not any(isinstance(f, SafeRecords) for f in logger.filters):
        logger.addFilter(SafeRecords())
