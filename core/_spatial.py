"""A static spatial hash of disks (blockers) for vectorised conflict and coverage queries.

Every disk is listed in each hash cell that its *reach* square overlaps, where the reach is
``max(disk radius, largest radius a query can have)``. A query (a point or a small box) then only looks at
the single hash cell that contains it, so disks of any radius (much smaller or much larger than the
sampler's cells) are handled the same way. The lists are :class:`~strew.core._grid.CellLists`.
"""

from __future__ import annotations

import numpy as np

from ._grid import CellLists, expand_ranges


class DiskIndex:
    """Disks ``(x, y, radius)`` hashed on a grid of ``cols x rows`` cells of ``cell_w x cell_h``.

    Parameters
    ----------
    x, y, radius
        The disks (any radius > 0).
    reach_floor
        The largest radius a query point can carry: a disk reaches ``max(radius, reach_floor)``.
    cell_w, cell_h, cols, rows
        The hash grid; it covers ``[0, cols*cell_w) x [0, rows*cell_h)``.
    period
        ``(w, h)`` of a torus (distances wrap and ``cols*cell_w == w``), or ``None``.
    summed
        A query conflicts with a disk closer than the sum of their radii (else the larger); a disk then reaches
        ``radius + reach_floor``.
    """

    def __init__(
        self,
        x: np.ndarray,
        y: np.ndarray,
        radius: np.ndarray,
        reach_floor: float,
        cell_w: float,
        cell_h: float,
        cols: int,
        rows: int,
        period: tuple[float, float] | None,
        summed: bool = False,
    ) -> None:
        self.cell_w, self.cell_h, self.cols, self.rows, self.period = cell_w, cell_h, cols, rows, period
        self.summed, self.floor = summed, reach_floor
        reach = radius + reach_floor if summed else np.maximum(radius, reach_floor)
        x_lo = np.floor((x - reach) / cell_w).astype(np.int64)
        x_hi = np.floor((x + reach) / cell_w).astype(np.int64)
        y_lo = np.floor((y - reach) / cell_h).astype(np.int64)
        y_hi = np.floor((y + reach) / cell_h).astype(np.int64)
        if period is None:
            x_lo, x_hi = np.maximum(x_lo, 0), np.minimum(x_hi, cols - 1)
            y_lo, y_hi = np.maximum(y_lo, 0), np.minimum(y_hi, rows - 1)
            nx = np.maximum(x_hi - x_lo + 1, 0)
            ny = np.maximum(y_hi - y_lo + 1, 0)
        else:
            nx = np.minimum(x_hi - x_lo + 1, cols)
            ny = np.minimum(y_hi - y_lo + 1, rows)
        disk, k = expand_ranges(nx * ny)
        cx = x_lo[disk] + k % nx[disk]
        cy = y_lo[disk] + k // nx[disk]
        if period is not None:
            cx %= cols
            cy %= rows
        self.cells = CellLists.from_pairs(disk, cy * cols + cx, cols * rows)
        self.x, self.y, self.radius = x, y, radius

    def candidates(self, qx: np.ndarray, qy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(query, disk) pairs: every disk listed in the hash cell of each query point, query after query."""
        if self.cells.items.size == 0 or qx.size == 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
        return self._pairs(qx, qy)

    def candidates_around(
        self, qx: np.ndarray, qy: np.ndarray, spread: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(query, disk) pairs: every disk listed in a hash cell within ``spread`` (per query, along each axis) of
        each query point, query after query (a disk may come more than once)."""
        if self.cells.items.size == 0 or qx.size == 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
        x_lo = np.floor((qx - spread) / self.cell_w).astype(np.int64)
        x_hi = np.floor((qx + spread) / self.cell_w).astype(np.int64)
        y_lo = np.floor((qy - spread) / self.cell_h).astype(np.int64)
        y_hi = np.floor((qy + spread) / self.cell_h).astype(np.int64)
        if self.period is None:
            x_lo, x_hi = np.clip(x_lo, 0, self.cols - 1), np.clip(x_hi, 0, self.cols - 1)
            y_lo, y_hi = np.clip(y_lo, 0, self.rows - 1), np.clip(y_hi, 0, self.rows - 1)
        nx = np.minimum(x_hi - x_lo + 1, self.cols)
        ny = np.minimum(y_hi - y_lo + 1, self.rows)
        query, k = expand_ranges(nx * ny)
        cx = x_lo[query] + k % nx[query]
        cy = y_lo[query] + k // nx[query]
        if self.period is not None:
            cx %= self.cols
            cy %= self.rows
        owner, disk = self.cells.candidates(cy * self.cols + cx)
        return query[owner], disk

    def _pairs(self, qx: np.ndarray, qy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx = np.clip((qx / self.cell_w).astype(np.int64), 0, self.cols - 1)
        cy = np.clip((qy / self.cell_h).astype(np.int64), 0, self.rows - 1)
        return self.cells.candidates(cy * self.cols + cx)

    def _delta(self, qx: np.ndarray, qy: np.ndarray, disk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx = qx - self.x[disk]
        dy = qy - self.y[disk]
        if self.period is not None:
            w, h = self.period
            dx -= w * np.rint(dx / w)
            dy -= h * np.rint(dy / h)
        return dx, dy

    def _need(self, disk: np.ndarray, qr: np.ndarray | float) -> np.ndarray:
        """Conflict distance of a query of radius ``qr`` (per pair) to each ``disk``."""
        return self.radius[disk] + qr if self.summed else np.maximum(self.radius[disk], qr)

    def conflicts(self, qx: np.ndarray, qy: np.ndarray, qr: np.ndarray | float) -> np.ndarray:
        """Whether each query point of radius ``qr`` is closer than ``max(qr, disk radius)`` to a disk (the sum
        when ``summed``)."""
        out = np.zeros(qx.size, dtype=bool)
        if self.cells.items.size == 0 or qx.size == 0:
            return out
        q, disk = self._pairs(qx, qy)
        dx, dy = self._delta(qx[q], qy[q], disk)
        need = self._need(disk, qr[q] if isinstance(qr, np.ndarray) else qr)
        out[q[dx * dx + dy * dy < need * need]] = True
        return out

    def covers(
        self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float, qr: np.ndarray | float
    ) -> np.ndarray:
        """Whether each box (centre ``cx, cy``, half sides given, inside one hash cell) lies in one disk.

        A box is covered when its farthest corner from a disk centre is closer than
        ``max(disk radius, qr)`` (``qr`` is a lower bound of the radius a point in the box would get).
        """
        out = np.zeros(cx.size, dtype=bool)
        if self.cells.items.size == 0 or cx.size == 0:
            return out
        q, disk = self._pairs(cx, cy)
        dx, dy = self._delta(cx[q], cy[q], disk)
        fx = np.abs(dx) + half_w
        fy = np.abs(dy) + half_h
        need = self._need(disk, qr[q] if isinstance(qr, np.ndarray) else qr)
        out[q[fx * fx + fy * fy < need * need]] = True
        return out

    def holds(self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float, qr: np.ndarray) -> np.ndarray:
        """``covers`` for query radii ``qr`` (per box) beyond the index's floor: a disk holding a box holds its centre
        ``qr`` less the floor nearer, so the cells that far around the centre list it (a margin covers rounding)."""
        out = np.zeros(cx.size, dtype=bool)
        spread = np.maximum(qr - self.floor, 0.0) + 1e-9 * (self.cell_w + self.cell_h)
        q, disk = self.candidates_around(cx, cy, spread)
        if q.size:
            dx, dy = self._delta(cx[q], cy[q], disk)
            fx = np.abs(dx) + half_w
            fy = np.abs(dy) + half_h
            need = self._need(disk, qr[q])
            out[q[fx * fx + fy * fy < need * need]] = True
        return out

    def nearest_far2(self, cx: np.ndarray, cy: np.ndarray, half_w: float, half_h: float) -> np.ndarray:
        """Per box (centre, half sides), the smallest squared distance from a disk centre to the box's
        farthest corner (inf when no disk is listed in its hash cell)."""
        out = np.full(cx.size, np.inf)
        if self.cells.items.size == 0 or cx.size == 0:
            return out
        q, disk = self._pairs(cx, cy)
        if q.size == 0:
            return out
        dx, dy = self._delta(cx[q], cy[q], disk)
        fx = np.abs(dx) + half_w
        fy = np.abs(dy) + half_h
        far2 = fx * fx + fy * fy
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
        out[q[starts]] = np.minimum.reduceat(far2, starts)
        return out


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-D array of numbers (without the import of ``numpy.ma`` its first call makes:
    tens of milliseconds in the first live update's chunk)."""
    k = len(values) // 2
    if len(values) % 2:
        return float(np.partition(values, k)[k])
    low, high = np.partition(values, [k - 1, k])[k - 1:k + 1]
    return float((low + high) / 2.0)


def hash_cell_multiple(
    radius: np.ndarray, reach_floor: float, base_cell: float, base_cols: int, base_rows: int, tileable: bool
) -> int:
    """How many sampler cells make one hash cell: about the typical disk reach (divides the grid if tiled)."""
    if radius.size == 0:
        return 1
    target = max(1, int(_median(np.maximum(radius, reach_floor).ravel()) / base_cell))
    target = min(target, base_cols, base_rows)
    if not tileable:
        return target
    for m in range(target, 0, -1):
        if base_cols % m == 0 and base_rows % m == 0:
            return m
    return 1
