"""Shared state of one sampling call: the background grid, the points, the callables, the blockers.

The background grid has cells of side at most ``min_radius / sqrt(2)``, so a cell holds at most one of our
points (two points in one cell would be closer than ``min_radius``). ``slots`` stores the point index per
cell (-1 = empty); without wrapping the grid is padded (window half-width plus the coarse box size) so
neighbour lookups never leave the array. Cells are identified by their flat index into ``slots``.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from .._spatial import DiskIndex, hash_cell_multiple
from .layout import blockwise, grid_layout
from .settings import PoissonSettings, distances, varies

NEAR = 2  # window cells tested first (a 5 x 5 block: the whole window for a constant radius)
BLOCK = 4096  # candidates per block in neighbour tests: keeps the (M, K) temporaries in cache
BLOCK_CELLS = 1 << 20  # ... and at most this many window cells per block (wide radius ranges)

class SamplerState:
    """Grid, point arrays and helpers shared by the maximal and the Bridson samplers."""

    def __init__(self, settings: PoissonSettings, blocker_xy: np.ndarray, blocker_r: np.ndarray) -> None:
        self.settings = settings
        self.w, self.h = float(settings.size[0]), float(settings.size[1])
        self.min_radius = float(settings.min_radius)
        self.variable = varies(settings)
        # The largest radius a point can carry.
        self.max_radius = float(cast(float, settings.max_radius)) if self.variable else self.min_radius
        # Two points conflict closer than the sum of their radii (else the larger): ``closest`` is the least
        # distance two points keep (it sizes the cells), ``farthest`` the farthest two can conflict (the window).
        self.summed = settings.conflict == "sum"
        self.closest, self.farthest = distances(settings)
        # The farthest a placed point can hold a new point of the least radius off (box coverage looks no farther).
        self.cover_reach = self.max_radius + self.min_radius if self.summed else self.max_radius
        self.tileable = bool(settings.tileable)
        self.rng = np.random.default_rng(settings.seed)
        # World cell coordinates of the rectangle's first cell: the maximal sampler's darts hash them.
        self.anchor = (0, 0) if settings.anchor is None else (int(settings.anchor[0]), int(settings.anchor[1]))
        layout = grid_layout(self.w, self.h, self.closest, self.farthest, self.variable, self.tileable,
                             settings.anchor is not None)
        cols, rows, sx, sy, self.window, self.coarse, pad = layout
        self.cols, self.rows, self.sx, self.sy = cols, rows, sx, sy
        self.pad, self.stride = pad, cols + 2 * pad
        self.slots = np.full((rows + 2 * pad) * self.stride, -1, dtype=np.int32)
        # Darts of one round listed per cell (``darts.resolve_in_time_order``); all zero between rounds.
        self.dart_start = np.zeros(self.slots.size, dtype=np.int32)
        self.dart_count = np.zeros(self.slots.size, dtype=np.int32)
        span = np.arange(-self.window, self.window + 1)
        gx, gy = np.meshgrid(span, span)
        ox, oy = gx.ravel(), gy.ravel()
        gap2 = (np.maximum(np.abs(ox) - 1, 0) * sx) ** 2 + (np.maximum(np.abs(oy) - 1, 0) * sy) ** 2
        keep = gap2 < self.farthest * self.farthest
        self.off_x, self.off_y = ox[keep], oy[keep]
        self.off_flat = self.off_y * self.stride + self.off_x
        near = (np.abs(self.off_x) <= NEAR) & (np.abs(self.off_y) <= NEAR)
        self.near = (self.off_x[near], self.off_y[near], self.off_flat[near])
        self.far = None if near.all() else (self.off_x[~near], self.off_y[~near], self.off_flat[~near])
        widest = max(self.off_flat.size, (2 * self.window + self.coarse) ** 2)
        self.block_rows = max(16, min(BLOCK, BLOCK_CELLS // widest))
        self.cover_cache: dict[tuple[float, float, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
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
        self.blocker_cover: DiskIndex | None = None
        if r.size == 0:
            return
        x, y = xy[:, 0].copy(), xy[:, 1].copy()
        if self.tileable:
            x %= self.w
            y %= self.h
        else:
            reach = r + self.max_radius if self.summed else np.maximum(r, self.max_radius)
            near = (x + reach >= 0) & (x - reach < self.w) & (y + reach >= 0) & (y - reach < self.h)
            x, y, r = x[near], y[near], r[near]
            if r.size == 0:
                return
        self.blockers = self.blocker_index(x, y, r, self.max_radius)
        # Box coverage asks for the least radius only: an index listing each blocker as far as that reaches
        # (not as far as the largest radius) gives the same answers from far fewer candidates.
        self.blocker_cover = self.blocker_index(x, y, r, self.min_radius)

    def blocker_index(self, x: np.ndarray, y: np.ndarray, r: np.ndarray, floor: float) -> DiskIndex:
        """The blockers hashed for queries whose radius is at most ``floor``."""
        m = hash_cell_multiple(r, floor, min(self.sx, self.sy), self.cols, self.rows, self.tileable)
        period = (self.w, self.h) if self.tileable else None
        return DiskIndex(
            x, y, r, floor, m * self.sx, m * self.sy, -(-self.cols // m), -(-self.rows // m), period, self.summed,
        )

    # ----------------------------------------------------------------------------------- cells
    def cell_ids(self, ix: np.ndarray, iy: np.ndarray) -> np.ndarray:
        return (iy + self.pad) * self.stride + (ix + self.pad)

    def cell_xy(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return ids % self.stride - self.pad, ids // self.stride - self.pad

    def all_cells(self) -> np.ndarray:
        iy, ix = np.divmod(np.arange(self.cols * self.rows, dtype=np.int64), self.cols)
        return self.cell_ids(ix, iy)

    def cell_of(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ix = np.minimum((x / self.sx).astype(np.int64), self.cols - 1)
        iy = np.minimum((y / self.sy).astype(np.int64), self.rows - 1)
        return self.cell_ids(ix, iy)

    def window_cells(
        self, ids: np.ndarray, offsets: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    ) -> np.ndarray:
        """Cell id of every window cell around each cell (wrapped on a torus): shape (M, K)."""
        off_x, off_y, off_flat = offsets or (self.off_x, self.off_y, self.off_flat)
        if not self.tileable:
            return ids[:, None] + off_flat[None, :]
        ix, iy = self.cell_xy(ids)
        nx = (ix[:, None] + off_x[None, :]) % self.cols
        ny = (iy[:, None] + off_y[None, :]) % self.rows
        return ny * self.cols + nx

    def neighbours(
        self, ids: np.ndarray, offsets: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    ) -> np.ndarray:
        """Point index (or -1) of every window cell around each cell: shape (M, K)."""
        return np.take(self.slots, self.window_cells(ids, offsets))  # np.take: faster than slots[...]

    def pairs(
        self, ids: np.ndarray, offsets: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        nb = self.neighbours(ids, offsets)
        k = nb.shape[1] if nb.ndim == 2 else 1
        nb = nb.ravel()
        sel = np.flatnonzero(nb >= 0)
        return sel // k, np.take(nb, sel)

    def delta(self, x: np.ndarray, y: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx: np.ndarray = x - np.take(self.px, j)
        dy: np.ndarray = y - np.take(self.py, j)
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
        q, j = self.pairs(ids, offsets)
        if q.size == 0:
            return out, near2
        dx, dy = self.delta(np.take(x, q), np.take(y, q), j)
        d2 = dx * dx + dy * dy
        out[q[d2 < self.cover_radius(j) ** 2]] = True
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
        q, j = self.pairs(ids, offsets)
        if q.size == 0:
            return out
        dx, dy = self.delta(np.take(x, q), np.take(y, q), j)
        need2: np.ndarray | float
        if r is None:
            need2 = self.cover_radius(j) ** 2
        elif self.summed:
            need2 = (np.take(r, q) + np.take(self.pr, j)) ** 2
        else:
            need2 = np.maximum(np.take(r, q), np.take(self.pr, j)) ** 2
        out[q[dx * dx + dy * dy < need2]] = True
        return out

    def cover_radius(self, j: np.ndarray) -> np.ndarray | float:
        """How far placed points ``j`` reach for a new point of the least radius: their own radius (plus that
        least radius when radii add up)."""
        if self.summed:
            return np.take(self.pr, j) + self.min_radius
        return np.take(self.pr, j) if self.variable else self.min_radius

    def blocked(self, x: np.ndarray, y: np.ndarray, r: np.ndarray | None) -> np.ndarray:
        if self.blockers is None:
            return np.zeros(x.size, dtype=bool)
        return self.blockers.conflicts(x, y, self.min_radius if r is None else r)

    def blocker_covers(self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float) -> np.ndarray:
        """Whether each box (centre, half sides) lies in one blocker's conflict disk for the least radius."""
        if self.blocker_cover is None:
            return np.zeros(cx.size, dtype=bool)
        return self.blocker_cover.covers(cx, cy, half_w, half_h, self.min_radius)

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
        q, j = self.pairs(ids)
        earlier = (j >= first) & (j < first + q)
        q, j = q[earlier], j[earlier]
        if q.size == 0:
            return
        dx, dy = self.delta(x[q], y[q], j)
        need2 = (r[q] + self.pr[j]) ** 2 if self.summed else np.maximum(r[q], self.pr[j]) ** 2
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
