"""Point-in-polygon for many polygons (building footprints, ponds), vectorised with a uniform grid.

A point is *inside* when it lies inside any polygon (outer ring minus its holes). Internally the rings are
oriented (outer counter-clockwise, holes clockwise) and a point is inside where the winding number is
non-zero: for simple rings this is exactly the even-odd rule per polygon, and overlapping polygons unite
instead of cancelling. Points exactly on an edge may go either way.

How: the winding number of every grid cell's centre is found once with a horizontal sweep per grid row;
a query then adds the signed crossings of the short segment from its cell's centre to itself with the
edges of that cell only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._grid import CellLists, expand_ranges
from ..inputs import as_points, as_xy

# Cell centres sit slightly off the middle so they do not fall on grid-aligned edges of typical input.
_CENTRE = np.array([0.5 + 0.0137, 0.5 + 0.0291])


def _signed_area(ring: NDArray[np.float64]) -> float:
    x, y = ring[:, 0], ring[:, 1]
    # math.fsum rounds the exact sum once: the same bits whatever the CPU (a BLAS dot's would not be).
    return 0.5 * math.fsum(np.concatenate([x * np.roll(y, -1), -(np.roll(x, -1) * y)]).tolist())


def _rings(polygons: Any) -> list[tuple[NDArray[np.float64], bool]]:
    """(ring xy, is_hole) for every ring; each polygon is one ring or a list [outer, *holes]."""
    if isinstance(polygons, np.ndarray) and polygons.ndim == 2:
        polygons = [polygons]
    out = []
    for i, polygon in enumerate(list(polygons)):
        try:
            arr = np.asarray(polygon, dtype=np.float64)
            rings = [arr] if arr.ndim == 2 else list(arr) if arr.ndim == 3 else None
        except (TypeError, ValueError):
            rings = list(polygon)  # rings of different lengths
        if rings is None or len(rings) == 0:
            raise ValueError(f"polygons[{i}]: expected a (K, 2) ring or a list [outer, *holes] of rings")
        for j, ring in enumerate(rings):
            pts = as_points(ring, f"polygons[{i}] ring {j}", min_rows=3)[:, :2]
            if np.array_equal(pts[0], pts[-1]):
                pts = pts[:-1]
            if len(pts) < 3:
                raise ValueError(f"polygons[{i}] ring {j}: needs at least 3 distinct corners")
            out.append((pts, j > 0))
    return out


class PolygonSet:
    """Inside/outside tests against many polygons at once.

    Parameters
    ----------
    polygons : list
        Each polygon is a (K, 2) or (K, 3) ring (z ignored; closing point optional) or a list
        ``[outer, hole, ...]`` of rings.

    >>> import numpy as np
    >>> square = np.array([[0, 0], [4, 0], [4, 4], [0, 4]])
    >>> hole = np.array([[1, 1], [3, 1], [3, 3], [1, 3]])
    >>> PolygonSet([[square, hole]]).contains(np.array([[0.5, 0.5], [2, 2], [5, 5]])).tolist()
    [True, False, False]
    """

    def __init__(self, polygons: Any) -> None:
        starts, ends = [], []
        for ring, is_hole in _rings(polygons):
            counter_clockwise = _signed_area(ring) >= 0
            if counter_clockwise == is_hole:
                ring = ring[::-1]
            starts.append(ring)
            ends.append(np.roll(ring, -1, axis=0))
        self.a = np.concatenate(starts) if starts else np.zeros((0, 2))
        self.b = np.concatenate(ends) if ends else np.zeros((0, 2))
        keep = np.any(self.a != self.b, axis=1)
        self.a, self.b = self.a[keep], self.b[keep]
        if len(self.a):
            self._build()

    def _build(self) -> None:
        a, b = self.a, self.b
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        origin, top = lo.min(axis=0), hi.max(axis=0)
        span = np.maximum(top - origin, 1e-9 * (1.0 + np.abs(origin)))
        # Pad the grid by a cell fraction so no edge lies on the grid's outer border.
        origin = origin - 1e-6 * span
        span = span * (1 + 2e-6)
        cells_wanted = max(1.0, float(len(a)))
        side = float(np.sqrt(span[0] * span[1] / cells_wanted))
        side = max(side, float(span.max()) / 1024.0)
        shape = np.maximum(1, np.ceil(span / side)).astype(np.int64)
        cell = span / shape
        self._origin, self._cell, self._shape = origin, cell, shape

        # Cell -> edges whose bounding box overlaps the cell (CSR).
        c0 = np.clip(np.floor((lo - origin) / cell).astype(np.int64), 0, shape - 1)
        c1 = np.clip(np.floor((hi - origin) / cell).astype(np.int64), 0, shape - 1)
        self._cells = CellLists.from_boxes(c0, c1, shape)
        self._centre_winding = self._sweep_centres()
        self._ax, self._ay = a[:, 0].copy(), a[:, 1].copy()
        self._bx, self._by = b[:, 0].copy(), b[:, 1].copy()

    def _centre(self, ix: NDArray[np.int64], iy: NDArray[np.int64]) -> tuple[NDArray, NDArray]:
        return (
            self._origin[0] + (ix + _CENTRE[0]) * self._cell[0],
            self._origin[1] + (iy + _CENTRE[1]) * self._cell[1],
        )

    def _sweep_centres(self) -> NDArray[np.int64]:
        """Winding number at every cell centre: signed crossings of the ray from the centre to +x."""
        nx, ny = (int(v) for v in self._shape)
        a, b = self.a, self.b
        moving = a[:, 1] != b[:, 1]
        a, b = a[moving], b[moving]
        ylo, yhi = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
        row_lo = np.floor((ylo - self._origin[1]) / self._cell[1] - _CENTRE[1])
        row_hi = np.ceil((yhi - self._origin[1]) / self._cell[1] - _CENTRE[1])
        r0 = np.clip(row_lo.astype(np.int64), 0, ny - 1)
        r1 = np.clip(row_hi.astype(np.int64), 0, ny - 1)
        edge, local = expand_ranges(r1 - r0 + 1)
        row = r0[edge] + local
        _, yc = self._centre(np.zeros_like(row), row)
        crosses = (yc >= ylo[edge]) & (yc < yhi[edge])  # half-open in y: vertices counted once
        edge, row, yc = edge[crosses], row[crosses], yc[crosses]
        ea, eb = a[edge], b[edge]
        x_cross = ea[:, 0] + (yc - ea[:, 1]) * (eb[:, 0] - ea[:, 0]) / (eb[:, 1] - ea[:, 1])
        sign = np.where(eb[:, 1] > ea[:, 1], 1, -1)
        centres_x, _ = self._centre(np.arange(nx), np.zeros(nx, dtype=np.int64))
        k = np.searchsorted(centres_x, x_cross, side="left")  # centres strictly left of the crossing
        diff = np.zeros(ny * (nx + 1), dtype=np.int64)
        diff += np.bincount(row * (nx + 1), weights=sign, minlength=len(diff)).astype(np.int64)
        diff -= np.bincount(row * (nx + 1) + k, weights=sign, minlength=len(diff)).astype(np.int64)
        return np.cumsum(diff.reshape(ny, nx + 1), axis=1)[:, :nx]

    def winding(self, xy: Any) -> NDArray[np.int64]:
        """Winding number of the oriented rings around each point (0 outside every polygon)."""
        pts = as_xy(xy)
        out = np.zeros(len(pts), dtype=np.int64)
        if len(pts) == 0 or len(self.a) == 0:
            return out
        fx = (pts[:, 0] - self._origin[0]) / self._cell[0]
        fy = (pts[:, 1] - self._origin[1]) / self._cell[1]
        nx, ny = int(self._shape[0]), int(self._shape[1])
        idx = np.flatnonzero((fx >= 0) & (fy >= 0) & (fx < nx) & (fy < ny))
        ix = np.minimum(fx[idx].astype(np.int64), nx - 1)
        iy = np.minimum(fy[idx].astype(np.int64), ny - 1)
        flat = iy * nx + ix
        out[idx] = self._centre_winding.ravel()[flat]
        query, edge = self._cells.candidates(flat)
        if len(query) == 0:
            return out
        cx, cy = self._centre(ix[query], iy[query])
        owner_of = idx[query]
        px, py = pts[owner_of, 0], pts[owner_of, 1]
        ax, ay, bx, by = self._ax[edge], self._ay[edge], self._bx[edge], self._by[edge]
        dx, dy = px - cx, py - cy
        a_left = dx * (ay - cy) - dy * (ax - cx) > 0
        b_left = dx * (by - cy) - dy * (bx - cx) > 0
        ex, ey = bx - ax, by - ay
        c_side = ex * (cy - ay) - ey * (cx - ax) > 0
        p_side = ex * (py - ay) - ey * (px - ax) > 0
        crossing = (a_left != b_left) & (c_side != p_side)
        # Walking from the centre to the point: an edge running from our left to our right adds 1.
        step = np.where(crossing, np.where(a_left, 1, -1), 0)
        out += np.bincount(owner_of, weights=step, minlength=len(pts)).astype(np.int64)
        return out

    def contains(self, xy: Any) -> NDArray[np.bool_]:
        """True inside any polygon (outside its holes)."""
        return self.winding(xy) != 0
