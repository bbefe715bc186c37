"""Maximal Poisson-disk sampling: phased dart throwing on the background grid, then grid refinement.

1. Dart throwing in phase groups (Wei 2008): cells whose column and row agree modulo the phase period are
   far enough apart that no two darts in them can conflict, so one numpy step throws a dart into every
   empty cell of a phase and accepts every dart that passes the tests.
2. Refinement (Ebeida et al. 2011/2012): every cell still empty is split into sub-boxes; a box dies when a
   single conflict disk holds all four of its corners (a disk is convex) or when it is outside the domain
   or masked out; darts go into the surviving boxes (one accepted per cell and phase); repeat with halved
   boxes until none survives (exact maximality for a constant radius) or the surviving area is negligible.
"""

from __future__ import annotations

import numpy as np

from ._poisson_state import SamplerState

LEVEL0_SWEEPS = 2
MAX_LEVEL = 40
# Stop refining when the boxes still alive cover less than this share of the domain.
EXACT_TOLERANCE = 1e-13
APPROX_TOLERANCE = 1e-8


def _throw(
    st: SamplerState,
    x0: np.ndarray,
    y0: np.ndarray,
    bw: np.ndarray,
    bh: np.ndarray,
    ids: np.ndarray,
    one_per_cell: bool,
) -> None:
    """Throw one dart in every box and insert the ones that fit (boxes must not conflict across cells)."""
    u = st.rng.random((2, x0.size))
    x = x0 + u[0] * bw
    y = y0 + u[1] * bh
    if st.tileable:
        x = np.minimum(x, np.nextafter(st.w, 0.0))
        y = np.minimum(y, np.nextafter(st.h, 0.0))
        keep = ~st.own_conflicts(x, y, None, ids)
    else:
        keep = (x < st.w) & (y < st.h)
        keep &= ~st.own_conflicts(x, y, None, ids)
    sel = np.flatnonzero(keep)
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


def _phase_groups(st: SamplerState, ids: np.ndarray) -> tuple[np.ndarray, list[slice]]:
    """An order of ``ids`` grouped by phase, and the slice of each non-empty phase group."""
    phase = st.phase_of(ids)
    order = np.argsort(phase, kind="stable")
    counts = np.bincount(phase, minlength=st.phase_count)
    ends = np.cumsum(counts)
    return order, [slice(int(e - c), int(e)) for c, e in zip(counts, ends, strict=True) if c]


def _clip_sides(st: SamplerState, x0: np.ndarray, y0: np.ndarray, hx: float, hy: float):
    if st.tileable:
        return np.full(x0.size, hx), np.full(x0.size, hy)
    return np.minimum(x0 + hx, st.w) - x0, np.minimum(y0 + hy, st.h) - y0


def _sweep(st: SamplerState, x0, y0, bw, bh, ids, one_per_cell: bool) -> None:
    order, groups = _phase_groups(st, ids)
    for g in groups:
        sel = order[g]
        _throw(st, x0[sel], y0[sel], bw[sel], bh[sel], ids[sel], one_per_cell)


def _prune(st: SamplerState, x0, y0, bw, bh, ids, masked: bool, hx: float, hy: float):
    """Drop boxes in filled cells, boxes inside one conflict disk, and boxes masked out entirely."""
    sel = np.flatnonzero(st.slots[ids] < 0)
    x0, y0, bw, bh, ids = x0[sel], y0[sel], bw[sel], bh[sel], ids[sel]
    keep = ~st.own_covers(x0, y0, bw, bh, None, ids, hx, hy)
    if st.blockers is not None:
        keep &= ~st.blocker_covers(x0, y0, bw, bh, None)
    sel = np.flatnonzero(keep)
    x0, y0, bw, bh, ids = x0[sel], y0[sel], bw[sel], bh[sel], ids[sel]
    if masked and x0.size:
        n = x0.size
        px = np.concatenate((x0, x0 + bw, x0, x0 + bw, x0 + 0.5 * bw))
        py = np.concatenate((y0, y0, y0 + bh, y0 + bh, y0 + 0.5 * bh))
        if not st.tileable:
            px = np.minimum(px, np.nextafter(st.w, 0.0))
            py = np.minimum(py, np.nextafter(st.h, 0.0))
        else:
            px %= st.w
            py %= st.h
        sel = np.flatnonzero(st.allowed(px, py).reshape(5, n).any(axis=0))
        x0, y0, bw, bh, ids = x0[sel], y0[sel], bw[sel], bh[sel], ids[sel]
    if st.variable and x0.size:
        n = x0.size
        cx = np.concatenate((x0, x0 + bw, x0, x0 + bw))
        cy = np.concatenate((y0, y0, y0 + bh, y0 + bh))
        if st.tileable:
            cx %= st.w
            cy %= st.h
        r_lo = st.radius(cx, cy).reshape(4, n).min(axis=0)
        dead = st.own_covers(x0, y0, bw, bh, r_lo, ids, hx, hy) | st.blocker_covers(x0, y0, bw, bh, r_lo)
        sel = np.flatnonzero(~dead)
        x0, y0, bw, bh, ids = x0[sel], y0[sel], bw[sel], bh[sel], ids[sel]
    return x0, y0, bw, bh, ids


def fill_maximal(st: SamplerState) -> None:
    """Fill ``st`` with a maximal conflict-free set of points."""
    ids = st.all_cells()
    ix, iy = st.cell_xy(ids)
    hx, hy = st.sx, st.sy
    x0 = ix * hx
    y0 = iy * hy
    bw, bh = _clip_sides(st, x0, y0, hx, hy)
    if st.blockers is not None:
        sel = np.flatnonzero(~st.blocker_covers(x0, y0, bw, bh, None))
        x0, y0, bw, bh, ids = x0[sel], y0[sel], bw[sel], bh[sel], ids[sel]
    for sweep in range(LEVEL0_SWEEPS):
        if sweep:
            x0, y0, bw, bh, ids = _prune(st, x0, y0, bw, bh, ids, False, hx, hy)
        _sweep(st, x0, y0, bw, bh, ids, one_per_cell=False)

    masked = st.settings.is_allowed is not None
    exact = not masked and not st.variable
    tolerance = (EXACT_TOLERANCE if exact else APPROX_TOLERANCE) * st.w * st.h
    sel = np.flatnonzero(st.slots[ids] < 0)
    x0, y0, ids = x0[sel], y0[sel], ids[sel]
    level = 0
    while x0.size and level < MAX_LEVEL:
        level += 1
        hx, hy = hx * 0.5, hy * 0.5
        x0 = np.concatenate((x0, x0 + hx, x0, x0 + hx))
        y0 = np.concatenate((y0, y0, y0 + hy, y0 + hy))
        ids = np.tile(ids, 4)
        if not st.tileable:
            sel = np.flatnonzero((x0 < st.w) & (y0 < st.h))
            x0, y0, ids = x0[sel], y0[sel], ids[sel]
        bw, bh = _clip_sides(st, x0, y0, hx, hy)
        x0, y0, bw, bh, ids = _prune(st, x0, y0, bw, bh, ids, masked, hx, hy)
        if x0.size * hx * hy <= tolerance:
            break
        perm = st.rng.permutation(x0.size)
        x0, y0, bw, bh, ids = x0[perm], y0[perm], bw[perm], bh[perm], ids[perm]
        _sweep(st, x0, y0, bw, bh, ids, one_per_cell=True)
        sel = np.flatnonzero(st.slots[ids] < 0)
        x0, y0, ids = x0[sel], y0[sel], ids[sel]
