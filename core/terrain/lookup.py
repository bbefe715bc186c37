"""The terrain lookup: what a ray cast straight down from above would hit, vectorised in numpy.

A query looks at the triangles of its own grid cell only (see :mod:`.grid`): barycentric coordinates in xy
for every candidate, then the highest hit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import as_xy, positive_number
from .grid import build_grid, spatial_order
from .mesh import validate_mesh
from .results import TerrainBounds, TerrainHit

BARYCENTRIC_TOLERANCE = 1e-9
"""A point counts as inside a triangle when all barycentrics are >= -this (watertight shared edges)."""

DEGENERATE_TOLERANCE = 1e-12
"""Triangles whose xy area is below this times their squared xy extent are vertical/degenerate: skipped."""


class TerrainLookup:
    """Vertical ray casts from above onto a triangle mesh, vectorised.

    Parameters
    ----------
    vertices : (V, 3) array
        Vertex positions in world space.
    triangles : (F, 3) int array
        Vertex indices per triangle. Vertical or degenerate triangles (no xy area) are skipped.
    triangles_per_cell : float
        Target number of triangles per grid cell (speed knob; the answer does not depend on it).

    Examples
    --------
    >>> import numpy as np
    >>> t = TerrainLookup(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 1.0]]), np.array([[0, 1, 2]]))
    >>> hit = t.sample(np.array([[0.25, 0.25], [2.0, 2.0]]))
    >>> hit.mask.tolist(), float(hit.z[0]), int(hit.triangle[1])
    ([True, False], 0.25, -1)
    """

    def __init__(self, vertices: Any, triangles: Any, *, triangles_per_cell: float = 1.0) -> None:
        verts, tris = validate_mesh(vertices, triangles)
        per_cell = positive_number(triangles_per_cell, "triangles_per_cell")
        # Private read-only copies (``tris`` is a fresh int64 array already); callers' arrays stay writable.
        self.vertices = verts.copy()
        self.triangles = tris
        self.vertices.setflags(write=False)
        self.triangles.setflags(write=False)
        self._cache: Any = None

        # Corner coordinates as contiguous (3, F) arrays: row k holds corner k of every triangle.
        corners_t = tris.T
        xs_all = np.ascontiguousarray(verts[:, 0])[corners_t]
        ys_all = np.ascontiguousarray(verts[:, 1])[corners_t]
        e1x, e1y = xs_all[1] - xs_all[0], ys_all[1] - ys_all[0]
        e2x, e2y = xs_all[2] - xs_all[0], ys_all[2] - ys_all[0]
        cross_z = e1x * e2y - e1y * e2x
        extent = np.maximum(np.maximum(np.abs(e1x), np.abs(e1y)), np.maximum(np.abs(e2x), np.abs(e2y)))
        extent = np.maximum(extent, np.maximum(np.abs(e2x - e1x), np.abs(e2y - e1y)))
        usable = np.abs(cross_z) > DEGENERATE_TOLERANCE * extent * extent
        if not usable.any():
            raise ValueError(
                "triangles: every triangle is vertical or degenerate (no area seen from above); "
                "pass a terrain with faces that face up or down"
            )
        if usable.all():
            kept = np.arange(len(tris))
        else:
            kept = np.flatnonzero(usable)
            xs_all, ys_all, cross_z = xs_all[:, kept], ys_all[:, kept], cross_z[kept]
            e1x, e1y, e2x, e2y = e1x[kept], e1y[kept], e2x[kept], e2y[kept]
        # Renumber the triangles in row-major order of their position, so that the triangles of one grid
        # cell sit close together in memory: random-order meshes then query as fast as tidy grids.
        order = spatial_order(xs_all, ys_all)
        xs_all, ys_all, cross_z, kept = xs_all[:, order], ys_all[:, order], cross_z[order], kept[order]
        e1x, e1y, e2x, e2y = e1x[order], e1y[order], e2x[order], e2y[order]
        self._kept = kept  # kept-local index -> input triangle index
        zs_all = np.ascontiguousarray(verts[:, 2])[tris[kept].T]
        xs = (xs_all[0], xs_all[1], xs_all[2])
        ys = (ys_all[0], ys_all[1], ys_all[2])
        lo = (np.minimum(np.minimum(xs[0], xs[1]), xs[2]), np.minimum(np.minimum(ys[0], ys[1]), ys[2]))
        hi = (np.maximum(np.maximum(xs[0], xs[1]), xs[2]), np.maximum(np.maximum(ys[0], ys[1]), ys[2]))
        self.bounds = TerrainBounds(
            np.array([lo[0].min(), lo[1].min()]), np.array([hi[0].max(), hi[1].max()])
        )
        self.bounds.min.setflags(write=False)
        self.bounds.max.setflags(write=False)
        # Barycentrics are evaluated relative to the bounds' centre, so far-from-origin terrains keep
        # their precision (absolute coordinates of 1e5 with 1 cm triangles would lose ~1e-9 otherwise).
        self._centre = 0.5 * (self.bounds.min + self.bounds.max)
        local_x = xs[0] - self._centre[0]
        local_y = ys[0] - self._centre[1]
        inv = 1.0 / cross_z
        # b1 = a1 * x + c1 * y + k1,  b2 = a2 * x + c2 * y + k2  (affine barycentrics in local xy)
        self._a1 = e2y * inv
        self._c1 = -e2x * inv
        self._k1 = -(self._a1 * local_x + self._c1 * local_y)
        self._a2 = -e1y * inv
        self._c2 = e1x * inv
        self._k2 = -(self._a2 * local_x + self._c2 * local_y)
        self._z0 = zs_all[0]
        self._dz1, self._dz2 = zs_all[1] - zs_all[0], zs_all[2] - zs_all[0]
        # Geometric normal e1 x e2, flipped to point up (cross_z is its z component).
        flip = np.where(cross_z < 0, -1.0, 1.0)
        nx = (e1y * self._dz2 - self._dz1 * e2y) * flip
        ny = (self._dz1 * e2x - e1x * self._dz2) * flip
        nz = cross_z * flip
        inv_len = 1.0 / np.sqrt(nx * nx + ny * ny + nz * nz)
        self._normal = np.stack([nx * inv_len, ny * inv_len, nz * inv_len], axis=1)
        self._grid = build_grid(lo, hi, xs, ys, (self.bounds.min, self.bounds.max), per_cell)

    # --------------------------------------------------------------- queries
    @property
    def triangle_count(self) -> int:
        """Number of input triangles (including skipped vertical ones)."""
        return len(self.triangles)

    @property
    def usable_triangle_count(self) -> int:
        """Number of triangles that can be hit from above (non-vertical, non-degenerate)."""
        return len(self._kept)

    @property
    def cache(self) -> TerrainSampleCache:
        """A :class:`TerrainSampleCache` shared by every mask and field built on this lookup."""
        if self._cache is None:
            self._cache = TerrainSampleCache(self)
        return self._cache

    def sample(self, xy: Any) -> TerrainHit:
        """Cast a ray straight down at every xy and report the top-most hit.

        Parameters
        ----------
        xy : (M, 2) array
            Query positions in world units.

        Returns
        -------
        TerrainHit
            ``mask``, ``z``, ``normal``, ``triangle`` and ``barycentric`` per query.
        """
        pts = as_xy(xy)
        m = len(pts)
        mask = np.zeros(m, dtype=bool)
        z = np.full(m, np.nan)
        normal = np.full((m, 3), np.nan)
        triangle = np.full(m, -1, dtype=np.int64)
        bary = np.full((m, 3), np.nan)
        if m == 0:
            return TerrainHit(mask, z, normal, triangle, bary)

        x, y = pts[:, 0], pts[:, 1]
        query, cand = self._grid.candidates(x, y)
        if len(query) == 0:
            return TerrainHit(mask, z, normal, triangle, bary)
        qx = (x - self._centre[0])[query]
        qy = (y - self._centre[1])[query]
        b1 = self._a1[cand] * qx
        b1 += self._c1[cand] * qy
        b1 += self._k1[cand]
        b2 = self._a2[cand] * qx
        b2 += self._c2[cand] * qy
        b2 += self._k2[cand]
        tol = BARYCENTRIC_TOLERANCE
        hit = (b1 >= -tol) & (b2 >= -tol) & (b1 + b2 <= 1.0 + tol)
        idx = np.flatnonzero(hit)
        if len(idx) == 0:
            return TerrainHit(mask, z, normal, triangle, bary)
        q_hit, t_hit, b1_hit, b2_hit = query[idx], cand[idx], b1[idx], b2[idx]
        z_hit = self._z0[t_hit] + b1_hit * self._dz1[t_hit] + b2_hit * self._dz2[t_hit]

        # Top-most hit per query: hits are grouped by query (ascending); reduce each run.
        run_start = np.flatnonzero(np.r_[True, q_hit[1:] != q_hit[:-1]])
        if len(run_start) == len(q_hit):
            best = np.arange(len(q_hit))
        else:
            run_len = np.diff(np.r_[run_start, len(q_hit)])
            z_max = np.maximum.reduceat(z_hit, run_start)
            is_top = z_hit == np.repeat(z_max, run_len)
            # the last top hit of each run (ties: same height, e.g. on a shared edge)
            top_pos = np.flatnonzero(is_top)
            run_of = np.repeat(np.arange(len(run_start)), run_len)[top_pos]
            last = np.r_[run_of[1:] != run_of[:-1], True]
            best = top_pos[last]
        q = q_hit[best]
        t = t_hit[best]
        b1_best, b2_best = b1_hit[best], b2_hit[best]
        hit_normal = np.take(self._normal, t, axis=0)
        hit_bary = np.stack([1.0 - b1_best - b2_best, b1_best, b2_best], axis=1)
        if len(q) == m:  # every query hit (q is then 0..m-1 in order): no scatter needed
            return TerrainHit(np.ones(m, dtype=bool), z_hit[best], hit_normal, self._kept[t], hit_bary)
        mask[q] = True
        z[q] = z_hit[best]
        normal[q] = hit_normal
        triangle[q] = self._kept[t]
        bary[q] = hit_bary
        return TerrainHit(mask, z, normal, triangle, bary)

    def interpolate(self, hit: TerrainHit, values: NDArray[np.float64]) -> NDArray[np.float64]:
        """Interpolate per-vertex ``values`` (V,) at the hits with their barycentrics (NaN on misses)."""
        out = np.full(len(hit.mask), np.nan)
        ok = hit.mask
        if ok.all():
            rows, bary = np.take(self.triangles, hit.triangle, axis=0), hit.barycentric
        else:
            rows, bary = np.take(self.triangles, hit.triangle[ok], axis=0), hit.barycentric[ok]
        corners = values[rows]
        out[ok] = corners[:, 0] * bary[:, 0] + corners[:, 1] * bary[:, 1] + corners[:, 2] * bary[:, 2]
        return out


class TerrainSampleCache:
    """Remembers the last :meth:`TerrainLookup.sample` answer so several masks share one lookup.

    The key is the content of the xy array (compared exactly), so a mask and a field asked about the same
    candidates in one sampler step cost one lookup. The cached arrays are read-only.

    >>> import numpy as np
    >>> t = TerrainLookup(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 1.0]]), np.array([[0, 1, 2]]))
    >>> xy = np.array([[0.2, 0.2]])
    >>> t.cache.sample(xy) is t.cache.sample(xy.copy())
    True
    """

    def __init__(self, lookup: TerrainLookup) -> None:
        self.lookup = lookup
        self._xy: NDArray[np.float64] | None = None
        self._hit: TerrainHit | None = None
        self.lookups = 0  # how many real lookups ran (for tests and diagnostics)

    def sample(self, xy: Any) -> TerrainHit:
        """Same as ``lookup.sample(xy)``, computed once per distinct xy content."""
        pts = as_xy(xy)
        last, hit = self._xy, self._hit
        if last is not None and hit is not None and pts.shape == last.shape and np.array_equal(pts, last):
            return hit
        hit = self.lookup.sample(pts)
        for arr in (hit.mask, hit.z, hit.normal, hit.triangle, hit.barycentric):
            arr.setflags(write=False)
        self._xy = pts.copy()
        self._hit = hit
        self.lookups += 1
        return hit




def terrain_cache(terrain: Any) -> TerrainSampleCache:
    """The shared sample cache of a :class:`TerrainLookup`, or the cache itself."""
    if isinstance(terrain, TerrainLookup):
        return terrain.cache
    if isinstance(terrain, TerrainSampleCache):
        return terrain
    raise ValueError(f"terrain: expected a TerrainLookup or TerrainSampleCache, got {type(terrain).__name__}")
