"""Form drafts: what was typed survives command switches and restarts.

Stored as JSON in the config directory, with the window's layout (where the docks are and
how big, as Qt's own base64 text). Card numbers and CVV2 are never written (PCI DSS): they
are dropped by name here, whatever the caller passes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from console.core.masking import is_sensitive

DRAFTS_NAME = "drafts.json"
_VERSION = 1


def _clean(values: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in values.items() if v and not is_sensitive(k)}


class DraftStore:
    """Per-command drafts (field values and form choices), the last command shown, and
    :attr:`layout`: named layout texts (``"window"``: the docks; ``"history-columns"``), and
    the chosen :attr:`theme`."""

    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / DRAFTS_NAME
        self._forms: dict[str, dict[str, str]] = {}
        self.last_command: str = ""
        self.layout: dict[str, str] = {}
        self.theme = ""  # the theme chosen in View > Theme ("" = not chosen yet)
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return  # no draft yet, or a damaged one: start empty rather than fail
        if not isinstance(data, dict) or data.get("version") != _VERSION:
            return
        forms = data.get("forms", {})
        if isinstance(forms, dict):
            for name, values in forms.items():
                if isinstance(values, dict):
                    self._forms[str(name)] = _clean({str(k): str(v) for k, v in values.items()})
        self.last_command = str(data.get("last_command", ""))
        self.theme = str(data.get("theme", ""))
        layout = data.get("layout", {})
        if isinstance(layout, dict):
            self.layout = {str(k): str(v) for k, v in layout.items()}

    def get(self, command: str) -> dict[str, str]:
        """The saved values of one form (empty when none)."""
        return dict(self._forms.get(command, {}))

    def put(self, command: str, values: Mapping[str, str]) -> None:
        """Remember one form's values in memory (sensitive values dropped)."""
        self._forms[command] = _clean(values)

    def save(self) -> None:
        """Write every draft atomically (a crash never leaves half a file)."""
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_suffix(".tmp")
        payload = {
            "version": _VERSION,
            "last_command": self.last_command,
            "forms": self._forms,
            "layout": self.layout,
            "theme": self.theme,
        }
        # readable by its owner only: drafts hold names, addresses and order ids
        tmp.unlink(missing_ok=True)  # a leftover would keep its own mode
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(payload, indent=1, sort_keys=True))
        os.replace(tmp, self.path)
