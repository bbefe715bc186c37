"""Fields read from the scene: per-vertex values on the terrain, images, distance to polylines."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import finite_number
from ..terrain import TerrainLookup, TerrainSampleCache, terrain_cache
from .field import Field
from .polylines import SegmentIndex


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
        self.cache = terrain_cache(terrain)
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
        self.index = SegmentIndex(polylines, reach=reach, closed=closed)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.minimum(self.index.distance(xy), self.index.reach)

