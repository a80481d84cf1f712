"""Where the console keeps its files. Decided once at start-up, never at import time.

``GATEWAY_CONSOLE_HOME`` puts every directory under one folder (tests, portable use,
a fresh profile); otherwise platformdirs picks the platform's usual places.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

HOME_ENV = "GATEWAY_CONSOLE_HOME"
_APP = "gateway-console"


@dataclass(frozen=True, slots=True)
class AppPaths:
    """The console's directories. Create them with :meth:`ensure`."""

    config_dir: Path
    data_dir: Path
    log_dir: Path
    state_dir: Path

    @property
    def environments_file(self) -> Path:
        return self.config_dir / "environments.json"

    @property
    def history_db(self) -> Path:
        return self.data_dir / "history.sqlite3"

    @property
    def log_file(self) -> Path:
        return self.log_dir / "gateway-console.log"

    def ensure(self) -> AppPaths:
        for d in (self.config_dir, self.data_dir, self.log_dir, self.state_dir):
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
        return self


def resolve(home: str | os.PathLike[str] | None = None) -> AppPaths:
    """Decide the directories: an explicit ``home``, then ``$GATEWAY_CONSOLE_HOME``, then
    the platform defaults."""
    root = home if home is not None else os.environ.get(HOME_ENV)
    if root:
        base = Path(root)
        return AppPaths(base / "config", base / "data", base / "log", base / "state")
    return AppPaths(
        Path(platformdirs.user_config_dir(_APP, appauthor=False)),
        Path(platformdirs.user_data_dir(_APP, appauthor=False)),
        Path(platformdirs.user_log_dir(_APP, appauthor=False)),
        Path(platformdirs.user_state_dir(_APP, appauthor=False)),
    )
