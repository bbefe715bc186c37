"""What a terrain lookup returns: the usable xy extent and the hits of vertical rays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class TerrainBounds:
    """The xy extent of the terrain's usable (non-vertical) triangles.

    Attributes
    ----------
    min, max : (2,) float64
        Lower-left and upper-right corner in world units.
    """

    min: NDArray[np.float64]
    max: NDArray[np.float64]

    @property
    def size(self) -> NDArray[np.float64]:
        """Width and depth, ``max - min``."""
        return self.max - self.min

    def as_array(self) -> NDArray[np.float64]:
        """``[[xmin, ymin], [xmax, ymax]]`` as a (2, 2) array."""
        return np.stack([self.min, self.max])


@dataclass(frozen=True)
class TerrainHit:
    """Result of :meth:`TerrainLookup.sample` for M query points.

    Attributes
    ----------
    mask : (M,) bool
        True where the downward ray hits the terrain.
    z : (M,) float64
        Height of the top-most surface; NaN where ``mask`` is False.
    normal : (M, 3) float64
        Unit geometric normal of the hit triangle, flipped so that its z component is >= 0; NaN on a miss.
    triangle : (M,) int64
        Index into the input ``triangles`` of the hit triangle; -1 on a miss. Where several triangles give
        exactly the same top height (a shared edge or vertex), the one listed last.
    barycentric : (M, 3) float64
        Weights of the hit triangle's three vertices (in the input order of its row); NaN on a miss.
    """

    mask: NDArray[np.bool_]
    z: NDArray[np.float64]
    normal: NDArray[np.float64]
    triangle: NDArray[np.int64]
    barycentric: NDArray[np.float64]



class NoAreaError(ValueError):
    """The terrain has no area to scatter on from above (every triangle vertical or degenerate, or a span too small
    for the layer's radius); the Blender side names the object."""
