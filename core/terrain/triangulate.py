"""Quad and n-gon splitting into triangles, as Blender's ``loop_triangles`` does for quads."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._grid import expand_ranges


def triangulate_polygons(loop_totals: Any, corner_vertices: Any) -> NDArray[np.int64]:
    """Split polygons into triangles the way Blender's ``loop_triangles`` splits quads.

    Triangles stay as they are; a quad ``(a, b, c, d)`` becomes ``(a, b, c), (a, c, d)`` (Blender splits
    quads on the first-to-third diagonal); n-gons are fanned from their first corner, which matches
    Blender for convex planar n-gons (Blender ear-clips n-gons, so concave or warped n-gons may differ —
    inside Blender read ``mesh.loop_triangles`` instead).

    Parameters
    ----------
    loop_totals : (P,) int
        Corner count of each polygon (``polygon.loop_total``), each >= 3.
    corner_vertices : (sum(loop_totals),) int
        Vertex index of every corner, polygon after polygon (``mesh.loops[i].vertex_index``).

    Returns
    -------
    (F, 3) int64 array of vertex indices.

    >>> triangulate_polygons([4, 3], [0, 1, 2, 3, 3, 2, 4]).tolist()
    [[0, 1, 2], [0, 2, 3], [3, 2, 4]]
    """
    totals = np.asarray(loop_totals)
    corners = np.asarray(corner_vertices)
    if totals.ndim != 1 or not np.issubdtype(totals.dtype, np.integer):
        raise ValueError("loop_totals: expected a 1-D integer array (corners per polygon)")
    if corners.ndim != 1 or not np.issubdtype(corners.dtype, np.integer):
        raise ValueError("corner_vertices: expected a 1-D integer array (vertex index per corner)")
    if len(totals) and totals.min() < 3:
        raise ValueError(f"loop_totals: every polygon needs >= 3 corners, got {int(totals.min())}")
    if int(totals.sum()) != len(corners):
        raise ValueError(
            f"corner_vertices: expected sum(loop_totals) = {int(totals.sum())} entries, got {len(corners)}"
        )
    totals = totals.astype(np.int64)
    starts = np.cumsum(totals) - totals
    per_poly = totals - 2
    poly, local = expand_ranges(per_poly)
    first = starts[poly]
    out = np.stack([corners[first], corners[first + local + 1], corners[first + local + 2]], axis=1)
    return out.astype(np.int64)
