"""Masks: where a point may stand. Vectorised ``__call__(xy (M, 2)) -> (M,) bool``, combined with & | ~.

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
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .fields import Field, _terrain_cache, as_field
from .hashing import Stream, hash_uniform
from .inputs import as_xy, finite_number, integer, positive_number
from .polygons import PolygonSet
from .polylines import SegmentIndex
from .terrain import TerrainLookup, TerrainSampleCache


class Mask:
    """Base class: subclasses implement :meth:`evaluate` on validated (M, 2) float64 arrays."""

    def __call__(self, xy: Any) -> NDArray[np.bool_]:
        return self.evaluate(as_xy(xy))

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:  # pragma: no cover - abstract
        raise NotImplementedError

    def __and__(self, other: Any) -> Mask:
        return AllOf(self, other)

    def __or__(self, other: Any) -> Mask:
        return AnyOf(self, other)

    def __invert__(self) -> Mask:
        return Not(self)


def as_mask(value: Any) -> Mask:
    """A Mask from a Mask, a bool (everywhere / nowhere) or a plain function ``g(xy) -> (M,) bool``."""
    if isinstance(value, Mask):
        return value
    if isinstance(value, bool | np.bool_):
        return Everywhere() if value else ~Everywhere()
    if callable(value):
        return FunctionMask(value)
    raise ValueError(f"mask: expected a Mask, a bool or g(xy) -> (M,) bool, not {type(value).__name__}")


class Everywhere(Mask):
    """True everywhere."""

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return np.ones(len(xy), dtype=bool)


class FunctionMask(Mask):
    """Wraps a plain array function ``g(xy (M, 2)) -> (M,) bool`` and checks what it returns."""

    def __init__(self, function: Callable[[NDArray[np.float64]], Any], name: str = "function") -> None:
        if not callable(function):
            raise ValueError(f"{name}: expected a callable g(xy) -> (M,) bool")
        self.function, self.name = function, name

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        out = np.asarray(self.function(xy))
        if out.shape != (len(xy),):
            raise ValueError(f"{self.name}: returned shape {out.shape}, expected ({len(xy)},)")
        return out.astype(bool)


class AllOf(Mask):
    """True where every part is True (``a & b``). Every part sees all points (terrain masks share a cache)."""

    def __init__(self, *parts: Any) -> None:
        flat: list[Mask] = []
        for part in (as_mask(p) for p in parts):
            flat.extend(part.parts if isinstance(part, AllOf) else [part])
        self.parts: list[Mask] = flat

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        out = np.ones(len(xy), dtype=bool)
        for part in self.parts:
            out &= part.evaluate(xy)
        return out


class AnyOf(Mask):
    """True where any part is True (``a | b``)."""

    def __init__(self, *parts: Any) -> None:
        flat: list[Mask] = []
        for part in (as_mask(p) for p in parts):
            flat.extend(part.parts if isinstance(part, AnyOf) else [part])
        self.parts: list[Mask] = flat

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        out = np.zeros(len(xy), dtype=bool)
        for part in self.parts:
            out |= part.evaluate(xy)
        return out


class Not(Mask):
    """True where the inner mask is False (``~a``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = as_mask(inner)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return ~self.inner.evaluate(xy)


# ---------------------------------------------------------------------------------- terrain masks
class OnTerrain(Mask):
    """True where a downward ray hits the terrain (``hit.mask``): not in holes, not outside."""

    def __init__(self, terrain: TerrainLookup | TerrainSampleCache) -> None:
        self.cache = _terrain_cache(terrain)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return self.cache.sample(xy).mask.copy()


class SlopeMask(Mask):
    """True on the terrain where the slope (angle between the surface normal and +z) is <= ``max_angle``.

    ``max_angle`` is in radians, in [0, pi/2]. Off the terrain: False.
    """

    def __init__(self, terrain: TerrainLookup | TerrainSampleCache, max_angle: float) -> None:
        self.cache = _terrain_cache(terrain)
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
        self.cache = _terrain_cache(terrain)
        self.lo, self.hi = float(lo), float(hi)
        if math.isnan(self.lo) or math.isnan(self.hi) or self.lo > self.hi:
            raise ValueError(f"lo, hi: expected lo <= hi (numbers, infinite allowed), got {lo}, {hi}")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        hit = self.cache.sample(xy)
        z = np.where(hit.mask, hit.z, np.nan)
        with np.errstate(invalid="ignore"):
            return hit.mask & (z >= self.lo) & (z <= self.hi)


# ----------------------------------------------------------------------------------- other masks
class ThresholdMask(Mask):
    """True where ``field(xy) >= threshold`` (``above=True``) or ``< threshold`` (``above=False``)."""

    def __init__(self, field: Field | Any, threshold: float, above: bool = True) -> None:
        self.field = as_field(field)
        self.threshold = finite_number(threshold, "threshold")
        self.above = bool(above)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        values = self.field.evaluate(xy)
        with np.errstate(invalid="ignore"):
            return values >= self.threshold if self.above else values < self.threshold


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


class OutsidePolygons(Mask):
    """True outside every polygon (footprints, ponds); see :class:`~strew.core.polygons.PolygonSet`."""

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
