"""The sampler's inputs of a layer: where a point may go (``is_allowed``) and how far apart (``radius_at``)."""

from __future__ import annotations

import math

import numpy as np

from ..fields.radius import density_to_radius
from ..terrain import TerrainLookup
from .spec import ArrayFunction, LayerSpec


def allowed_function(terrain: TerrainLookup, spec: LayerSpec, origin: np.ndarray) -> ArrayFunction:
    """Terrain coverage, slope, height and the layer's own mask, evaluated with one terrain lookup per call."""
    min_up = math.cos(spec.max_slope)

    def allowed(local_xy: np.ndarray) -> np.ndarray:
        xy = local_xy + origin
        hit = terrain.sample(xy)
        ok = hit.mask.copy()
        if spec.max_slope < math.pi / 2:
            ok &= hit.normal[:, 2] >= min_up - 1e-12
        if spec.height_range is not None:
            ok &= (hit.z >= spec.height_range[0]) & (hit.z <= spec.height_range[1])
        if spec.mask is not None and ok.any():
            ok[ok] &= np.asarray(spec.mask(xy[ok]), dtype=bool)
        return ok

    return allowed


def radius_function(spec: LayerSpec, origin: np.ndarray) -> ArrayFunction | None:
    """The radius from the layer's density (see :func:`~strew.core.fields.radius.density_to_radius`), or None
    when the radius is constant."""
    if spec.density is None or spec.max_radius == spec.min_radius:
        return None
    low, high = spec.min_radius, spec.max_radius
    density_at = spec.density

    def radius_at(local_xy: np.ndarray) -> np.ndarray:
        return density_to_radius(density_at(local_xy + origin), low, high)

    return radius_at
