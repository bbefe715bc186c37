"""What a grid cell of the terrain lookup settles for every point in it, so most mask queries cast no ray.

A sampler asks "is this place on the terrain, flat enough, high enough?" for millions of darts and box
corners; on a terrain without holes nearly all of them lie in cells the answer is the same for everywhere.

**A cell inside the terrain.** Seen from above the terrain is the union ``U`` of its usable triangles. A point
in the middle of an edge shared by exactly two triangles lying on opposite sides of it is inside ``U`` (the two
cover a disk around it), and so is a point inside a triangle; so the boundary of ``U`` lies on the *outline
edges*: every other edge (used once, by three or more triangles, or by two on the same side: a fold, seen from
above). A closed cell that no outline edge comes near is either wholly inside ``U`` or wholly outside (it is
connected); when a triangle of ``U`` touches it (the cell lists it), it is inside. Both tests are
conservative in the right direction: the cell lists a triangle up to ``1e-6`` cell sides and ``1e-8`` edge
lengths away (:func:`.grid._edge_planes`), and a cell counts as crossed by an outline edge when the edge's box
comes within ten times that. So every point of an inside cell hits the terrain, exactly as a ray cast says.

**Tests the cell settles.** A point's hit is one of the triangles its cell lists (:mod:`.query`), so when every
listed triangle's normal passes a slope test, every point of an inside cell passes it (and fails when none
does); the same for a height range, with a margin for the rounding of the interpolated height.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .._grid import distinct_sorted, expand_ranges
from .grid import TriangleGrid

OUTLINE_MARGIN_CELLS = 1e-5
"""How near (in cell sides) an outline edge's box must come to a cell to count as crossing it: ten times the
slack of the cell lists (:func:`.grid._edge_planes`)."""

OUTLINE_MARGIN_SPAN = 1e-7
"""... plus this times the terrain's diagonal (the cell lists' slack also grows with a triangle's edge length)."""

HEIGHT_MARGIN = 1e-6
"""A cell settles a height range only this far (times its heights' span and magnitude) inside or outside it: an
interpolated height may round, or extrapolate within the barycentric tolerance, a little past its corners."""


class CellFacts:
    """Per cell of a lookup's grid: whether it lies inside the terrain seen from above (``inside``), and on
    demand the range of its triangles' normal z (:meth:`up_range`) and heights (:meth:`z_range`)."""

    def __init__(self, grid: TriangleGrid, triangles: NDArray[np.int64], bary: NDArray[np.float64],
                 normal: NDArray[np.float64], height: NDArray[np.float64], vertices: NDArray[np.float64],
                 span: NDArray[np.float64]) -> None:
        """``triangles``: the usable triangles' vertex indices in the tables' order (``bary``, ``normal``,
        ``height``, see :class:`.query.Tables`); ``span``: the terrain's xy size."""
        self._grid, self._normal, self._height = grid, normal, height
        starts = grid.cells.starts
        listed = starts[1:] > starts[:-1]
        self.inside: NDArray[np.bool_] = listed & ~_crossed(grid, _outline_edges(triangles, bary), vertices, span)
        self._up: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
        self._z: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None

    def up_range(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The least and greatest normal z of each listing cell's triangles (cells listing none: NaN)."""
        if self._up is None:
            self._up = self._ranges(*self._up_values())
        return self._up

    def z_range(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The least and greatest corner height of each listing cell's triangles (cells listing none: NaN)."""
        if self._z is None:
            self._z = self._ranges(*self._z_values())
        return self._z

    def after_heights(self, normal: NDArray[np.float64], height: NDArray[np.float64]) -> CellFacts:
        """These facts for the same triangles after corners moved in height only (the same grid, numbering and
        outline: ``inside`` stays); the ranges already worked out are worked out again only in the cells that
        list a triangle whose ``normal`` or ``height`` row changed."""
        out = CellFacts.__new__(CellFacts)
        out._grid, out._normal, out._height, out.inside = self._grid, normal, height, self.inside
        out._up, out._z = None, None
        changed = np.zeros(len(normal), dtype=bool)
        changed |= (self._normal != normal).any(axis=1)
        changed |= (self._height != height).any(axis=1)
        lists = self._grid.cells
        pairs = np.flatnonzero(np.take(changed, lists.items))
        cells = distinct_sorted(np.searchsorted(lists.starts, pairs, side="right") - 1)  # ascending
        if self._up is not None:
            out._up = out._ranges(*out._up_values(), cells, self._up)
        if self._z is not None:
            out._z = out._ranges(*out._z_values(), cells, self._z)
        return out

    def _up_values(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        up = np.ascontiguousarray(self._normal[:, 2])
        return up, up

    def _z_values(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        z0 = self._height[:, 0]
        z1, z2 = z0 + self._height[:, 1], z0 + self._height[:, 2]
        return np.minimum(np.minimum(z0, z1), z2), np.maximum(np.maximum(z0, z1), z2)

    def _ranges(self, low: NDArray[np.float64], high: NDArray[np.float64], cells: NDArray[np.intp] | None = None,
                before: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
                ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Per cell, the min of ``low`` and the max of ``high`` over its listed triangles: for every cell, or
        for ``cells`` only, the others copied from ``before``."""
        lists = self._grid.cells
        counts = lists.starts[1:] - lists.starts[:-1]
        if cells is None or before is None:  # every cell: the lists in one piece
            out_low, out_high = np.full(len(counts), np.nan), np.full(len(counts), np.nan)
            cells = np.flatnonzero(counts)
            items, at = lists.items, lists.starts[cells]
        else:
            out_low, out_high = before[0].copy(), before[1].copy()
            cells = cells[counts[cells] > 0]
            owner, local = expand_ranges(counts[cells])
            items = np.take(lists.items, lists.starts[cells][owner] + local)
            at = np.r_[0, np.cumsum(counts[cells])[:-1]]
        if len(cells):
            out_low[cells] = np.minimum.reduceat(np.take(low, items), at)
            out_high[cells] = np.maximum.reduceat(np.take(high, items), at)
        return out_low, out_high

    def settle(self, cells: NDArray[np.int64], inside: NDArray[np.bool_] | None, min_up: float | None,
               heights: tuple[float, float] | None) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """For points in ``cells`` (``inside``: which lie on the grid, None: all): which ones their cell settles
        (or lie off the grid: a miss), and the answer there (hits the terrain, normal z >= ``min_up``, height
        within ``heights``)."""
        settled = np.take(self.inside, cells)
        answer = np.ones(len(cells), dtype=bool)
        if min_up is not None:
            low, high = (np.take(bound, cells) for bound in self.up_range())
            passes, fails = low >= min_up, high < min_up
            settled &= passes | fails
            answer &= passes
        if heights is not None:
            low, high = (np.take(bound, cells) for bound in self.z_range())
            margin = HEIGHT_MARGIN * (high - low + np.abs(low) + np.abs(high))
            low, high = low - margin, high + margin
            passes = (low >= heights[0]) & (high <= heights[1])
            settled &= passes | (high < heights[0]) | (low > heights[1])
            answer &= passes
        if inside is not None:  # off the grid: no ray hits there
            settled |= ~inside
            answer &= inside
        return settled, answer


def _outline_edges(triangles: NDArray[np.int64], bary: NDArray[np.float64]) -> NDArray[np.int64]:
    """(E, 2) vertex indices of the outline edges: every edge not shared by exactly two triangles on its two
    sides. Each edge of a triangle is one key, its vertices (lower first) and which side of it the triangle
    lies on; one sort of the keys pairs them."""
    # The sign of the triangle's xy area: bary's 2 x 2 block is the inverse of the edge matrix, whose
    # determinant is 1 / (twice the signed area); usable triangles have |area| far above rounding.
    positive = bary[0] * bary[4] > bary[1] * bary[3]
    vertex_count = int(np.max(triangles)) + 1
    keys = np.empty(3 * len(triangles), dtype=np.int64)
    for k, (i, j) in enumerate(((0, 1), (1, 2), (2, 0))):
        a, b = triangles[:, i], triangles[:, j]
        key = keys[k * len(triangles):(k + 1) * len(triangles)]
        np.minimum(a, b, out=key)
        key *= vertex_count
        key += np.maximum(a, b)
        key <<= 1
        key |= positive ^ (a > b)  # which side, seen along the edge from its lower vertex
    keys.sort()
    edge = keys >> 1
    n = len(keys)
    # A pair: the same edge from both sides (keys 2e and 2e + 1 next to each other), and no third use of it.
    paired = np.zeros(n, dtype=bool)
    if n >= 2:
        start = (edge[1:] == edge[:-1]) & ((keys[:-1] & 1) == 0) & ((keys[1:] & 1) == 1)
        start[1:] &= edge[1:-1] != edge[:-2]
        start[:-1] &= edge[2:] != edge[1:-1]
        paired[:-1] |= start
        paired[1:] |= start
    outline = distinct_sorted(edge[~paired])  # the keys are sorted
    return np.column_stack((outline // vertex_count, outline % vertex_count))


def _crossed(grid: TriangleGrid, edges: NDArray[np.int64], vertices: NDArray[np.float64],
             span: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Per cell, whether an outline edge's box (widened by the margin) reaches it."""
    nx, ny = int(grid.shape[0]), int(grid.shape[1])
    if not len(edges):
        return np.zeros(nx * ny, dtype=bool)
    margin = OUTLINE_MARGIN_CELLS * float(np.max(1.0 / grid.inv_cell)) + OUTLINE_MARGIN_SPAN * float(np.hypot(*span))
    ranges = []
    for axis, last in ((0, nx - 1), (1, ny - 1)):
        ends = vertices[edges, axis]
        first = np.floor((ends.min(axis=1) - margin - grid.origin[axis]) * grid.inv_cell[axis])
        final = np.floor((ends.max(axis=1) + margin - grid.origin[axis]) * grid.inv_cell[axis])
        ranges.append((np.clip(first, 0, last).astype(np.int64), np.clip(final, 0, last).astype(np.int64) + 1))
    (c0, c1), (r0, r1) = ranges
    # A difference table: +1 at a box's first corner and past its last, -1 at the other two; summed along both
    # axes it counts the boxes over each cell.
    width, size = nx + 1, (nx + 1) * (ny + 1)
    table = (np.bincount(np.concatenate((r0 * width + c0, r1 * width + c1)), minlength=size)
             - np.bincount(np.concatenate((r0 * width + c1, r1 * width + c0)), minlength=size)).reshape(ny + 1, width)
    np.cumsum(table, axis=0, out=table)
    np.cumsum(table, axis=1, out=table)
    return table[:ny, :nx].ravel() > 0
