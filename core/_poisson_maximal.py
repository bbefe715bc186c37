"""Maximal Poisson-disk sampling: phased dart throwing on the background grid, then grid refinement.

1. Dart throwing in phase groups (Wei 2008): cells whose column and row agree modulo the phase period are
   far enough apart that no two darts in them can conflict, so one numpy step throws a dart into every
   empty cell of a phase and accepts every dart that passes the tests.
2. Refinement (Ebeida et al. 2011/2012): every cell still empty is split into four boxes; a box dies when
   a single conflict disk holds all four of its corners (a disk is convex) or when it is masked out; one
   dart goes into each surviving box (phase by phase, at most one accepted per cell); repeat with halved
   boxes until none survives (exact maximality for a constant radius) or the surviving area is negligible.

All boxes of one level have the same size (the grid divides the rectangle exactly), so boxes are kept as
arrays of lower-left corners plus their cell, and their side is a scalar.
"""

from __future__ import annotations

import numpy as np

from ._poisson_state import SamplerState

LEVEL0_SWEEPS = 2
MAX_LEVEL = 40
# Stop refining when the boxes still alive cover less than this share of the domain.
EXACT_TOLERANCE = 1e-13
APPROX_TOLERANCE = 1e-8

Boxes = tuple[np.ndarray, np.ndarray, np.ndarray]  # lower-left x, lower-left y, cell id


def _take(boxes: Boxes, sel: np.ndarray) -> Boxes:
    return boxes[0][sel], boxes[1][sel], boxes[2][sel]


def _throw(st: SamplerState, boxes: Boxes, bw: float, bh: float, one_per_cell: bool) -> None:
    """Throw one dart in every box and insert the ones that fit (boxes of different cells must be far
    enough apart that their darts cannot conflict: one phase group)."""
    x0, y0, ids = boxes
    u = st.rng.random((2, x0.size))
    x = x0 + u[0] * bw
    y = y0 + u[1] * bh
    # Rounding may land a dart on the far edge of the rectangle: keep it inside [0, w) x [0, h).
    np.minimum(x, np.nextafter(st.w, 0.0), out=x)
    np.minimum(y, np.nextafter(st.h, 0.0), out=y)
    sel = np.flatnonzero(~st.own_conflicts(x, y, None, ids))
    x, y, ids = x[sel], y[sel], ids[sel]
    if st.settings.is_allowed is not None and x.size:
        sel = np.flatnonzero(st.allowed(x, y))
        x, y, ids = x[sel], y[sel], ids[sel]
    r = None
    if st.variable and x.size:
        r = st.radius(x, y)
        sel = np.flatnonzero(~st.own_conflicts(x, y, r, ids))
        x, y, ids, r = x[sel], y[sel], ids[sel], r[sel]
    if st.blockers is not None and x.size:
        sel = np.flatnonzero(~st.blocked(x, y, r))
        x, y, ids = x[sel], y[sel], ids[sel]
        r = None if r is None else r[sel]
    if one_per_cell and x.size:
        _, sel = np.unique(ids, return_index=True)
        x, y, ids = x[sel], y[sel], ids[sel]
        r = None if r is None else r[sel]
    if x.size:
        st.insert(x, y, r, ids)


def _sweep(st: SamplerState, boxes: Boxes, bw: float, bh: float, one_per_cell: bool) -> None:
    """One dart per box, phase group after phase group."""
    phase = st.phase_of(boxes[2])
    order = np.argsort(phase, kind="stable")
    ends = np.cumsum(np.bincount(phase, minlength=st.phase_count))
    start = 0
    for end in ends.tolist():
        if end > start:
            _throw(st, _take(boxes, order[start:end]), bw, bh, one_per_cell)
        start = end


def _corners(x0: np.ndarray, y0: np.ndarray, bw: float, bh: float, centre: bool) -> tuple[np.ndarray, ...]:
    xs = [x0, x0 + bw, x0, x0 + bw] + ([x0 + 0.5 * bw] if centre else [])
    ys = [y0, y0, y0 + bh, y0 + bh] + ([y0 + 0.5 * bh] if centre else [])
    return np.concatenate(xs), np.concatenate(ys)


def _prune_slow(st: SamplerState, boxes: Boxes, bw: float, bh: float, masked: bool) -> Boxes:
    """Drop boxes inside a blocker's disk, boxes masked out entirely (all corners and centre are not
    allowed), and, for a variable radius, boxes covered once the radius at their corners is known."""
    x0, y0, ids = boxes
    if st.blockers is not None and x0.size:
        boxes = _take(
            boxes, np.flatnonzero(~st.blocker_covers(x0 + 0.5 * bw, y0 + 0.5 * bh, 0.5 * bw, 0.5 * bh, None))
        )
    if masked and boxes[0].size:
        n = boxes[0].size
        px, py = _corners(boxes[0], boxes[1], bw, bh, centre=True)
        np.minimum(px, np.nextafter(st.w, 0.0), out=px)
        np.minimum(py, np.nextafter(st.h, 0.0), out=py)
        boxes = _take(boxes, np.flatnonzero(st.allowed(px, py).reshape(5, n).any(axis=0)))
    if st.variable and boxes[0].size:
        x0, y0, ids = boxes
        n = x0.size
        px, py = _corners(x0, y0, bw, bh, centre=False)
        np.minimum(px, np.nextafter(st.w, 0.0), out=px)
        np.minimum(py, np.nextafter(st.h, 0.0), out=py)
        r_lo = st.radius(px, py).reshape(4, n).min(axis=0)
        cx, cy = x0 + 0.5 * bw, y0 + 0.5 * bh
        dead = st.own_covers(cx, cy, 0.5 * bw, 0.5 * bh, r_lo, ids)
        dead |= st.blocker_covers(cx, cy, 0.5 * bw, 0.5 * bh, r_lo)
        boxes = _take(boxes, np.flatnonzero(~dead))
    return boxes


def fill_maximal(st: SamplerState) -> None:
    """Fill ``st`` with a maximal conflict-free set of points."""
    ids = st.all_cells()
    ix, iy = st.cell_xy(ids)
    bw, bh = st.sx, st.sy
    boxes: Boxes = (ix * bw, iy * bh, ids)
    boxes = _prune_slow(st, boxes, bw, bh, masked=False)
    for sweep in range(LEVEL0_SWEEPS):
        if sweep:
            x0, y0, ids = boxes = _take(boxes, np.flatnonzero(st.slots[boxes[2]] < 0))
            boxes = _take(
                boxes,
                np.flatnonzero(~st.own_covers(x0 + 0.5 * bw, y0 + 0.5 * bh, 0.5 * bw, 0.5 * bh, None, ids)),
            )
        _sweep(st, boxes, bw, bh, one_per_cell=False)

    masked = st.settings.is_allowed is not None
    exact = not masked and not st.variable
    tolerance = (EXACT_TOLERANCE if exact else APPROX_TOLERANCE) * st.w * st.h
    boxes = _take(boxes, np.flatnonzero(st.slots[boxes[2]] < 0))
    level = 0
    while boxes[0].size and level < MAX_LEVEL:
        level += 1
        x0, y0, ids = boxes
        covered = st.split_covered(x0, y0, ids, bw, bh).ravel()
        bw, bh = 0.5 * bw, 0.5 * bh
        boxes = (
            np.concatenate((x0, x0 + bw, x0, x0 + bw)),
            np.concatenate((y0, y0, y0 + bh, y0 + bh)),
            np.tile(ids, 4),
        )
        boxes = _take(boxes, np.flatnonzero(~covered))
        boxes = _prune_slow(st, boxes, bw, bh, masked)
        if boxes[0].size * bw * bh <= tolerance:
            break
        boxes = _take(boxes, st.rng.permutation(boxes[0].size))
        _sweep(st, boxes, bw, bh, one_per_cell=True)
        boxes = _take(boxes, np.flatnonzero(st.slots[boxes[2]] < 0))
