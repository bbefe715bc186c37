"""Density to sampling radius: ``max_radius`` where density is 0, ``min_radius`` where it is 1.

>>> import numpy as np
>>> from strew.core.fields import CurveRemap, PerlinNoise
>>> density = PerlinNoise(seed=42, scale=60.0).remap(CurveRemap([0.4, 0.6], [0.0, 1.0])) * 0.9
>>> radius_at = radius_from_density(density, min_radius=3.0, max_radius=9.0)
>>> r = radius_at(np.random.default_rng(0).uniform(0, 500, (1000, 2)))
>>> bool(3.0 <= r.min() and r.max() <= 9.0)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import positive_number
from .field import Field, as_field


class RadiusField(Field):
    """``lerp(max_radius, min_radius, clip(density, 0, 1))``: dense where density is 1, sparse where it is 0."""

    def __init__(self, density: Any, min_radius: float, max_radius: float) -> None:
        self.density = as_field(density)
        self.min_radius = positive_number(min_radius, "min_radius")
        self.max_radius = positive_number(max_radius, "max_radius")
        if self.min_radius > self.max_radius:
            raise ValueError(
                f"min_radius: must be <= max_radius, got min_radius={self.min_radius}, max_radius={self.max_radius}"
            )

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return density_to_radius(self.density.evaluate(xy), self.min_radius, self.max_radius)


def density_to_radius(density: Any, min_radius: float, max_radius: float) -> NDArray[np.float64]:
    """Radius per density value: ``max_radius`` at 0, ``min_radius`` at 1, linear between.

    Density is clamped to [0, 1] and NaN counts as 0 (sparse), so the radius always stays in
    [min_radius, max_radius] whatever a density source returns.

    >>> density_to_radius(np.array([0.0, 0.5, 1.0, 7.0, np.nan]), 2.0, 6.0).tolist()
    [6.0, 4.0, 2.0, 2.0, 6.0]
    """
    d = np.clip(np.asarray(density, dtype=np.float64), 0.0, 1.0)
    d = np.nan_to_num(d, nan=0.0)
    return max_radius + (min_radius - max_radius) * d


def radius_from_density(density: Any, min_radius: float, max_radius: float) -> RadiusField:
    """The sampler's ``radius_at``: ``max_radius`` where density is 0, ``min_radius`` where it is 1.

    Density is clamped to [0, 1] (NaN counts as 0), so the radius always stays in [min_radius, max_radius].

    >>> import numpy as np
    >>> radius_from_density(0.25, 2.0, 6.0)(np.zeros((1, 2))).tolist()
    [5.0]
    """
    return RadiusField(density, min_radius, max_radius)
