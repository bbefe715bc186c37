"""Density from the distance to objects seen from above: attract (denser near) or repel (sparser near).

The distance is 0 inside a footprint (a pond, a house) and the distance to the nearest edge (a road, a river,
an outline) outside; between ``near`` and ``far`` the effect fades with a smoothstep, so there is no visible
ring where it starts or ends.

>>> import numpy as np
>>> road = [np.array([[0.0, 0.0], [100.0, 0.0]])]
>>> near_road = Proximity(road, [], near=2.0, far=10.0, attract=True)
>>> near_road(np.array([[50.0, 1.0], [50.0, 6.0], [50.0, 30.0]])).tolist()
[1.0, 0.5, 0.0]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .fields import Field, PolygonSet, SegmentIndex


class Proximity(Field):
    """``[0, 1]`` factor from the distance to ``polylines`` and into ``footprints`` (lists of arrays)."""

    def __init__(self, polylines: list[Any], footprints: list[Any], near: float, far: float, attract: bool) -> None:
        if not (math.isfinite(near) and math.isfinite(far) and 0.0 <= near < far):
            raise ValueError(f"proximity needs 0 ≤ near < far, got near={near}, far={far}")
        if not polylines and not footprints:
            raise ValueError("proximity needs at least one curve or mesh to measure the distance to")
        self.near, self.far, self.attract = float(near), float(far), bool(attract)
        self.lines = SegmentIndex(polylines, reach=self.far) if polylines else None
        self.inside = PolygonSet(footprints) if footprints else None

    def distance(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        """Distance to the objects, capped at ``far``."""
        d = np.full(len(xy), self.far)
        if self.lines is not None:
            d = np.minimum(d, self.lines.distance(xy))
        if self.inside is not None:
            d[self.inside.contains(xy)] = 0.0
        return d

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        t = np.clip((self.distance(xy) - self.near) / (self.far - self.near), 0.0, 1.0)
        fade = t * t * (3.0 - 2.0 * t)
        return 1.0 - fade if self.attract else fade
