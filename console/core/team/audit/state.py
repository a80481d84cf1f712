"""What this console remembers of each team database's audit trail: the audit key it pinned
and the newest head it verified. Kept in the profile's state folder, where the database's
administrator cannot write, so a trail rewritten or shortened after a check is found by the
next one, whatever the database says then.

A team database is known by where the console connects to it (host, port, database name),
never by anything the database holds: its administrator could change that.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from console.core import paths as app_paths
from console.core.private_files import owner_only
from console.core.team.audit.key import fingerprint
from console.core.team.errors import TeamSetupError
from console.core.team.storage.dsn import parse_dsn

STATE_FILE = "team-audit.json"


def database_of(dsn: str) -> str:
    """The team database's place, ``host:port/name``: the same for every person's DSN."""
    parts = parse_dsn(dsn)
    host = parts.get("host") or parts.get("hostaddr") or "localhost"
    name = parts.get("dbname") or parts.get("user") or os.environ.get("PGDATABASE", "")
    return f"{host}:{parts.get('port') or '5432'}/{name}"


@dataclass(frozen=True, slots=True)
class Kept:
    """What this console holds of one team database (None: nothing yet).

    Attributes:
        public_key: the audit key's public half it pinned (base64).
        head: the newest head it verified, ``SEQ:HASH``.
    """

    public_key: str | None = None
    head: str | None = None


class AuditState:
    """This profile's record of the audit trails it checked, one entry per team database."""

    def __init__(self, database: str, path: Path | None = None) -> None:
        self.database = database
        self.path = path or app_paths.resolve().state_dir / STATE_FILE

    @classmethod
    def for_dsn(cls, dsn: str) -> AuditState:
        return cls(database_of(dsn))

    def _all(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            # a damaged record must not pass for "first use" (that would pin any key)
            raise TeamSetupError(
                f"{self.path} cannot be read ({exc}): it holds the audit key and head this "
                "console verified. Restore it from a backup, or remove it to start again "
                "(the next check then trusts the database's key as on first use)."
            ) from exc
        return data if isinstance(data, dict) else {}

    def kept(self) -> Kept:
        entry = self._all().get(self.database) or {}
        return Kept(entry.get("public_key"), entry.get("head"))

    def keep(self, kept: Kept) -> None:
        """Remember ``kept`` for this database (written whole, then renamed into place)."""
        data = self._all()
        data[self.database] = {
            k: v for k, v in (("public_key", kept.public_key), ("head", kept.head)) if v
        }
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        part = self.path.with_name(self.path.name + ".part")
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
        owner_only(part)
        part.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(part, self.path)


def pin_on_first_use(db: Any, state: AuditState) -> str | None:
    """Pin the team's audit key in ``state`` when this console has none pinned (``team
    init``); the fingerprint pinned (None: nothing changed). ``db``: a connection."""
    kept = state.kept()
    if kept.public_key:
        return None
    row = db.execute("SELECT public_key FROM gateway.audit_key").fetchone()
    if row is None:
        return None
    state.keep(Kept(str(row[0]), kept.head))
    return fingerprint(str(row[0]))
