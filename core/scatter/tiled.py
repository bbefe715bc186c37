"""The repeated-tile option: one seamless tile copied over the terrain, thinned by position and the masks."""

from __future__ import annotations

import math

import numpy as np

from .._spatial import DiskIndex
from ..hashing import Stream, hash_uniform
from ..poisson import PoissonSettings, Samples, sample
from ..terrain import TerrainLookup
from .functions import allowed_function
from .points import PLACEMENT_BLOCK
from .spec import LayerSpec

_MAX_CELLS = 1 << 22  # blocker grid cells (32 MiB of cell starts)


def sample_tiled(terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None) -> Samples:
    """One seamless tile repeated over the bounds, thinned by a per-world-position hash and the masks.

    The masks and blockers filter the repeated points after sampling (the tile cannot know the world), so
    near forbidden zones the layer is less dense than in the default mode; the tile itself is gap-free.
    """
    if spec.tile_size is None:
        raise ValueError("sample_tiled needs a layer with a tile_size")
    tile = float(spec.tile_size)
    pattern = sample(PoissonSettings(size=(tile, tile), min_radius=spec.min_radius, max_radius=spec.min_radius,
                                     seed=spec.seed, tileable=True, start_points=spec.start_points,
                                     method=spec.method, max_points=spec.max_points))
    (x0, y0), (x1, y1) = terrain.bounds.as_array()
    i0, i1 = math.floor(x0 / tile), math.ceil(x1 / tile)
    j0, j1 = math.floor(y0 / tile), math.ceil(y1 / tile)
    offsets = np.stack(np.meshgrid(np.arange(i0, i1) * tile, np.arange(j0, j1) * tile, indexing="ij"), -1)
    offsets = offsets.reshape(-1, 2)
    allowed = allowed_function(terrain, spec, np.zeros(2))
    per_group = max(1, PLACEMENT_BLOCK // max(len(pattern.positions), 1))
    kept: list[np.ndarray] = []
    # A few tiles at a time, so the repeated copies never all sit in memory at once.
    for start in range(0, len(offsets), per_group):
        xy = (pattern.positions[None, :, :] + offsets[start:start + per_group, None, :]).reshape(-1, 2)
        xy = xy[(xy[:, 0] >= x0) & (xy[:, 0] < x1) & (xy[:, 1] >= y0) & (xy[:, 1] < y1)]
        if not len(xy):
            continue
        density = 1.0 if spec.density is None else np.clip(spec.density(xy), 0.0, 1.0)
        xy = xy[hash_uniform(xy, spec.seed, Stream.KEEP) < spec.tile_keep * density]
        xy = xy[allowed(xy)] if len(xy) else xy
        if blockers is not None and len(blockers.positions) and len(xy):
            xy = xy[_clear_of(xy, spec.min_radius, blockers)]
        kept.append(xy)
    xy = np.concatenate(kept) if kept else np.zeros((0, 2))
    return Samples(positions=xy, radii=np.full(len(xy), spec.min_radius))


def _clear_of(xy: np.ndarray, radius: float, blockers: Samples) -> np.ndarray:
    """True where a point of ``radius`` at ``xy`` keeps ``max(radius, blocker radius)`` from every blocker."""
    lo = np.minimum(xy.min(axis=0), blockers.positions.min(axis=0))
    extent = np.maximum(xy.max(axis=0), blockers.positions.max(axis=0)) - lo
    # Cells at least one reach wide (each disk in at most four), and at most _MAX_CELLS of them however large the world.
    cell = max(radius, float(blockers.radii.max()), float(extent.max()) / math.isqrt(_MAX_CELLS))
    cols, rows = (int(n) + 1 for n in np.floor(extent / cell))
    disks = blockers.positions - lo
    index = DiskIndex(disks[:, 0], disks[:, 1], blockers.radii, radius, cell, cell, cols, rows, period=None)
    local = xy - lo
    return ~index.conflicts(local[:, 0], local[:, 1], radius)
