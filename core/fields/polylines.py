"""Distance from points to many polylines (roads, rivers), with a uniform grid over the segments."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._grid import CellLists
from ..inputs import as_points, as_xy, positive_number


def polylines_to_segments(polylines: Any, closed: Any = False) -> tuple[NDArray, NDArray]:
    """Segment start and end points (S, 2) of a list of (K, 2) or (K, 3) polylines (z is ignored).

    ``closed`` (a bool, or one bool per polyline) adds the segment from the last point back to the first.
    A polyline of one point counts as a point (a zero-length segment).
    """
    if isinstance(polylines, np.ndarray) and polylines.ndim == 2:
        polylines = [polylines]
    lines = list(polylines)
    flags = [bool(closed)] * len(lines) if np.ndim(closed) == 0 else [bool(c) for c in closed]
    if len(flags) != len(lines):
        raise ValueError(f"closed: expected one flag per polyline ({len(lines)}), got {len(flags)}")
    starts, ends = [], []
    for i, line in enumerate(lines):
        pts = as_points(line, f"polylines[{i}]", min_rows=1)[:, :2]
        if flags[i] and len(pts) > 2:
            pts = np.concatenate([pts, pts[:1]])
        if len(pts) == 1:
            pts = np.concatenate([pts, pts])
        starts.append(pts[:-1])
        ends.append(pts[1:])
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(starts), np.concatenate(ends)


class SegmentIndex:
    """Point-to-segment distances for many segments, answered for distances up to a fixed ``reach``.

    Segments are binned into a uniform grid over their bounding boxes grown by ``reach``; a query only
    measures the segments of its own cell, which holds every segment closer than ``reach``.

    Parameters
    ----------
    polylines : list of (K, 2) or (K, 3) arrays
        Curves in world space (z ignored), e.g. evaluated Blender curves.
    reach : float
        Largest distance that must be exact (a mask's margin, a field's falloff).
    closed : bool or list of bool
        Close the polylines (rings).

    >>> import numpy as np
    >>> road = SegmentIndex([np.array([[0.0, 0.0], [10.0, 0.0]])], reach=2.0)
    >>> road.distance(np.array([[5.0, 1.0], [5.0, 7.0]])).tolist()
    [1.0, inf]
    """

    def __init__(self, polylines: Any, reach: float, closed: Any = False) -> None:
        self.reach = positive_number(reach, "reach")
        self.a, self.b = polylines_to_segments(polylines, closed)
        self._build()

    def _build(self) -> None:
        a, b, reach = self.a, self.b, self.reach
        count = len(a)
        if count == 0:
            self._shape = np.array([0, 0])
            return
        lo = np.minimum(a, b) - reach
        hi = np.maximum(a, b) + reach
        origin, top = lo.min(axis=0), hi.max(axis=0)
        span = top - origin
        mean_len = math.fsum((np.abs(b - a).sum(axis=1)).tolist()) / count if count else 0.0
        side = max(reach, mean_len, float(span.max()) / 2048.0)
        shape = np.maximum(1, np.ceil(span / side)).astype(np.int64)
        inv = shape / span
        c0 = np.minimum(((lo - origin) * inv).astype(np.int64), shape - 1)
        c1 = np.minimum(((hi - origin) * inv).astype(np.int64), shape - 1)
        self._cells = CellLists.from_boxes(c0, c1, shape)
        self._origin, self._inv, self._shape = origin, inv, shape
        self._ax, self._ay = a[:, 0].copy(), a[:, 1].copy()
        self._dx, self._dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
        length2 = self._dx * self._dx + self._dy * self._dy
        self._inv_length2 = np.divide(1.0, length2, out=np.zeros_like(length2), where=length2 > 0)

    def distance(self, xy: Any) -> NDArray[np.float64]:
        """Distance to the nearest segment where it is <= ``reach``; ``inf`` beyond."""
        pts = as_xy(xy)
        out = np.full(len(pts), np.inf)
        if len(pts) == 0 or len(self.a) == 0:
            return out
        fx = (pts[:, 0] - self._origin[0]) * self._inv[0]
        fy = (pts[:, 1] - self._origin[1]) * self._inv[1]
        nx, ny = int(self._shape[0]), int(self._shape[1])
        inside = (fx >= 0) & (fy >= 0) & (fx <= nx) & (fy <= ny)
        cell = np.minimum(fy.astype(np.int64), ny - 1) * nx + np.minimum(fx.astype(np.int64), nx - 1)
        query, seg = self._cells.candidates(np.where(inside, cell, 0), inside)
        if len(query) == 0:
            return out
        px = pts[query, 0] - self._ax[seg]
        py = pts[query, 1] - self._ay[seg]
        dx, dy = self._dx[seg], self._dy[seg]
        t = np.clip((px * dx + py * dy) * self._inv_length2[seg], 0.0, 1.0)
        px -= t * dx
        py -= t * dy
        dist2 = px * px + py * py
        run_start = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
        busy = query[run_start]
        best = np.sqrt(np.minimum.reduceat(dist2, run_start))
        near = best <= self.reach
        out[busy[near]] = best[near]
        return out

    def within(self, xy: Any, margin: float | None = None) -> NDArray[np.bool_]:
        """True where some segment is closer than ``margin`` (default: ``reach``; must be <= reach)."""
        limit = self.reach if margin is None else positive_number(margin, "margin")
        if limit > self.reach:
            raise ValueError(f"margin: must be <= the index's reach {self.reach}, got {limit}")
        return self.distance(xy) < limit
