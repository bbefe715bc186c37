"""Box coverage queries of the refinement: which boxes one placed point's disk holds whole, and how far the
nearest placed point reaches into the others (for a variable radius)."""

from __future__ import annotations

import numpy as np

from .layout import in_blocks
from .placed import reach_index
from .state import NEAR, SamplerState, blockwise

PLACED_BLOCK = 8192  # boxes per block when the placed points' reach index finds the candidates (a few per box)


def cover_offsets(
    st: SamplerState, bw: float, bh: float, cells: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Window offsets (from a box's lower-left cell) whose points can hold the whole box in one disk.

    The box is ``bw x bh`` and spans ``cells x cells`` cells (1: it lies inside one, empty, cell). A
    point ``ox >= cells`` columns away is at least ``(ox-cells)*sx + bw`` from the box's far side, one
    at ``ox < 0`` at least ``(-ox-1)*sx + bw``, and one above the box at least ``bw/2``; offsets whose
    bound reaches ``cover_reach`` (what a placed point can hold off) are skipped.
    """
    key = (bw, bh, cells)
    if key not in st.cover_cache:
        span = np.arange(-st.window, st.window + cells)

        def bound(side: float, box: float) -> np.ndarray:  # per offset along one axis
            inner = np.where(span < 0, (-span - 1) * side + box, 0.5 * box)
            return np.where(span >= cells, (span - cells) * side + box, inner)

        fx, fy = bound(st.sx, bw), bound(st.sy, bh)
        keep = fy[:, None] ** 2 + fx[None, :] ** 2 < st.cover_reach * st.cover_reach  # rows: oy, columns: ox
        if cells == 1:
            keep[st.window, st.window] = False  # the box's own cell (empty)
        iy, ix = np.nonzero(keep)
        ox, oy = span[ix], span[iy]
        st.cover_cache[key] = (ox, oy, oy * st.stride + ox)
    return st.cover_cache[key]


def own_cover_reach(
    st: SamplerState,
    cx: np.ndarray,
    cy: np.ndarray,
    half_w: float,
    half_h: float,
    ids: np.ndarray,
    cells: int,
    want_reach: bool,
) -> tuple[np.ndarray, np.ndarray | None]:
    """For boxes (centre ``cx, cy``, half sides given, lower-left cell ``ids``, spanning ``cells x cells``
    cells or inside one empty cell): whether each lies in one placed point's own disk (its farthest
    corner closer than ``max(r_point, min_radius)``), and, with ``want_reach``, the smallest squared
    distance from a placed point to its farthest corner (inf when none is near): a point standing in
    the box with a radius beyond that would conflict."""
    placed = reach_index(st)
    if placed is not None and not want_reach:
        return placed.covers(cx, cy, half_w, half_h), None
    return _own_cover_reach(st, cx, cy, half_w, half_h, ids, cells, want_reach)


@blockwise
def _own_cover_reach(
    st: SamplerState,
    cx: np.ndarray,
    cy: np.ndarray,
    half_w: float,
    half_h: float,
    ids: np.ndarray,
    cells: int,
    want_reach: bool,
) -> tuple[np.ndarray, np.ndarray | None]:
    """``own_cover_reach`` through the window of background cells."""
    covered = np.zeros(cx.size, dtype=bool)
    reach2 = np.full(cx.size, np.inf) if want_reach else None
    q, j = st.pairs(ids, cover_offsets(st, 2.0 * half_w, 2.0 * half_h, cells))
    if q.size == 0:
        return covered, reach2
    dx, dy = st.delta(np.take(cx, q), np.take(cy, q), j)
    fx = np.abs(dx) + half_w
    fy = np.abs(dy) + half_h
    far2 = fx * fx + fy * fy
    need2 = st.cover_radius(j) ** 2
    covered[q[far2 < need2]] = True
    if reach2 is not None:
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])  # q is sorted: one segment per box
        reach2[q[starts]] = np.minimum.reduceat(far2, starts)
    return covered, reach2

def split_cover_reach(
    st: SamplerState,
    x0: np.ndarray,
    y0: np.ndarray,
    ids: np.ndarray,
    bw: float,
    bh: float,
    want_reach: bool,
    cells: int = 1,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Split each ``bw x bh`` box (corner ``x0, y0``; inside one empty cell, or spanning ``cells x cells``
    cells from ``ids``) in four; ``own_cover_reach`` of the children as (4, M) arrays (lower-left,
    lower-right, upper-left, upper-right)."""
    placed = reach_index(st)
    if placed is not None and not want_reach:

        def run(part: slice) -> np.ndarray:
            # A child held by one point's reach holds the parent's centre (one of its corners): look up by that.
            pairs = placed.pairs(x0[part] + 0.5 * bw, y0[part] + 0.5 * bh)
            return _split_cover_in(st, x0[part], y0[part], ids[part], bw, bh, False, pairs)[0]

        return in_blocks(PLACED_BLOCK, x0.size, run), None
    return _split_cover_reach(st, x0, y0, ids, bw, bh, want_reach, cells)


@blockwise
def _split_cover_reach(
    st: SamplerState,
    x0: np.ndarray,
    y0: np.ndarray,
    ids: np.ndarray,
    bw: float,
    bh: float,
    want_reach: bool,
    cells: int = 1,
) -> tuple[np.ndarray, np.ndarray | None]:
    """``split_cover_reach`` through the window of background cells: the neighbours are gathered once per parent,
    not per child (the offsets that can matter for a child-sized box anywhere in the parent's span)."""
    offsets = cover_offsets(st, 0.5 * bw, 0.5 * bh, cells)
    if st.far is None:
        return _split_cover_in(st, x0, y0, ids, bw, bh, want_reach, offsets)
    # Wide window: the near cells first; the far cells only for parents with a child still uncovered.
    near, far = _near_far(st, offsets, cells)
    covered, reach2 = _split_cover_in(st, x0, y0, ids, bw, bh, want_reach, near)
    rest = np.flatnonzero(~covered.all(axis=0))
    if rest.size and far[0].size:
        far_covered, far_reach2 = _split_cover_in(st, x0[rest], y0[rest], ids[rest], bw, bh, want_reach, far)
        covered[:, rest] |= far_covered
        if reach2 is not None and far_reach2 is not None:
            reach2[:, rest] = np.minimum(reach2[:, rest], far_reach2)
    return covered, reach2

def _near_far(
    st: SamplerState, offsets: tuple[np.ndarray, np.ndarray, np.ndarray], cells: int
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Window offsets (from a box's lower-left cell, the box spanning ``cells`` cells) within ``NEAR``
    cells of the box, and the others."""
    ox, oy, flat = offsets
    near = (ox >= -NEAR) & (ox < cells + NEAR) & (oy >= -NEAR) & (oy < cells + NEAR)
    return (ox[near], oy[near], flat[near]), (ox[~near], oy[~near], flat[~near])

def _split_cover_in(
    st: SamplerState,
    x0: np.ndarray,
    y0: np.ndarray,
    ids: np.ndarray,
    bw: float,
    bh: float,
    want_reach: bool,
    offsets: tuple[np.ndarray, np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray | None]:
    """The four children's coverage against the points in the window ``offsets``, or against the (parent,
    point) pairs given."""
    covered = np.zeros((4, x0.size), dtype=bool)
    reach2 = np.full((4, x0.size), np.inf) if want_reach else None
    qw, qh = 0.25 * bw, 0.25 * bh  # half side of a child = offset of its centre from the parent's
    q, j = st.pairs(ids, offsets) if len(offsets) == 3 else offsets
    if q.size == 0:
        return covered, reach2
    dx, dy = st.delta(np.take(x0, q) + 2.0 * qw, np.take(y0, q) + 2.0 * qh, j)
    fx_lo, fx_hi = np.abs(dx - qw), np.abs(dx + qw)
    fy_lo, fy_hi = np.abs(dy - qh), np.abs(dy + qh)
    fx_lo += qw
    fx_hi += qw
    fy_lo += qh
    fy_hi += qh
    fx_lo *= fx_lo
    fx_hi *= fx_hi
    fy_lo *= fy_lo
    fy_hi *= fy_hi
    need2 = st.cover_radius(j) ** 2
    far2 = np.stack((fx_lo + fy_lo, fx_hi + fy_lo, fx_lo + fy_hi, fx_hi + fy_hi))
    for k in range(4):
        covered[k, q[far2[k] < need2]] = True
    if reach2 is not None:
        starts = np.flatnonzero(np.diff(q, prepend=-1))  # q is sorted: one segment per parent
        reach2[:, q[starts]] = np.minimum.reduceat(far2, starts, axis=1)
    return covered, reach2
