"""What a support ticket needs, as plain text: versions, platform, keyring backend, paths.

Never secrets: no environment settings, logins, keys, passphrases or request data; proxy
variables are reported as set or not set only (their values may carry credentials). Qt is
not imported: its version comes from the installed package's metadata.

It also lists the third-party libraries the console runs on, with the licence each declares
in its own package metadata, for the About dialog and for redistributors.
"""

from __future__ import annotations

import os
import platform
import re
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from console import APP_NAME, __version__
from console.core import paths, resources

DISTRIBUTION = "gateway-console"
QT_DISTRIBUTIONS = ("PySide6-Essentials", "PySide6", "shiboken6")
# Only for a package whose metadata names no licence at all.
KNOWN_LICENCES = {"python": "PSF-2.0"}
PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


@dataclass(frozen=True, slots=True)
class Library:
    """One installed third-party distribution and the licence its metadata declares."""

    name: str
    version: str
    licence: str
    url: str


def libraries() -> list[Library]:
    """The installed libraries the console runs on: its runtime dependencies, Qt for Python
    and everything they require in turn (only what is installed), sorted by name."""
    try:
        roots = _runtime_requirements(metadata.requires(DISTRIBUTION))
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        roots = _runtime_requirements(_source_tree_dependencies())
    roots.extend(QT_DISTRIBUTIONS)  # the window's extra; only the installed ones count
    seen: dict[str, Library] = {}
    pending = list(roots)
    while pending:
        name = pending.pop()
        key = _canonical(name)
        if key in seen or key == _canonical(DISTRIBUTION):
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[key] = _library(dist)
        pending.extend(_runtime_requirements(dist.requires))
    return sorted(seen.values(), key=lambda lib: lib.name.lower())


def licence_of(dist: metadata.Distribution) -> str:
    """The licence a distribution declares: its SPDX expression, else its short License
    field, else its licence classifiers."""
    meta = dist.metadata
    expression = _field(meta, "License-Expression")
    if expression:
        return expression
    field = _field(meta, "License")
    if "\n" in field or len(field) > 80:  # the whole licence text pasted into the field
        field = ""
    classifiers = [
        c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License")
    ]
    # A versionless family name ("LGPL") yields to a classifier naming the same licence
    # more precisely ("... v2 or later (LGPLv2+)").
    precise = [c for c in classifiers if field and field in c]
    if field and (re.search(r"\d", field) or not precise):
        return field
    if precise or classifiers:
        return ", ".join(precise or classifiers)
    return KNOWN_LICENCES.get(_canonical(_field(meta, "Name")), "not stated in its metadata")


def qt_version() -> str | None:
    """The installed Qt for Python version, read from package metadata (no Qt import)."""
    for name in QT_DISTRIBUTIONS:
        try:
            return f"{metadata.version(name)} ({name})"
        except metadata.PackageNotFoundError:
            continue
    return None


def keyring_backend() -> str:
    """The keyring backend in use, by class name; says so when there is no usable one."""
    try:
        import keyring  # imported here: backend discovery may talk to D-Bus

        backend = keyring.get_keyring()
    except Exception as exc:  # any failure is a fact to report, not a crash
        return f"unavailable ({type(exc).__name__}: {exc})"
    kind = type(backend)
    name = f"{kind.__module__}.{kind.__qualname__}"
    if kind.__module__ == "keyring.backends.fail":
        return f"{name} (no usable keyring: keys cannot be stored)"
    return name


def collect(app_paths: paths.AppPaths | None = None) -> list[tuple[str, str]]:
    """The diagnostics as ordered (label, value) pairs."""
    app_paths = app_paths or paths.resolve()
    frozen = getattr(sys, "frozen", False)
    items = [
        (APP_NAME, __version__),
        ("Installed as", "one-folder application" if frozen else _install_kind()),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("Platform", f"{platform.platform()} ({platform.machine()})"),
        ("Qt for Python", qt_version() or "not installed (command line only)"),
        ("Qt platform", os.environ.get("QT_QPA_PLATFORM") or "default"),
        ("Keyring backend", keyring_backend()),
        ("Config folder", str(app_paths.config_dir)),
        ("Data folder", str(app_paths.data_dir)),
        ("Log folder", str(app_paths.log_dir)),
        ("Log file", str(app_paths.log_file)),
        ("Profile override", "GATEWAY_CONSOLE_HOME is set" if _home_overridden() else "none"),
        ("Resources", resources.check().summary()),
    ]
    for variable in PROXY_VARIABLES:
        is_set = bool(os.environ.get(variable) or os.environ.get(variable.lower()))
        items.append((variable, "set" if is_set else "not set"))
    items.extend((lib.name, f"{lib.version} ({lib.licence})") for lib in libraries())
    return items


def diagnostics_text(app_paths: paths.AppPaths | None = None) -> str:
    """The diagnostics as text to paste into a support ticket."""
    items = collect(app_paths)
    width = max(len(label) for label, _ in items)
    lines = [f"{APP_NAME} diagnostics (no secrets, safe to share)"]
    lines += [f"{label.ljust(width)}  {value}" for label, value in items]
    return "\n".join(lines) + "\n"


def _library(dist: metadata.Distribution) -> Library:
    meta = dist.metadata
    homepage = _field(meta, "Home-page")
    url = ""
    for entry in meta.get_all("Project-URL") or []:
        label, _, address = entry.partition(",")
        if label.strip().lower() in {"homepage", "source", "repository"}:
            url = address.strip()
            break
    return Library(_field(meta, "Name") or "?", dist.version, licence_of(dist), url or homepage)


def _install_kind() -> str:
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "source tree (not installed)"
    direct_url = dist.read_text("direct_url.json") or ""
    return "editable install" if '"editable": true' in direct_url else "installed package"


def _home_overridden() -> bool:
    return bool(os.environ.get(paths.HOME_ENV))


def _runtime_requirements(requirements: list[str] | None) -> list[str]:
    """Names of the requirements not tied to an optional extra (other markers are left to
    the installer: a dependency that was not installed is skipped later)."""
    names = []
    for requirement in requirements or ():
        _, _, marker = requirement.partition(";")
        if re.search(r"\bextra\s*==", marker):
            continue
        match = _NAME.match(requirement)
        if match:
            names.append(match.group(1))
    return names


def _source_tree_dependencies() -> list[str]:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return []
    return [str(requirement) for requirement in project.get("dependencies", [])]


def _field(meta: metadata.PackageMetadata, name: str) -> str:
    values = meta.get_all(name)
    return str(values[0]).strip() if values else ""


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
