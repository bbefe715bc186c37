"""Shared state of one sampling call: the background grid, the points, the callables, the blockers.

The background grid has cells of side at most ``min_radius / sqrt(2)``, so a cell holds at most one of our
points (two points in one cell would be closer than ``min_radius``). ``slots`` stores the point index per
cell (-1 = empty); without wrapping the grid is padded (window half-width plus the coarse box size) so
neighbour lookups never leave the array. Cells are identified by their flat index into ``slots``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np

from .._spatial import DiskIndex, hash_cell_multiple

if TYPE_CHECKING:
    from .settings import PoissonSettings

NEAR = 2  # window cells tested first (a 5 x 5 block: the whole window for a constant radius)
CHUNK = 4096  # candidates per block in neighbour tests: keeps the (M, K) temporaries in cache
CHUNK_CELLS = 1 << 20  # ... and at most this many window cells per block (wide radius ranges)

_Method = TypeVar("_Method", bound=Callable[..., Any])


def blockwise(method: _Method) -> _Method:
    """Run a per-candidate test on blocks of candidates (``SamplerState.block_rows``) and join the results
    (along the last axis; element by element for a tuple). Array arguments are sliced; scalars and
    ``None`` pass through unchanged."""

    @functools.wraps(method)
    def run(self: SamplerState, first: np.ndarray, *rest: object) -> Any:
        n, rows = first.size, self.block_rows
        if n <= rows:
            return method(self, first, *rest)
        parts = [
            method(
                self,
                first[i : i + rows],
                *(a[i : i + rows] if isinstance(a, np.ndarray) else a for a in rest),
            )
            for i in range(0, n, rows)
        ]
        if isinstance(parts[0], tuple):
            return tuple(
                None if part is None else np.concatenate([p[k] for p in parts], axis=-1)
                for k, part in enumerate(parts[0])
            )
        return np.concatenate(parts, axis=-1)

    return cast(_Method, run)


def _grid_shape(
    w: float, h: float, min_radius: float, max_radius: float, tileable: bool
) -> tuple[int, int, float, float]:
    """Columns, rows and cell sides (at most ``min_radius / sqrt(2)``); the rectangle is divided exactly.

    When tiled, columns and rows are rounded up to a multiple of the phase period if that does not change
    the period, so phase groups stay regular across the seam (otherwise extra seam phases are used).
    """
    side = min_radius / math.sqrt(2.0)
    cols, rows = max(1, math.ceil(w / side)), max(1, math.ceil(h / side))
    if not tileable:
        return cols, rows, w / cols, h / rows
    period = math.ceil(max_radius / min(w / cols, h / rows)) + 1
    new_cols, new_rows = -(-cols // period) * period, -(-rows // period) * period
    if math.ceil(max_radius / min(w / new_cols, h / new_rows)) + 1 == period:
        cols, rows = new_cols, new_rows
    return cols, rows, w / cols, h / rows


def _phase_axis(count: int, period: int, tileable: bool) -> tuple[int, int]:
    """(regular cells, phases) along one axis: cells below the first number use ``index % period``;
    on a torus the leftover cells at the seam get a phase each so equal phases stay ``period`` apart."""
    if not tileable:
        return count, period
    regular = (count // period) * period
    return regular, period + (count - regular)


class SamplerState:
    """Grid, point arrays and helpers shared by the maximal and the Bridson samplers."""

    def __init__(self, settings: PoissonSettings, blocker_xy: np.ndarray, blocker_r: np.ndarray) -> None:
        self.settings = settings
        self.w, self.h = float(settings.size[0]), float(settings.size[1])
        self.min_radius = float(settings.min_radius)
        self.max_radius = float(cast(float, settings.max_radius))
        self.variable = settings.radius_at is not None and self.max_radius > self.min_radius
        self.tileable = bool(settings.tileable)
        self.rng = np.random.default_rng(settings.seed)
        cols, rows, sx, sy = _grid_shape(self.w, self.h, self.min_radius, self.max_radius, self.tileable)
        self.cols, self.rows, self.sx, self.sy = cols, rows, sx, sy
        self.window = math.ceil(self.max_radius / min(sx, sy))
        self.period = math.ceil(self.max_radius / min(sx, sy)) + 1
        self.phase_x = _phase_axis(cols, self.period, self.tileable)
        self.phase_y = _phase_axis(rows, self.period, self.tileable)
        self.phase_count = self.phase_x[1] * self.phase_y[1]
        # Variable radius: dart throwing starts on boxes of ``coarse`` x ``coarse`` cells (about one
        # max-radius point each) instead of single cells, so the work follows the point count.
        self.coarse = 1
        if self.variable and not self.tileable:
            self.coarse = 2 ** max(0, round(math.log2(self.max_radius / self.min_radius)))
        pad = 0 if self.tileable else self.window + self.coarse
        self.pad, self.stride = pad, cols + 2 * pad
        self.slots = np.full((rows + 2 * pad) * self.stride, -1, dtype=np.int32)
        span = np.arange(-self.window, self.window + 1)
        ox, oy = np.meshgrid(span, span)
        ox, oy = ox.ravel(), oy.ravel()
        gap2 = (np.maximum(np.abs(ox) - 1, 0) * sx) ** 2 + (np.maximum(np.abs(oy) - 1, 0) * sy) ** 2
        keep = gap2 < self.max_radius * self.max_radius
        self.off_x, self.off_y = ox[keep], oy[keep]
        self.off_flat = self.off_y * self.stride + self.off_x
        near = (np.abs(self.off_x) <= NEAR) & (np.abs(self.off_y) <= NEAR)
        self.near = (self.off_x[near], self.off_y[near], self.off_flat[near])
        self.far = None if near.all() else (self.off_x[~near], self.off_y[~near], self.off_flat[~near])
        widest = max(self.off_flat.size, (2 * self.window + self.coarse) ** 2)
        self.block_rows = max(16, min(CHUNK, CHUNK_CELLS // widest))
        self._cover_offsets: dict[tuple[float, float, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        capacity = cols * rows + 1
        self.px = np.empty(capacity)
        self.py = np.empty(capacity)
        self.pr = np.empty(capacity)
        self.pc = np.empty(capacity, dtype=np.int64)  # cell of each point
        self.count = 0
        self._setup_blockers(blocker_xy, blocker_r)

    # ----------------------------------------------------------------------------------- blockers
    def _setup_blockers(self, xy: np.ndarray, r: np.ndarray) -> None:
        self.blockers: DiskIndex | None = None
        if r.size == 0:
            return
        x, y = xy[:, 0].copy(), xy[:, 1].copy()
        if self.tileable:
            x %= self.w
            y %= self.h
        else:
            reach = np.maximum(r, self.max_radius)
            near = (x + reach >= 0) & (x - reach < self.w) & (y + reach >= 0) & (y - reach < self.h)
            x, y, r = x[near], y[near], r[near]
            if r.size == 0:
                return
        m = hash_cell_multiple(r, self.max_radius, min(self.sx, self.sy), self.cols, self.rows, self.tileable)
        period = (self.w, self.h) if self.tileable else None
        self.blockers = DiskIndex(
            x, y, r, self.max_radius, m * self.sx, m * self.sy, -(-self.cols // m), -(-self.rows // m), period
        )

    # ----------------------------------------------------------------------------------- cells
    def cell_ids(self, ix: np.ndarray, iy: np.ndarray) -> np.ndarray:
        return (iy + self.pad) * self.stride + (ix + self.pad)

    def cell_xy(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return ids % self.stride - self.pad, ids // self.stride - self.pad

    def all_cells(self) -> np.ndarray:
        iy, ix = np.divmod(np.arange(self.cols * self.rows, dtype=np.int64), self.cols)
        return self.cell_ids(ix, iy)

    def phase_of(self, ids: np.ndarray) -> np.ndarray:
        """Phase group of each cell: two different cells of one group are >= ``period`` cells apart, so
        points in them (closer than ``max_radius`` only within ``period - 1`` cells) never conflict."""
        ix, iy = self.cell_xy(ids)
        p = self.period
        (rx, _), (ry, _) = self.phase_x, self.phase_y
        px = np.where(ix < rx, ix % p, p + ix - rx)
        py = np.where(iy < ry, iy % p, p + iy - ry)
        return px + self.phase_x[1] * py

    def cell_of(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ix = np.minimum((x / self.sx).astype(np.int64), self.cols - 1)
        iy = np.minimum((y / self.sy).astype(np.int64), self.rows - 1)
        return self.cell_ids(ix, iy)

    def cover_offsets(
        self, bw: float, bh: float, cells: int = 1
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Window offsets (from a box's lower-left cell) whose points can hold the whole box in one disk.

        The box is ``bw x bh`` and spans ``cells x cells`` cells (1: it lies inside one, empty, cell). A
        point ``ox >= cells`` columns away is at least ``(ox-cells)*sx + bw`` from the box's far side, one
        at ``ox < 0`` at least ``(-ox-1)*sx + bw``, and one above the box at least ``bw/2``; offsets whose
        bound reaches ``max_radius`` are skipped.
        """
        key = (bw, bh, cells)
        if key not in self._cover_offsets:
            span = np.arange(-self.window, self.window + cells)
            ox, oy = (a.ravel() for a in np.meshgrid(span, span))
            fx = np.where(
                ox >= cells, (ox - cells) * self.sx + bw, np.where(ox < 0, (-ox - 1) * self.sx + bw, 0.5 * bw)
            )
            fy = np.where(
                oy >= cells, (oy - cells) * self.sy + bh, np.where(oy < 0, (-oy - 1) * self.sy + bh, 0.5 * bh)
            )
            keep = fx * fx + fy * fy < self.max_radius * self.max_radius
            if cells == 1:
                keep &= (ox != 0) | (oy != 0)
            ox, oy = ox[keep], oy[keep]
            self._cover_offsets[key] = (ox, oy, oy * self.stride + ox)
        return self._cover_offsets[key]

    def neighbours(
        self, ids: np.ndarray, offsets: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    ) -> np.ndarray:
        """Point index (or -1) of every window cell around each cell: shape (M, K)."""
        off_x, off_y, off_flat = offsets or (self.off_x, self.off_y, self.off_flat)
        if not self.tileable:
            return np.take(self.slots, ids[:, None] + off_flat[None, :])  # np.take: faster than slots[...]
        ix, iy = self.cell_xy(ids)
        nx = (ix[:, None] + off_x[None, :]) % self.cols
        ny = (iy[:, None] + off_y[None, :]) % self.rows
        return np.take(self.slots, ny * self.cols + nx)

    def _pairs(
        self, ids: np.ndarray, offsets: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        nb = self.neighbours(ids, offsets)
        k = nb.shape[1] if nb.ndim == 2 else 1
        nb = nb.ravel()
        sel = np.flatnonzero(nb >= 0)
        return sel // k, np.take(nb, sel)

    def _delta(self, x: np.ndarray, y: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx = x - self.px[j]
        dy = y - self.py[j]
        if self.tileable:
            dx -= self.w * np.rint(dx / self.w)
            dy -= self.h * np.rint(dy / self.h)
        return dx, dy

    # ----------------------------------------------------------------------------------- tests
    @blockwise
    def own_conflicts(
        self, x: np.ndarray, y: np.ndarray, r: np.ndarray | None, ids: np.ndarray
    ) -> np.ndarray:
        """Whether candidates (radius ``r``, ``None`` = min radius) conflict with points already placed.

        With a large window (variable radius) the near cells are tested first: they reject most
        candidates, and only the rest look at the far cells.
        """
        out = self._conflicts_in(x, y, r, ids, self.near)
        if self.far is not None and x.size:
            rest = np.flatnonzero(~out)
            if rest.size:
                out[rest] = self._conflicts_in(
                    x[rest], y[rest], None if r is None else r[rest], ids[rest], self.far
                )
        return out

    @blockwise
    def covered_nearest(self, x: np.ndarray, y: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Variable radius, one pass for darts whose radius is not known yet: whether each lies in a placed
        point's own disk, and (for the others) the squared distance to the nearest placed point (inf when
        none is in the window), so a radius ``r`` conflicts exactly when ``r * r`` exceeds it."""
        out, near2 = self._covered_nearest_in(x, y, ids, self.near)
        if self.far is not None and x.size:
            rest = np.flatnonzero(~out)
            if rest.size:
                far_out, far2 = self._covered_nearest_in(x[rest], y[rest], ids[rest], self.far)
                out[rest] = far_out
                near2[rest] = np.minimum(near2[rest], far2)
        return out, near2

    @blockwise
    def covered_nearest_near(
        self, x: np.ndarray, y: np.ndarray, ids: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``covered_nearest`` over the near cells only (``NEAR`` cells around each dart's cell); the far
        cells are left to ``far_conflicts`` once the darts' radii are known."""
        return self._covered_nearest_in(x, y, ids, self.near)

    @blockwise
    def far_conflicts(self, x: np.ndarray, y: np.ndarray, r: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Whether darts of radius ``r`` conflict with a point in the far cells of their window (none
        without far cells)."""
        if self.far is None:
            return np.zeros(x.size, dtype=bool)
        return self._conflicts_in(x, y, r, ids, self.far)

    def _covered_nearest_in(
        self, x: np.ndarray, y: np.ndarray, ids: np.ndarray, offsets: tuple[np.ndarray, np.ndarray, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        out = np.zeros(x.size, dtype=bool)
        near2 = np.full(x.size, np.inf)
        q, j = self._pairs(ids, offsets)
        if q.size == 0:
            return out, near2
        dx, dy = self._delta(x[q], y[q], j)
        d2 = dx * dx + dy * dy
        out[q[d2 < self.pr[j] ** 2]] = True
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])  # q is sorted: one segment per dart
        near2[q[starts]] = np.minimum.reduceat(d2, starts)
        return out, near2

    def _conflicts_in(
        self,
        x: np.ndarray,
        y: np.ndarray,
        r: np.ndarray | None,
        ids: np.ndarray,
        offsets: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> np.ndarray:
        out = np.zeros(x.size, dtype=bool)
        q, j = self._pairs(ids, offsets)
        if q.size == 0:
            return out
        dx, dy = self._delta(x[q], y[q], j)
        if r is None:
            need2 = self.pr[j] ** 2 if self.variable else self.min_radius * self.min_radius
        else:
            need2 = np.maximum(r[q], self.pr[j]) ** 2
        out[q[dx * dx + dy * dy < need2]] = True
        return out

    @blockwise
    def own_cover_reach(
        self,
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
        covered = np.zeros(cx.size, dtype=bool)
        reach2 = np.full(cx.size, np.inf) if want_reach else None
        q, j = self._pairs(ids, self.cover_offsets(2.0 * half_w, 2.0 * half_h, cells))
        if q.size == 0:
            return covered, reach2
        dx, dy = self._delta(cx[q], cy[q], j)
        fx = np.abs(dx) + half_w
        fy = np.abs(dy) + half_h
        far2 = fx * fx + fy * fy
        need2 = self.pr[j] ** 2 if self.variable else self.min_radius * self.min_radius
        covered[q[far2 < need2]] = True
        if reach2 is not None:
            starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])  # q is sorted: one segment per box
            reach2[q[starts]] = np.minimum.reduceat(far2, starts)
        return covered, reach2

    @blockwise
    def split_cover_reach(
        self,
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
        lower-right, upper-left, upper-right). The neighbours are gathered once per parent, not per child:
        the offsets that can matter for a child-sized box anywhere in the parent's span."""
        offsets = self.cover_offsets(0.5 * bw, 0.5 * bh, cells)
        if self.far is None:
            return self._split_cover_in(x0, y0, ids, bw, bh, want_reach, offsets)
        # Wide window: the near cells first; the far cells only for parents with a child still uncovered.
        near, far = self._near_far(offsets, cells)
        covered, reach2 = self._split_cover_in(x0, y0, ids, bw, bh, want_reach, near)
        rest = np.flatnonzero(~covered.all(axis=0))
        if rest.size and far[0].size:
            far_covered, far_reach2 = self._split_cover_in(x0[rest], y0[rest], ids[rest], bw, bh, want_reach, far)
            covered[:, rest] |= far_covered
            if reach2 is not None and far_reach2 is not None:
                reach2[:, rest] = np.minimum(reach2[:, rest], far_reach2)
        return covered, reach2

    def _near_far(
        self, offsets: tuple[np.ndarray, np.ndarray, np.ndarray], cells: int
    ) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Window offsets (from a box's lower-left cell, the box spanning ``cells`` cells) within ``NEAR``
        cells of the box, and the others."""
        ox, oy, flat = offsets
        near = (ox >= -NEAR) & (ox < cells + NEAR) & (oy >= -NEAR) & (oy < cells + NEAR)
        return (ox[near], oy[near], flat[near]), (ox[~near], oy[~near], flat[~near])

    def _split_cover_in(
        self,
        x0: np.ndarray,
        y0: np.ndarray,
        ids: np.ndarray,
        bw: float,
        bh: float,
        want_reach: bool,
        offsets: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> tuple[np.ndarray, np.ndarray | None]:
        covered = np.zeros((4, x0.size), dtype=bool)
        reach2 = np.full((4, x0.size), np.inf) if want_reach else None
        qw, qh = 0.25 * bw, 0.25 * bh  # half side of a child = offset of its centre from the parent's
        q, j = self._pairs(ids, offsets)
        if q.size == 0:
            return covered, reach2
        dx, dy = self._delta(x0[q] + 2.0 * qw, y0[q] + 2.0 * qh, j)
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
        need2 = self.pr[j] ** 2 if self.variable else self.min_radius * self.min_radius
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])  # q is sorted: one segment per parent
        for k, (fx, fy) in enumerate(((fx_lo, fy_lo), (fx_hi, fy_lo), (fx_lo, fy_hi), (fx_hi, fy_hi))):
            far2 = fx + fy
            covered[k, q[far2 < need2]] = True
            if reach2 is not None:
                reach2[k, q[starts]] = np.minimum.reduceat(far2, starts)
        return covered, reach2

    def blocked(self, x: np.ndarray, y: np.ndarray, r: np.ndarray | None) -> np.ndarray:
        if self.blockers is None:
            return np.zeros(x.size, dtype=bool)
        return self.blockers.conflicts(x, y, self.min_radius if r is None else r)

    def blocker_covers(
        self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float, r_lo: np.ndarray | None
    ) -> np.ndarray:
        """Whether each box (centre, half sides) lies in one blocker's conflict disk."""
        if self.blockers is None:
            return np.zeros(cx.size, dtype=bool)
        return self.blockers.covers(cx, cy, half_w, half_h, self.min_radius if r_lo is None else r_lo)

    # ----------------------------------------------------------------------------------- callables
    def allowed(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        fn = self.settings.is_allowed
        if fn is None or x.size == 0:
            return np.ones(x.size, dtype=bool)
        out = np.asarray(fn(np.column_stack((x, y))))
        if out.shape != (x.size,) or out.dtype != np.bool_:
            raise ValueError(
                f"is_allowed must return a bool array of shape ({x.size},) for xy of shape ({x.size}, 2), "
                f"got dtype {out.dtype} shape {out.shape}; return e.g. `mask_values > 0.5`"
            )
        return out

    def radius(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Radius at each place, clamped to [min_radius, max_radius]."""
        fn = self.settings.radius_at
        if fn is None or x.size == 0:
            return np.full(x.size, self.min_radius)
        out = np.asarray(fn(np.column_stack((x, y))))
        if out.shape != (x.size,) or out.dtype.kind not in "fiu":
            raise ValueError(
                f"radius_at must return a float array of shape ({x.size},) for xy of shape ({x.size}, 2), "
                f"got dtype {out.dtype} shape {out.shape}"
            )
        out = out.astype(np.float64, copy=False)
        if not np.isfinite(out).all():
            raise ValueError("radius_at returned NaN or inf; return finite radii (they are clamped)")
        return np.clip(out, self.min_radius, self.max_radius)

    # ----------------------------------------------------------------------------------- points
    def insert(self, x: np.ndarray, y: np.ndarray, r: np.ndarray | None, ids: np.ndarray) -> None:
        n, k = self.count, x.size
        self.px[n : n + k] = x
        self.py[n : n + k] = y
        self.pr[n : n + k] = self.min_radius if r is None else r
        self.pc[n : n + k] = ids
        self.slots[ids] = np.arange(n, n + k)
        self.count = n + k

    def drop_mutual_conflicts(self, first: int) -> None:
        """Among the points from index ``first`` on (one batch, inserted in priority order), drop every
        point that conflicts with an earlier point of the batch, and compact the arrays."""
        n = self.count
        k = n - first
        if k < 2:
            return
        x, y, r, ids = self.px[first:n], self.py[first:n], self.pr[first:n], self.pc[first:n]
        q, j = self._pairs(ids)
        earlier = (j >= first) & (j < first + q)
        q, j = q[earlier], j[earlier]
        if q.size == 0:
            return
        dx, dy = self._delta(x[q], y[q], j)
        need2 = np.maximum(r[q], self.pr[j]) ** 2
        drop = np.zeros(k, dtype=bool)
        drop[q[dx * dx + dy * dy < need2]] = True
        if not drop.any():
            return
        keep = np.flatnonzero(~drop)
        self.slots[ids[drop]] = -1
        x, y, r, ids = x[keep], y[keep], r[keep], ids[keep]
        m = keep.size
        self.px[first : first + m] = x
        self.py[first : first + m] = y
        self.pr[first : first + m] = r
        self.pc[first : first + m] = ids
        self.slots[ids] = np.arange(first, first + m)
        self.count = first + m

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """The placed points: positions (N, 2) and radii (N,)."""
        n = self.count
        return np.column_stack((self.px[:n], self.py[:n])), self.pr[:n].copy()
