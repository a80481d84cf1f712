"""Workbooks made by LibreOffice (``soffice --headless --convert-to xlsx``), as a finance
person's office program saves them: from a flat OpenDocument sheet (.fods) written here, with
number formats, or from a CSV (every number-looking cell then becomes a number).

Tests using them skip where LibreOffice is not installed, except in CI (the environment
variable ``CI`` set), where its absence is a failure: CI installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"'
)
# cell styles by name: a number shown with one decimal, the same grouped (#,##0.0), two
# decimals (0.00), none (0)
_STYLES = {
    "0.0": '<number:number number:decimal-places="1" number:min-integer-digits="1"/>',
    "#,##0.0": (
        '<number:number number:decimal-places="1" number:min-integer-digits="1" '
        'number:grouping="true"/>'
    ),
    "0.00": '<number:number number:decimal-places="2" number:min-integer-digits="1"/>',
    "0": '<number:number number:decimal-places="0" number:min-integer-digits="1"/>',
}


def soffice() -> str:
    """The LibreOffice program, or the test is skipped (fails in CI, which installs it)."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("LibreOffice (soffice) is not installed: CI installs libreoffice-calc")
        pytest.skip("LibreOffice (soffice) is not installed")
    return found


def convert(sources: Sequence[Path], out_dir: Path) -> list[Path]:
    """Each source (.fods or .csv) saved by LibreOffice as an .xlsx in ``out_dir``."""
    program = soffice()
    profile = out_dir / "lo-profile"  # a profile of its own: tests may run side by side
    subprocess.run(
        [
            program,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out_dir),
            *map(str, sources),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    made = [out_dir / f"{s.stem}.xlsx" for s in sources]
    missing = [p for p in made if not p.exists()]
    assert not missing, f"LibreOffice made no {missing}"
    return made


Cell = str | tuple[str, str]  # text, or (number, the name of its number format)


def fods(path: Path, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> Path:
    """A flat OpenDocument spreadsheet: text cells, and number cells with a format."""
    styles = "".join(
        f'<number:number-style style:name="N{i}">{xml}</number:number-style>'
        f'<style:style style:name="ce{i}" style:family="table-cell" '
        f'style:parent-style-name="Default" style:data-style-name="N{i}"/>'
        for i, xml in enumerate(_STYLES.values())
    )
    style_of = {name: f"ce{i}" for i, name in enumerate(_STYLES)}

    def cell(value: Cell) -> str:
        if isinstance(value, str):
            return (
                '<table:table-cell office:value-type="string">'
                f"<text:p>{escape(value)}</text:p></table:table-cell>"
            )
        number, shown_as = value
        return (
            f'<table:table-cell table:style-name="{style_of[shown_as]}" '
            f'office:value-type="float" office:value="{number}"><text:p>{number}</text:p>'
            "</table:table-cell>"
        )

    body = "".join(
        "<table:table-row>" + "".join(cell(c) for c in row) + "</table:table-row>"
        for row in [list(header), *rows]
    )
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?><office:document {_NS} office:version="1.2" '
        'office:mimetype="application/vnd.oasis.opendocument.spreadsheet">'
        f"<office:automatic-styles>{styles}</office:automatic-styles>"
        '<office:body><office:spreadsheet><table:table table:name="payouts">'
        f"{body}</table:table></office:spreadsheet></office:body></office:document>",
        encoding="utf-8",
    )
    return path
