"""``make docs``: the figure generator runs, checks its guarantees and writes small valid PNGs."""

from __future__ import annotations

import importlib.util
import sys
import zlib
from pathlib import Path

import numpy as np

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _load(name: str):
    sys.path.insert(0, str(DOCS))
    try:
        spec = importlib.util.spec_from_file_location(f"docs_{name}", DOCS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(DOCS))


def _decode(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and the filtered scanlines of a one-IDAT PNG (as written by raster.py)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    start = data.index(b"IDAT") + 4
    length = int.from_bytes(data[start - 8:start - 4], "big")
    return width, height, zlib.decompress(data[start:start + length])


def test_png_writer_round_trips_every_filter() -> None:
    raster = _load("raster")
    canvas = raster.Canvas(23, 17, background=(0.2, 0.4, 0.6))
    canvas.disc(10, 8, 5, (1.0, 0.0, 0.0))
    canvas.line(0, 0, 22, 16, (0.0, 0.0, 0.0), width=2)
    for kind in (0, 1, 2, 4):
        rows = np.round(np.clip(canvas.pixels, 0, 1) * 255).astype(np.uint8).reshape(17, -1)
        body = np.frombuffer(zlib.decompress(raster._filtered(rows, kind)), dtype=np.uint8).reshape(17, -1)
        assert (body[:, 0] == kind).all()
        decoded = _unfilter(body[:, 1:], kind)
        assert np.array_equal(decoded, rows), kind
    width, height, scanlines = _decode(canvas.to_png())
    assert (width, height) == (23, 17) and len(scanlines) == 17 * (1 + 3 * 23)


def _unfilter(body: np.ndarray, kind: int) -> np.ndarray:
    out = np.zeros(body.shape, dtype=np.int64)
    for j in range(body.shape[0]):
        for i in range(body.shape[1]):
            a = out[j, i - 3] if i >= 3 else 0
            b = out[j - 1, i] if j else 0
            c = out[j - 1, i - 3] if j and i >= 3 else 0
            if kind == 0:
                pred = 0
            elif kind == 1:
                pred = a
            elif kind == 2:
                pred = b
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out[j, i] = (int(body[j, i]) + pred) % 256
    return out.astype(np.uint8)


def test_generator_writes_every_figure_small(tmp_path: Path) -> None:
    generate = _load("generate")
    assert generate.main(["--out", str(tmp_path), "--no-screenshots"]) == 0
    written = sorted(tmp_path.glob("*.png"))
    assert len(written) == len(generate.every_figure())
    for path in written:
        data = path.read_bytes()
        width, height, scanlines = _decode(data)
        assert 100 <= width <= 1000 and 100 <= height <= 1000, path.name
        assert len(scanlines) == height * (1 + 3 * width), path.name
        assert len(data) <= 150_000, f"{path.name} is {len(data)} bytes; keep figures small"
    committed = {p.name for p in (DOCS / "images").glob("*.png")}
    assert {p.name for p in written} <= committed, "run `make docs` and commit docs/images"


def test_holes_witness_points_are_free() -> None:
    generate = _load("generate")
    rng = np.random.default_rng(0)
    points = rng.uniform(0, 10, (30, 2))
    free = rng.uniform(0, 10, (500, 2))
    free = free[generate.nearest_distance(points, free) >= 1.0]
    extra = generate.fit_more(points, free, 1.0)
    assert len(extra) > 0
    assert (generate.nearest_distance(points, extra) >= 1.0).all()
    if len(extra) > 1:
        d = np.hypot(*(extra[:, None] - extra[None, :]).transpose(2, 0, 1))
        np.fill_diagonal(d, np.inf)
        assert d.min() >= 1.0
