"""A layer sampled again where its inputs changed: the chunks an edit touches, then the chunks whose earlier
neighbours' points near them changed; every other chunk keeps its points. The result is byte for byte what a
full run of the same inputs gives.

A chunk's points are a function of what it reads inside its rectangle (terrain, density, masks), the blockers
within reach of it and the points of its earlier neighbours within reach (:mod:`strew.core.chunks`). So a chunk
none of whose reads changed needs no sampling; the caller names where the inputs changed (``changed``: boxes in
world xy), the blockers and the neighbours' points are compared here.

>>> import numpy as np
>>> from strew.core.terrain import TerrainLookup
>>> from strew.core.scatter import LayerSpec, chunk_work
>>> corners = np.array([[0, 0, 0], [90, 0, 0], [90, 90, 0], [0, 90, 0]], float)
>>> ground = TerrainLookup(corners, np.array([[0, 1, 2], [0, 2, 3]]))
>>> work = chunk_work(ground, LayerSpec(min_radius=2.0, chunk_size=30.0))
>>> first = run_to_end(run_chunks(work))
>>> again, sampled = run_to_end(rerun_chunks(work, first, [((40.0, 40.0), (45.0, 45.0))]))
>>> sampled, bool((merged(again).positions == merged(first).positions).all())
(1, True)
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..chunks import Backend, ChunkGrid, concat, sample_chunks
from ..poisson import Samples
from ..steps import run_to_end
from ..worker_choice import AutoWorkers
from .chunked import ChunkWork, layer_load, sample_and_place_chunk
from .points import POINT_ARRAYS, LayerPoints

Box = tuple[tuple[float, float], tuple[float, float]]
"""``((x0, y0), (x1, y1))`` in world xy."""

__all__ = ["Box", "ChunkRun", "merged", "rerun_chunks", "run_chunks", "run_to_end"]


@dataclass(frozen=True)
class ChunkRun:
    """A layer's points chunk by chunk (indexed by chunk id), with the grid and the blockers they were sampled
    with: what a later :func:`rerun_chunks` starts from."""

    grid: ChunkGrid
    parts: tuple[LayerPoints, ...]
    blockers: Samples | None


def merged(run: ChunkRun) -> LayerPoints:
    """The layer's points: the chunks' points in chunk order."""
    arrays: dict[str, Any] = {name: np.concatenate([getattr(p, name) for p in run.parts]) for name in POINT_ARRAYS}
    return LayerPoints(**arrays)


def run_chunks(work: ChunkWork, backend: Backend | None = None) -> Generator[float, None, ChunkRun]:
    """Every chunk, in phases (see :func:`strew.core.chunks.sample_chunks`); yields the fraction done.

    The union is conflict-free and maximal: a place inside an earlier chunk was already unfillable before later
    chunks added points, and a later chunk fills up to its border against the earlier ones. A task samples and
    places its chunk, so the points cross between processes once. An :class:`~strew.core.worker_choice.AutoWorkers`
    backend picks its pool or this process for the layer.
    """
    grid = work.grid
    if grid.count == 1:
        backend = None  # nothing to spread: spare the workers the layer's data
    elif isinstance(backend, AutoWorkers):
        backend = backend.pick(layer_load(work))
    handle = work if backend is None else backend.share(work)
    try:
        parts = yield from sample_chunks(grid, handle, sample_and_place_chunk, backend, _xy_of)
    finally:
        if backend is not None:
            backend.release(handle)
    return ChunkRun(grid, tuple(parts), work.blockers)


def rerun_chunks(work: ChunkWork, previous: ChunkRun, changed: Sequence[Box] | np.ndarray
                 ) -> Generator[float, None, tuple[ChunkRun, int]]:
    """The layer again after its inputs changed inside the boxes ``changed`` (``((x0, y0), (x1, y1))`` each, or
    an (K, 2, 2) array): returns the run and how many chunks were sampled. Another grid (the bounds, radii or
    reach changed) samples every chunk."""
    grid = work.grid
    if not _same_grid(grid, previous.grid):
        run = yield from run_chunks(work)
        return run, grid.count
    dirty = _touched(grid, changed)
    parts: list[LayerPoints] = list(previous.parts)
    found: dict[int, Samples] = {}
    redone: set[int] = set()
    order = grid.order()
    for done, chunk in enumerate(order):
        needs = grid.needs(chunk)
        redo = chunk in dirty or not _same(grid.window(chunk, work.blockers), grid.window(chunk, previous.blockers))
        earlier = None
        # Only a neighbour sampled again can have moved points near this chunk.
        if redo or redone.intersection(needs):
            earlier = concat(*(grid.window(chunk, found[j]) for j in needs))
            redo = redo or not _same(earlier, concat(*(grid.window(chunk, _xy_of(previous.parts[j])) for j in needs)))
        if redo:
            parts[chunk] = sample_and_place_chunk(work, chunk, earlier)
            redone.add(chunk)
        found[chunk] = _xy_of(parts[chunk])
        yield (done + 1) / len(order)
    return ChunkRun(grid, tuple(parts), work.blockers), len(redone)


def _touched(grid: ChunkGrid, boxes: Sequence[Box] | np.ndarray) -> set[int]:
    """Chunks whose rectangle meets one of the boxes (edges included)."""
    corners = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)  # x0, y0, x1, y1
    nx, ny = grid.shape
    # The chunk columns and rows each box meets: chunk i spans edges i to i + 1, and a box that reaches an edge
    # touches the chunks on both sides of it.
    spans = np.stack([np.searchsorted(grid.xs, corners[:, 0], side="left") - 1,
                      np.searchsorted(grid.xs, corners[:, 2], side="right") - 1,
                      np.searchsorted(grid.ys, corners[:, 1], side="left") - 1,
                      np.searchsorted(grid.ys, corners[:, 3], side="right") - 1], axis=1)
    touched: set[int] = set()
    for x0, x1, y0, y1 in {tuple(span) for span in spans.tolist()}:  # one edit's triangles share a few spans
        for y in range(max(y0, 0), min(y1, ny - 1) + 1):
            touched.update(y * nx + x for x in range(max(x0, 0), min(x1, nx - 1) + 1))
    return touched


def _same_grid(a: ChunkGrid, b: ChunkGrid) -> bool:
    return (a.reach == b.reach and a.first == b.first and np.array_equal(a.xs, b.xs) and np.array_equal(a.ys, b.ys))


def _same(a: Samples | None, b: Samples | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(a.positions, b.positions) and np.array_equal(a.radii, b.radii)


def _xy_of(points: LayerPoints) -> Samples:
    return Samples(positions=points.positions, radii=points.radii)
