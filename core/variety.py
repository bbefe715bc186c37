"""Per-instance variety beyond yaw and a scale range: random tilt, scale that follows density and slope.

Every value is a function of the instance's position and the layer's seed (the stable position hash), so a
re-scatter gives each surviving instance the same look.

>>> import numpy as np
>>> factors = scale_factors(density=np.array([1.0, 0.5, 0.0]), up=np.array([1.0, 1.0, 1.0]),
...                         by_density=1.0, by_slope=0.0)
>>> factors.tolist()
[1.0, 0.5, 0.05]
"""

from __future__ import annotations

import math

import numpy as np

from . import fpmath
from .hashing import Stream, hash_uniform

SMALLEST = 0.05  # the smallest scale multiplier density and slope can give


def validate(tilt: float, by_density: float, by_slope: float) -> None:
    """``ValueError`` naming the setting when a variety value is out of range."""
    if not (isinstance(tilt, int | float) and 0.0 <= tilt <= math.pi / 2):
        raise ValueError(f"tilt must be an angle between 0 and π/2 radians, got {tilt!r}")
    for name, value in (("scale_by_density", by_density), ("scale_by_slope", by_slope)):
        if not (isinstance(value, int | float) and 0.0 <= value <= 1.0):
            raise ValueError(f"{name} must be between 0 and 1, got {value!r}")


def tilts(xy: np.ndarray, seed: int, max_tilt: float) -> tuple[np.ndarray, np.ndarray]:
    """(angle, heading) per position: angle uniform in [0, max_tilt], heading uniform around the circle."""
    angle = hash_uniform(xy, seed, Stream.TILT) * max_tilt
    heading = hash_uniform(xy, seed, Stream.HEADING) * (2.0 * math.pi)
    return angle, heading


def least_factor(by_density: float, by_slope: float) -> float:
    """The smallest multiplier :func:`scale_factors` can give with these settings."""
    return max((1.0 - by_density) * (1.0 - by_slope), SMALLEST)


def scale_factors(density: np.ndarray, up: np.ndarray, by_density: float, by_slope: float) -> np.ndarray:
    """Scale multipliers: ``1 − by_density·(1 − density)`` times ``1 − by_slope·slope/(π/2)``, at least
    :data:`SMALLEST` (an instance never collapses to nothing).

    ``density`` in [0, 1] at each instance (1 where the layer is densest), ``up`` the z of its unit surface
    normal (1 on flat ground, 0 on a vertical wall).
    """
    d = np.clip(np.nan_to_num(np.asarray(density, dtype=np.float64), nan=0.0), 0.0, 1.0)
    slope = fpmath.arccos(np.clip(np.asarray(up, dtype=np.float64), -1.0, 1.0)) / (math.pi / 2)
    factor = (1.0 - by_density * (1.0 - d)) * (1.0 - by_slope * np.clip(slope, 0.0, 1.0))
    return np.maximum(factor, SMALLEST)
