"""Per-triangle planes: which triangles can be hit from above, and the affine maps a query needs.

For a triangle with corners p0, p1, p2 (edges e1 = p1 - p0, e2 = p2 - p0) the barycentrics of a point in
xy are linear in its offset from p0: ``b1 = a1 dx + c1 dy``, ``b2 = a2 dx + c2 dy`` with ``(dx, dy) = (x - x0,
y - y0)``; its height is ``z0 + b1 dz1 + b2 dz2`` and its unit normal (e1 x e2, flipped to point up) is constant.
Everything is relative to the triangle's own corner: a query's answer depends on that triangle alone (not on the
terrain's bounds or the other triangles, so an edit elsewhere changes no bit of it), and far from the origin the
offsets keep their precision.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

DEGENERATE_TOLERANCE = 1e-12
"""Triangles whose xy area is below this times their squared xy extent are vertical/degenerate: skipped."""

BARY_ROWS = 6
"""Rows of the barycentric table (one column per triangle): a1, c1, x0, a2, c2, y0."""

HEIGHT_COLUMNS = 3
"""Columns of the height table: z0, dz1, dz2 (the unit normals nx, ny, nz are a table of their own)."""


def usable(xs: NDArray[np.float64], ys: NDArray[np.float64]) -> NDArray[np.bool_]:
    """True for triangles with area seen from above; ``xs, ys`` are (3, B) corner coordinates."""
    e1x, e1y = xs[1] - xs[0], ys[1] - ys[0]
    e2x, e2y = xs[2] - xs[0], ys[2] - ys[0]
    cross_z = e1x * e2y - e1y * e2x
    extent = np.maximum(np.maximum(np.abs(e1x), np.abs(e1y)), np.maximum(np.abs(e2x), np.abs(e2y)))
    extent = np.maximum(extent, np.maximum(np.abs(e2x - e1x), np.abs(e2y - e1y)))
    return np.abs(cross_z) > DEGENERATE_TOLERANCE * extent * extent


def planes(
    xs: NDArray[np.float64],
    ys: NDArray[np.float64],
    zs: NDArray[np.float64],
    bary: NDArray[np.float64],
    height: NDArray[np.float64],
    normal: NDArray[np.float64],
) -> None:
    """Fill ``bary`` (6, B), ``height`` (B, 3) and ``normal`` (B, 3) for usable triangles with (3, B) corners
    ``xs, ys, zs``."""
    e1x, e1y = xs[1] - xs[0], ys[1] - ys[0]
    e2x, e2y = xs[2] - xs[0], ys[2] - ys[0]
    cross_z = e1x * e2y - e1y * e2x
    inv = 1.0 / cross_z
    bary[0], bary[1], bary[2] = e2y * inv, -e2x * inv, xs[0]
    bary[3], bary[4], bary[5] = -e1y * inv, e1x * inv, ys[0]
    dz1, dz2 = zs[1] - zs[0], zs[2] - zs[0]
    height[:, 0], height[:, 1], height[:, 2] = zs[0], dz1, dz2
    flip = np.where(cross_z < 0, -1.0, 1.0)
    nx = (e1y * dz2 - dz1 * e2y) * flip
    ny = (dz1 * e2x - e1x * dz2) * flip
    nz = cross_z * flip
    inv_len = 1.0 / np.sqrt(nx * nx + ny * ny + nz * nz)
    normal[:, 0], normal[:, 1], normal[:, 2] = nx * inv_len, ny * inv_len, nz * inv_len
