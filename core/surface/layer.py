"""One scatter layer on every face of meshes: the *Every Face* counterpart of :func:`strew.core.scatter.scatter_layer`.

The layer's density and mask are the same ``xy`` array functions as on a terrain (read from above, at each
point's x, y); slope is measured from ``up`` over the whole range ``0 .. pi``, so "only on walls" and "only
under overhangs" are slope ranges. Instances stand along their face's normal. Blockers are earlier layers'
points in 3-D.

A layer spaced by its objects' size (``spec.footprints``) gets 3-D footprints: each prefab's sphere about its
origin. A point's radius is then the footprint of the prefab drawn there times the scale drawn there plus half
the gap, and two points keep the sum of their radii (in 3-D): no two spheres come closer than the gap, whatever
the instances' orientation.

Examples
--------
>>> import numpy as np
>>> from strew.core.scatter import LayerSpec
>>> v = np.array([[0, 0, 0], [6, 0, 0], [6, 0, 4], [0, 0, 4]], dtype=float)  # a wall facing -y
>>> points = surface_layer(v, np.array([[0, 1, 2], [0, 2, 3]]), LayerSpec(min_radius=0.5, seed=1))
>>> bool(len(points) > 20), bool(np.allclose(points.normals, [0, -1, 0]))
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

import numpy as np

from .. import variety
from ..fields.radius import density_to_radius
from ..hashing import Stream, hash_uniform, hash_yaw
from ..orient import instance_rotations
from ..poisson import Samples
from ..scatter import LayerPoints, LayerSpec, blocker_radii
from ..scatter.functions import footprint_radii
from ..scatter.points import instance_sizes
from ..scatter.spec import conflict_rule, spacing_radii
from ..steps import run_to_end
from . import SurfaceSettings, sample_surface_steps, slope_between
from .settings import RadiusFn, SurfaceRadiusFn

# The position hashes take two coordinates: a point (x, y, z) is hashed as (x + A z, y + B z), one-to-one on
# every face that is not parallel to (A, B, -1) (irrational directions: no mesh lines up with them by chance).
_FOLD = np.array([[1.0, 0.0], [0.0, 1.0], [0.7548776662466927, 0.5698402909980532]])


def hash_key(positions: np.ndarray) -> np.ndarray:
    """The (M, 2) key under which a 3-D position draws its prefab, yaw and scale."""
    p = np.asarray(positions, dtype=np.float64)
    # Written out (not ``p @ _FOLD``): BLAS kernels round differently on different CPUs.
    return np.column_stack([p[:, 0] + p[:, 2] * _FOLD[2, 0], p[:, 1] + p[:, 2] * _FOLD[2, 1]])


def _sizes(positions: np.ndarray, up: np.ndarray, spec: LayerSpec) -> tuple[np.ndarray, np.ndarray]:
    """The prefab and the scale drawn at each 3-D position (``up``: the z of the face normal there): what the
    placement gives an instance and what the sampler spaces it by."""
    return instance_sizes(positions[:, :2], spec, up, key=hash_key(positions))


def _settings(spec: LayerSpec, up: np.ndarray, slope_range: tuple[float, float]) -> SurfaceSettings:
    slope = slope_between(up, *slope_range)
    mask, heights = spec.mask, spec.height_range

    def allowed(xyz: np.ndarray, normals: np.ndarray) -> np.ndarray:
        ok = slope(xyz, normals)
        if heights is not None:
            ok &= (xyz[:, 2] >= heights[0]) & (xyz[:, 2] <= heights[1])
        if mask is not None and ok.any():
            ok[ok] &= np.asarray(mask(xyz[ok, :2]), dtype=bool)
        return ok

    radius_at: RadiusFn | SurfaceRadiusFn | None = None
    if spec.footprints is not None:
        footprints = np.asarray(spec.footprints, dtype=np.float64)

        def footprint_at(xyz: np.ndarray, normals: np.ndarray) -> np.ndarray:
            prefab, scales = _sizes(xyz, normals[:, 2], spec)
            return footprint_radii(spec, footprints, prefab, scales, xyz[:, :2])

        radius_at = footprint_at
    elif spec.density is not None and spec.max_radius > spec.min_radius:
        low, high, density_at = spec.min_radius, spec.max_radius, spec.density

        def density_radius(xyz: np.ndarray) -> np.ndarray:
            return density_to_radius(density_at(xyz[:, :2]), low, high)

        radius_at = density_radius
    least, largest = spacing_radii(spec)
    return SurfaceSettings(min_radius=least, max_radius=largest, radius_at=radius_at, is_allowed=allowed,
                           seed=spec.seed, max_points=spec.max_points, conflict=conflict_rule(spec),
                           radius_reads_normals=spec.footprints is not None)


def surface_layer_steps(
    vertices: Any,
    triangles: Any,
    spec: LayerSpec,
    blockers: Samples | None = None,
    up: Any = (0.0, 0.0, 1.0),
    slope_range: tuple[float, float] = (0.0, math.pi),
    keep: np.ndarray | None = None,
) -> Generator[float, None, LayerPoints]:
    """:func:`surface_layer` as a generator: yields the fraction done, returns the points.

    Blockers and ``keep`` (per-blocker keep-away of pair rules) work as in :func:`~strew.core.scatter.scatter_layer`.
    """
    if blockers is not None and len(blockers.positions):
        positions = np.asarray(blockers.positions, dtype=np.float64)
        if positions.ndim != 2 or positions.shape[1] != 3:
            raise ValueError(f"blockers of a surface layer need 3-D positions (B, 3), got {positions.shape}")
        blockers = Samples(positions, blocker_radii(spec, len(positions), keep))
    samples = yield from sample_surface_steps(vertices, triangles, _settings(spec, np.asarray(up), slope_range),
                                              blockers)
    key = hash_key(samples.positions)
    yaw = hash_yaw(key, spec.seed) if spec.random_yaw else np.zeros(len(key))
    tilt, heading = variety.tilts(key, spec.seed, spec.tilt) if spec.tilt > 0 else (None, None)
    prefab, scales = _sizes(samples.positions, samples.normals[:, 2], spec)
    return LayerPoints(
        positions=samples.positions,
        radii=samples.radii,
        normals=samples.normals,
        prefab_index=prefab,
        rotations=instance_rotations(samples.normals, yaw, 1.0, tilt, heading),
        scales=scales,
        randoms=hash_uniform(key, spec.seed, Stream.RANDOM),
    )


def surface_layer(
    vertices: Any,
    triangles: Any,
    spec: LayerSpec,
    blockers: Samples | None = None,
    up: Any = (0.0, 0.0, 1.0),
    slope_range: tuple[float, float] = (0.0, math.pi),
) -> LayerPoints:
    """Scatter one layer over every face of the triangles (world space, several meshes concatenated).

    ``blockers`` are earlier layers' points (3-D); each gets radius ``max(spec.keep_away, spec.min_radius)``,
    as in :func:`strew.core.scatter.scatter_layer` (with ``footprints``, kept from each instance's sphere).
    ``slope_range`` (radians from ``up``) limits where points go: ``(0, pi/2)`` faces looking up,
    ``(pi/3, 2*pi/3)`` walls, ``(pi/2 + 0.1, pi)`` undersides.
    """
    return run_to_end(surface_layer_steps(vertices, triangles, spec, blockers, up, slope_range))


__all__ = ["hash_key", "surface_layer", "surface_layer_steps"]
