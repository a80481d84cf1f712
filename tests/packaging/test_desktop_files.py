"""The desktop entry and AppStream metainfo: one application id, current release notes,
screenshots that exist, and both files valid for the standard validators."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from console import APP_ID

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = ROOT / "packaging" / f"{APP_ID}.desktop"
METAINFO = ROOT / "packaging" / f"{APP_ID}.metainfo.xml"
SCREENSHOT_URL = re.compile(r"^https://\S+/main/(docs/screenshots/[\w.-]+\.png)$")


def desktop_entry() -> dict[str, str]:
    lines = DESKTOP.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "[Desktop Entry]"
    return dict(line.split("=", 1) for line in lines[1:] if "=" in line)


def test_one_application_id_everywhere() -> None:
    entry = desktop_entry()
    assert entry["Icon"] == APP_ID
    assert entry["Exec"].split()[0] == "gateway-console"
    component = ET.parse(METAINFO).getroot()
    assert component.findtext("id") == APP_ID
    assert component.findtext("launchable[@type='desktop-id']") == f"{APP_ID}.desktop"
    assert component.findtext("icon[@type='stock']") == APP_ID
    assert component.findtext("provides/binary") == "gateway-console"


def test_licences_and_content_rating() -> None:
    component = ET.parse(METAINFO).getroot()
    assert component.findtext("metadata_license") == "CC0-1.0"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert component.findtext("project_license") == project["license"]  # an SPDX expression
    rating = component.find("content_rating")
    assert rating is not None
    assert rating.get("type") == "oars-1.1"


def test_newest_release_is_the_project_version_and_has_notes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    releases = ET.parse(METAINFO).getroot().findall("releases/release")
    assert releases, "no release notes"
    newest = releases[0]
    assert newest.get("version") == project["version"], (
        "add a <release> with notes to the metainfo for the new version"
    )
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", newest.get("date", ""))
    notes = newest.find("description")
    assert notes is not None
    assert "".join(notes.itertext()).strip()


def test_screenshots_are_the_readme_ones() -> None:
    urls = [e.text or "" for e in ET.parse(METAINFO).getroot().findall("screenshots/*/image")]
    assert urls
    relative = []
    for url in urls:
        match = SCREENSHOT_URL.match(url)
        assert match, f"{url} is not a docs/screenshots/ file on the main branch"
        relative.append(match.group(1))
    if not (ROOT / "docs" / "screenshots").is_dir():
        pytest.skip("docs/screenshots/ does not exist yet")
    missing = [name for name in relative if not (ROOT / name).is_file()]
    assert not missing, f"metainfo screenshots missing from the repository: {missing}"


@pytest.mark.parametrize(
    "command",
    [
        ["desktop-file-validate", str(DESKTOP)],
        ["appstreamcli", "validate", "--no-net", str(METAINFO)],
    ],
    ids=["desktop-file-validate", "appstreamcli"],
)
def test_standard_validators_accept_the_files(command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed (packaging/validate.sh installs it)")
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
def test_install_desktop_puts_entry_icons_and_metainfo_in_place(tmp_path: Path) -> None:
    app = tmp_path / "Gateway Console" / "gateway-console"  # a folder name with a space
    app.parent.mkdir()
    app.write_text("#!/bin/sh\n")
    env = {"PATH": "/usr/bin:/bin", "PREFIX": str(tmp_path / "prefix"), "HOME": str(tmp_path)}
    subprocess.run(
        ["sh", str(ROOT / "packaging" / "install-desktop.sh"), str(app)],
        env=env,
        check=True,
        capture_output=True,
    )
    share = tmp_path / "prefix" / "share"
    entry = share / "applications" / f"{APP_ID}.desktop"
    assert f'Exec="{app}"' in entry.read_text(encoding="utf-8").splitlines()
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    assert (share / "metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    if shutil.which("desktop-file-validate"):
        subprocess.run(["desktop-file-validate", str(entry)], check=True)
