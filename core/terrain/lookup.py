"""The terrain lookup: what a ray cast straight down from above would hit, vectorised in numpy.

A query looks at the triangles of its own grid cell only (see :mod:`.grid` and :mod:`.query`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import as_xy, positive_number
from . import edit, query
from .build import Built, build
from .cells import CellFacts
from .mesh import validate_mesh, validate_triangles, validate_vertices
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

    _built: Built | None = None  # what :meth:`edited` starts from (not in pickled copies: they only answer)

    def __init__(self, vertices: Any, triangles: Any, *, triangles_per_cell: float = 1.0) -> None:
        verts, tris = validate_mesh(vertices, triangles)
        per_cell = positive_number(triangles_per_cell, "triangles_per_cell")
        self._keep(verts, tris, build(verts, tris, per_cell), per_cell)

    def _keep(self, verts: NDArray[np.float64], tris: NDArray[np.int64], built: Built, per_cell: float) -> None:
        # Private read-only copies (``tris`` is a fresh int64 array already); callers' arrays stay writable.
        self.vertices = verts.copy()
        self.triangles = tris
        self.vertices.setflags(write=False)
        self.triangles.setflags(write=False)
        self._cache: Any = None
        self._cells: CellFacts | None = None
        self._per_cell = per_cell
        self._built = built
        self.bounds = TerrainBounds(*built.bounds)
        self.bounds.min.setflags(write=False)
        self.bounds.max.setflags(write=False)
        self._tables = query.Tables(built.kept, built.bary, built.height, built.normal, built.grid)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_built", None)
        return state

    def edited(self, vertices: Any, triangles: Any = None, changed: Any = None) -> TerrainLookup:
        """This terrain after an edit: the lookup of ``vertices`` and ``triangles`` (None: this lookup's), which
        answers exactly as ``TerrainLookup(vertices, triangles)`` with this one's ``triangles_per_cell`` (the same
        tables, bit for bit), worked out from this lookup's where few triangles changed (:mod:`.edit`).

        ``changed`` (optional): the indices of every triangle whose corners differ from this lookup's (another
        vertex, or a corner moved); worked out when None. A triangle left out of it must be the same, bit for bit.

        >>> import numpy as np
        >>> corners = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0], [2, 2, 0]], float)
        >>> fan = np.array([[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
        >>> before = TerrainLookup(corners, fan)
        >>> raised = corners.copy()
        >>> raised[4, 2] = 1.0
        >>> after = before.edited(raised)
        >>> float(after.sample(np.array([[2.0, 2.0]])).z[0]), float(before.sample(np.array([[2.0, 2.0]])).z[0])
        (1.0, 0.0)
        """
        verts = validate_vertices(vertices)
        tris = self.triangles if triangles is None else validate_triangles(triangles, len(verts))
        if triangles is None and int(np.max(tris)) >= len(verts):
            tris = validate_triangles(tris, len(verts))  # refuses, naming the indices
        built = None
        if self._built is not None and tris.shape == self.triangles.shape:
            rows = (edit.changed_rows(self.vertices, self.triangles, verts, tris) if changed is None
                    else np.asarray(changed))
            built = edit.edited(self._built, self.vertices, self.triangles, verts, tris, rows)
        if built is None:
            built = build(verts, tris, self._per_cell)
        out = TerrainLookup.__new__(TerrainLookup)
        out._keep(verts, tris, built, self._per_cell)
        if (self._cells is not None and built.grid is self._tables.grid and built.bary is self._tables.bary
                and (tris is self.triangles or np.array_equal(tris, self.triangles))):
            out._cells = self._cells.after_heights(built.normal, built.height)  # the outline stays
        return out

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

    def cell_facts(self) -> CellFacts:
        """What each grid cell settles for the points in it (:mod:`.cells`); worked out on first use (a sort of
        the triangles' edges), kept with the lookup and its pickled copies."""
        if self._cells is None:
            tables = self._tables
            self._cells = CellFacts(tables.grid, np.take(self.triangles, tables.kept, axis=0), tables.bary,
                                    tables.normal, tables.height, self.vertices, self.bounds.size)
        return self._cells

    def allows(self, xy: Any, min_up: float | None = None, heights: tuple[float, float] | None = None
               ) -> NDArray[np.bool_]:
        """Whether a ray straight down at each xy hits the terrain, on a triangle whose normal z is at least
        ``min_up`` (None: any) and at a height within ``heights`` (inclusive; None: any).

        The same answers as testing :meth:`sample`'s hits, but points whose grid cell settles them (inside the
        terrain and every triangle there passing, or none) cast no ray (:mod:`.cells`).

        >>> import numpy as np
        >>> t = TerrainLookup(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 1.0]]), np.array([[0, 1, 2]]))
        >>> t.allows(np.array([[0.25, 0.25], [2.0, 2.0]])).tolist()
        [True, False]
        >>> t.allows(np.array([[0.25, 0.25]]), heights=(0.5, 2.0)).tolist()
        [False]
        """
        pts = as_xy(xy)
        cells, inside = self._tables.grid.cells_of(pts[:, 0], pts[:, 1])
        settled, answer = self.cell_facts().settle(cells, inside, min_up, heights)
        rest = np.flatnonzero(~settled)
        if len(rest):
            hit = self.sample(np.take(pts, rest, axis=0))
            ok = hit.mask
            with np.errstate(invalid="ignore"):  # misses carry NaN
                if min_up is not None:
                    ok &= hit.normal[:, 2] >= min_up
                if heights is not None:
                    ok &= (hit.z >= heights[0]) & (hit.z <= heights[1])
            answer[rest] = ok
        return answer

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
