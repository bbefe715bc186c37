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

BLOCK = 16_384
"""Triangles handled per step."""


@dataclass(frozen=True)
class Built:
    """What a lookup keeps: triangles renumbered in grid order (``kept[i]`` is the input index of
    triangle ``i``), their barycentric, height and normal tables, the grid and the usable xy bounds."""

    kept: NDArray[np.intp]
    bary: NDArray[np.float64]
    height: NDArray[np.float64]
    normal: NDArray[np.float64]
    grid: TriangleGrid
    bounds: tuple[NDArray[np.float64], NDArray[np.float64]]


def build(verts: NDArray[np.float64], tris: NDArray[np.int64], per_cell: float) -> Built:
    """Planes and grid of the usable triangles of a validated mesh (see :class:`TerrainLookup`)."""
    vx, vy, vz = verts[:, 0], verts[:, 1], verts[:, 2]
    keep, boxes = _usable_boxes(vx, vy, tris)
    if not keep.all():
        boxes = (boxes[0][keep], boxes[1][keep], boxes[2][keep], boxes[3][keep])
    bounds = (np.array([np.min(boxes[0]), np.min(boxes[1])]), np.array([np.max(boxes[2]), np.max(boxes[3])]))
    frame, ranges = GridFrame.fit(boxes, bounds, per_cell, BLOCK)
    del boxes
    # Number the triangles in row-major order of their first cell: the triangles of one cell then sit
    # close together in memory (random-order meshes query as fast as tidy grids) and the grid's
    # (cell, triangle) pairs come out in sorted runs.
    order = stable_order(ranges[1].astype(np.int64) * frame.shape[0] + ranges[0])
    kept = order if keep.all() else np.flatnonzero(keep)[order]
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
    return Built(kept, bary, height, normal, grid, bounds)


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
        np.minimum(np.minimum(xs[0], xs[1]), xs[2], out=boxes[0][part])
        np.minimum(np.minimum(ys[0], ys[1]), ys[2], out=boxes[1][part])
        np.maximum(np.maximum(xs[0], xs[1]), xs[2], out=boxes[2][part])
        np.maximum(np.maximum(ys[0], ys[1]), ys[2], out=boxes[3][part])
    if not keep.any():
        raise ValueError(
            "the terrain has no area to scatter on from above: every triangle is vertical or degenerate; give it "
            "faces that face up or down, or scatter on walls with Surface: Every Face"
        )
    return keep, boxes
