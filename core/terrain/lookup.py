"""The terrain lookup: what a ray cast straight down from above would hit, vectorised in numpy.

A query looks at the triangles of its own grid cell only (see :mod:`.grid` and :mod:`.query`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import as_xy, positive_number
from . import query
from .build import build
from .mesh import validate_mesh
from .results import TerrainBounds, TerrainHit


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
        built = build(verts, tris, per_cell)
        self.bounds = TerrainBounds(*built.bounds)
        self.bounds.min.setflags(write=False)
        self.bounds.max.setflags(write=False)
        self._tables = query.Tables(built.kept, built.bary, built.height, built.normal, built.grid)

    # --------------------------------------------------------------- queries
    @property
    def triangle_count(self) -> int:
        """Number of input triangles (including skipped vertical ones)."""
        return len(self.triangles)

    @property
    def usable_triangle_count(self) -> int:
        """Number of triangles that can be hit from above (non-vertical, non-degenerate)."""
        return len(self._tables.kept)

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
        return query.sample(self._tables, as_xy(xy))

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
