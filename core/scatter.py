"""One scatter layer on a terrain: masks inside the sampler, chunks for large worlds, a repeated tile option.

This is the whole pipeline of the Scatter operator minus Blender: the operator converts the scene into a
:class:`~strew.core.terrain.TerrainLookup`, callables and numbers, calls :func:`scatter_layer` per layer
(earlier layers' points passed as ``blockers``), and writes the returned :class:`LayerPoints` back.

Examples
--------
>>> import numpy as np
>>> from strew.core.terrain import TerrainLookup
>>> vertices = np.array([[0, 0, 0], [50, 0, 0], [50, 40, 5], [0, 40, 5]], dtype=float)
>>> terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))
>>> points = scatter_layer(terrain, LayerSpec(min_radius=2.0, max_radius=2.0, seed=1))
>>> bool(len(points) > 100)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np

from . import variety
from .chunks import Backend, ChunkGrid, concat, sample_chunks
from .fields.radius import density_to_radius
from .hashing import Stream, hash_choice, hash_scale, hash_uniform, hash_yaw
from .orient import instance_rotations
from .poisson import BYTES_PER_POINT, PoissonSettings, Samples, sample
from .poisson.budget import job_load
from .terrain import TerrainLookup

ArrayFunction = Callable[[np.ndarray], np.ndarray]
Cancel = Callable[[float], bool]
MAX_CHUNKS = 4096  # chunks per layer: each one costs a sampler set-up and a terrain pass


@dataclass(frozen=True)
class LayerSpec:
    """Settings of one layer, in world units and radians, validated when made (``ValueError`` names the field).

    ``density(xy) -> [0, 1]`` maps to the radius ``lerp(max_radius, min_radius, density)``; ``mask(xy) -> bool``
    is any extra allowed-mask (vertex group, exclusions) on top of terrain coverage, ``max_slope`` and
    ``height_range``. ``region`` limits the sampled XY area (a camera's clip distance: nothing beyond it is
    walked). A point of this layer keeps at least ``max(its radius, keep_away)`` from every blocker.
    """

    min_radius: float
    max_radius: float | None = None
    seed: int = 0
    start_points: int = 16
    keep_away: float = 0.0
    density: ArrayFunction | None = None
    mask: ArrayFunction | None = None
    max_slope: float = math.pi / 2
    height_range: tuple[float, float] | None = None
    align: float = 0.0
    random_yaw: bool = True
    scale_range: tuple[float, float] = (1.0, 1.0)
    tilt: float = 0.0
    scale_by_density: float = 0.0
    scale_by_slope: float = 0.0
    prefab_weights: tuple[float, ...] = (1.0,)
    tile_size: float | None = None
    region: tuple[tuple[float, float], tuple[float, float]] | None = None
    tile_keep: float = 1.0
    chunk_size: float = 512.0
    method: str = "maximal"
    max_points: int = 20_000_000

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def radius_max(self) -> float:
        return self.min_radius if self.max_radius is None else self.max_radius


@dataclass(frozen=True)
class LayerPoints:
    """A layer's instances in world space."""

    positions: np.ndarray  # (N, 3): x, y on the sampled plane, z on the terrain surface
    radii: np.ndarray  # (N,)
    normals: np.ndarray  # (N, 3) terrain normals (unit, pointing up)
    prefab_index: np.ndarray  # (N,) int64 into the layer's prefab list
    rotations: np.ndarray  # (N, 3) Euler XYZ
    scales: np.ndarray  # (N,)
    stats: dict[str, float] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.positions)

    def as_blockers(self, radius: float | None = None) -> Samples:
        """These points as blockers for a later layer (their own radius, or a fixed one)."""
        radii = self.radii if radius is None else np.full(len(self), float(radius))
        return Samples(positions=self.positions[:, :2].copy(), radii=radii)


class Cancelled(Exception):
    """Raised when the ``cancel`` callback asked to stop; nothing was written anywhere."""


def _number(name: str, value: object, integer: bool = False) -> float:
    """``value`` as a finite float (or an integer when ``integer``); ValueError naming ``name`` otherwise."""
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, bool) or not isinstance(value, kinds):
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{name} must be {kind}, got {value!r} ({type(value).__name__})")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return number


def _pair(name: str, value: object) -> tuple[float, float]:
    if not isinstance(value, (tuple, list, np.ndarray)) or len(value) != 2:
        raise ValueError(f"{name} must be a pair (low, high), got {value!r}")
    return _number(f"{name}[0]", value[0]), _number(f"{name}[1]", value[1])


def _validate(spec: LayerSpec) -> None:
    for name in ("min_radius", "keep_away", "max_slope", "align", "tile_keep", "chunk_size"):
        _number(name, getattr(spec, name))
    for name in ("seed", "start_points", "max_points"):
        _number(name, getattr(spec, name), integer=True)
    if spec.max_radius is not None:
        _number("max_radius", spec.max_radius)
    if spec.tile_size is not None:
        _number("tile_size", spec.tile_size)
    for name in ("density", "mask"):
        if getattr(spec, name) is not None and not callable(getattr(spec, name)):
            raise ValueError(f"{name} must be a function of an (M, 2) array of xy, or None")
    if spec.min_radius <= 0:
        raise ValueError(f"min_radius must be > 0, got {spec.min_radius}: set a positive spacing")
    if spec.radius_max < spec.min_radius:
        raise ValueError(f"max_radius ({spec.radius_max}) is smaller than min_radius ({spec.min_radius}): "
                         "raise max_radius or lower min_radius")
    if spec.keep_away < 0:
        raise ValueError(f"keep_away must be ≥ 0, got {spec.keep_away}")
    if spec.seed < 0:
        raise ValueError(f"seed must be ≥ 0, got {spec.seed}")
    if spec.start_points < 1 or spec.max_points < 1:
        raise ValueError(f"start_points and max_points must be ≥ 1, got {spec.start_points} and {spec.max_points}")
    if not 0 <= spec.max_slope <= math.pi / 2:
        raise ValueError(f"max_slope must be between 0 and π/2 radians, got {spec.max_slope}")
    if not 0 <= spec.align <= 1 or not 0 <= spec.tile_keep <= 1:
        raise ValueError(f"align and tile_keep must be between 0 and 1, got {spec.align} and {spec.tile_keep}")
    variety.validate(spec.tilt, spec.scale_by_density, spec.scale_by_slope)
    low, high = _pair("scale_range", spec.scale_range)
    if not 0 < low <= high:
        raise ValueError(f"scale_range must satisfy 0 < min ≤ max, got {spec.scale_range}")
    if spec.height_range is not None:
        low, high = _pair("height_range", spec.height_range)
        if not low <= high:
            raise ValueError(f"height_range must be (low, high) with low ≤ high, got {spec.height_range}")
    try:
        weights = np.asarray(spec.prefab_weights, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"prefab_weights must be numbers, got {spec.prefab_weights!r}") from error
    if weights.ndim != 1 or len(weights) == 0 or not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError(f"prefab_weights must be one or more finite weights ≥ 0, got {spec.prefab_weights!r}")
    if weights.sum() <= 0:
        raise ValueError("prefab_weights are all zero: give at least one prefab a positive weight")
    if spec.chunk_size <= 0:
        raise ValueError(f"chunk_size must be > 0, got {spec.chunk_size}")
    if spec.region is not None:
        try:
            (rx0, ry0), (rx1, ry1) = (float(v) for v in spec.region[0]), (float(v) for v in spec.region[1])
        except (TypeError, ValueError):
            raise ValueError(f"region must be ((x0, y0), (x1, y1)), got {spec.region!r}") from None
        if not (all(map(math.isfinite, (rx0, ry0, rx1, ry1))) and rx0 < rx1 and ry0 < ry1):
            raise ValueError(f"region must be finite with x0 < x1 and y0 < y1, got {spec.region!r}")
    if spec.tile_size is not None and spec.tile_size < 2 * spec.radius_max:
        raise ValueError(f"tile_size ({spec.tile_size}) must be at least twice max_radius ({spec.radius_max}); "
                         "ten radii or more hides the repetition better")


def _check_budget(terrain: TerrainLookup, spec: LayerSpec) -> None:
    """Refuse, before any work, a layer whose chunk count exceeds ``MAX_CHUNKS`` or whose whole-terrain job
    (points, background grid, neighbour window where the radius varies) exceeds ``max_points``."""
    width, depth = (float(v) for v in terrain.bounds.size)
    if spec.tile_size is None:
        chunks = math.ceil(width / spec.chunk_size) * math.ceil(depth / spec.chunk_size)
        if chunks > MAX_CHUNKS:
            least = max(width, depth) / math.isqrt(MAX_CHUNKS)
            raise ValueError(
                f"chunk_size {spec.chunk_size:g} splits the {width:g} × {depth:g} terrain into {chunks:,} chunks, "
                f"more than {MAX_CHUNKS:,}: use a chunk_size of at least {least:.3g}"
            )
    whole = PoissonSettings(
        size=(max(width, spec.min_radius), max(depth, spec.min_radius)), min_radius=spec.min_radius,
        max_radius=spec.radius_max, radius_at=_radius_function(spec, np.zeros(2)), max_points=spec.max_points,
    )
    grid, load = job_load(whole)
    if load > spec.max_points:
        window = " and its neighbour window (Max Radius far above Min Radius)" if load > 2.0 * grid else ""
        raise ValueError(
            f"min_radius {spec.min_radius:g} over a {width:g} × {depth:g} terrain{window} means work worth about "
            f"{load:,.0f} points, more than max_points ({spec.max_points:,}): use a larger min_radius"
            f"{', a smaller max_radius' if window else ''}, a smaller terrain, or raise max_points if the memory "
            f"allows (about {BYTES_PER_POINT} bytes per point)"
        )


def _allowed_function(terrain: TerrainLookup, spec: LayerSpec, origin: np.ndarray) -> ArrayFunction:
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


def _radius_function(spec: LayerSpec, origin: np.ndarray) -> ArrayFunction | None:
    if spec.density is None or spec.radius_max == spec.min_radius:
        return None
    low, high = spec.min_radius, spec.radius_max
    density_at = spec.density

    def radius_at(local_xy: np.ndarray) -> np.ndarray:
        return density_to_radius(density_at(local_xy + origin), low, high)

    return radius_at


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
    if size.min() <= 0:
        return Samples(positions=np.zeros((0, 2)), radii=np.zeros(0))
    near = concat(grid.window(chunk, work.blockers), earlier)
    local = None if near is None else Samples(positions=near.positions - lo, radii=near.radii)
    settings = PoissonSettings(
        size=(float(size[0]), float(size[1])), min_radius=spec.min_radius, max_radius=spec.radius_max,
        radius_at=_radius_function(spec, lo), is_allowed=_allowed_function(work.terrain, spec, lo),
        seed=_chunk_seed(spec.seed, *grid.cell(chunk)), start_points=spec.start_points, method=spec.method,
        max_points=spec.max_points,
    )
    result = sample(settings, blockers=local)
    return Samples(positions=result.positions + lo, radii=result.radii)


def place_chunk(work: ChunkWork, samples: Samples) -> LayerPoints:
    """Height, normal, prefab, rotation and scale of one chunk's points."""
    return _place(work.terrain, work.spec, samples)


def chunk_work(terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None = None,
               keep: np.ndarray | None = None) -> ChunkWork:
    """The layer as every chunk task reads it: the budget checked, blockers at their keep-away, the grid.

    Blocker ``i`` gets radius ``max(spec.keep_away, spec.min_radius, keep[i])`` (see :func:`blocker_radii`), so
    no point interacts farther than ``max(max_radius, keep_away, keep)``: the grid's reach, whether or not there
    are blockers.
    """
    _check_budget(terrain, spec)
    reach = max(spec.radius_max, spec.keep_away)
    if blockers is not None and len(blockers.positions):
        radii = blocker_radii(spec, len(blockers.positions), keep)
        blockers = Samples(positions=np.asarray(blockers.positions, dtype=np.float64), radii=radii)
        reach = max(reach, float(radii.max()))
    else:
        blockers = None
    return ChunkWork(terrain, spec, blockers, ChunkGrid.over(sampled_area(terrain, spec), spec.chunk_size, reach))


def sampled_area(terrain: TerrainLookup, spec: LayerSpec) -> np.ndarray:
    """``[[x0, y0], [x1, y1]]``: the terrain's XY bounds, cut to ``spec.region`` when there is one (may be empty)."""
    bounds = terrain.bounds.as_array()
    if spec.region is not None:
        region = np.asarray(spec.region, dtype=np.float64)
        bounds = np.stack([np.maximum(bounds[0], region[0]), np.minimum(bounds[1], region[1])])
    return bounds


def _sample_chunked(work: ChunkWork, backend: Backend | None) -> Generator[float, None, LayerPoints]:
    """Sample and place the terrain's XY bounds chunk by chunk, in phases (see :mod:`strew.core.chunks`).

    The union is conflict-free and maximal: a place inside an earlier chunk was already unfillable before
    later chunks added points, and a later chunk fills up to its border against the earlier ones. A task
    samples and places its chunk, so the points cross between processes once.
    """
    grid = work.grid
    if grid.count == 1:
        backend = None  # nothing to spread: spare the workers the layer's data
    handle = work if backend is None else backend.share(work)
    try:
        steps = sample_chunks(grid, handle, sample_and_place_chunk, backend, _xy_of)
        while True:
            try:
                yield next(steps)
            except StopIteration as finished:
                parts: list[LayerPoints] = finished.value
                break
    finally:
        if backend is not None:
            backend.release(handle)
    return LayerPoints(**{name: np.concatenate([getattr(p, name) for p in parts]) for name in _POINT_ARRAYS})


def sample_and_place_chunk(work: ChunkWork, chunk: int, earlier: Samples | None) -> LayerPoints:
    """:func:`sample_chunk` then :func:`place_chunk`: one chunk task."""
    return place_chunk(work, sample_chunk(work, chunk, earlier))


def _xy_of(points: LayerPoints) -> Samples:
    return Samples(positions=points.positions, radii=points.radii)


def _sample_tiled(terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None) -> Samples:
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
    allowed = _allowed_function(terrain, spec, np.zeros(2))
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


def blocker_radii(spec: LayerSpec, count: int, keep: np.ndarray | None) -> np.ndarray:
    """Distance this layer keeps from each blocker: ``max(min_radius, keep_away, keep[i])``."""
    radii = np.full(count, max(spec.keep_away, spec.min_radius))
    if keep is None:
        return radii
    keep = np.asarray(keep, dtype=np.float64)
    if keep.shape != (count,) or not np.isfinite(keep).all() or (keep < 0).any():
        raise ValueError(f"keep must hold one finite distance ≥ 0 per blocker ({count}), got shape {keep.shape}")
    return np.maximum(radii, keep)


def scatter_layer_steps(
    terrain: TerrainLookup, spec: LayerSpec, blockers: Samples | None = None, backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> Generator[float, None, LayerPoints]:
    """:func:`scatter_layer` as a generator: yields the fraction done after each chunk, returns the points.

    An interactive caller (Blender's modal operator) returns to its event loop between steps, so ESC can
    stop a long layer; closing the generator abandons the work with nothing written anywhere.
    """
    area = sampled_area(terrain, spec)
    if (area[1] <= area[0]).any():  # the region misses the terrain: nothing to place
        return _place(terrain, spec, Samples(np.zeros((0, 2)), np.zeros(0)))
    work = chunk_work(terrain, spec, blockers, keep)
    if spec.tile_size is not None:
        return _place(terrain, spec, _sample_tiled(terrain, spec, work.blockers))
    return (yield from _sample_chunked(work, backend))


def scatter_layer(
    terrain: TerrainLookup,
    spec: LayerSpec,
    blockers: Samples | None = None,
    cancel: Cancel | None = None,
    backend: Backend | None = None,
    keep: np.ndarray | None = None,
) -> LayerPoints:
    """Scatter one layer over the terrain's XY bounds and place each point on the top-most surface.

    ``blockers`` are earlier layers' points (their radii are not used): the layer keeps
    ``max(min_radius, keep_away)`` from each, or ``keep[i]`` from blocker ``i`` when that is larger (a
    keep-away rule for one pair of layers). ``cancel(fraction_done) -> bool`` is polled between chunks;
    returning True raises :class:`Cancelled`. ``backend`` runs the chunks elsewhere (a
    :class:`~strew.core.pool.ProcessPool`, a Dask cluster); the points are the same as without it.
    """
    steps = scatter_layer_steps(terrain, spec, blockers, backend, keep)
    while True:
        try:
            fraction = next(steps)
        except StopIteration as done:
            return done.value
        if cancel is not None and cancel(fraction):
            steps.close()
            raise Cancelled


def layer_functions(terrain: TerrainLookup, spec: LayerSpec) -> tuple[ArrayFunction | None, ArrayFunction]:
    """The layer's ``radius_at(xy)`` (None for a constant radius) and ``is_allowed(xy)`` in world xy.

    These are the functions the sampler uses, for callers that add points by hand (the paint brush).
    """
    origin = np.zeros(2)
    return _radius_function(spec, origin), _allowed_function(terrain, spec, origin)


def place(terrain: TerrainLookup, spec: LayerSpec, samples: Samples) -> LayerPoints:
    """Height, normal, prefab, rotation and scale of ``samples`` (world xy) exactly as the layer places them."""
    return _place(terrain, spec, samples)


PLACEMENT_BLOCK = 65_536

_POINT_ARRAYS = ("positions", "radii", "normals", "prefab_index", "rotations", "scales")


def _place(terrain: TerrainLookup, spec: LayerSpec, samples: Samples) -> LayerPoints:
    """Height, normal, prefab, rotation and scale of every point, in blocks so memory stays bounded."""
    xy = np.asarray(samples.positions, dtype=np.float64)
    count = len(xy)
    positions = np.empty((count, 3))
    normals = np.empty((count, 3))
    prefab = np.empty(count, dtype=np.int64)
    rotations = np.empty((count, 3))
    scales = np.empty(count)
    weights = np.asarray(spec.prefab_weights, dtype=np.float64)
    for start in range(0, count, PLACEMENT_BLOCK):
        block = slice(start, min(start + PLACEMENT_BLOCK, count))
        part = xy[block]
        # Every sampled point passed the allowed test, which includes terrain coverage.
        hit = terrain.sample(part)
        positions[block, :2] = part
        positions[block, 2] = hit.z
        normals[block] = hit.normal
        prefab[block] = hash_choice(part, spec.seed, weights)
        yaw = hash_yaw(part, spec.seed) if spec.random_yaw else np.zeros(len(part))
        tilt, heading = variety.tilts(part, spec.seed, spec.tilt) if spec.tilt > 0 else (None, None)
        rotations[block] = instance_rotations(hit.normal, yaw, spec.align, tilt, heading)
        scales[block] = hash_scale(part, spec.seed, *spec.scale_range)
        if spec.scale_by_density > 0 or spec.scale_by_slope > 0:
            density = np.ones(len(part)) if spec.density is None else np.asarray(spec.density(part), dtype=float)
            scales[block] *= variety.scale_factors(density, hit.normal[:, 2], spec.scale_by_density,
                                                   spec.scale_by_slope)
    return LayerPoints(positions=positions, radii=np.asarray(samples.radii, dtype=np.float64), normals=normals,
                       prefab_index=prefab, rotations=rotations, scales=scales)
