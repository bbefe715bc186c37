"""Curve layers: instances along curves (fences, kerbs, hedgerows, alleys), maximal or at a fixed step.

>>> import numpy as np
>>> from strew.core.curve import AlongSpec, CurvePath, curve_layer
>>> from strew.core.modes import AlongPlace
>>> from strew.core.scatter import LayerSpec
>>> path = CurvePath.of([[[0.0, 0.0, 0.0], [100.0, 0.0, 0.0]]])
>>> points = curve_layer(AlongSpec(path, place=AlongPlace.CURVE), LayerSpec(min_radius=2.0, max_radius=2.0), None)
>>> gaps = np.diff(np.sort(points.positions[:, 0]))
>>> bool(gaps.min() >= 2.0 and gaps.max() < 4.0)
True
"""

from __future__ import annotations

from .along import AlongPoints, Spacing, fixed_step, maximal_along
from .layer import AlongSpec, curve_layer
from .path import CurvePath

__all__ = ["AlongPoints", "AlongSpec", "CurvePath", "Spacing", "curve_layer", "fixed_step", "maximal_along"]
