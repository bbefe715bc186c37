"""The repeated-tile option: one seamless tile copied over the terrain, thinned by position and the masks."""

from __future__ import annotations

import math

import numpy as np

from ..hashing import Stream, hash_uniform
from ..poisson import PoissonSettings, Samples, sample
from ..terrain import TerrainLookup
from .functions import allowed_function
from .points import PLACEMENT_BLOCK
from .spec import LayerSpec


def sample_tiled(terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None) -> Samples:
    """One seamless tile repeated over the bounds, thinned by a per-world-position hash and the masks.

    The masks and blockers filter the repeated points after sampling (the tile cannot know the world), so
    near forbidden zones the layer is less dense than in the default mode; the tile itself is gap-free.
    """
    tile = float(spec.tile_size)  # type: ignore[arg-type]
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
    """True where a point of ``radius`` at ``xy`` does not conflict with any blocker (grid search)."""
    reach = max(radius, float(blockers.radii.max()))
    cell = reach
    keys_b = np.floor(blockers.positions / cell).astype(np.int64)
    order = np.lexsort((keys_b[:, 1], keys_b[:, 0]))
    sorted_keys = keys_b[order]
    code_b = sorted_keys[:, 0] * 2_000_003 + sorted_keys[:, 1]
    ok = np.ones(len(xy), dtype=bool)
    keys = np.floor(xy / cell).astype(np.int64)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            code = (keys[:, 0] + dx) * 2_000_003 + (keys[:, 1] + dy)
            start = np.searchsorted(code_b, code, side="left")
            stop = np.searchsorted(code_b, code, side="right")
            counts = stop - start
            if not counts.any():
                continue
            query = np.repeat(np.arange(len(xy)), counts)
            first = np.repeat(np.cumsum(counts) - counts, counts)
            index = order[np.repeat(start, counts) + np.arange(counts.sum()) - first]
            d2 = np.sum((xy[query] - blockers.positions[index]) ** 2, axis=1)
            limit = np.maximum(radius, blockers.radii[index])
            ok[query[d2 < limit**2]] = False
    return ok
