"""The log file: size-bounded and rotated in the platform's log folder, with card data masked
and secrets removed before anything is written.

Nothing happens at import, and importing is cheap: ``logging.handlers`` (which brings
``socket``, ``pickle`` and ``queue``) and ``platform`` load only when a log file is set up or
the start-up line is written. The front end calls :func:`configure` once at start-up (the paths
may have been pointed elsewhere by then, e.g. by ``GATEWAY_CONSOLE_HOME``).

What the redaction guarantees for every record written through :func:`configure`'s handler,
whatever logger it came from and including exception tracebacks:

- card data is masked by the one masking policy (``masking.mask_text``): card numbers keep
  at most the first six and last four digits, a ``cvv2`` value becomes ``***``;
- PEM blocks (private keys above all) are replaced by a placeholder;
- ``Authorization`` header values and passphrase, password, secret and ``merchant_control``
  values are replaced by ``[redacted]``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
from functools import cache
from io import TextIOWrapper
from pathlib import Path
from typing import TYPE_CHECKING

from console import APP_NAME
from console.core import masking, paths, resources

if TYPE_CHECKING:
    from logging.handlers import RotatingFileHandler

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 3
REDACTED = "[redacted]"
PEM_PLACEHOLDER = "[PEM block removed]"

_log = logging.getLogger(__name__)

_PEM = re.compile(r"-----BEGIN [A-Z0-9 ]+-----.*?(?:-----END [A-Z0-9 ]+-----|\Z)", re.DOTALL)
# A parameter: its name, an optional closing quote, a separator (=, :, a tuple's comma, or =
# percent-encoded once or twice), then the value: quoted up to its closing quote, or bare up
# to the next delimiter (also a percent-encoded &).
_REDACTED_NAMES = r"passphrase|password|secret|merchant[_-]control|private[_-]key"
_SECRET_PARAM = masking.named_parameter(_REDACTED_NAMES)
# The header value runs to its closing quote, or to the end of the line when unquoted.
_AUTHORIZATION = re.compile(
    r"""(authorization["']?\s*[:=]\s*)(?:(["'])(.*?)\2|([^\r\n]+))""", re.IGNORECASE
)

_handler: logging.Handler | None = None


class _Held(logging.Handler):
    """Keeps the records logged before the log file is open (see :func:`hold`)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_held: _Held | None = None


def hold(level: int = logging.INFO) -> None:
    """Keep what is logged from now on until :func:`configure` opens the log file.

    The window opens its log file after its first paint (``logging.handlers`` and the file
    need not delay the first picture); what is logged meanwhile is written then, in order.
    """
    global _held
    if _held is None:
        _held = _Held()
        root = logging.getLogger()
        root.addHandler(_held)
        if root.level == logging.NOTSET or root.level > level:
            root.setLevel(level)


def _release(handler: logging.Handler | None) -> None:
    """Stop holding records; hand the held ones at its level or above to ``handler``."""
    global _held
    if _held is None:
        return
    held, _held = _held, None
    logging.getLogger().removeHandler(held)
    for record in held.records:
        if handler is not None and record.levelno >= handler.level:
            handler.handle(record)


def redact(text: str) -> str:
    """Mask card data and remove secrets from one piece of log text."""
    text = _PEM.sub(PEM_PLACEHOLDER, text)
    text = _AUTHORIZATION.sub(_redact_authorization, text)
    text = _SECRET_PARAM.sub(lambda m: masking.replace_value(m, lambda _: REDACTED), text)
    return masking.mask_text(text)


def _redact_authorization(match: re.Match[str]) -> str:
    quote = match.group(2) or ""
    return f"{match.group(1)}{quote}{REDACTED}{quote}"


class RedactingFilter(logging.Filter):
    """Rewrites each record's message, traceback and stack text through :func:`redact`.

    It sits on the handler, so records from every logger are covered. The record is changed in
    place, so handlers that see it later get the redacted text too.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


@cache
def private_rotating_handler() -> type[RotatingFileHandler]:
    """The rotating file handler class whose files only their owner can read.

    Made on first use so that importing this module does not import ``logging.handlers``.
    """
    # boundary: logging.handlers, after the window's first paint
    from logging.handlers import RotatingFileHandler

    class PrivateRotatingFileHandler(RotatingFileHandler):
        def _open(self) -> TextIOWrapper:
            stream = super()._open()
            with contextlib.suppress(OSError):  # e.g. a file system without Unix permissions
                os.chmod(self.baseFilename, 0o600)
            return stream

    return PrivateRotatingFileHandler


def configure(
    app_paths: paths.AppPaths | None = None,
    *,
    level: int = logging.INFO,
    max_bytes: int = MAX_BYTES,
    backup_count: int = BACKUP_COUNT,
    startup_line: bool = True,
) -> Path | None:
    """Send log records to the rotating log file and write a start-up line.

    The window passes ``startup_line=False`` and calls :func:`log_startup` after its first
    paint: reading the version and checking the resources need not delay it.

    Calling it again replaces the earlier set-up (no duplicate lines). When the log folder
    cannot be written, the console still starts: a warning goes to stderr and ``None`` is
    returned.

    Returns:
        The log file's path, or ``None`` when there is no log file.
    """
    global _handler
    unconfigure()
    app_paths = app_paths or paths.resolve()
    try:
        app_paths.ensure()
        handler: logging.Handler = private_rotating_handler()(
            app_paths.log_file, maxBytes=max_bytes, backupCount=backup_count, encoding="utf-8"
        )
    except OSError as exc:
        print(f"{APP_NAME}: no log file ({exc}); continuing without one.", file=sys.stderr)
        _release(logging.lastResort)  # warnings still reach stderr, as without a log file
        return None
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    _handler = handler
    _release(handler)
    if startup_line:
        log_startup(app_paths)
    return app_paths.log_file


def unconfigure() -> None:
    """Remove and close the handler :func:`configure` installed, if any."""
    global _handler
    if _handler is not None:
        logging.getLogger().removeHandler(_handler)
        _handler.close()
        _handler = None


def log_startup(app_paths: paths.AppPaths | None = None) -> None:
    """Log the version, platform, log file and whether every resource file was found."""
    import platform  # on demand, like the version: only this line needs it

    from console import __version__  # on demand: importlib.metadata is slow to import

    # Not platform.platform(): on Linux it runs ``uname -p`` in a subprocess and reads the
    # interpreter binary for the libc version, several ms of the window's start-up.
    app_paths = app_paths or paths.resolve()
    system = f"{platform.system()} {platform.release()} {platform.machine()}"
    _log.info(
        "%s %s starting: Python %s on %s; log file %s",
        APP_NAME,
        __version__,
        platform.python_version(),
        system,
        app_paths.log_file,
    )
    found = resources.check()
    if found.ok:
        _log.info("Resources: %s", found.summary())
    else:
        _log.warning("Resources: %s", found.summary())
