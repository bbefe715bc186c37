"""The terrain lookup's query pass: the top-most triangle under every query point.

A query tests the triangles listed in its own grid cell: barycentric coordinates in xy for every candidate,
then the highest hit. Large batches are answered in the order of their grid cells and the answers put back
in the callers' order: the gathers from the cell lists and the triangle tables then stream through memory
instead of missing the cache on almost every pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .grid import TriangleGrid
from .results import TerrainHit

BARYCENTRIC_TOLERANCE = 1e-9
"""A point counts as inside a triangle when all barycentrics are >= -this (watertight shared edges)."""

QUERY_BLOCK = 16_384
"""Query points handled per step (the temporaries stay in the CPU cache)."""

SORT_FROM = 16_384
"""From this many queries on, they are answered in the order of their grid cells and the answers put back
in the callers' order (below, one block's gathers are few enough to pay no sort)."""


@dataclass(frozen=True)
class Tables:
    """What the pass reads, per triangle in grid order: ``kept`` (input index), ``bary`` (6, T: a1, c1, x0,
    a2, c2, y0, see :mod:`.planes`; one row per coefficient, so a coefficient of many candidates is one
    contiguous gather), ``height`` (T, 3: z0, dz1, dz2) and ``normal`` (T, 3), and the grid."""

    kept: NDArray[np.intp]
    bary: NDArray[np.float64]
    height: NDArray[np.float64]
    normal: NDArray[np.float64]
    grid: TriangleGrid


def sample(tables: Tables, pts: NDArray[np.float64]) -> TerrainHit:
    """The hits of the (M, 2) query points ``pts`` (see :meth:`TerrainLookup.sample`)."""
    m = len(pts)
    x, y = pts[:, 0], pts[:, 1]
    grid = tables.grid
    cells, inside = grid.cells_of(x, y)
    hit = TerrainHit(np.zeros(m, dtype=bool), np.empty(m), np.empty((m, 3)), np.empty(m, dtype=np.int64),
                     np.empty((m, 3)))
    order = grid.locality_order(cells) if m >= SORT_FROM else None
    if order is not None:
        ordered = np.take(pts, order, axis=0)  # one gather of 16-byte rows: one cache miss per query
        x, y = ordered[:, 0], ordered[:, 1]
        cells = np.take(cells, order)
        if inside is not None:
            inside = np.take(inside, order)
    for start in range(0, m, QUERY_BLOCK):
        part = slice(start, start + QUERY_BLOCK)
        _block(tables, x[part], y[part], cells[part], None if inside is None else inside[part], hit, start)
    if order is None:
        return _with_misses(hit)
    del ordered, x, y, cells, inside
    answers: list[NDArray[Any]] = [hit.mask, hit.z, hit.normal, hit.triangle, hit.barycentric]
    del hit
    for k, answer in enumerate(answers):  # one answer at a time: the extra memory is one array
        answers[k] = _put_back(answer, order)
        del answer
    return _with_misses(TerrainHit(*answers))


def _put_back(answer: NDArray[Any], order: NDArray[np.intp]) -> NDArray[Any]:
    """``answer`` (rows in processing order) in the callers' order: row ``i`` goes to row ``order[i]``.

    A scatter (the writes need not wait for each other, unlike the reads of a gather); the rows of a 2-D
    answer move as single opaque items, so numpy copies each row in one piece.
    """
    placed = np.empty_like(answer)
    if answer.ndim == 1:
        placed[order] = answer
    else:
        row = np.dtype((np.void, answer.itemsize * answer.shape[1]))
        placed.view(row).reshape(len(order))[order] = answer.view(row).reshape(len(order))
    return placed


def _block(tables: Tables, x: NDArray[np.float64], y: NDArray[np.float64], cells: NDArray[np.int64],
           inside: NDArray[np.bool_] | None, out: TerrainHit, offset: int) -> None:
    """Answer one block of queries into rows ``offset, offset + 1, ...`` of ``out`` (hits only)."""
    query, cand = tables.grid.cells.candidates(cells, inside)
    if len(query) == 0:
        return
    # Offsets from each candidate's first corner (see .planes): the answer depends on that triangle alone.
    dx = np.take(x, query)
    dx -= np.take(tables.bary[2], cand)
    dy = np.take(y, query)
    dy -= np.take(tables.bary[5], cand)
    b1 = _linear(tables.bary[0], tables.bary[1], cand, dx, dy)
    b2 = _linear(tables.bary[3], tables.bary[4], cand, dx, dy)
    tol = BARYCENTRIC_TOLERANCE
    within = np.minimum(b1, b2) >= -tol
    within &= b1 + b2 <= 1.0 + tol
    idx = np.flatnonzero(within)
    if len(idx) == 0:
        return
    q_hit, t_hit, b1_hit, b2_hit = query[idx], cand[idx], b1[idx], b2[idx]
    height = np.take(tables.height, t_hit, axis=0)
    z_hit = height[:, 0] + b1_hit * height[:, 1] + b2_hit * height[:, 2]
    best = _top_most(tables, q_hit, t_hit, z_hit)
    if best is not None:
        q_hit, t_hit, b1_hit, b2_hit, z_hit = q_hit[best], t_hit[best], b1_hit[best], b2_hit[best], z_hit[best]
    if len(q_hit) == len(x):  # every query of the block hit, once each: contiguous rows
        rows: slice | NDArray[np.intp] = slice(offset, offset + len(x))
        np.take(tables.normal, t_hit, axis=0, out=out.normal[rows], mode="clip")
    else:
        rows = q_hit + offset
        out.normal[rows] = np.take(tables.normal, t_hit, axis=0)
    out.mask[rows] = True
    out.z[rows] = z_hit
    out.triangle[rows] = np.take(tables.kept, t_hit)
    out.barycentric[rows, 0] = 1.0 - b1_hit - b2_hit
    out.barycentric[rows, 1] = b1_hit
    out.barycentric[rows, 2] = b2_hit


def _linear(a: NDArray[np.float64], c: NDArray[np.float64], cand: NDArray[np.integer], dx: NDArray[np.float64],
            dy: NDArray[np.float64]) -> NDArray[np.float64]:
    """``a dx + c dy`` with ``a, c`` taken at the candidates: one-dimensional gathers (numpy's fast path for 8-byte
    items) and contiguous arithmetic."""
    out = np.take(a, cand)
    out *= dx
    term = np.take(c, cand)
    term *= dy
    out += term
    return out


def _top_most(tables: Tables, q_hit: NDArray[np.intp], t_hit: NDArray[np.integer], z_hit: NDArray[np.float64]
              ) -> NDArray[np.intp] | None:
    """Which hits are the top-most of their query (hits come grouped by query, ascending); ``None``: all.

    Ties (the same height, e.g. on a shared edge) go to the flattest triangle (largest normal z, then x, then
    y): a rule about the triangles themselves, not about their place in the input, which an edit elsewhere may
    shift; the triangle listed last in the input when even the normals are the same.
    """
    if len(q_hit) < 2:
        return None
    again = q_hit[1:] == q_hit[:-1]  # a query's second hit or later (near a shared edge: few of them)
    if not again.any():
        return None
    run_start = np.flatnonzero(np.r_[True, ~again])
    run_len = np.diff(np.r_[run_start, len(q_hit)])
    best: NDArray[np.intp] = run_start  # a query hit once: that hit
    several = np.flatnonzero(run_len > 1)
    # Only the queries hit more than once choose, each among its own hits.
    starts, lengths = run_start[several], run_len[several]
    pos = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    pos += np.arange(len(pos))
    local = np.r_[0, np.cumsum(lengths)[:-1]]
    z_max = np.maximum.reduceat(z_hit[pos], local)
    tops = np.flatnonzero(z_hit[pos] == np.repeat(z_max, lengths))
    top_pos, run_of = pos[tops], np.repeat(several, lengths)[tops]
    tied = np.r_[run_of[1:] == run_of[:-1], False]  # another top of the same query follows
    best[run_of[~tied]] = top_pos[~tied]  # the last top of each query: its only one, unless tied
    if tied.any():  # the same height from several triangles: the tie rule, among those tops only
        tied |= np.r_[False, tied[:-1]]
        top_pos, run_of = top_pos[tied], run_of[tied]
        normal = tables.normal[t_hit[top_pos]]
        top_pos = top_pos[np.lexsort((tables.kept[t_hit[top_pos]], normal[:, 1], normal[:, 0], normal[:, 2],
                                      run_of))]
        last = np.r_[run_of[1:] != run_of[:-1], True]
        best[run_of[last]] = top_pos[last]
    return best


def _with_misses(hit: TerrainHit) -> TerrainHit:
    """``hit`` with the documented sentinels on the misses (rows no block wrote)."""
    if not hit.mask.all():
        miss = ~hit.mask
        hit.z[miss] = np.nan
        hit.normal[miss] = np.nan
        hit.triangle[miss] = -1
        hit.barycentric[miss] = np.nan
    return hit
