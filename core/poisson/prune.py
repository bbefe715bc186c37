"""Pruning of the refinement's boxes: blockers, the mask and a variable radius' reach.

The user's callables are evaluated lazily (a box's centre first, its corners only where the centre does
not decide), corners shared by neighbouring boxes once, and a value already known at one of a box's
corners (its parent's centre, a *hint*) is used before anything is asked: a box with an allowed corner is
kept, and one with a corner whose radius fits is not killed by the reach test, without a call.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .placed import reach_index
from .state import SamplerState

# Box corners are evaluated through a dense lattice (each shared corner once) when it has at most this
# many points per corner asked for.
LATTICE_PER_CORNER = 2

Boxes = tuple[np.ndarray, np.ndarray, np.ndarray]  # lower-left x, lower-left y, lower-left cell id
Values = tuple[np.ndarray, np.ndarray]  # per box: the mask allows (bool), the radius (inf: not known)


def unknown(m: int) -> Values:
    """No value known for ``m`` boxes."""
    return np.zeros(m, dtype=bool), np.full(m, np.inf)


def prune_boxes(
    st: SamplerState,
    boxes: Boxes,
    bw: float,
    bh: float,
    cells: int,
    masked: bool,
    reach2: np.ndarray | None,
    hint: Values | None = None,
) -> tuple[Boxes, Values | None]:
    """Drop boxes inside a blocker's disk, boxes masked out entirely (corners and centre not allowed;
    only once boxes are no larger than a cell), and, for a variable radius, boxes where a point would
    conflict through its own radius: the least radius at the box's corners and centre reaches a placed
    point or blocker beyond the box's far corner (``reach2``: squared distance for our points, aligned with
    ``boxes``). ``hint``: values known at one corner of each box (see the module). Returns the surviving
    boxes and the values evaluated at their centres (``unknown`` where none was), their children's hints;
    ``None`` when there is nothing to prune by.
    """
    placed = reach_index(st)
    least = placed is not None and st.settings.least_radius_at is not None
    if st.blockers is None and not masked and (not st.variable or reach2 is None) and not least:
        return boxes, None
    m = boxes[0].size
    cols: list[np.ndarray] = [*boxes, *(hint or unknown(m)), *unknown(m), np.zeros(m) if reach2 is None else reach2]
    ok_hint, r_hint, ok_centre, r_centre, reach = 3, 4, 5, 6, 7

    def take(sel: np.ndarray) -> None:
        cols[:] = [c[sel] for c in cols]

    if st.blockers is not None and m and not least:  # (the least radius' test holds the blockers too)
        cx, cy = cols[0] + 0.5 * bw, cols[1] + 0.5 * bh
        take(np.flatnonzero(~st.blocker_covers(cx, cy, 0.5 * bw, 0.5 * bh)))
    if placed is not None and least and cols[0].size:
        take(np.flatnonzero(~placed.held_for_least(*boxes_of(cols), bw, bh, cells)))
    if masked and cols[0].size:
        x0, y0 = cols[0], cols[1]
        keep = cols[ok_hint].copy()
        ask = np.flatnonzero(~keep)
        cols[ok_centre][ask] = st.allowed(*inside(st, x0[ask] + 0.5 * bw, y0[ask] + 0.5 * bh))
        keep |= cols[ok_centre]
        unsure = np.flatnonzero(~keep)
        if unsure.size and cells > 1:
            keep[unsure] = any_cell_allowed(st, (x0[unsure], y0[unsure], cols[2][unsure]), cells)
        elif unsure.size:
            keep[unsure] = corner_values(st, st.allowed, x0[unsure], y0[unsure], bw, bh).any(axis=0)
        take(np.flatnonzero(keep))
    if st.variable and cols[0].size and reach2 is not None:
        x0, y0, reach2 = cols[0], cols[1], cols[reach]
        cx, cy = x0 + 0.5 * bw, y0 + 0.5 * bh
        if st.blockers is not None:
            reach2 = np.minimum(reach2, st.blockers.nearest_far2(cx, cy, 0.5 * bw, 0.5 * bh))
        dead = np.zeros(x0.size, dtype=bool)
        # Only boxes within reach of a point, and without a corner known to fit, can die.
        near = np.flatnonzero((reach2 < st.max_radius * st.max_radius) & ~(cols[r_hint] ** 2 <= reach2))
        r_lo = np.zeros(0)
        if near.size:
            r_lo = st.radius(*inside(st, cx[near], cy[near]))
            cols[r_centre][near] = r_lo
            sure = r_lo * r_lo > reach2[near]  # a point at the centre would conflict: check the corners
            near, r_lo = near[sure], r_lo[sure]
        if near.size:
            corners = corner_values(st, st.radius, x0[near], y0[near], bw, bh).min(axis=0)
            r_lo = np.minimum(r_lo, corners)
            dead[near] = r_lo * r_lo > reach2[near]
        take(np.flatnonzero(~dead))
    return (cols[0], cols[1], cols[2]), (cols[ok_centre], cols[r_centre])


def boxes_of(cols: list[np.ndarray]) -> Boxes:
    """The boxes' columns (lower-left x, y, cell) of ``prune_boxes``' working columns."""
    return cols[0], cols[1], cols[2]


def any_cell_allowed(st: SamplerState, boxes: Boxes, cells: int) -> np.ndarray:
    """For boxes of ``cells x cells`` cells: whether any of their cells would survive the one-cell mask
    test (an allowed corner or centre), so a box is dropped exactly when refining it down to cells would
    drop every piece. The cell corners are asked first (each shared corner once), the cell centres only
    for boxes without an allowed corner. (``prune_boxes`` asks the box centre, a cell corner, before.)"""
    ids = boxes[2]
    ix, iy = st.cell_xy(ids)
    step = np.arange(cells + 1)
    ax, ay = (a.ravel() for a in np.meshgrid(step, step))
    # corners on the lattice of cell corners (clipped to the grid: a box may stick out of it)
    cx = np.minimum(ix[:, None] + ax[None, :], st.cols)
    cy = np.minimum(iy[:, None] + ay[None, :], st.rows)
    keys = (cy * (st.cols + 1) + cx).ravel()
    needed = np.zeros((st.rows + 1) * (st.cols + 1), dtype=bool)
    needed[keys] = True
    lattice = np.flatnonzero(needed)
    table = np.zeros(needed.size, dtype=bool)
    table[lattice] = st.allowed(*inside(st, (lattice % (st.cols + 1)) * st.sx, (lattice // (st.cols + 1)) * st.sy))
    found = table[keys].reshape(ids.size, -1).any(axis=1)
    rest = np.flatnonzero(~found)
    if rest.size:  # cell centres (cells outside the grid clipped onto its last row or column)
        inner = (ax < cells) & (ay < cells)
        mx = np.minimum(ix[rest, None] + ax[None, inner], st.cols - 1)
        my = np.minimum(iy[rest, None] + ay[None, inner], st.rows - 1)
        centre = st.allowed((mx.ravel() + 0.5) * st.sx, (my.ravel() + 0.5) * st.sy)
        found[rest] = centre.reshape(rest.size, -1).any(axis=1)
    return found


def inside(st: SamplerState, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sample points on the far edge of the rectangle moved just inside it."""
    return np.minimum(x, np.nextafter(st.w, 0.0)), np.minimum(y, np.nextafter(st.h, 0.0))


def corner_values(
    st: SamplerState,
    fn: Callable[[np.ndarray, np.ndarray], np.ndarray],
    x0: np.ndarray,
    y0: np.ndarray,
    bw: float,
    bh: float,
) -> np.ndarray:
    """``fn(x, y)`` at the four corners of every box (lower-left, lower-right, upper-left, upper-right) as a
    (4, M) array. Boxes of one level sit on a lattice of step ``bw x bh`` and neighbours share corners: when
    the boxes are dense on that lattice, every lattice corner is evaluated once."""
    m = x0.size
    kx = np.rint(x0 / bw).astype(np.int64)
    ky = np.rint(y0 / bh).astype(np.int64)
    nx, ny = int(np.max(kx)) + 2, int(np.max(ky)) + 2
    if nx * ny > LATTICE_PER_CORNER * 4 * m:  # sparse boxes: evaluate every corner directly
        px = np.concatenate((x0, x0 + bw, x0, x0 + bw))
        py = np.concatenate((y0, y0, y0 + bh, y0 + bh))
        return fn(*inside(st, px, py)).reshape(4, m)
    low = ky * nx + kx
    keys = np.concatenate((low, low + 1, low + nx, low + nx + 1))
    needed = np.zeros(nx * ny, dtype=bool)
    needed[keys] = True
    lattice = np.flatnonzero(needed)
    values = fn(*inside(st, (lattice % nx) * bw, (lattice // nx) * bh))
    table = np.empty(nx * ny, dtype=values.dtype)
    table[lattice] = values
    return table[keys].reshape(4, m)
