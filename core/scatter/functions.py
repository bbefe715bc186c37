"""The sampler's inputs of a layer: where a point may go (``is_allowed``) and how far apart (``radius_at``)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..fields.radius import density_to_radius
from ..terrain import TerrainLookup
from .points import instance_sizes
from .spec import ArrayFunction, LayerSpec, spacing_radii


def terrain_limits(spec: LayerSpec) -> tuple[float | None, tuple[float, float] | None]:
    """The least normal z the layer's slope limit allows (None: any) and its height range (None: any)."""
    min_up = math.cos(spec.max_slope) - 1e-12 if spec.max_slope < math.pi / 2 else None
    heights = None if spec.height_range is None else (float(spec.height_range[0]), float(spec.height_range[1]))
    return min_up, heights


def prepare_terrain(terrain: TerrainLookup, spec: LayerSpec) -> None:
    """Work out the terrain cells' facts the layer's mask reads (:meth:`TerrainLookup.allows`) once, before the
    chunk tasks share the terrain (worker processes then receive them instead of each working them out)."""
    min_up, heights = terrain_limits(spec)
    facts = terrain.cell_facts()
    if min_up is not None:
        facts.up_range()
    if heights is not None:
        facts.z_range()


def allowed_function(terrain: TerrainLookup, spec: LayerSpec, origin: np.ndarray) -> ArrayFunction:
    """Terrain coverage, the layer's region, slope, height and its own mask, evaluated with one terrain lookup
    per call (chunks lie on the world's cells and may reach past the region: the region is a mask); points in
    grid cells that settle them cast no ray (:meth:`TerrainLookup.allows`)."""
    min_up, heights = terrain_limits(spec)
    region = None if spec.region is None else np.asarray(spec.region, dtype=np.float64)

    def allowed(local_xy: np.ndarray) -> np.ndarray:
        xy = local_xy + origin
        ok = terrain.allows(xy, min_up, heights)
        if region is not None:
            ok &= (xy >= region[0]).all(axis=1) & (xy < region[1]).all(axis=1)
        if spec.mask is not None and ok.any():
            ok[ok] &= np.asarray(spec.mask(xy[ok]), dtype=bool)
        return ok

    return allowed


def radius_function(spec: LayerSpec, origin: np.ndarray, terrain: TerrainLookup | None = None) -> ArrayFunction | None:
    """The radius from the layer's density (see :func:`~strew.core.fields.radius.density_to_radius`), or None
    when the radius is constant. With ``footprints``: each place's footprint (of the prefab and scale drawn there,
    :func:`~.points.instance_sizes`) plus half the gap from the density; ``terrain`` gives the slope a scale
    may follow (``scale_by_slope``)."""
    low, high = spec.min_radius, spec.max_radius
    density_at = spec.density
    if spec.footprints is None:
        if density_at is None or high == low:
            return None
        return lambda local_xy: density_to_radius(density_at(local_xy + origin), low, high)
    footprints = np.asarray(spec.footprints, dtype=np.float64)
    if spec.scale_by_slope > 0 and terrain is None:
        raise ValueError("a layer whose scale follows the slope needs the terrain to space instances by size")

    def footprint_at(local_xy: np.ndarray) -> np.ndarray:
        xy = local_xy + origin
        up = terrain.sample(xy).normal[:, 2] if spec.scale_by_slope > 0 and terrain is not None else None
        prefab, scales = instance_sizes(xy, spec, up)
        return footprint_radii(spec, footprints, prefab, scales, xy)

    return footprint_at


def least_radius_function(spec: LayerSpec, origin: np.ndarray) -> ArrayFunction | None:
    """With ``footprints`` and a gap that follows the density: the least radius a place can draw, the smallest
    footprint at its least scale plus half the gap there (``PoissonSettings.least_radius_at``); None otherwise (the
    sampler's least radius holds everywhere)."""
    density_at = spec.density
    if spec.footprints is None or density_at is None or spec.max_radius == spec.min_radius:
        return None
    smallest = spacing_radii(spec)[0] - spec.min_radius * 0.5  # the least footprint times the least scale
    low, high = spec.min_radius, spec.max_radius
    return lambda local_xy: smallest + density_to_radius(density_at(local_xy + origin), low, high) * 0.5


def footprint_radii(spec: LayerSpec, footprints: np.ndarray, prefab: np.ndarray, scales: np.ndarray,
                    xy: np.ndarray) -> np.ndarray:
    """The sampler's radius of instances of a layer spaced by its objects' size: the footprint of the prefab drawn
    (``footprints[prefab]``) times the scale drawn, plus half the gap the density asks at ``xy`` (two such radii
    add up to the footprints plus the gap)."""
    low, high = spec.min_radius, spec.max_radius
    if spec.density is None or high == low:
        gap = np.full(len(xy), low)
    else:
        gap = density_to_radius(spec.density(xy), low, high)
    return footprints[prefab] * scales + gap * 0.5


@dataclass(frozen=True)
class FootprintAt:
    """Each world place's footprint: the prefab and scale drawn there (before density or slope shrink it, so never
    smaller than the instance's). A plain object, so masks that hold it travel to worker processes."""

    spec: LayerSpec
    footprints: np.ndarray

    def __call__(self, xy: np.ndarray) -> np.ndarray:
        prefab, scales = instance_sizes(xy, self.spec, None)
        return self.footprints[prefab] * scales


def footprint_function(spec: LayerSpec) -> tuple[FootprintAt, float] | None:
    """With ``footprints``: :class:`FootprintAt` and the largest footprint; None for a layer spaced by radius.
    Masks that keep a distance (Exclude's margin) keep it from the footprint's edge."""
    if spec.footprints is None:
        return None
    footprints = np.asarray(spec.footprints, dtype=np.float64)
    weights = np.asarray(spec.prefab_weights, dtype=np.float64)
    unshrunk = dataclasses.replace(spec, density=None, mask=None, scale_by_density=0.0, scale_by_slope=0.0)
    return FootprintAt(unshrunk, footprints), float(np.max(footprints[weights > 0])) * float(spec.scale_range[1])
