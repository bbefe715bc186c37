"""The terrain lookup: what a ray cast straight down from above would hit, vectorised in numpy.

A query looks at the triangles of its own grid cell only (see :mod:`.grid`): barycentric coordinates in xy
for every candidate, then the highest hit.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import as_xy, positive_number
from .build import build
from .mesh import validate_mesh
from .results import TerrainBounds, TerrainHit

BARYCENTRIC_TOLERANCE = 1e-9
"""A point counts as inside a triangle when all barycentrics are >= -this (watertight shared edges)."""

QUERY_BLOCK = 16_384
"""Query points handled per step (the temporaries stay in the CPU cache)."""

SORT_FROM = 65_536
"""From this many queries on, they are answered in the order of their grid cells and the answers put back
in the callers' order: neighbouring queries then read neighbouring cell lists and triangle rows, so the
gathers stream through memory instead of missing the cache on almost every pair."""


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
        self._centre = built.centre
        self._kept = built.kept  # grid-order index -> input triangle index
        self._bary, self._surface, self._grid = built.bary, built.surface, built.grid

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
        hit = TerrainHit(
            np.zeros(m, dtype=bool), np.full(m, np.nan), np.full((m, 3), np.nan), np.full(m, -1, dtype=np.int64),
            np.full((m, 3), np.nan),
        )
        if m < SORT_FROM:
            for start in range(0, m, QUERY_BLOCK):
                self._sample_block(pts[start:start + QUERY_BLOCK], hit, start)
            return hit
        order = self._grid.locality_order(pts[:, 0], pts[:, 1])
        ordered = np.take(pts, order, axis=0)
        for start in range(0, m, QUERY_BLOCK):
            self._sample_block(ordered[start:start + QUERY_BLOCK], hit, start)
        back = np.empty(m, dtype=np.intp)
        back[order] = np.arange(m)
        answers = [getattr(hit, f.name) for f in fields(TerrainHit)]
        del hit
        for k, answer in enumerate(answers):  # one answer at a time: the extra memory is one array
            answers[k] = np.take(answer, back, axis=0)
            del answer
        return TerrainHit(*answers)

    def _sample_block(self, pts: NDArray[np.float64], out: TerrainHit, offset: int) -> None:
        """Write the hits of the points ``pts`` into ``out`` from row ``offset`` on."""
        x, y = pts[:, 0], pts[:, 1]
        query, cand = self._grid.candidates(x, y)
        if len(query) == 0:
            return
        qx = (x - self._centre[0])[query]
        qy = (y - self._centre[1])[query]
        coef = np.take(self._bary, cand, axis=0)
        b1 = coef[:, 0] * qx
        b1 += coef[:, 1] * qy
        b1 += coef[:, 2]
        b2 = coef[:, 3] * qx
        b2 += coef[:, 4] * qy
        b2 += coef[:, 5]
        tol = BARYCENTRIC_TOLERANCE
        hit = (b1 >= -tol) & (b2 >= -tol) & (b1 + b2 <= 1.0 + tol)
        idx = np.flatnonzero(hit)
        if len(idx) == 0:
            return
        q_hit, t_hit, b1_hit, b2_hit = query[idx], cand[idx], b1[idx], b2[idx]
        surface = np.take(self._surface, t_hit, axis=0)
        z_hit = surface[:, 0] + b1_hit * surface[:, 1] + b2_hit * surface[:, 2]

        # Top-most hit per query: hits are grouped by query (ascending); reduce each run.
        run_start = np.flatnonzero(np.r_[True, q_hit[1:] != q_hit[:-1]])
        if len(run_start) == len(q_hit):
            best = slice(None)
        else:
            run_len = np.diff(np.r_[run_start, len(q_hit)])
            z_max = np.maximum.reduceat(z_hit, run_start)
            is_top = z_hit == np.repeat(z_max, run_len)
            # Ties (the same height, e.g. on a shared edge) go to the triangle listed last in the input.
            top_pos = np.flatnonzero(is_top)
            run_of = np.repeat(np.arange(len(run_start)), run_len)[top_pos]
            top_pos = top_pos[np.lexsort((self._kept[t_hit[top_pos]], run_of))]
            last = np.r_[run_of[1:] != run_of[:-1], True]
            best = top_pos[last]
        q = q_hit[best] + offset
        b1_best, b2_best = b1_hit[best], b2_hit[best]
        out.mask[q] = True
        out.z[q] = z_hit[best]
        out.normal[q] = surface[best, 3:]
        out.triangle[q] = self._kept[t_hit[best]]
        out.barycentric[q, 0] = 1.0 - b1_best - b2_best
        out.barycentric[q, 1] = b1_best
        out.barycentric[q, 2] = b2_best

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
