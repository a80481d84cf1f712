"""The built wheel, installed (not editable) into a fresh virtual environment, starts from
another folder and finds its icons: what an integrator gets from ``pip install``.

The package itself comes from its wheel; its dependencies (PySide6 is a few hundred MB to
unpack) are the test environment's, seen through a ``.pth`` file: what is checked is what the
wheel carries and how the installed package finds it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from console.core import resources

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# What a build reads: the sdist's content, copied so the shared tree gets no build folders.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "console", "resources")


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, **kwargs)
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    out = work / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)])
    (built,) = out.glob("gateway_console-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("venv") / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(target)])
    bindir = target / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    site = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    # after the venv's own site-packages on sys.path; the editable install's finder there
    # is not loaded (a folder added by a .pth file has its own .pth files ignored)
    dependencies = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site.stdout.strip(), "dependencies.pth").write_text("\n".join(sorted(dependencies)))
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    run([*install, "--quiet", str(wheel)])
    return bindir


@pytest.fixture
def elsewhere(tmp_path: Path) -> dict[str, object]:
    """Run from a folder that is not the source tree, with a clean Python path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["GATEWAY_CONSOLE_HOME"] = str(tmp_path / "profile")
    env["QT_QPA_PLATFORM"] = "offscreen"
    return {"cwd": tmp_path, "env": env}


def test_the_wheel_carries_every_resource(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [n for n in resources.expected_files() if f"console/resources/{n}" not in names]
    assert not missing


def test_installed_package_finds_its_resources(venv: Path, elsewhere: dict[str, object]) -> None:
    probe = (
        "import json, console; from console.core import resources as r; "
        "print(json.dumps({'package': console.__file__, 'root': str(r.root()), "
        "'missing': r.missing(), 'icon': str(r.as_path(r.app_icon_png(256)))}))"
    )
    found = json.loads(run([str(venv / "python"), "-c", probe], **elsewhere).stdout)
    site = Path(found["package"]).resolve().parent.parent
    assert ROOT not in Path(found["package"]).resolve().parents, "the source tree was imported"
    assert Path(found["root"]).resolve() == site / "console" / "resources"
    assert found["missing"] == []
    assert Path(found["icon"]).is_file()


def test_installed_command_reports_its_version(venv: Path, elsewhere: dict[str, object]) -> None:
    out = run([str(venv / "gateway-console"), "--version"], **elsewhere).stdout
    assert out.strip() == "gateway-console 0.1.0"


def test_installed_window_icon_has_every_size(venv: Path, elsewhere: dict[str, object]) -> None:
    probe = (  # the function the main window takes its icon from
        "from PySide6.QtWidgets import QApplication; app = QApplication([]); "
        "from console.ui.icons import app_icon; "
        "print(sorted({s.width() for s in app_icon().availableSizes()}))"
    )
    out = run([str(venv / "python"), "-c", probe], **elsewhere).stdout
    assert out.strip() == str(list(resources.APP_ICON_SIZES))


def test_installed_window_starts_and_logs_its_resources(
    venv: Path, elsewhere: dict[str, object], tmp_path: Path
) -> None:
    shot = tmp_path / "window.png"
    out = run([str(venv / "gateway-console"), "--screenshot", str(shot)], **elsewhere).stdout
    assert str(shot) in out
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 640
    assert height >= 400
    log = tmp_path / "profile" / "log" / "gateway-console.log"
    assert log.is_file(), "the window did not set up its log (console.core.logs.configure)"
    text = log.read_text(encoding="utf-8")
    assert "Resources: all " in text
    assert str(Path(venv).parent) in text  # found in the installed package, not the source
