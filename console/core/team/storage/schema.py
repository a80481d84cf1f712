"""Creating and migrating the team database (``team init``): idempotent, versioned.

The version is kept in ``gateway.meta`` (key ``schema_version``). Each migration runs in one
transaction under an advisory lock, so two people running ``team init`` at once cannot
interleave; a database from a newer console is refused, never touched. Run it as the
database's owner (a superuser, or a role with CREATEROLE that can read pg_stat_activity,
because the functions it creates act with its rights).
"""

from __future__ import annotations

from typing import Any

from console.core.team.errors import TeamSetupError, TeamUnavailableError
from console.core.team.storage.schema_sql import MIGRATIONS, ROLES, SCHEMA_VERSION

_LOCK = 0x6761_7465  # advisory lock key: "gate"


def current_version(conn: Any) -> int:
    """The schema version of the team database (0: not initialised)."""
    exists = conn.execute("SELECT to_regclass('gateway.meta')").fetchone()[0]
    if exists is None:
        return 0
    row = conn.execute("SELECT value FROM gateway.meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def initialise(conn: Any) -> tuple[int, int]:
    """Create or migrate the schema; return (version before, version now)."""
    import psycopg  # boundary: psycopg (the team extra), with the team database

    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            before = current_version(conn)
            if before > SCHEMA_VERSION:
                raise TeamSetupError(
                    f"The team database is at schema {before}, newer than this console knows "
                    f"({SCHEMA_VERSION}). Update the console; nothing was changed."
                )
            if before < SCHEMA_VERSION:
                conn.execute(ROLES)
                conn.execute("CREATE SCHEMA IF NOT EXISTS gateway")
            for target in range(before + 1, SCHEMA_VERSION + 1):
                conn.execute(MIGRATIONS[target - 1])
                conn.execute(
                    "INSERT INTO gateway.meta (key, value) VALUES ('schema_version', %s)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (str(target),),
                )
    except psycopg.errors.InsufficientPrivilege as exc:
        raise TeamSetupError(
            f"team init: {str(exc).strip()}. Run it as the database owner (a superuser or a "
            "role with CREATEROLE)."
        ) from exc
    return before, SCHEMA_VERSION


def name_admin(conn: Any, name: str | None = None) -> str | None:
    """Make ``name`` a team admin (``gateway_admin``: adds users, sets policies), or, without
    a name, the role running this when the team has no admin yet, so that the owner who ran
    ``team init`` can add the team; return who was made admin (None: nothing changed).

    A missing login role ``name`` is created (its password is set with psql's
    ``\\password``). Audited like ``add-user``. Run by the owner, right after
    :func:`initialise`.
    """
    import psycopg  # boundary: psycopg (the team extra), with the team database
    from psycopg import sql  # boundary: as above

    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            if name is None:
                admins = conn.execute(
                    "SELECT count(*) FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid"
                    " WHERE g.rolname = 'gateway_admin'"
                ).fetchone()[0]
                if admins:
                    return None
                name = str(conn.execute("SELECT session_user").fetchone()[0])
            before = conn.execute(
                "SELECT gateway.team_role(rolname) FROM pg_roles WHERE rolname = %s", (name,)
            ).fetchone()
            if before is None:
                conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
            conn.execute(sql.SQL("GRANT gateway_admin TO {}").format(sql.Identifier(name)))
            conn.execute(
                "SELECT gateway.log('user', NULL, NULL, NULL, format('%%s is now %%s (was %%s)',"
                " %s::text, gateway.team_role(%s), %s::text))",
                (name, name, before[0] if before else "none"),
            )
    except psycopg.errors.InsufficientPrivilege as exc:
        raise TeamSetupError(
            f"team init --admin {name}: {str(exc).strip()}. Run it as the database owner (a "
            "superuser or a role with CREATEROLE)."
        ) from exc
    return name


def require_current(conn: Any) -> None:
    """Refuse a database that is not initialised, or from another console version."""
    version = current_version(conn)
    if version != SCHEMA_VERSION:
        what = "is not initialised" if version == 0 else f"is at schema {version}"
        raise TeamUnavailableError(
            f"The team database {what} (this console needs schema {SCHEMA_VERSION}): run "
            "`gateway-console team init --dsn ...` as its owner."
        )
