"""/favicon.ico: a red heart, so browsers stop asking for it on every page (a 404 each time,
and a console error). Drawn here, 32x32, as a PNG inside an ICO (every browser reads those);
no file to ship. Cached for a week. The CSP's img-src 'self' allows it."""

from __future__ import annotations

import struct
import zlib
from functools import cache

from flask import Blueprint, Response

bp = Blueprint("favicon", __name__)
SIZE = 32
RED = (0xB0, 0x00, 0x20)
MAX_AGE = 7 * 24 * 3600


@bp.get("/favicon.ico")
def favicon() -> Response:
    response = Response(icon(), mimetype="image/x-icon")
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    return response


@cache
def icon() -> bytes:
    """An ICO file holding one 32x32 PNG image."""
    png = _png()
    header = struct.pack("<HHH", 0, 1, 1)  # reserved, type 1 (icon), one image
    entry = struct.pack("<BBBBHHII", SIZE, SIZE, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png


def _inside(x: float, y: float) -> bool:
    """The heart curve (x² + y² - 1)³ - x²y³ <= 0, for x in [-1.2, 1.2], y in [-1.1, 1.3]."""
    return (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0


def _png() -> bytes:
    rows = []
    for row in range(SIZE):
        pixels = bytearray([0])  # filter type: none
        for column in range(SIZE):
            x = (column + 0.5) / SIZE * 2.6 - 1.3
            y = 1.3 - (row + 0.5) / SIZE * 2.5
            pixels += bytes([*RED, 255]) if _inside(x, y) else bytes(4)
        rows.append(bytes(pixels))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
