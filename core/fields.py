"""Scalar fields over the xy plane: density sources that compose, and the radius helper for the sampler.

A field is any object with a vectorised ``__call__(xy: (M, 2)) -> (M,) float64``. Fields combine with
``*``, ``+``, ``-`` (numbers become constant fields), ``.remap(curve)``, ``.clip(lo, hi)``, and turn into
masks with ``.above(threshold)`` / ``.below(threshold)``. The sampler gets
``radius_at=radius_from_density(density, min_r, max_r)``.

>>> import numpy as np
>>> from strew.core.noise import PerlinNoise
>>> from strew.core.curves import CurveRemap
>>> density = PerlinNoise(seed=42, scale=60.0).remap(CurveRemap([0.4, 0.6], [0.0, 1.0])) * 0.9
>>> radius_at = radius_from_density(density, min_r=3.0, max_r=9.0)
>>> r = radius_at(np.random.default_rng(0).uniform(0, 500, (1000, 2)))
>>> bool(3.0 <= r.min() and r.max() <= 9.0)
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .inputs import as_xy, finite_number, positive_number

if TYPE_CHECKING:
    from .curves import CurveRemap
    from .masks import Mask
    from .terrain import TerrainLookup, TerrainSampleCache


class Field:
    """Base class: subclasses implement :meth:`evaluate` on validated (M, 2) float64 arrays."""

    def __call__(self, xy: Any) -> NDArray[np.float64]:
        return self.evaluate(as_xy(xy))

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:  # pragma: no cover - abstract
        raise NotImplementedError

    # composition -------------------------------------------------------------------------------
    def __mul__(self, other: Any) -> Field:
        return _Binary(operator.mul, "*", self, as_field(other))

    def __rmul__(self, other: Any) -> Field:
        return _Binary(operator.mul, "*", as_field(other), self)

    def __add__(self, other: Any) -> Field:
        return _Binary(operator.add, "+", self, as_field(other))

    def __radd__(self, other: Any) -> Field:
        return _Binary(operator.add, "+", as_field(other), self)

    def __sub__(self, other: Any) -> Field:
        return _Binary(operator.sub, "-", self, as_field(other))

    def __rsub__(self, other: Any) -> Field:
        return _Binary(operator.sub, "-", as_field(other), self)

    def remap(self, curve: CurveRemap) -> Field:
        """This field's values passed through ``curve`` (a :class:`~strew.core.curves.CurveRemap`)."""
        return RemappedField(self, curve)

    def clip(self, lo: float = 0.0, hi: float = 1.0) -> Field:
        """This field clamped to [lo, hi]."""
        return ClippedField(self, lo, hi)

    def above(self, threshold: float) -> Mask:
        """A mask, True where this field is >= ``threshold``."""
        from .masks import ThresholdMask

        return ThresholdMask(self, threshold, above=True)

    def below(self, threshold: float) -> Mask:
        """A mask, True where this field is < ``threshold``."""
        from .masks import ThresholdMask

        return ThresholdMask(self, threshold, above=False)


def as_field(value: Any) -> Field:
    """A Field from a Field, a number (constant) or a plain array function ``f(xy) -> (M,)``."""
    if isinstance(value, Field):
        return value
    if isinstance(value, int | float | np.number) and not isinstance(value, bool):
        return ConstantField(float(value))
    if callable(value):
        return FunctionField(value)
    raise ValueError(f"field: expected a Field, a number or f(xy) -> (M,), not {type(value).__name__}")


class ConstantField(Field):
    """The same value everywhere.

    >>> import numpy as np
    >>> ConstantField(0.5)(np.zeros((2, 2))).tolist()
    [0.5, 0.5]
    """

    def __init__(self, value: float) -> None:
        self.value = finite_number(value, "value")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.full(len(xy), self.value)

    def __repr__(self) -> str:
        return f"ConstantField({self.value})"


class FunctionField(Field):
    """Wraps a plain array function ``f(xy (M, 2)) -> (M,)`` and checks what it returns."""

    def __init__(self, function: Callable[[NDArray[np.float64]], Any], name: str = "function") -> None:
        if not callable(function):
            raise ValueError(f"{name}: expected a callable f(xy) -> (M,)")
        self.function, self.name = function, name

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        out = np.asarray(self.function(xy), dtype=np.float64)
        if out.shape != (len(xy),):
            raise ValueError(f"{self.name}: returned shape {out.shape}, expected ({len(xy)},)")
        return out


class _Binary(Field):
    def __init__(self, op: Callable, symbol: str, left: Field, right: Field) -> None:
        self.op, self.symbol, self.left, self.right = op, symbol, left, right

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return self.op(self.left.evaluate(xy), self.right.evaluate(xy))

    def __repr__(self) -> str:
        return f"({self.left!r} {self.symbol} {self.right!r})"


class RemappedField(Field):
    """A field passed through a curve."""

    def __init__(self, field: Any, curve: CurveRemap) -> None:
        if not callable(curve):
            raise ValueError("curve: expected a CurveRemap (or any vectorised function of values)")
        self.field, self.curve = as_field(field), curve

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(self.curve(self.field.evaluate(xy)), dtype=np.float64)


class ClippedField(Field):
    """A field clamped to [lo, hi]."""

    def __init__(self, field: Any, lo: float, hi: float) -> None:
        self.field = as_field(field)
        self.lo, self.hi = finite_number(lo, "lo"), finite_number(hi, "hi")
        if self.lo > self.hi:
            raise ValueError(f"lo: must be <= hi, got lo={self.lo}, hi={self.hi}")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.clip(self.field.evaluate(xy), self.lo, self.hi)


def _terrain_cache(terrain: Any) -> TerrainSampleCache:
    from .terrain import TerrainLookup, TerrainSampleCache

    if isinstance(terrain, TerrainLookup):
        return terrain.cache
    if isinstance(terrain, TerrainSampleCache):
        return terrain
    raise ValueError(f"terrain: expected a TerrainLookup or TerrainSampleCache, got {type(terrain).__name__}")


class VertexField(Field):
    """Per-vertex values (a vertex group, weight paint) interpolated over the terrain's triangles.

    The value at xy is the barycentric blend of the three vertices of the triangle a downward ray hits
    there (the same top-most triangle as :meth:`TerrainLookup.sample`); ``outside`` where it misses.

    Parameters
    ----------
    terrain : TerrainLookup or TerrainSampleCache
        Shares the lookup's cache with the terrain masks.
    values : (V,) array
        One finite value per vertex of the lookup's mesh (Blender: 0 for vertices outside the group).
    outside : float
        Value off the terrain.

    >>> import numpy as np
    >>> from strew.core.terrain import TerrainLookup
    >>> t = TerrainLookup(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), np.array([[0, 1, 2]]))
    >>> VertexField(t, [0.0, 1.0, 0.0])(np.array([[0.25, 0.5], [5, 5]])).tolist()
    [0.25, 0.0]
    """

    def __init__(self, terrain: TerrainLookup | TerrainSampleCache, values: Any, outside: float = 0.0):
        self.cache = _terrain_cache(terrain)
        vals = np.asarray(values, dtype=np.float64)
        count = len(self.cache.lookup.vertices)
        if vals.shape != (count,):
            raise ValueError(f"values: expected one value per terrain vertex ({count},), got {vals.shape}")
        if not np.isfinite(vals).all():
            raise ValueError("values: per-vertex values must be finite")
        self.values = vals
        self.outside = finite_number(outside, "outside")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        hit = self.cache.sample(xy)
        out = self.cache.lookup.interpolate(hit, self.values)
        out[~hit.mask] = self.outside
        return out


class ImageField(Field):
    """An image (or any 2-D array) stretched over an xy rectangle, sampled bilinearly.

    Orientation follows Blender images: row 0 is the *bottom* row (min y), column 0 the left (min x);
    pixel centres sit at ``min + (index + 0.5) * size / count``. Blender:
    ``np.array(image.pixels).reshape(h, w, 4)[..., channel]`` is already in this order.

    Parameters
    ----------
    pixels : (H, W) array
        Finite values (one channel).
    extent_min, extent_max : (2,) xy
        World rectangle the image covers.
    wrap : bool
        Repeat the image outside the rectangle (tiles); otherwise edge pixels extend outward.

    >>> import numpy as np
    >>> img = ImageField(np.array([[0.0, 1.0], [2.0, 3.0]]), (0, 0), (2, 2))
    >>> img(np.array([[0.5, 0.5], [1.0, 1.0], [1.5, 1.5]])).tolist()
    [0.0, 1.5, 3.0]
    """

    def __init__(self, pixels: Any, extent_min: Any, extent_max: Any, wrap: bool = False) -> None:
        img = np.asarray(pixels, dtype=np.float64)
        if img.ndim != 2 or min(img.shape) < 1:
            raise ValueError(f"pixels: expected a 2-D (H, W) array (pick one channel), got shape {img.shape}")
        if not np.isfinite(img).all():
            raise ValueError("pixels: values must be finite")
        lo = np.asarray(extent_min, dtype=np.float64).reshape(-1)
        hi = np.asarray(extent_max, dtype=np.float64).reshape(-1)
        if lo.shape != (2,) or hi.shape != (2,) or not (np.isfinite(lo).all() and np.isfinite(hi).all()):
            raise ValueError("extent_min, extent_max: expected two finite (x, y) pairs")
        if np.any(hi <= lo):
            raise ValueError(f"extent_max: must be greater than extent_min on both axes, got {lo} .. {hi}")
        self.pixels, self.extent_min, self.extent_max, self.wrap = img, lo, hi, bool(wrap)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        h, w = self.pixels.shape
        u = (xy[:, 0] - self.extent_min[0]) / (self.extent_max[0] - self.extent_min[0]) * w - 0.5
        v = (xy[:, 1] - self.extent_min[1]) / (self.extent_max[1] - self.extent_min[1]) * h - 0.5
        c0 = np.floor(u)
        r0 = np.floor(v)
        fu, fv = u - c0, v - r0
        c0, r0 = c0.astype(np.int64), r0.astype(np.int64)
        c1, r1 = c0 + 1, r0 + 1
        if self.wrap:
            c0, c1, r0, r1 = c0 % w, c1 % w, r0 % h, r1 % h
        else:
            c0, c1 = np.clip(c0, 0, w - 1), np.clip(c1, 0, w - 1)
            r0, r1 = np.clip(r0, 0, h - 1), np.clip(r1, 0, h - 1)
        p = self.pixels
        bottom = p[r0, c0] * (1.0 - fu) + p[r0, c1] * fu
        top = p[r1, c0] * (1.0 - fu) + p[r1, c1] * fu
        return bottom * (1.0 - fv) + top * fv


class DistanceToPolylines(Field):
    """Distance in xy to the nearest polyline (road, river), capped at ``reach``.

    For density that fades near roads, e.g. ``(DistanceToPolylines(roads, 20.0) / 20.0).remap(curve)``.

    >>> import numpy as np
    >>> road = DistanceToPolylines([np.array([[0.0, 0.0], [10.0, 0.0]])], reach=5.0)
    >>> road(np.array([[5.0, 3.0], [5.0, 9.0]])).tolist()
    [3.0, 5.0]
    """

    def __init__(self, polylines: Any, reach: float, closed: Any = False) -> None:
        from .polylines import SegmentIndex

        self.index = SegmentIndex(polylines, reach=reach, closed=closed)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.minimum(self.index.distance(xy), self.index.reach)


class RadiusField(Field):
    """``lerp(max_r, min_r, clip(density, 0, 1))``: dense where density is 1, sparse where it is 0."""

    def __init__(self, density: Any, min_r: float, max_r: float) -> None:
        self.density = as_field(density)
        self.min_r = positive_number(min_r, "min_r")
        self.max_r = positive_number(max_r, "max_r")
        if self.min_r > self.max_r:
            raise ValueError(f"min_r: must be <= max_r, got min_r={self.min_r}, max_r={self.max_r}")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        d = np.clip(self.density.evaluate(xy), 0.0, 1.0)
        d = np.nan_to_num(d, nan=0.0)
        return self.max_r + (self.min_r - self.max_r) * d


def radius_from_density(density: Any, min_r: float, max_r: float) -> RadiusField:
    """The sampler's ``radius_at``: ``max_r`` where density is 0, ``min_r`` where it is 1.

    Density is clamped to [0, 1] (NaN counts as 0), so the radius always stays in [min_r, max_r].

    >>> import numpy as np
    >>> radius_from_density(0.25, 2.0, 6.0)(np.zeros((1, 2))).tolist()
    [5.0]
    """
    return RadiusField(density, min_r, max_r)
