"""The masks a scatter layer uses: terrain coverage, slope and height, roads, footprints, hash thinning.

Pass one as the sampler's ``is_allowed`` so forbidden zones are respected *during* growth (filtering
afterwards leaves empty bands along their borders). Terrain masks built on the same
:class:`~strew.core.terrain.TerrainLookup` share its one-entry cache, so a slope mask, a height mask and
a vertex-group field asked about the same candidates cost one lookup.

>>> import math
>>> import numpy as np
>>> from strew.core.terrain import TerrainLookup
>>> t = TerrainLookup(np.array([[0, 0, 0], [10, 0, 0], [0, 10, 2.0]]), np.array([[0, 1, 2]]))
>>> road = AwayFromPolylines([np.array([[0.0, 5.0], [10.0, 5.0]])], margin=1.0)
>>> allowed = OnTerrain(t) & SlopeMask(t, math.radians(30)) & HeightMask(t, 0.5, 5.0) & road
>>> allowed(np.array([[2.0, 3.0], [2.0, 5.5], [9.0, 9.0]])).tolist()
[True, False, False]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..hashing import Stream, hash_uniform
from ..inputs import finite_number, integer, positive_number
from ..terrain import TerrainLookup, TerrainSampleCache, terrain_cache
from .field import Field, as_field
from .mask import Mask
from .polygons import PolygonSet
from .polylines import SegmentIndex


class OnTerrain(Mask):
    """True where a downward ray hits the terrain (``hit.mask``): not in holes, not outside."""

    def __init__(self, terrain: TerrainLookup | TerrainSampleCache) -> None:
        self.cache = terrain_cache(terrain)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return self.cache.sample(xy).mask.copy()


class SlopeMask(Mask):
    """True on the terrain where the slope (angle between the surface normal and +z) is <= ``max_angle``.

    ``max_angle`` is in radians, in [0, pi/2]. Off the terrain: False.
    """

    def __init__(self, terrain: TerrainLookup | TerrainSampleCache, max_angle: float) -> None:
        self.cache = terrain_cache(terrain)
        self.max_angle = finite_number(max_angle, "max_angle")
        if not 0.0 <= self.max_angle <= math.pi / 2:
            raise ValueError(f"max_angle: expected radians in [0, pi/2], got {self.max_angle}")
        # normal_z >= cos(angle); the tiny slack keeps exactly-flat ground allowed at max_angle = 0
        self._min_normal_z = math.cos(self.max_angle) - 1e-12

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        hit = self.cache.sample(xy)
        nz = np.where(hit.mask, hit.normal[:, 2], -1.0)
        return nz >= self._min_normal_z


class HeightMask(Mask):
    """True on the terrain where the surface height z lies in [lo, hi] (either end may be infinite)."""

    def __init__(
        self, terrain: TerrainLookup | TerrainSampleCache, lo: float = -math.inf, hi: float = math.inf
    ) -> None:
        self.cache = terrain_cache(terrain)
        self.lo, self.hi = float(lo), float(hi)
        if math.isnan(self.lo) or math.isnan(self.hi) or self.lo > self.hi:
            raise ValueError(f"lo, hi: expected lo <= hi (numbers, infinite allowed), got {lo}, {hi}")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        hit = self.cache.sample(xy)
        z = np.where(hit.mask, hit.z, np.nan)
        with np.errstate(invalid="ignore"):
            return hit.mask & (z >= self.lo) & (z <= self.hi)



class AwayFromPolylines(Mask):
    """True where every polyline (road, river) is at least ``margin`` away (distance in xy).

    Parameters
    ----------
    polylines : list of (K, 2) or (K, 3) arrays
        World-space curves (z ignored).
    margin : float
        Minimum distance, > 0.
    closed : bool or list of bool
        Treat polylines as closed rings.
    """

    def __init__(self, polylines: Any, margin: float, closed: Any = False) -> None:
        self.margin = positive_number(margin, "margin")
        self.index = SegmentIndex(polylines, reach=self.margin, closed=closed)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return ~self.index.within(xy)


class ClearOfPolylines(Mask):
    """True where every polyline is farther than ``margin`` plus what stands at the place reaches: ``reach_at(xy)``
    (an object's footprint there), at most ``largest``. A big object keeps its whole footprint off a road.

    >>> import numpy as np
    >>> road = [np.array([[0.0, 0.0], [10.0, 0.0]])]
    >>> clear = ClearOfPolylines(road, margin=1.0, reach_at=lambda xy: xy[:, 0] / 5.0, largest=2.0)
    >>> clear(np.array([[1.0, 1.5], [9.0, 1.5]])).tolist()  # footprints 0.2 and 1.8
    [True, False]
    """

    def __init__(self, polylines: Any, margin: float, reach_at: Any, largest: float, closed: Any = False) -> None:
        self.margin = finite_number(margin, "margin")
        if self.margin < 0:
            raise ValueError(f"margin: must be >= 0, got {self.margin}")
        self.reach_at = reach_at
        self.index = SegmentIndex(polylines, reach=self.margin + positive_number(largest, "largest"), closed=closed)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return ~(self.index.distance(xy) < self.margin + np.asarray(self.reach_at(xy), dtype=np.float64))


class OutsidePolygons(Mask):
    """True outside every polygon (footprints, ponds); see :class:`~strew.core.fields.PolygonSet`."""

    def __init__(self, polygons: Any) -> None:
        self.polygons = PolygonSet(polygons)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return ~self.polygons.contains(xy)


class HashKeepMask(Mask):
    """Keep each position with probability ``fraction`` (a number or a field in [0, 1]), decided by the
    stable position hash: thins a repeated tile differently everywhere in the world.

    >>> import numpy as np
    >>> keep = HashKeepMask(0.25, seed=9)
    >>> float(keep(np.random.default_rng(0).uniform(0, 1000, (20_000, 2))).mean()).__round__(2)
    0.25
    """

    def __init__(self, fraction: Field | float | Any, seed: int, stream: int = Stream.KEEP) -> None:
        self.fraction = as_field(fraction)
        self.seed = integer(seed, "seed")
        self.stream = integer(stream, "stream")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return hash_uniform(xy, self.seed, self.stream) < self.fraction.evaluate(xy)
