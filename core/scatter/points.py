"""A layer's instances in world space (:class:`LayerPoints`) and how a layer places its sampled points.

Placement depends on each point's world position and the layer's seed only (hashing, no sequence), so a
point gets the same height, prefab, rotation and scale however the layer was split into chunks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import variety
from ..hashing import Stream, hash_choice, hash_scale, hash_uniform, hash_yaw
from ..orient import instance_rotations
from ..poisson import Samples
from ..terrain import TerrainLookup
from .spec import LayerSpec


@dataclass(frozen=True)
class LayerPoints:
    """A layer's instances in world space."""

    positions: np.ndarray  # (N, 3): x, y on the sampled plane, z on the terrain surface
    radii: np.ndarray  # (N,)
    normals: np.ndarray  # (N, 3) terrain normals (unit, pointing up)
    prefab_index: np.ndarray  # (N,) int64 into the layer's prefab list
    rotations: np.ndarray  # (N, 3) Euler XYZ
    scales: np.ndarray  # (N,)
    randoms: np.ndarray  # (N,) the instance's own value in [0, 1) for shading: a hash of its position and the seed
    stats: dict[str, float] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.positions)

    def as_blockers(self, radius: float | None = None) -> Samples:
        """These points as blockers for a later layer (their own radius, or a fixed one)."""
        radii = self.radii if radius is None else np.full(len(self), float(radius))
        return Samples(positions=self.positions[:, :2].copy(), radii=radii)


PLACEMENT_BLOCK = 65_536


def instance_sizes(
    xy: np.ndarray, spec: LayerSpec, up: np.ndarray | None, key: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The prefab (index) and the scale of an instance at each world ``xy``: hashes of the place (``key``, by
    default ``xy``; an *Every Face* layer hashes a key of the 3-D position) and the seed, the scale shrunk by
    density (read at ``xy``) and slope when the layer asks (``up``: the z of the surface's unit normal there; needed
    only with ``scale_by_slope``). The sampler asks the same when it spaces instances by their size."""
    key = xy if key is None else key
    prefab = hash_choice(key, spec.seed, np.asarray(spec.prefab_weights, dtype=np.float64))
    scales = hash_scale(key, spec.seed, *spec.scale_range)
    if spec.scale_by_density > 0 or spec.scale_by_slope > 0:
        density = np.ones(len(xy)) if spec.density is None else np.asarray(spec.density(xy), dtype=float)
        slope_up = np.ones(len(xy)) if up is None else up
        scales *= variety.scale_factors(density, slope_up, spec.scale_by_density, spec.scale_by_slope)
    return prefab, scales

POINT_ARRAYS = ("positions", "radii", "normals", "prefab_index", "rotations", "scales", "randoms")


def place(terrain: TerrainLookup, spec: LayerSpec, samples: Samples) -> LayerPoints:
    """Height, normal, prefab, rotation and scale of ``samples`` (world xy) exactly as the layer places them.

    Works in blocks of ``PLACEMENT_BLOCK`` points so memory stays bounded.
    """
    xy = np.asarray(samples.positions, dtype=np.float64)
    count = len(xy)
    positions = np.empty((count, 3))
    normals = np.empty((count, 3))
    prefab = np.empty(count, dtype=np.int64)
    rotations = np.empty((count, 3))
    scales = np.empty(count)
    randoms = np.empty(count)
    for start in range(0, count, PLACEMENT_BLOCK):
        block = slice(start, min(start + PLACEMENT_BLOCK, count))
        part = xy[block]
        # Every sampled point passed the allowed test, which includes terrain coverage.
        hit = terrain.sample(part)
        positions[block, :2] = part
        positions[block, 2] = hit.z
        normals[block] = hit.normal
        prefab[block], scales[block] = instance_sizes(part, spec, hit.normal[:, 2])
        yaw = hash_yaw(part, spec.seed) if spec.random_yaw else np.zeros(len(part))
        tilt, heading = variety.tilts(part, spec.seed, spec.tilt) if spec.tilt > 0 else (None, None)
        rotations[block] = instance_rotations(hit.normal, yaw, spec.align, tilt, heading)
        randoms[block] = hash_uniform(part, spec.seed, Stream.RANDOM)
    return LayerPoints(positions=positions, radii=np.asarray(samples.radii, dtype=np.float64), normals=normals,
                       prefab_index=prefab, rotations=rotations, scales=scales, randoms=randoms)
