"""A tiny anti-aliased rasteriser (discs, rings, lines, rectangles) and a PNG writer: numpy + zlib only.

Used by ``docs/generate.py`` to draw the user guide's figures. Coordinates are in pixels, ``y`` down.

>>> canvas = Canvas(40, 30)
>>> canvas.disc(20, 15, 5, (1.0, 0.0, 0.0))
>>> canvas.to_png()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

Colour = Sequence[float]

WHITE = (1.0, 1.0, 1.0)


def hex_colour(code: str) -> tuple[float, float, float]:
    """``"#3a7d44"`` -> RGB floats in [0, 1]."""
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255)


class Canvas:
    """An RGB float image with anti-aliased drawing primitives (coverage from exact pixel distances)."""

    def __init__(self, width: int, height: int, background: Colour = WHITE) -> None:
        self.width = int(width)
        self.height = int(height)
        self.pixels = np.empty((self.height, self.width, 3), dtype=np.float64)
        self.pixels[:] = np.asarray(background, dtype=np.float64)

    # -- blending ---------------------------------------------------------------------------------------
    def _box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice, np.ndarray, np.ndarray] | None:
        i0, i1 = max(int(np.floor(x0)), 0), min(int(np.ceil(x1)) + 1, self.width)
        j0, j1 = max(int(np.floor(y0)), 0), min(int(np.ceil(y1)) + 1, self.height)
        if i0 >= i1 or j0 >= j1:
            return None
        xs = np.arange(i0, i1) + 0.5
        ys = np.arange(j0, j1) + 0.5
        return slice(j0, j1), slice(i0, i1), xs[None, :], ys[:, None]

    def _blend(self, rows: slice, cols: slice, coverage: np.ndarray, colour: Colour, alpha: float) -> None:
        a = (np.clip(coverage, 0.0, 1.0) * alpha)[..., None]
        patch = self.pixels[rows, cols]
        patch[:] = patch * (1.0 - a) + np.asarray(colour, dtype=np.float64) * a

    # -- primitives -------------------------------------------------------------------------------------
    def disc(self, cx: float, cy: float, radius: float, colour: Colour, alpha: float = 1.0) -> None:
        """A filled disc."""
        box = self._box(cx - radius - 1, cy - radius - 1, cx + radius + 1, cy + radius + 1)
        if box is None:
            return
        rows, cols, xs, ys = box
        distance = np.hypot(xs - cx, ys - cy)
        self._blend(rows, cols, radius + 0.5 - distance, colour, alpha)

    def ring(self, cx: float, cy: float, radius: float, colour: Colour, width: float = 1.0,
             alpha: float = 1.0) -> None:
        """A circle outline of the given stroke width."""
        reach = radius + width
        box = self._box(cx - reach - 1, cy - reach - 1, cx + reach + 1, cy + reach + 1)
        if box is None:
            return
        rows, cols, xs, ys = box
        distance = np.abs(np.hypot(xs - cx, ys - cy) - radius)
        self._blend(rows, cols, width / 2 + 0.5 - distance, colour, alpha)

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: Colour, width: float = 1.0,
             alpha: float = 1.0) -> None:
        """A straight segment with round caps."""
        pad = width / 2 + 1
        box = self._box(min(x0, x1) - pad, min(y0, y1) - pad, max(x0, x1) + pad, max(y0, y1) + pad)
        if box is None:
            return
        rows, cols, xs, ys = box
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        t = np.zeros_like(xs + ys) if length2 == 0 else np.clip(((xs - x0) * dx + (ys - y0) * dy) / length2, 0, 1)
        distance = np.hypot(xs - (x0 + t * dx), ys - (y0 + t * dy))
        self._blend(rows, cols, width / 2 + 0.5 - distance, colour, alpha)

    def polyline(self, points: np.ndarray, colour: Colour, width: float = 1.0, alpha: float = 1.0) -> None:
        """Consecutive segments through ``points`` (K, 2) (alpha applies per segment)."""
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            self.line(x0, y0, x1, y1, colour, width, alpha)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour, alpha: float = 1.0) -> None:
        """A filled axis-aligned rectangle (edges anti-aliased)."""
        box = self._box(x0 - 1, y0 - 1, x1 + 1, y1 + 1)
        if box is None:
            return
        rows, cols, xs, ys = box
        cover_x = np.clip(np.minimum(xs + 0.5 - x0, x1 - (xs - 0.5)), 0, 1)
        cover_y = np.clip(np.minimum(ys + 0.5 - y0, y1 - (ys - 0.5)), 0, 1)
        self._blend(rows, cols, cover_x * cover_y, colour, alpha)

    def mask(self, covered: np.ndarray, colour: Colour, alpha: float = 1.0) -> None:
        """Blend ``colour`` where the (height, width) float/bool array ``covered`` is set."""
        self._blend(slice(0, self.height), slice(0, self.width), covered.astype(np.float64), colour, alpha)

    def paste(self, other: Canvas, left: int, top: int) -> None:
        """Copy another canvas in at pixel offset (left, top)."""
        self.pixels[top:top + other.height, left:left + other.width] = other.pixels

    # -- output -----------------------------------------------------------------------------------------
    def to_png(self) -> bytes:
        """8-bit RGB PNG bytes: the smallest of the None/Sub/Up/Paeth row filters, zlib level 9."""
        levels = np.round(np.clip(self.pixels, 0.0, 1.0) * 31) * (255 / 31)  # 32 shades a channel: smaller files
        data = np.round(levels).astype(np.uint8).reshape(self.height, -1)
        best = min((_filtered(data, kind) for kind in range(5) if kind != 3), key=len)

        def chunk(kind: bytes, body: bytes) -> bytes:
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", best) + chunk(b"IEND", b"")

    def save(self, path: Path) -> int:
        """Write the PNG; returns its size in bytes."""
        data = self.to_png()
        path.write_bytes(data)
        return len(data)


def _filtered(rows: np.ndarray, kind: int) -> bytes:
    """Compressed scanlines with one PNG filter type for every row (0 None, 1 Sub, 2 Up, 4 Paeth; 3 bpp)."""
    raw = rows.astype(np.int16)
    left = np.zeros_like(raw)
    left[:, 3:] = raw[:, :-3]
    up = np.zeros_like(raw)
    up[1:] = raw[:-1]
    if kind == 0:
        out = raw
    elif kind == 1:
        out = raw - left
    elif kind == 2:
        out = raw - up
    else:
        upleft = np.zeros_like(raw)
        upleft[1:, 3:] = raw[:-1, :-3]
        p = left + up - upleft
        pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - upleft)
        predictor = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))
        out = raw - predictor
    body = np.concatenate([np.full((len(rows), 1), kind, dtype=np.uint8), (out % 256).astype(np.uint8)], axis=1)
    return zlib.compress(body.tobytes(), 9)


def read_png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from PNG bytes (checks the signature)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height
