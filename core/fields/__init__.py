"""Where things may stand and how dense they grow: fields (density sources) and masks over the xy plane.

Fields are vectorised ``f(xy (M, 2)) -> (M,) float64`` that compose (:mod:`.field`): noise, curves, images,
per-vertex values, distance to roads. Masks are vectorised ``g(xy) -> (M,) bool`` combined with ``& | ~``
(:mod:`.mask`, :mod:`.masks`). The sampler gets ``radius_at=radius_from_density(density, min_radius,
max_radius)`` and ``is_allowed=mask``.

>>> import math
>>> import numpy as np
>>> from strew.core.terrain import TerrainLookup
>>> t = TerrainLookup(np.array([[0, 0, 0], [10, 0, 0], [0, 10, 2.0]]), np.array([[0, 1, 2]]))
>>> allowed = OnTerrain(t) & SlopeMask(t, math.radians(30)) & PerlinNoise(seed=1, scale=5.0).above(0.0)
>>> allowed(np.array([[2.0, 3.0], [9.0, 9.0]])).tolist()
[True, False]
"""

from .curves import CurveRemap
from .field import (
    ClippedField,
    ConstantField,
    Field,
    FunctionField,
    RemappedField,
    ThresholdMask,
    as_field,
)
from .mask import AllOf, AnyOf, Everywhere, FunctionMask, Mask, Not, as_mask
from .masks import (
    AwayFromPolylines,
    ClearOfPolylines,
    HashKeepMask,
    HeightMask,
    OnTerrain,
    OutsidePolygons,
    SlopeMask,
)
from .noise import PerlinNoise
from .polygons import PolygonSet
from .polylines import SegmentIndex, polylines_to_segments
from .radius import RadiusField, density_to_radius, radius_from_density
from .sources import DistanceToPolylines, ImageField, VertexField

__all__ = [
    "AllOf",
    "AnyOf",
    "AwayFromPolylines",
    "ClearOfPolylines",
    "ClippedField",
    "ConstantField",
    "CurveRemap",
    "DistanceToPolylines",
    "Everywhere",
    "Field",
    "FunctionField",
    "FunctionMask",
    "HashKeepMask",
    "HeightMask",
    "ImageField",
    "Mask",
    "Not",
    "OnTerrain",
    "OutsidePolygons",
    "PerlinNoise",
    "PolygonSet",
    "RadiusField",
    "RemappedField",
    "SegmentIndex",
    "SlopeMask",
    "ThresholdMask",
    "VertexField",
    "as_field",
    "as_mask",
    "density_to_radius",
    "polylines_to_segments",
    "radius_from_density",
]
