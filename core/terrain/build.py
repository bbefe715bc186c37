"""Building a terrain lookup: usable triangles, their planes and the grid, block by block.

Every pass walks the triangles in blocks of :data:`BLOCK`, so the temporaries stay small and warm in the
CPU cache: a first build in a fresh process (what every Scatter from a new Blender session pays) does not
fault in hundreds of megabytes of scratch memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .._grid import stable_order
from .grid import Boxes, GridFrame, PairCollector, TriangleGrid
from .planes import BARY_ROWS, HEIGHT_COLUMNS, planes, usable
from .results import NoAreaError

BLOCK = 16_384
"""Triangles handled per step."""


@dataclass(frozen=True)
class Built:
    """What a lookup keeps: triangles renumbered in grid order (``kept[i]`` is the input index of
    triangle ``i``), their barycentric, height and normal tables, the grid and the usable xy bounds.

    What an edit needs to work out the same tables again (:mod:`.edit`): ``order`` (the sort key of every
    renumbered triangle, ascending: its first cell times the input's triangle count plus its input index), the
    cells the triangles' boxes cover in all (``pairs``) and whether the grid is the finest one tried
    (``first_frame``)."""

    kept: NDArray[np.intp]
    bary: NDArray[np.float64]
    height: NDArray[np.float64]
    normal: NDArray[np.float64]
    grid: TriangleGrid
    bounds: tuple[NDArray[np.float64], NDArray[np.float64]]
    order: NDArray[np.int64]
    pairs: int
    first_frame: bool


def build(verts: NDArray[np.float64], tris: NDArray[np.int64], per_cell: float) -> Built:
    """Planes and grid of the usable triangles of a validated mesh (see :class:`TerrainLookup`)."""
    vx, vy, vz = verts[:, 0], verts[:, 1], verts[:, 2]
    keep, boxes = _usable_boxes(vx, vy, tris)
    if not keep.all():
        boxes = (boxes[0][keep], boxes[1][keep], boxes[2][keep], boxes[3][keep])
    bounds = (np.array([np.min(boxes[0]), np.min(boxes[1])]), np.array([np.max(boxes[2]), np.max(boxes[3])]))
    frame, ranges, covered, first_frame = GridFrame.fit(boxes, bounds, per_cell, BLOCK)
    del boxes
    # Number the triangles in row-major order of their first cell: the triangles of one cell then sit
    # close together in memory (random-order meshes query as fast as tidy grids) and the grid's
    # (cell, triangle) pairs come out in sorted runs.
    first_cell = ranges[1].astype(np.int64) * frame.shape[0] + ranges[0]
    order = stable_order(first_cell)
    kept = order if keep.all() else np.flatnonzero(keep)[order]
    sort_keys = first_cell[order]
    sort_keys *= len(tris)
    sort_keys += kept
    used = len(kept)
    bary = np.empty((BARY_ROWS, used))
    height, normal = np.empty((2, used, HEIGHT_COLUMNS))  # one allocation, two contiguous tables
    pairs = PairCollector(frame, used)
    for start in range(0, used, BLOCK):
        part = slice(start, start + BLOCK)
        rows = order[part]
        corners = tris[kept[part]].T
        xs, ys = vx[corners], vy[corners]
        planes(xs, ys, vz[corners], bary[:, part], height[part], normal[part])
        pairs.add((ranges[0][rows], ranges[1][rows], ranges[2][rows], ranges[3][rows]), xs, ys, start)
    grid = TriangleGrid(frame.origin, frame.inv_cell, frame.shape, pairs.cell_lists())
    return Built(kept, bary, height, normal, grid, bounds, sort_keys, covered, first_frame)


def _usable_boxes(
    vx: NDArray[np.float64], vy: NDArray[np.float64], tris: NDArray[np.int64]
) -> tuple[NDArray[np.bool_], Boxes]:
    """Which triangles have area seen from above, and every triangle's xy bounding box."""
    count = len(tris)
    keep = np.empty(count, dtype=bool)
    boxes = (np.empty(count), np.empty(count), np.empty(count), np.empty(count))
    for start in range(0, count, BLOCK):
        part = slice(start, start + BLOCK)
        corners = tris[part].T
        xs, ys = vx[corners], vy[corners]
        keep[part] = usable(xs, ys)
        corner_boxes(xs, ys, (boxes[0][part], boxes[1][part], boxes[2][part], boxes[3][part]))
    if not keep.any():
        raise NoAreaError(
            "the terrain has no area to scatter on from above: every triangle is vertical or degenerate; give it "
            "faces that face up or down, or scatter on walls with Surface: Every Face"
        )
    return keep, boxes


def corner_boxes(xs: NDArray[np.float64], ys: NDArray[np.float64], out: Boxes | None = None) -> Boxes:
    """The xy bounding boxes of triangles with (3, B) corner coordinates ``xs, ys`` (into ``out`` if given)."""
    if out is None:
        count = xs.shape[1]
        out = (np.empty(count), np.empty(count), np.empty(count), np.empty(count))
    np.minimum(np.minimum(xs[0], xs[1]), xs[2], out=out[0])
    np.minimum(np.minimum(ys[0], ys[1]), ys[2], out=out[1])
    np.maximum(np.maximum(xs[0], xs[1]), xs[2], out=out[2])
    np.maximum(np.maximum(ys[0], ys[1]), ys[2], out=out[3])
    return out
