"""A layer sampled chunk by chunk: the memory budget, the work every chunk task reads, one chunk's task.

See :mod:`strew.core.chunks` for the phases and :mod:`.rerun` for the runs; a backend (:mod:`strew.core.pool`,
:mod:`strew.core.farm`) runs :func:`sample_and_place_chunk` elsewhere with the same result.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..chunks import ChunkGrid, concat
from ..fields.mask import Mask
from ..poisson import BYTES_PER_POINT, PoissonSettings, Samples, sample
from ..poisson.budget import job_load
from ..poisson.layout import cell_side, coarse_cells
from ..terrain import NoAreaError, TerrainLookup
from ..worker_choice import LayerLoad, estimated_points
from .functions import allowed_function, least_radius_function, prepare_terrain, radius_function
from .points import LayerPoints, place
from .spec import LayerSpec, blocker_radii, chunk_side, conflict_rule, reach, spacing_radii

MAX_CHUNKS = 4096  # chunks per layer: each one costs a sampler set-up and a terrain pass


def check_budget(terrain: TerrainLookup, spec: LayerSpec) -> None:
    """Refuse, before any work, a layer whose chunk count exceeds ``MAX_CHUNKS`` or whose whole-terrain job
    (points, background grid, neighbour window where the radius varies) exceeds ``max_points``."""
    width, depth = (float(v) for v in terrain.bounds.size)
    side = chunk_side(spec, width, depth)
    if spec.tile_size is None:
        chunks = math.ceil(width / side) * math.ceil(depth / side)
        if chunks > MAX_CHUNKS:
            least = max(width, depth) / math.isqrt(MAX_CHUNKS)
            raise ValueError(
                f"chunk_size {side:g} splits the {width:g} × {depth:g} terrain into {chunks:,} chunks, "
                f"more than {MAX_CHUNKS:,}: use a chunk_size of at least {least:.3g}"
            )
    low, high = spacing_radii(spec)
    whole = PoissonSettings(
        size=(max(width, spec.min_radius), max(depth, spec.min_radius)), min_radius=low, max_radius=high,
        radius_at=radius_function(spec, np.zeros(2), terrain), max_points=spec.max_points, conflict=conflict_rule(spec),
    )
    if spec.tile_size is None and min(width, depth) < spec.min_radius:
        _check_area(width, depth, spec, whole)
    grid, load = job_load(whole)
    if load > spec.max_points:
        window = " and its neighbour window (Max Radius far above Min Radius)" if load > 2.0 * grid else ""
        raise ValueError(
            f"min_radius {spec.min_radius:g} over a {width:g} × {depth:g} terrain{window} means work worth about "
            f"{load:,.0f} points, more than max_points ({spec.max_points:,}): use a larger min_radius"
            f"{', a smaller max_radius' if window else ''}, a smaller terrain, or raise max_points if the memory "
            f"allows (about {BYTES_PER_POINT} bytes per point)"
        )


def _check_area(width: float, depth: float, spec: LayerSpec, whole: PoissonSettings) -> None:
    """Refuse a terrain so thin or small seen from above that one of its chunks would need a sampler grid beyond
    ``max_points`` (its cells shrink to the terrain, its neighbour window does not): it has no area to scatter on."""
    side = chunk_side(spec, width, depth)
    nx, ny = max(1, math.ceil(width / side)), max(1, math.ceil(depth / side))
    chunk = (width / nx, depth / ny)
    if min(chunk) > 0 and job_load(dataclasses.replace(whole, size=chunk))[1] <= spec.max_points:
        return
    raise NoAreaError(
        f"the terrain has no area to scatter on from above: it spans only {width:.3g} × {depth:.3g} seen from above, "
        f"against a min_radius of {spec.min_radius:g}; scale it up (or apply its scale), give it faces that face "
        "up, or scatter on walls with Surface: Every Face"
    )


def _chunk_seed(seed: int, ix: int, iy: int) -> int:
    return int(np.random.SeedSequence([seed, ix, iy]).generate_state(1, dtype=np.uint32)[0])


@dataclass(frozen=True)
class ChunkWork:
    """What every chunk task of one layer reads; a backend ships it once per layer, never per chunk."""

    terrain: TerrainLookup
    spec: LayerSpec
    blockers: Samples | None
    grid: ChunkGrid


def sample_chunk(work: ChunkWork, chunk: int, earlier: Samples | None) -> Samples:
    """The points of one chunk, against the blockers and the points of earlier phases near it."""
    spec, grid = work.spec, work.grid
    lo, hi = grid.rect(chunk)
    size = hi - lo
    if size.min() <= 0 or (isinstance(spec.mask, Mask) and spec.mask.empty_in(lo, hi)):  # nothing may stand here
        return Samples(positions=np.zeros((0, 2)), radii=np.zeros(0))
    near = concat(grid.window(chunk, work.blockers), earlier)
    local = None if near is None else Samples(positions=near.positions - lo, radii=near.radii)
    # The maximal sampler hashes the layer's seed with world cells (the same darts whichever chunk a place
    # falls in); Bridson's growth draws from a generator seeded per chunk.
    seed = spec.seed if spec.method == "maximal" else _chunk_seed(spec.seed, *grid.cell(chunk))
    low, high = spacing_radii(spec)
    settings = PoissonSettings(
        size=(float(size[0]), float(size[1])), min_radius=low, max_radius=high,
        radius_at=radius_function(spec, lo, work.terrain), is_allowed=allowed_function(work.terrain, spec, lo),
        seed=seed, start_points=spec.start_points, method=spec.method, max_points=spec.max_points,
        anchor=grid.anchor(chunk), conflict=conflict_rule(spec), least_radius_at=least_radius_function(spec, lo),
    )
    result = sample(settings, blockers=local)
    return Samples(positions=result.positions + lo, radii=result.radii)


def place_chunk(work: ChunkWork, samples: Samples) -> LayerPoints:
    """Height, normal, prefab, rotation and scale of one chunk's points."""
    return place(work.terrain, work.spec, samples)


def chunk_work(terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None = None,
               keep: np.ndarray | None = None) -> ChunkWork:
    """The layer as every chunk task reads it: the budget checked, blockers at their keep-away, the grid.

    Blocker ``i`` gets radius ``max(spec.keep_away, spec.min_radius, keep[i])`` (see :func:`blocker_radii`), so
    no point interacts farther than ``max(max_radius, keep_away, keep)`` (:func:`reach`; with footprints, radii
    add up): the grid's reach, whether or not there are blockers.
    """
    check_budget(terrain, spec)
    prepare_terrain(terrain, spec)
    farthest = reach(spec)
    if blockers is not None and len(blockers.positions):
        radii = blocker_radii(spec, len(blockers.positions), keep)
        blockers = Samples(positions=np.asarray(blockers.positions, dtype=np.float64), radii=radii)
        largest = float(radii.max())
        farthest = max(farthest, largest + spacing_radii(spec)[1] if spec.footprints is not None else largest)
    else:
        blockers = None
    side = chunk_side(spec, *(float(v) for v in terrain.bounds.size))
    return ChunkWork(terrain, spec, blockers, layer_grid(sampled_area(terrain, spec), spec, farthest, side))


def layer_grid(area: np.ndarray, spec: LayerSpec, reach: float, side: float) -> ChunkGrid:
    """The layer's chunks of about ``side`` on the world grid of its sampler's cells (in whole first boxes of a
    variable radius), so a chunk's edges and its sampler's cells stay where they are when the terrain changes
    elsewhere (see :meth:`ChunkGrid.on_cells`)."""
    variable = spec.footprints is not None or radius_function(spec, np.zeros(2)) is not None
    low, high = spacing_radii(spec)
    variable = variable and high > low
    closest = 2.0 * low if spec.footprints is not None else low
    return ChunkGrid.on_cells(area, side, reach, cell_side(closest), coarse_cells(low, high, variable))


def sampled_area(terrain: TerrainLookup, spec: LayerSpec) -> np.ndarray:
    """``[[x0, y0], [x1, y1]]``: the terrain's XY bounds, cut to ``spec.region`` when there is one (may be empty)."""
    bounds = terrain.bounds.as_array()
    if spec.region is not None:
        region = np.asarray(spec.region, dtype=np.float64)
        bounds = np.stack([np.maximum(bounds[0], region[0]), np.minimum(bounds[1], region[1])])
    return bounds


def layer_load(work: ChunkWork) -> LayerLoad:
    """What the layer will cost, for *Workers: Auto* (:func:`strew.core.worker_choice.choose`): its chunks, its
    phases, the instances its area holds at its smallest spacing, the triangles and blockers it shares."""
    (x0, y0), (x1, y1) = sampled_area(work.terrain, work.spec)
    area = max(0.0, float(x1 - x0)) * max(0.0, float(y1 - y0))
    blockers = 0 if work.blockers is None else len(work.blockers.positions)
    return LayerLoad(work.grid.count, work.grid.phase_count, estimated_points(area, spacing_radii(work.spec)[0]),
                     len(work.terrain.triangles), blockers)


def sample_and_place_chunk(work: ChunkWork, chunk: int, earlier: Samples | None) -> LayerPoints:
    """:func:`sample_chunk` then :func:`place_chunk`: one chunk task."""
    return place_chunk(work, sample_chunk(work, chunk, earlier))

