"""Connecting to the team database as oneself (psycopg 3, imported only here and on use).

The DSN (``postgresql://alice@db.example:5432/payments?sslmode=verify-full``) names the
server and the person; it never carries a password. The password comes from ``PGPASSWORD``
or ``~/.pgpass`` (libpq reads both), or from the OS keyring (service
``gateway-console-team``, user ``NAME@HOST:PORT/DB``), never from the command line. TLS
settings in the DSN (``sslmode``, ``sslrootcert``...) are libpq's and are honoured as given.

Which DSN: ``GATEWAY_CONSOLE_TEAM_DSN``, else the one ``team init`` saved in this profile's
``team.json``; none means one person, the SQLite journal.
"""

from __future__ import annotations

import getpass
import json
import os
from typing import TYPE_CHECKING, Any

from console.core import paths as app_paths
from console.core.team.errors import TeamSetupError, TeamUnavailableError

if TYPE_CHECKING:
    from psycopg import Connection

DSN_ENV = "GATEWAY_CONSOLE_TEAM_DSN"
KEYRING_SERVICE = "gateway-console-team"


def _psycopg() -> Any:
    try:
        import psycopg  # boundary: psycopg (the team extra), only with a team DSN
    except ImportError as exc:
        raise TeamUnavailableError(
            "Team mode needs psycopg: pip install 'gateway-console[team]'."
        ) from exc
    return psycopg


def parse_dsn(dsn: str) -> dict[str, str]:
    """The DSN's parts; refused when it is malformed or carries a password."""
    try:
        from psycopg.conninfo import conninfo_to_dict  # boundary: as above
    except ImportError as exc:
        raise TeamUnavailableError(
            "Team mode needs psycopg: pip install 'gateway-console[team]'."
        ) from exc
    try:
        parts = {k: str(v) for k, v in conninfo_to_dict(dsn).items() if v is not None}
    except Exception as exc:  # psycopg.ProgrammingError: the text is not a DSN
        raise TeamSetupError(f"DSN: {exc}. Example: postgresql://alice@db:5432/payments") from exc
    if "password" in parts:
        raise TeamSetupError(
            "DSN: it carries a password. Remove it from the DSN and use PGPASSWORD, ~/.pgpass "
            "or the keyring (`gateway-console team password`), so it never sits in a command "
            "line or a settings file."
        )
    return parts


def keyring_user(parts: dict[str, str]) -> str:
    """The keyring entry name for a DSN's person and database."""
    user = parts.get("user") or os.environ.get("PGUSER") or _login_name()
    host = parts.get("host") or os.environ.get("PGHOST") or "localhost"
    port = parts.get("port") or os.environ.get("PGPORT") or "5432"
    db = parts.get("dbname") or os.environ.get("PGDATABASE") or user
    return f"{user}@{host}:{port}/{db}"


def _login_name() -> str:
    return getpass.getuser()


def _keyring_password(parts: dict[str, str]) -> str | None:
    if os.environ.get("PGPASSWORD"):
        return None  # libpq uses it
    try:
        # boundary: the keyring, only for a DSN's password (every send reads the DSN)
        import keyring

        found = keyring.get_password(KEYRING_SERVICE, keyring_user(parts))
    except Exception:  # no usable keyring: libpq still tries ~/.pgpass
        return None
    return str(found) if found else None


def connect(dsn: str, *, autocommit: bool = True) -> Connection[Any]:
    """A connection as the DSN's person. Raises TeamUnavailableError."""
    parts = parse_dsn(dsn)
    psycopg = _psycopg()
    extra: dict[str, Any] = {"application_name": "gateway-console"}
    password = _keyring_password(parts)
    if password:
        extra["password"] = password
    extra.setdefault("connect_timeout", parts.get("connect_timeout", "10"))
    try:
        conn: Connection[Any] = psycopg.connect(dsn, autocommit=autocommit, **extra)
    except psycopg.Error as exc:
        raise TeamUnavailableError(
            f"The team database cannot be reached ({str(exc).strip()}); nothing was sent."
        ) from exc
    return conn


def configured_dsn() -> str | None:
    """The team DSN of this profile (environment variable first), or None: one person."""
    from_env = os.environ.get(DSN_ENV, "").strip()
    if from_env:
        return from_env
    path = _config_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise TeamSetupError(f"{path}: cannot be read ({exc}); fix or remove it.") from exc
    dsn = data.get("dsn") if isinstance(data, dict) else None
    return dsn if isinstance(dsn, str) and dsn.strip() else None


def save_dsn(dsn: str) -> None:
    """Remember the team DSN in this profile (it holds no password)."""
    parse_dsn(dsn)
    path = _config_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(json.dumps({"dsn": dsn}, indent=2) + "\n", encoding="utf-8")


def _config_file() -> Any:
    return app_paths.resolve().config_dir / "team.json"
