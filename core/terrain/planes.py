"""Per-triangle planes: which triangles can be hit from above, and the affine maps a query needs.

For a triangle with corners p0, p1, p2 (edges e1 = p1 - p0, e2 = p2 - p0) the barycentrics of a point in
xy are affine: ``b1 = a1 x + c1 y + k1``, ``b2 = a2 x + c2 y + k2``; its height is
``z0 + b1 dz1 + b2 dz2`` and its unit normal (e1 x e2, flipped to point up) is constant.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

DEGENERATE_TOLERANCE = 1e-12
"""Triangles whose xy area is below this times their squared xy extent are vertical/degenerate: skipped."""

BARY_ROWS = 6
"""Rows of the barycentric table (one column per triangle): a1, c1, k1, a2, c2, k2."""

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
    centre: NDArray[np.float64],
    bary: NDArray[np.float64],
    height: NDArray[np.float64],
    normal: NDArray[np.float64],
) -> None:
    """Fill ``bary`` (6, B), ``height`` (B, 3) and ``normal`` (B, 3) for usable triangles with (3, B) corners
    ``xs, ys, zs``.

    Barycentrics are relative to ``centre``, so far-from-origin terrains keep their precision (absolute
    coordinates of 1e5 with 1 cm triangles would lose ~1e-9 otherwise).
    """
    e1x, e1y = xs[1] - xs[0], ys[1] - ys[0]
    e2x, e2y = xs[2] - xs[0], ys[2] - ys[0]
    cross_z = e1x * e2y - e1y * e2x
    local_x = xs[0] - centre[0]
    local_y = ys[0] - centre[1]
    inv = 1.0 / cross_z
    a1, c1 = e2y * inv, -e2x * inv
    a2, c2 = -e1y * inv, e1x * inv
    bary[0], bary[1], bary[3], bary[4] = a1, c1, a2, c2
    bary[2] = -(a1 * local_x + c1 * local_y)
    bary[5] = -(a2 * local_x + c2 * local_y)
    dz1, dz2 = zs[1] - zs[0], zs[2] - zs[0]
    height[:, 0], height[:, 1], height[:, 2] = zs[0], dz1, dz2
    flip = np.where(cross_z < 0, -1.0, 1.0)
    nx = (e1y * dz2 - dz1 * e2y) * flip
    ny = (dz1 * e2x - e1x * dz2) * flip
    nz = cross_z * flip
    inv_len = 1.0 / np.sqrt(nx * nx + ny * ny + nz * nz)
    normal[:, 0], normal[:, 1], normal[:, 2] = nx * inv_len, ny * inv_len, nz * inv_len
