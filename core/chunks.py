"""Chunk grid of a large world and the phase order that lets chunks run in parallel with the same result.

A chunk's points depend on the points already placed within ``reach`` of its rectangle. Colouring the
grid with a period of ``1 + ceil(reach / chunk width)`` per axis gives *phases* whose chunks never see each
other (they lie at least ``reach`` apart); a chunk of phase ``k`` sees the points of its neighbours of
phases ``< k`` as blockers. Any schedule that respects these dependencies — one process chunk after chunk
in phase order, a process pool, a Dask cluster, a render farm running one phase after another — computes
exactly the same points (the standard parallel Poisson-disk scheme).

Examples
--------
>>> import numpy as np
>>> grid = ChunkGrid.over(np.array([[0.0, 0.0], [100.0, 60.0]]), chunk_size=25.0, reach=3.0)
>>> grid.shape, grid.phase_count
((4, 3), 4)
>>> [len(p) for p in grid.phases()]
[4, 4, 2, 2]
>>> grid.needs(4)  # the chunk at (0, 1) waits for its neighbours of earlier phases
[0, 1, 8, 9]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, CancelledError, Future, wait
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol, TypeVar

import numpy as np

from .poisson import Samples

T = TypeVar("T")


@dataclass(frozen=True)
class ChunkGrid:
    """Rectangles of a grid over the sampled bounds, numbered row by row (``id = iy * nx + ix``).

    Attributes
    ----------
    xs, ys
        Edges of the chunks along x (``nx + 1``) and y (``ny + 1``).
    reach
        The largest interaction distance: no point affects the sampling farther than this.
    """

    xs: np.ndarray
    ys: np.ndarray
    reach: float
    cells_x: np.ndarray | None = None
    cells_y: np.ndarray | None = None
    first: tuple[int, int] = (0, 0)

    @classmethod
    def over(cls, bounds: np.ndarray, chunk_size: float, reach: float) -> ChunkGrid:
        """Chunks of side at most ``chunk_size`` over ``bounds = [[x0, y0], [x1, y1]]``."""
        (x0, y0), (x1, y1) = np.asarray(bounds, dtype=np.float64)
        nx = max(1, math.ceil((x1 - x0) / chunk_size))
        ny = max(1, math.ceil((y1 - y0) / chunk_size))
        return cls(np.linspace(x0, x1, nx + 1), np.linspace(y0, y1, ny + 1), float(reach))

    @classmethod
    def on_cells(cls, bounds: np.ndarray, chunk_size: float, reach: float, cell: float, unit: int = 1) -> ChunkGrid:
        """Chunks on the world's grid of cells of side ``cell``: every edge is a whole number of ``unit`` cells
        from the world origin, inner edges at multiples of ``chunk_size`` (rounded to units), outer edges the
        bounds rounded outwards. An edge does not move when the bounds change elsewhere, so the chunks, and what
        is sampled in them, stay where they are. ``cells_x``/``cells_y`` are the edges in cells (``anchor`` of each
        chunk's sampler).

        >>> grid = ChunkGrid.on_cells(np.array([[-3.0, 0.0], [25.0, 4.0]]), chunk_size=10.0, reach=1.0, cell=0.5)
        >>> grid.cells_x.tolist(), grid.xs.tolist()
        ([-6, 0, 20, 40, 50], [-3.0, 0.0, 10.0, 20.0, 25.0])
        """
        (x0, y0), (x1, y1) = np.asarray(bounds, dtype=np.float64)
        side = cell * unit
        per_chunk = max(1, round(chunk_size / side))
        ux, uy = _unit_edges(x0, x1, side, per_chunk), _unit_edges(y0, y1, side, per_chunk)
        first = (int(ux[0] // per_chunk), int(uy[0] // per_chunk))  # the world chunk of the first: phases follow it
        return cls(ux * unit * cell, uy * unit * cell, float(reach), ux * unit, uy * unit, first)

    def anchor(self, chunk: int) -> tuple[int, int] | None:
        """World cell of a chunk's lower-left corner (``on_cells`` grids), else None."""
        if self.cells_x is None or self.cells_y is None:
            return None
        ix, iy = self.cell(chunk)
        return int(self.cells_x[ix]), int(self.cells_y[iy])

    @property
    def shape(self) -> tuple[int, int]:
        """Chunks along x and y."""
        return len(self.xs) - 1, len(self.ys) - 1

    @property
    def count(self) -> int:
        return self.shape[0] * self.shape[1]

    @cached_property
    def span(self) -> tuple[int, int]:
        """How many chunks away (along x, y) a chunk's points can still matter."""
        spans = []
        for edges in (self.xs, self.ys):
            # Inner chunks are the widest (only the first and the last may be cut by the bounds, and those are
            # never between two others), so the widest says how far a chunk's points reach.
            width = float(np.diff(edges).max())
            spans.append(math.ceil(self.reach / width) if width > 0 else 1)
        return max(spans[0], 1), max(spans[1], 1)

    @cached_property
    def period(self) -> tuple[int, int]:
        """Colouring period per axis: chunks this many apart are at least ``reach`` apart."""
        sx, sy = self.span
        nx, ny = self.shape
        return min(sx + 1, nx), min(sy + 1, ny)

    @property
    def phase_count(self) -> int:
        px, py = self.period
        return px * py

    def cell(self, chunk: int) -> tuple[int, int]:
        """``(ix, iy)`` of a chunk id."""
        return chunk % self.shape[0], chunk // self.shape[0]

    def rect(self, chunk: int) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper corner of a chunk (points are sampled in ``[lo, hi)``)."""
        ix, iy = self.cell(chunk)
        return np.array([self.xs[ix], self.ys[iy]]), np.array([self.xs[ix + 1], self.ys[iy + 1]])

    def phase(self, chunk: int) -> int:
        """The chunk's phase, from its place in the world's chunks (``first`` onwards), so bounds that grow or
        shrink leave the other chunks' phases, and their order, as they were."""
        ix, iy = self.cell(chunk)
        px, py = self.period
        return ((iy + self.first[1]) % py) * px + (ix + self.first[0]) % px

    def phases(self) -> list[list[int]]:
        """Chunk ids of each phase, in increasing id order."""
        out: list[list[int]] = [[] for _ in range(self.phase_count)]
        for chunk in range(self.count):
            out[self.phase(chunk)].append(chunk)
        return out

    def order(self) -> list[int]:
        """Every chunk id, phase after phase: a valid sequential schedule."""
        return [chunk for phase in self.phases() for chunk in phase]

    def needs(self, chunk: int) -> list[int]:
        """Chunks of earlier phases whose points may lie within ``reach`` of this chunk, by increasing id."""
        ix, iy = self.cell(chunk)
        (nx, ny), (sx, sy) = self.shape, self.span
        own = self.phase(chunk)
        return [
            jy * nx + jx
            for jy in range(max(0, iy - sy), min(ny, iy + sy + 1))
            for jx in range(max(0, ix - sx), min(nx, ix + sx + 1))
            if self.phase(jy * nx + jx) < own
        ]

    def window(self, chunk: int, points: Samples | None) -> Samples | None:
        """The points within ``reach`` of a chunk's rectangle (in their order, xy only), or None."""
        if points is None or len(points.positions) == 0:
            return None
        lo, hi = self.rect(chunk)
        x, y = points.positions[:, 0], points.positions[:, 1]
        inside = (x >= lo[0] - self.reach) & (x < hi[0] + self.reach)
        inside &= (y >= lo[1] - self.reach) & (y < hi[1] + self.reach)
        if not inside.any():
            return None
        return Samples(positions=points.positions[inside, :2], radii=points.radii[inside])


def _unit_edges(low: float, high: float, side: float, per_chunk: int) -> np.ndarray:
    """Chunk edges along one axis in whole ``side`` units: ``low`` and ``high`` rounded outwards, and the
    multiples of ``per_chunk`` between them (a piece at the rim may be narrow: merging it with its neighbour
    would move an edge whenever the bounds move)."""
    first = math.floor(low / side)
    last = max(first + 1, math.ceil(high / side))
    inner = range(-(-(first + 1) // per_chunk) * per_chunk, last, per_chunk)
    return np.array([first, *inner, last], dtype=np.int64)


def concat(*parts: Samples | None) -> Samples | None:
    """The points of several sets, in order; None when there are none."""
    kept = [p for p in parts if p is not None and len(p.positions)]
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0]
    return Samples(positions=np.concatenate([p.positions for p in kept]),
                   radii=np.concatenate([p.radii for p in kept]))


class Backend(Protocol):
    """Where chunk tasks run: a process pool (:mod:`strew.core.pool`), a Dask cluster (:mod:`strew.core.farm`).

    ``share(work)`` ships the layer's read-only data once and returns the handle the tasks receive in its
    place; ``submit(fn, handle, *args)`` runs ``fn(work, *args)`` somewhere and returns a future;
    ``release(handle)`` frees what ``share`` took.
    """

    workers: int

    def share(self, work: Any) -> Any: ...

    def submit(self, fn: Callable[..., T], handle: Any, *args: Any) -> Future[T]: ...

    def release(self, handle: Any) -> None: ...


def worker_lost(error: BaseException) -> ValueError:
    """The one-line error of a run whose worker went away (a pool's process died, a Dask worker was lost)."""
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    return ValueError(f"a worker stopped before its chunk was done ({reason}); nothing was written: run again, "
                      "or with workers=1 to stay in this process")


def _result(future: Future[T]) -> T:
    try:
        return future.result()
    except (BrokenExecutor, CancelledError) as error:  # a pool's process died; a Dask worker went with the data
        raise worker_lost(error) from error


def sample_chunks(
    grid: ChunkGrid, handle: Any, sample: Callable[[Any, int, Samples | None], T], backend: Backend | None = None,
    points_of: Callable[[T], Samples] | None = None,
) -> Generator[float, None, list[T]]:
    """Run ``sample(work, chunk, earlier)`` for every chunk, each after the chunks it needs; yields the fraction done.

    ``handle`` is the work itself without a backend, else what ``backend.share(work)`` returned. ``earlier``
    holds the points of ``grid.needs(chunk)`` within reach, in increasing chunk order: a chunk's result, or
    ``points_of(result)`` when the result carries more than the points (placed instances, say). Without a
    backend the chunks run here in phase order; with one, every chunk starts as soon as its needs are done.
    Either way the result is the same list (indexed by chunk id).
    """
    count = grid.count
    needs = [grid.needs(chunk) for chunk in range(count)]
    found: dict[int, Samples] = {}
    results: dict[int, T] = {}

    def keep(chunk: int, result: T) -> None:
        results[chunk] = result
        found[chunk] = points_of(result) if points_of is not None else result  # type: ignore[assignment]

    def earlier(chunk: int) -> Samples | None:
        return concat(*(grid.window(chunk, found[j]) for j in needs[chunk]))

    if backend is None:
        for done, chunk in enumerate(grid.order()):
            keep(chunk, sample(handle, chunk, earlier(chunk)))
            yield (done + 1) / count
        return [results[chunk] for chunk in range(count)]

    dependents: list[list[int]] = [[] for _ in range(count)]
    for chunk, chunk_needs in enumerate(needs):
        for j in chunk_needs:
            dependents[j].append(chunk)
    missing = [len(n) for n in needs]
    running: dict[Future[T], int] = {}
    try:
        for chunk in grid.order():
            if not missing[chunk]:
                running[backend.submit(sample, handle, chunk, earlier(chunk))] = chunk
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                chunk = running.pop(future)
                keep(chunk, _result(future))
                for d in dependents[chunk]:
                    missing[d] -= 1
                    if not missing[d]:
                        running[backend.submit(sample, handle, d, earlier(d))] = d
            yield len(results) / count
    finally:
        for future in running:
            future.cancel()
    return [results[chunk] for chunk in range(count)]
