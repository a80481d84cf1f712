"""The one-folder build from packaging/gateway-console.spec keeps its promises: it starts, it
carries the icons and licence metadata, and the LGPL parts stay replaceable files.

Needs PyInstaller and an installed gateway-console (``pip install -e '.[gui,package]'``);
skipped otherwise.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from console import __version__
from console.core import resources

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed (pip install -e '.[package]')")
    try:
        metadata.distribution("gateway-console")
    except metadata.PackageNotFoundError:
        pytest.skip("gateway-console is not installed, so the build has no version metadata")
    work = tmp_path_factory.mktemp("pyinstaller")
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--distpath",
        str(work / "dist"),
        "--workpath",
        str(work / "build"),
        str(ROOT / "packaging" / "gateway-console.spec"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)
    assert result.returncode == 0, result.stderr[-4000:]
    return work / "dist" / "gateway-console"


def executable(bundle: Path) -> Path:
    return bundle / ("gateway-console.exe" if os.name == "nt" else "gateway-console")


def test_built_app_reports_the_project_version(bundle: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [str(executable(bundle)), "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == f"gateway-console {__version__}"


def test_built_app_renders_its_window(bundle: Path, tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GATEWAY_CONSOLE_HOME=str(tmp_path))
    shot = tmp_path / "window.png"
    subprocess.run(
        [str(executable(bundle)), "--screenshot", str(shot)],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=True,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bundle_carries_icons_and_licence_metadata(bundle: Path) -> None:
    internal = bundle / "_internal"
    for name in resources.expected_files():
        assert (internal / "console" / "resources" / name).is_file(), name
    infos = {p.name.split("-")[0].lower() for p in internal.glob("*.dist-info")}
    for library in ("cryptography", "requests", "keyring", "iso3166", "pyside6_essentials"):
        assert library in infos, library


def test_lgpl_parts_stay_replaceable_files(bundle: Path) -> None:
    internal = bundle / "_internal"
    for package in ("PySide6", "shiboken6"):
        assert (internal / package / "__init__.py").is_file(), f"{package} is inside the archive"
    qt_core = "QtCore" if sys.platform == "darwin" else "*Qt6Core*"
    assert list(internal.rglob(qt_core)), "Qt is not a separate shared library"
