"""Darts of one round kept in time order: the batch gives the same points as throwing them one by one.

The darts of a round carry their time (a dart with a smaller time was thrown earlier; without times, the
index is the time; equal times go by index). A
sequential sampler keeps a dart exactly when no earlier dart that it conflicts with was kept. That rule is
resolved for the whole batch at once, in passes: a dart whose earlier conflicting darts are all decided and
all dropped is kept; a dart with a kept earlier conflicting dart is dropped; repeat. The earliest undecided
dart is decided in every pass, and with random times the chains of dependencies are short (a few passes).
"""

from __future__ import annotations

import numpy as np

from .._grid import expand_ranges
from .state import SamplerState


def _half_window(st: SamplerState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The window offsets after the own cell in row-major order: each pair of cells is looked at once."""
    half = (st.off_y > 0) | ((st.off_y == 0) & (st.off_x > 0))
    return st.off_x[half], st.off_y[half], st.off_flat[half]


def _close(
    st: SamplerState, x: np.ndarray, y: np.ndarray, r: np.ndarray | None, i: np.ndarray, j: np.ndarray
) -> np.ndarray:
    """Which pairs of darts ``(i, j)`` conflict (closer than the larger radius, or the sum; wrapped on a torus)."""
    dx, dy = np.take(x, i) - np.take(x, j), np.take(y, i) - np.take(y, j)
    if st.tileable:
        dx -= st.w * np.rint(dx / st.w)
        dy -= st.h * np.rint(dy / st.h)
    if r is None:
        reach: np.ndarray | float = st.closest
    elif st.summed:
        reach = np.take(r, i) + np.take(r, j)
    else:
        reach = np.maximum(np.take(r, i), np.take(r, j))
    return dx * dx + dy * dy < reach * reach


# Half of the 3 x 3 buckets around a bucket (each pair of neighbouring buckets is looked at once).
HALF_BUCKETS = ((1, 0), (-1, 1), (0, 1), (1, 1))
# A window at least this wide (in cells) lists a round's darts in buckets instead (``_bucket_conflicts``).
BUCKET_WINDOW = 3
ALL_PAIRS = 64  # up to this many darts, every pair is tested (fewer steps than any lookup)


def _bucket_conflicts(
    st: SamplerState, x: np.ndarray, y: np.ndarray, r: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """``_earlier_conflicts`` through square buckets at least as wide as the round's farthest conflict: a
    conflicting pair shares a bucket or lies in neighbouring ones, so each dart reads 5 buckets instead of
    half a window of cells. ``None`` on a torus too small for 3 x 3 buckets."""
    side = st.closest if r is None else float(r.max()) * (2.0 if st.summed else 1.0)
    side *= 1.0 + 1e-9  # margin for rounding
    if st.tileable:  # ``nx x ny`` buckets dividing the torus, each at least ``side`` wide; they wrap
        nx, ny = int(st.w // side), int(st.h // side)
        if min(nx, ny) < 3:
            return None
        bx = np.minimum((x * (nx / st.w)).astype(np.int64), nx - 1)
        by = np.minimum((y * (ny / st.h)).astype(np.int64), ny - 1)
    else:  # a ring of empty buckets around the rectangle: neighbours never leave the table
        nx, ny = int(st.w // side) + 3, int(st.h // side) + 3
        bx, by = (x / side).astype(np.int64) + 1, (y / side).astype(np.int64) + 1
    key = by * nx + bx
    order = np.argsort(key, kind="stable")  # darts by bucket, then in time order
    bx, by, key = bx[order], by[order], key[order]
    count = np.bincount(key, minlength=nx * ny)
    start = np.cumsum(count) - count
    rank = np.arange(key.size) - start[key]  # place of each dart in its bucket
    owner, local = expand_ranges(rank)
    first, second = [owner], [owner - rank[owner] + local]
    if st.tileable:
        around = np.stack([(bx + dx) % nx + ((by + dy) % ny) * nx for dx, dy in HALF_BUCKETS], axis=1).ravel()
    else:
        around = (key[:, None] + np.array([dy * nx + dx for dx, dy in HALF_BUCKETS])).ravel()
    item, local = expand_ranges(count[around])
    first.append(item // len(HALF_BUCKETS))
    second.append(start[around[item]] + local)
    i, j = np.concatenate(first), np.concatenate(second)  # positions in ``order``
    sel = np.flatnonzero(_close(st, x[order], y[order], None if r is None else r[order], i, j))
    i, j = order[i[sel]], order[j[sel]]
    return np.minimum(i, j), np.maximum(i, j)


def _earlier_conflicts(
    st: SamplerState, x: np.ndarray, y: np.ndarray, r: np.ndarray | None, ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs ``(earlier, later)`` of darts that conflict (closer than the larger radius): darts sharing a
    cell, then the darts of the cells in half of the window around each dart (or, for a wide window,
    through buckets: ``_bucket_conflicts``; for a few darts, every pair)."""
    if ids.size <= ALL_PAIRS:
        earlier, later = np.triu_indices(ids.size, 1)
        sel = np.flatnonzero(_close(st, x, y, r, later, earlier))
        return earlier[sel], later[sel]
    if st.window >= BUCKET_WINDOW:
        bucketed = _bucket_conflicts(st, x, y, r)
        if bucketed is not None:
            return bucketed
    n = ids.size
    order = np.argsort(ids, kind="stable")  # stable: the darts of a cell stay in time order
    sorted_ids = ids[order]
    starts = np.flatnonzero(np.r_[True, sorted_ids[1:] != sorted_ids[:-1]])
    counts = np.diff(np.r_[starts, n])
    rank = np.arange(n) - np.repeat(starts, counts)
    owner, local = expand_ranges(rank)
    later, earlier = order[owner], order[owner - rank[owner] + local]
    sel = np.flatnonzero(_close(st, x, y, r, later, earlier))
    found_earlier, found_later = [earlier[sel]], [later[sel]]
    cells = sorted_ids[starts]
    st.dart_start[cells] = starts
    st.dart_count[cells] = counts
    offsets = _half_window(st)
    try:
        for first in range(0, n, st.block_rows):
            block = np.arange(first, min(first + st.block_rows, n))
            window = st.window_cells(ids[block], offsets)
            count = np.take(st.dart_count, window).ravel()
            found = np.flatnonzero(count)  # flat indices: faster than a 2-D nonzero
            cell = np.take(window, found)
            item, local = expand_ranges(count[found].astype(np.int64))
            i = block[found[item] // window.shape[1]]
            j = order[st.dart_start[cell[item]] + local]
            sel = np.flatnonzero((i != j) & _close(st, x, y, r, i, j))
            i, j = i[sel], j[sel]
            found_earlier.append(np.minimum(i, j))
            found_later.append(np.maximum(i, j))
    finally:
        st.dart_count[cells] = 0
    return np.concatenate(found_earlier), np.concatenate(found_later)


def resolve_in_time_order(
    st: SamplerState, x: np.ndarray, y: np.ndarray, r: np.ndarray | None, ids: np.ndarray,
    time: np.ndarray | None = None,
) -> np.ndarray:
    """Indices (ascending) of the darts a sequential sampler keeps when it throws them in ``time`` order
    (``None``: index order).

    Every dart here already fits the points placed before the round (and the mask and the blockers);
    ``ids`` is the grid cell of each dart, ``r`` its radius (``None``: ``min_radius``).
    """
    n = x.size
    if n < 2:
        return np.arange(n)
    earlier, later = _earlier_conflicts(st, x, y, r, ids)
    if time is not None:  # the pairs come in index order: put the later-thrown dart second
        swap = time[earlier] > time[later]
        earlier, later = np.where(swap, later, earlier), np.where(swap, earlier, later)
    state = np.zeros(n, dtype=np.int8)  # 0 undecided, 1 kept, 2 dropped
    while earlier.size:
        waiting = np.zeros(n, dtype=bool)
        waiting[later] = True  # an earlier conflicting dart is still undecided
        state[(state == 0) & ~waiting] = 1
        state[later[state[earlier] == 1]] = 2
        sel = np.flatnonzero((state[earlier] == 0) & (state[later] == 0))
        earlier, later = earlier[sel], later[sel]
    state[state == 0] = 1
    return np.flatnonzero(state == 1)
