"""Render the application icon from its SVG master: PNG sizes, a Windows .ico, a macOS .icns.

Run it after changing ``resources/app-icon.svg`` and commit what it writes::

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py

Qt draws every size from the vector master (QtSvg is part of PySide6-Essentials), so small
sizes are drawn for their grid rather than scaled down from a large bitmap. The .ico and
.icns containers are written here: both are a short header followed by PNG images (Windows
Vista and later, macOS 10.7 and later read PNG entries), so no imaging library is needed.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
MASTER = RESOURCES / "app-icon.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# Apple's PNG-capable icon types: (type code, pixel size). The @2x types repeat a size.
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)


def render(renderer: QSvgRenderer, size: int) -> QImage:
    """Draw the SVG into a transparent square image of ``size`` pixels."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    """Encode an image as PNG in memory."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("Qt could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def ico_container(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file holding PNG images: ICONDIR, one 16-byte entry per image, the data."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, png in images:
        edge = 0 if size >= 256 else size  # 0 means 256 in the ICO format
        entries += struct.pack("<BBBBHHII", edge, edge, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def icns_container(images: list[tuple[bytes, bytes]]) -> bytes:
    """An ICNS file: 'icns', total length, then (type, length including header, PNG)."""
    body = b"".join(kind + struct.pack(">I", 8 + len(png)) + png for kind, png in images)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    """Write every rendering next to the master and list what was written."""
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(MASTER))
    if not renderer.isValid():
        print(f"{MASTER} is not a valid SVG", file=sys.stderr)
        return 1
    pngs = {size: png_bytes(render(renderer, size)) for size in sorted({*PNG_SIZES, 512})}
    written: list[Path] = []
    for size in PNG_SIZES:
        target = RESOURCES / f"app-icon-{size}.png"
        target.write_bytes(pngs[size])
        written.append(target)
    ico = RESOURCES / "app-icon.ico"
    ico.write_bytes(ico_container([(s, pngs[s]) for s in ICO_SIZES]))
    icns = RESOURCES / "app-icon.icns"
    icns.write_bytes(icns_container([(kind, pngs[s]) for kind, s in ICNS_TYPES]))
    written += [ico, icns]
    for path in written:
        print(f"{path.relative_to(RESOURCES.parent)}  {path.stat().st_size} bytes")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
