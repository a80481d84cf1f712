"""The icons: the accessor finds every one, the folder holds exactly those, and they draw."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from console.core import resources

if TYPE_CHECKING:
    from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]


def test_every_icon_and_size_is_found() -> None:
    for name in resources.ICON_NAMES:
        assert resources.icon(name).is_file(), name
        assert resources.as_path(resources.icon(name)).read_bytes().startswith(b"<svg")
    for size in resources.APP_ICON_SIZES:
        assert resources.as_path(resources.app_icon_png(size)).read_bytes()[:8] == (
            b"\x89PNG\r\n\x1a\n"
        )
    assert resources.app_icon_svg().is_file()
    assert resources.missing() == []
    check = resources.check()
    assert check.ok
    count = len(resources.expected_files())
    assert check.summary() == f"all {count} resource files found in {check.location}"


def test_the_folder_holds_exactly_the_expected_files() -> None:
    shipped = {
        p.relative_to(ROOT / "resources").as_posix()
        for p in (ROOT / "resources").rglob("*")
        if p.is_file() and p.name != "__init__.py" and "__pycache__" not in p.parts
    }
    assert shipped == set(resources.expected_files())


def test_unknown_names_and_sizes_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="the icons are: send, copy"):
        resources.icon("sned")
    with pytest.raises(ValueError, match="the sizes are: 16, 24"):
        resources.app_icon_png(20)


def test_a_missing_file_is_reported_by_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "icons").mkdir()
    for name in resources.expected_files():
        if name != "icons/key.svg":
            (tmp_path / name).write_bytes(b"x")
    monkeypatch.setattr(resources, "root", lambda: tmp_path)
    assert resources.missing() == ["icons/key.svg"]
    assert "1 of 23 resource files missing" in resources.check().summary()
    assert resources.check().summary().endswith("icons/key.svg")


def png_width(data: bytes) -> int:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int(struct.unpack_from(">I", data, 16)[0])


def test_ico_holds_every_windows_size_as_png() -> None:
    ico = resources.as_path(resources.root() / resources.APP_ICON_ICO).read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert (reserved, kind, count) == (0, 1, 7)
    sizes = []
    for i in range(count):
        edge, _, _, _, _, _, length, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        size = edge or 256
        assert png_width(ico[offset : offset + length]) == size
        sizes.append(size)
    assert sizes == [16, 24, 32, 48, 64, 128, 256]


def test_icns_holds_every_macos_type_at_its_size() -> None:
    icns = resources.as_path(resources.root() / resources.APP_ICON_ICNS).read_bytes()
    assert icns[:4] == b"icns"
    assert struct.unpack_from(">I", icns, 4)[0] == len(icns)
    expected = {"icp4": 16, "icp5": 32, "icp6": 64, "ic07": 128, "ic08": 256, "ic09": 512}
    expected |= {"ic11": 32, "ic12": 64, "ic13": 256, "ic14": 512}  # the @2x types
    found, offset = {}, 8
    while offset < len(icns):
        length = struct.unpack_from(">I", icns, offset + 4)[0]
        found[icns[offset : offset + 4].decode()] = png_width(icns[offset + 8 : offset + length])
        offset += length
    assert found == expected


def render_module() -> ModuleType:
    """packaging/render_icons.py (the folder name would clash with the `packaging` library)."""
    spec = importlib.util.spec_from_file_location(
        "render_icons", ROOT / "packaging" / "render_icons.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.ui
def test_every_svg_draws_and_the_pngs_match_the_master(qapp: object) -> None:
    # qapp: pytest-qt's one QApplication for the process (a bare QGuiApplication made here
    # would be the process's application for every window test after it)
    pytest.importorskip("PySide6")
    from PySide6.QtGui import QImage, QImageReader
    from PySide6.QtSvg import QSvgRenderer

    render = render_module().render
    for name in resources.ICON_NAMES:
        renderer = QSvgRenderer(str(resources.as_path(resources.icon(name))))
        assert renderer.isValid(), name
        assert opaque_share(render(renderer, 24)) > 0.05, f"{name} draws nothing"
    master = QSvgRenderer(str(resources.as_path(resources.app_icon_svg())))
    for size in resources.APP_ICON_SIZES:
        shipped = QImage(str(resources.as_path(resources.app_icon_png(size))))
        assert shipped.width() == size
        assert difference(render(master, size), shipped) < 2.0, (
            f"app-icon-{size}.png is stale: run packaging/render_icons.py"
        )
    for container, count in ((resources.APP_ICON_ICO, 7), (resources.APP_ICON_ICNS, 10)):
        reader = QImageReader(str(resources.as_path(resources.root() / container)))
        assert reader.imageCount() == count  # Qt reads the whole container back


def opaque_share(image: QImage) -> float:
    """The share of pixels that are not fully transparent."""
    width, height = image.width(), image.height()
    drawn = sum(image.pixelColor(x, y).alpha() > 0 for x in range(width) for y in range(height))
    return drawn / (width * height)


def difference(a: QImage, b: QImage) -> float:
    """Mean absolute difference per channel (0-255) between two images of one size."""
    step = max(1, a.width() // 64)  # sample the large icons
    total = count = 0
    for y in range(0, a.height(), step):
        for x in range(0, a.width(), step):
            ca, cb = a.pixelColor(x, y), b.pixelColor(x, y)
            total += sum(abs(p - q) for p, q in zip(ca.getRgb(), cb.getRgb(), strict=True))
            count += 4
    return total / count
