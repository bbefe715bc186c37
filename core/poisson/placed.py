"""The placed points of a sampler whose radii add up, hashed by how far each holds a point of the least radius off.

Radii that add up may span a wide range (a pebble and a boulder). A window of background cells wide enough for the
largest reach reads hundreds of mostly empty cells per query; here each point is listed in every hash cell its own
reach (its radius plus the least radius) overlaps, so a query reads one cell and finds the few points that can hold
it: a small point is listed near itself, a large one far. The cost of a query follows the points near it, not the
spread of the radii.

Points arrive round by round; they are kept in segments, each hashed once, and two segments are merged when the
newer one has grown to half the older one's size, so every point is re-hashed O(log N) times.
"""

from __future__ import annotations

import numpy as np

from .._spatial import DiskIndex
from .layout import in_blocks
from .settings import PoissonSettings, varies
from .state import SamplerState

# Hash cells per side of this many background cells (about a small point's reach: one least-radius point's reach
# is two least radii, a background cell is that over sqrt(2)).
CELL_MULTIPLE = 2
BLOCK = 8192  # queries per block (a few candidate pairs each)


class PlacedReach:
    """Candidate pairs of queries and placed points that may hold them (``SummedState.placed``)."""

    def __init__(self, st: SamplerState) -> None:
        self.st = st
        m = CELL_MULTIPLE
        if st.tileable:  # the hash grid must divide the torus
            m = next(k for k in range(m, 0, -1) if st.cols % k == 0 and st.rows % k == 0)
        self.m = m
        self.segments: list[tuple[int, DiskIndex]] = []  # (first point, index of the points from there on)
        self.count = 0
        self.least: np.ndarray | None = None  # ``least_radius_at`` at every corner of the background cells
        self.blockers = st.blocker_cover
        fn = st.settings.least_radius_at
        if fn is not None:
            iy, ix = np.divmod(np.arange((st.rows + 1) * (st.cols + 1)), st.cols + 1)
            x, y = np.minimum(ix * st.sx, np.nextafter(st.w, 0.0)), np.minimum(iy * st.sy, np.nextafter(st.h, 0.0))
            least = np.asarray(fn(np.column_stack((x, y))), dtype=np.float64)
            if least.shape != x.shape or not np.isfinite(least).all():
                raise ValueError(f"least_radius_at must return finite radii of shape {x.shape}, got {least.shape}")
            least = np.clip(least, st.min_radius, st.max_radius)
            self.least = least
            if st.blockers is not None:  # blockers hashed as far as the largest least radius reaches
                b = st.blockers
                self.blockers = st.blocker_index(b.x, b.y, b.radius, float(np.max(least)))

    def _index(self, start: int, end: int) -> DiskIndex:
        st, m = self.st, self.m
        return DiskIndex(
            st.px[start:end], st.py[start:end], st.pr[start:end], st.min_radius, m * st.sx, m * st.sy,
            -(-st.cols // m), -(-st.rows // m), (st.w, st.h) if st.tileable else None, summed=True,
        )

    def _refresh(self) -> None:
        """Hash the points placed since the last query (all of them again if some were dropped)."""
        n = self.st.count
        if n < self.count:
            self.segments, self.count = [], 0
        if n == self.count:
            return
        starts = [start for start, _ in self.segments] + [self.count]
        while len(starts) >= 2 and n - starts[-1] >= (starts[-1] - starts[-2]) // 2:
            starts.pop()  # the newest points join the segment before them
        keep = len(starts) - 1
        self.segments = [*self.segments[:keep], (starts[-1], self._index(starts[-1], n))]
        self.count = n

    def pairs(
        self, x: np.ndarray, y: np.ndarray, spread: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(query, point) pairs: every placed point whose reach (radius plus the least radius) may hold the query
        place ``x, y``, or, with ``spread``, a place up to that far from it: all that do are among them."""
        self._refresh()
        found = [index.candidates(x, y) if spread is None else index.candidates_around(x, y, spread)
                 for _, index in self.segments]
        if not found:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
        q = np.concatenate([pair[0] for pair in found])
        j = np.concatenate([pair[1] + start for (start, _), pair in zip(self.segments, found, strict=True)])
        return q, j

    def covers(self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float) -> np.ndarray:
        """Whether each box (centre, half sides; 0: a place) lies in one placed point's reach for the least radius:
        its farthest corner closer than the point's radius plus the least radius."""
        st = self.st

        def run(part: slice) -> np.ndarray:
            out = np.zeros(part.stop - part.start, dtype=bool)
            q, j = self.pairs(cx[part], cy[part])
            if q.size:
                dx, dy = st.delta(np.take(cx[part], q), np.take(cy[part], q), j)
                fx = np.abs(dx) + half_w
                fy = np.abs(dy) + half_h
                out[q[fx * fx + fy * fy < st.cover_radius(j) ** 2]] = True
            return out

        return in_blocks(BLOCK, cx.size, run)

    def conflicts(self, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Whether each place of radius ``r`` is closer than the sum of the radii to a placed point. A point that
        close holds, in its reach, the place ``r`` minus the least radius away towards it: the cells that far
        around each place list it (a margin covers rounding)."""
        st = self.st
        margin = 1e-9 * (st.sx + st.sy)

        def run(part: slice) -> np.ndarray:
            out = np.zeros(part.stop - part.start, dtype=bool)
            xs, ys, rs = x[part], y[part], r[part]
            q, j = self.pairs(xs, ys, rs - st.min_radius + margin)
            if q.size:
                dx, dy = st.delta(np.take(xs, q), np.take(ys, q), j)
                out[q[dx * dx + dy * dy < (np.take(rs, q) + np.take(st.pr, j)) ** 2]] = True
            return out

        return in_blocks(BLOCK, x.size, run)

    def near_enough(self, r: np.ndarray) -> np.ndarray:
        """Which radii ``conflicts`` serves in a few hash cells (the others read the window of background cells)."""
        return r - self.st.min_radius <= self.m * min(self.st.sx, self.st.sy)

    def holds(self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float, least: np.ndarray) -> np.ndarray:
        """``covers`` for a least radius per box (``least`` >= the sampler's): a point holding the box holds its
        centre ``least`` less the sampler's least radius nearer, in the cells that far around it."""
        st = self.st
        margin = 1e-9 * (st.sx + st.sy)

        def run(part: slice) -> np.ndarray:
            out = np.zeros(part.stop - part.start, dtype=bool)
            xs, ys, lo = cx[part], cy[part], least[part]
            q, j = self.pairs(xs, ys, lo - st.min_radius + margin)
            if q.size:
                dx, dy = st.delta(np.take(xs, q), np.take(ys, q), j)
                fx = np.abs(dx) + half_w
                fy = np.abs(dy) + half_h
                out[q[fx * fx + fy * fy < (np.take(st.pr, j) + np.take(lo, q)) ** 2]] = True
            return out

        return in_blocks(BLOCK, cx.size, run)

    def held_for_least(
        self, x0: np.ndarray, y0: np.ndarray, ids: np.ndarray, bw: float, bh: float, cells: int
    ) -> np.ndarray:
        """Whether a placed point or a blocker holds each box (lower-left corner, cell ``ids``, ``cells`` wide or
        inside one cell) for the least radius at the corners of its cells: ``least_radius_at`` varies smoothly, on a
        scale far above a cell, so they stand for every place in the box."""
        assert self.least is not None
        st = self.st
        stride = st.cols + 1
        ix, iy = st.cell_xy(ids)
        ix0, iy0 = np.clip(ix, 0, st.cols), np.clip(iy, 0, st.rows)
        ix1, iy1 = np.clip(ix + cells, 0, st.cols), np.clip(iy + cells, 0, st.rows)
        lo = np.minimum(np.minimum(self.least[iy0 * stride + ix0], self.least[iy0 * stride + ix1]),
                        np.minimum(self.least[iy1 * stride + ix0], self.least[iy1 * stride + ix1]))
        cx, cy = x0 + 0.5 * bw, y0 + 0.5 * bh
        out = self.holds(cx, cy, 0.5 * bw, 0.5 * bh, lo)
        rest = np.flatnonzero(~out)
        if self.blockers is not None and rest.size:
            out[rest] = self.blockers.covers(cx[rest], cy[rest], 0.5 * bw, 0.5 * bh, lo[rest])
        return out


class SummedState(SamplerState):
    """The maximal sampler's state when radii add up and vary: its placed points also hashed by their reach."""

    def __init__(self, settings: PoissonSettings, blocker_xy: np.ndarray, blocker_r: np.ndarray) -> None:
        super().__init__(settings, blocker_xy, blocker_r)
        self.placed = PlacedReach(self)


def new_state(settings: PoissonSettings, blocker_xy: np.ndarray, blocker_r: np.ndarray) -> SamplerState:
    """The state of one sampling call: a :class:`SummedState` for the maximal sampler with radii that add up and
    vary."""
    summed = settings.conflict == "sum" and varies(settings) and settings.method == "maximal"
    return (SummedState if summed else SamplerState)(settings, blocker_xy, blocker_r)


def reach_index(st: SamplerState) -> PlacedReach | None:
    """The placed points' reach index of a summed state (None for any other)."""
    return st.placed if isinstance(st, SummedState) else None
