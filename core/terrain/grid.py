"""The terrain's grid: every triangle listed in the cells its xy projection touches.

Triangles are binned over their xy bounding boxes, and cells that a triangle's projection cannot touch are
culled with a separating-axis test, so a query tests the few triangles of its own cell only.

The triangles are numbered in row-major order of their first cell (the cell of their box's lower-left
corner). For each offset ``(du, dv)`` inside the boxes, the pairs (cell, triangle) then come out already
sorted, so the cell lists are a merge of a few sorted runs instead of a full sort of millions of keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .._grid import CellLists, expand_ranges

Boxes = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]
"""Per-triangle xy bounding boxes: ``lo_x, lo_y, hi_x, hi_y``."""

Ranges = tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]
"""Per-triangle cell ranges: first column, first row, number of columns, number of rows."""

RUN_SPAN = 4
"""Boxes up to this many cells wide and deep are binned offset by offset; larger ones pair by pair."""

KEY_SHIFT = 32
"""A (cell, triangle) pair is sorted as the key ``cell << KEY_SHIFT | triangle``."""


@dataclass(frozen=True)
class TriangleGrid:
    """A uniform grid of ``shape = (nx, ny)`` cells from ``origin`` and the triangles of each cell."""

    origin: NDArray[np.float64]
    inv_cell: NDArray[np.float64]
    shape: NDArray[np.int64]
    cells: CellLists

    def cells_of(
        self, x: NDArray[np.float64], y: NDArray[np.float64]
    ) -> tuple[NDArray[np.int64], NDArray[np.bool_] | None]:
        """The cell of every point and which points lie on the grid (``None``: all of them)."""
        fx = x - self.origin[0]
        fx *= self.inv_cell[0]
        fy = y - self.origin[1]
        fy *= self.inv_cell[1]
        nx, ny = int(self.shape[0]), int(self.shape[1])
        # The grid is closed (a hair wider than the bounds) so points on the outer edges find their cells.
        slack = 1e-6
        inside: NDArray[np.bool_] | None = None
        if len(fx) and not (fx.min() >= -slack and fy.min() >= -slack and fx.max() <= nx + slack
                            and fy.max() <= ny + slack):
            inside = (fx >= -slack) & (fy >= -slack) & (fx <= nx + slack) & (fy <= ny + slack)
        cell = np.minimum(np.maximum(fy, 0.0, out=fy), ny - 1, out=fy).astype(np.int64)
        cell *= nx
        cell += np.minimum(np.maximum(fx, 0.0, out=fx), nx - 1, out=fx).astype(np.int64)
        return cell, inside

    def locality_order(self, cell: NDArray[np.int64]) -> NDArray[np.intp]:
        """An order of points in the given cells by runs of neighbouring cells (at most 65 536 runs: one 16-bit
        sort pass), so queries taken in this order read the cell lists and triangle rows nearly in memory order."""
        shift = max(0, (int(self.shape.prod()) - 1).bit_length() - 16)
        return np.argsort((cell >> shift).astype(np.uint16), kind="stable")


@dataclass(frozen=True)
class GridFrame:
    """Where the cells lie: ``origin``, cells per world unit ``inv_cell`` and ``shape = (nx, ny)``."""

    origin: NDArray[np.float64]
    inv_cell: NDArray[np.float64]
    shape: NDArray[np.int64]

    @classmethod
    def fit(
        cls, boxes: Boxes, bounds: tuple[NDArray[np.float64], NDArray[np.float64]], per_cell: float, block: int
    ) -> tuple[GridFrame, Ranges, int, bool]:
        """About one cell per ``per_cell`` triangles over ``bounds``, coarser if boxes would overlap too
        many cells; with every box's cell range (first column, first row, columns, rows; int32), the cells the
        boxes cover in all and whether the first (finest) frame tried was taken."""
        count = len(boxes[0])
        origin = bounds[0].copy()
        span = np.maximum(bounds[1] - origin, 1e-12 * (1.0 + np.abs(origin)))
        side = float(np.sqrt(span[0] * span[1] / max(1.0, count / per_cell)))
        side = max(side, float(span.max()) / 4096.0)  # keeps a degenerate (thin) extent from exploding
        ranges = (np.empty(count, np.int32), np.empty(count, np.int32), np.empty(count, np.int32),
                  np.empty(count, np.int32))
        first = True
        while True:
            shape = np.maximum(1, np.ceil(span / side)).astype(np.int64)
            frame = cls(origin, shape / span, shape)
            pairs = 0
            for start in range(0, count, block):
                part = slice(start, start + block)
                cx0, cy0, width, height = frame.cell_ranges((boxes[0][part], boxes[1][part], boxes[2][part],
                                                             boxes[3][part]))
                pairs += int(np.dot(width, height))
                ranges[0][part], ranges[1][part], ranges[2][part], ranges[3][part] = cx0, cy0, width, height
            if frame.fits(pairs, count):
                return frame, ranges, pairs, first
            side *= 2.0
            first = False

    def fits(self, pairs: int, count: int) -> bool:
        """Whether ``count`` boxes covering ``pairs`` cells in all may use this frame: a few huge triangles over a
        fine grid would blow up memory (:meth:`fit` coarsens until bounded)."""
        return pairs <= 16 * count + 4 * int(self.shape.prod()) or int(np.max(self.shape)) == 1

    def first_cells(self, boxes: Boxes) -> NDArray[np.int64]:
        """The cell of each box's lower-left corner (row-major: ``row * nx + column``): the triangles are
        numbered in this order."""
        cx0, cy0, _, _ = self.cell_ranges(boxes)
        return cy0 * self.shape[0] + cx0

    def cell_ranges(
        self, boxes: Boxes
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """First column and row of each box's cells, and how many columns and rows it spans."""
        lo_x, lo_y, hi_x, hi_y = boxes
        origin, inv_cell, last = self.origin, self.inv_cell, self.shape - 1
        cx0 = np.minimum(((lo_x - origin[0]) * inv_cell[0]).astype(np.int64), last[0])
        cy0 = np.minimum(((lo_y - origin[1]) * inv_cell[1]).astype(np.int64), last[1])
        width = np.minimum(((hi_x - origin[0]) * inv_cell[0]).astype(np.int64), last[0]) - cx0 + 1
        height = np.minimum(((hi_y - origin[1]) * inv_cell[1]).astype(np.int64), last[1]) - cy0 + 1
        return cx0, cy0, width, height


class PairCollector:
    """Gathers the (cell, triangle) keys of blocks of triangles, numbered in first-cell order."""

    def __init__(self, frame: GridFrame, count: int) -> None:
        self.frame = frame
        self.count = count
        self.runs: dict[tuple[int, int], list[NDArray[np.int64]]] = {}
        self.rest: list[NDArray[np.int64]] = []
        self.per_cell = np.zeros(int(frame.shape.prod()), dtype=np.int64)

    def add(self, ranges: Ranges, xs: NDArray[np.float64], ys: NDArray[np.float64], first: int) -> None:
        """Pairs of the triangles ``first, first + 1, ...`` (their cell ranges and (3, B) corners)."""
        frame = self.frame
        cx0, cy0, width, height = (r.astype(np.int64) for r in ranges)
        edges = _edge_planes(frame, xs, ys)
        small = (width <= RUN_SPAN) & (height <= RUN_SPAN)
        # A box one cell wide or deep: the triangle crosses every cell of it (it is connected).
        thin = (width == 1) | (height == 1)
        index = np.arange(first, first + len(cx0), dtype=np.int64)
        base = ((cy0 * frame.shape[0] + cx0) << KEY_SHIFT) | index
        cell_w, cell_h = 1.0 / frame.inv_cell
        span_u = int(np.max(width[small], initial=1))
        span_v = int(np.max(height[small], initial=1))
        # The separating-axis reach of cell (du, dv) along edge e is  across[e][du] + along[e][dv].
        across = [[nx * (frame.origin[0] + (cx0 + (du + 0.5)) * cell_w) for du in range(span_u)]
                  for nx, _, _ in edges]
        along = [[ny * (frame.origin[1] + (cy0 + (dv + 0.5)) * cell_h) + offset for dv in range(span_v)]
                 for _, ny, offset in edges]
        column_ok = [du < width for du in range(span_u)]
        reach = np.empty(len(cx0))
        within = np.empty(len(cx0), dtype=bool)
        block_keys = []
        for dv in range(span_v):
            row_ok = small & (dv < height)
            for du in range(span_u):
                np.add(across[0][du], along[0][dv], out=reach)
                np.greater_equal(reach, 0.0, out=within)
                for e in (1, 2):
                    np.add(across[e][du], along[e][dv], out=reach)
                    within &= reach >= 0.0
                within |= thin
                within &= row_ok
                within &= column_ok[du]
                pick = np.flatnonzero(within)
                keys = base[pick] + ((dv * int(frame.shape[0]) + du) << KEY_SHIFT)
                block_keys.append(keys)
                self.runs.setdefault((du, dv), []).append(keys)
        big = np.flatnonzero(~small)
        if len(big):
            keys = self._pairwise(big, cx0, cy0, width, height, edges, index)
            self.rest.append(keys)
            block_keys.append(keys)
        cells = np.concatenate(block_keys) >> KEY_SHIFT
        if len(cells):
            low = int(np.min(cells))
            counts = np.bincount(cells - low)
            self.per_cell[low:low + len(counts)] += counts

    def _pairwise(self, tri: NDArray[np.intp], cx0: NDArray[np.int64], cy0: NDArray[np.int64],
                  width: NDArray[np.int64], height: NDArray[np.int64], edges: NDArray[np.float64],
                  index: NDArray[np.int64]) -> NDArray[np.int64]:
        """Keys of large boxes, cell by cell (few triangles: a plain expansion)."""
        frame = self.frame
        owner, local = expand_ranges(width[tri] * height[tri])
        owner = tri[owner]
        w = width[owner]
        row = local // w
        cx = cx0[owner] + (local - row * w)
        cy = cy0[owner] + row
        cell_w, cell_h = 1.0 / frame.inv_cell
        centre_x = frame.origin[0] + (cx + 0.5) * cell_w
        centre_y = frame.origin[1] + (cy + 0.5) * cell_h
        keep = _touches(edges[:, :, owner], centre_x, centre_y)
        return ((cy * frame.shape[0] + cx) << KEY_SHIFT)[keep] | index[owner[keep]]

    def pairs(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The (cell, triangle) pairs gathered so far, in no particular order: two arrays."""
        parts = [block for run in self.runs.values() for block in run] + self.rest
        keys = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return keys >> KEY_SHIFT, keys & ((1 << KEY_SHIFT) - 1)

    def cell_lists(self) -> CellLists:
        """The cell lists, each cell's triangles in ascending order."""
        parts = [block for run in self.runs.values() for block in run] + self.rest
        keys = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        keys.sort(kind="stable")  # a merge of sorted runs
        keys &= (1 << KEY_SHIFT) - 1  # the triangle of each pair
        starts = np.zeros(len(self.per_cell) + 1, dtype=np.int64)
        np.cumsum(self.per_cell, out=starts[1:])
        return CellLists(keys, starts)


def _edge_planes(frame: GridFrame, xs: NDArray[np.float64], ys: NDArray[np.float64]) -> NDArray[np.float64]:
    """(3 edges, 3, B): outward-facing edge normal (nx, ny) and offset of every triangle, such that a cell
    with centre c can touch the triangle only if ``nx * c_x + ny * c_y + offset >= 0`` for all three edges."""
    cell = 1.0 / frame.inv_cell
    half = 0.5 * cell
    out = np.empty((3, 3, xs.shape[1]))
    for e, (i, j, k) in enumerate(((0, 1, 2), (1, 2, 0), (2, 0, 1))):
        nx = ys[j] - ys[i]
        ny = xs[i] - xs[j]
        side = nx * (xs[k] - xs[i]) + ny * (ys[k] - ys[i])
        sign = np.where(side >= 0, 1.0, -1.0)
        nx *= sign
        ny *= sign
        # reach = n.(centre - v_i) + |n_x| half_x + |n_y| half_y; a small slack keeps touching cells
        out[e, 0], out[e, 1] = nx, ny
        out[e, 2] = (
            np.abs(nx) * half[0]
            + np.abs(ny) * half[1]
            - (nx * xs[i] + ny * ys[i])
            + 1e-6 * (np.abs(nx) * cell[0] + np.abs(ny) * cell[1])
            + 1e-8 * (nx * nx + ny * ny)
        )
    return out


def _touches(edges: NDArray[np.float64], centre_x: NDArray[np.float64], centre_y: NDArray[np.float64]
             ) -> NDArray[np.bool_]:
    """Separating-axis test of cells (centres) against triangles (edge planes, one per cell)."""
    touch = np.ones(len(centre_x), dtype=bool)
    for nx, ny, offset in edges:
        reach = nx * centre_x
        reach += ny * centre_y
        reach += offset
        touch &= reach >= 0
    return touch
