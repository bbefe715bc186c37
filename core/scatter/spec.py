"""A scatter layer's settings: :class:`LayerSpec`, validated once when made, and the distances it keeps.

>>> LayerSpec(min_radius=2.0).max_radius
2.0
>>> LayerSpec(min_radius=-1.0)
Traceback (most recent call last):
...
ValueError: min_radius must be > 0, got -1.0: set a positive spacing
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import inputs, variety

ArrayFunction = Callable[[np.ndarray], np.ndarray]

AUTO_CHUNK_RADII = 64
"""An automatic chunk is this many times the layer's reach (:func:`reach`: the larger of Max Radius and Keep Away)
wide: a few thousand instances, so an edit samples little again, and no measurable cost over one chunk for a full
Scatter (BENCHMARKS.md, *Live update after a terrain edit*)."""
AUTO_CHUNKS_ACROSS = 32
"""... and at least 1/32 of the terrain's longer side: no more than 32 × 32 automatic chunks on any terrain."""
MAX_SLOPE = math.pi / 2
"""The steepest Max Slope a layer takes (radians): a vertical wall."""
MAX_SCALE = 1e6
"""The largest instance scale a layer takes (a million times the prefab): a typed "inf" (3.4e38) would overflow the
instance matrices."""


@dataclass(frozen=True)
class LayerSpec:
    """Settings of one layer, in world units and radians, validated when made (``ValueError`` names the field).

    ``density(xy) -> [0, 1]`` maps to the radius ``lerp(max_radius, min_radius, density)``; ``mask(xy) -> bool``
    is any extra allowed-mask (vertex group, exclusions) on top of terrain coverage, ``max_slope`` and
    ``height_range``. ``region`` limits the sampled XY area (a camera's clip distance: nothing beyond it is
    walked). A point of this layer keeps at least ``max(its radius, keep_away)`` from every blocker.

    ``footprints`` spaces the layer by its objects' size: each prefab's footprint radius at scale 1 (in the order
    of ``prefab_weights``). An instance then reaches its footprint times its scale, and the radius from
    ``min_radius``/``max_radius`` (and density) is the gap two footprints keep; no two footprints come closer
    than that gap, and a footprint's edge keeps ``max(min_radius, keep_away)`` from a blocker's point
    (:func:`spacing_radii`, :func:`blocker_radii`). ``None``: every instance is spaced by the radius alone.
    """

    min_radius: float
    max_radius: float = None  # type: ignore[assignment]  # None: min_radius (set when made, one value from then on)
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
    chunk_size: float | None = None  # None: automatic (chunk_side)
    method: str = "maximal"
    max_points: int = 20_000_000
    footprints: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.max_radius is None:
            object.__setattr__(self, "max_radius", self.min_radius)
        _validate(self)


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
    for name in ("min_radius", "keep_away", "max_slope", "align", "tile_keep"):
        _number(name, getattr(spec, name))
    if spec.chunk_size is not None:
        _number("chunk_size", spec.chunk_size)
    inputs.seed(spec.seed)
    for name in ("start_points", "max_points"):
        _number(name, getattr(spec, name), integer=True)
    _number("max_radius", spec.max_radius)
    if spec.tile_size is not None:
        _number("tile_size", spec.tile_size)
    for name in ("density", "mask"):
        if getattr(spec, name) is not None and not callable(getattr(spec, name)):
            raise ValueError(f"{name} must be a function of an (M, 2) array of xy, or None")
    if spec.min_radius <= 0:
        raise ValueError(f"min_radius must be > 0, got {spec.min_radius}: set a positive spacing")
    if spec.max_radius < spec.min_radius:
        raise ValueError(f"max_radius ({spec.max_radius}) is smaller than min_radius ({spec.min_radius}): "
                         "raise max_radius or lower min_radius")
    if spec.keep_away < 0:
        raise ValueError(f"keep_away must be ≥ 0, got {spec.keep_away}")
    if spec.start_points < 1 or spec.max_points < 1:
        raise ValueError(f"start_points and max_points must be ≥ 1, got {spec.start_points} and {spec.max_points}")
    if not 0 <= spec.max_slope <= MAX_SLOPE:
        raise ValueError(f"max_slope must be between 0 and π/2 radians, got {spec.max_slope}")
    if not 0 <= spec.align <= 1 or not 0 <= spec.tile_keep <= 1:
        raise ValueError(f"align and tile_keep must be between 0 and 1, got {spec.align} and {spec.tile_keep}")
    variety.validate(spec.tilt, spec.scale_by_density, spec.scale_by_slope)
    low, high = _pair("scale_range", spec.scale_range)
    if not 0 < low <= high:
        raise ValueError(f"scale_range must satisfy 0 < min ≤ max, got {spec.scale_range}")
    inputs.bounded(high, "scale_range", 0.0, MAX_SCALE)
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
    if spec.footprints is not None:
        _validate_footprints(spec, weights)
    if spec.chunk_size is not None and spec.chunk_size <= 0:
        raise ValueError(f"chunk_size must be > 0 (or None: automatic), got {spec.chunk_size}")
    if spec.region is not None:
        try:
            (rx0, ry0), (rx1, ry1) = (float(v) for v in spec.region[0]), (float(v) for v in spec.region[1])
        except (TypeError, ValueError):
            raise ValueError(f"region must be ((x0, y0), (x1, y1)), got {spec.region!r}") from None
        if not (all(map(math.isfinite, (rx0, ry0, rx1, ry1))) and rx0 < rx1 and ry0 < ry1):
            raise ValueError(f"region must be finite with x0 < x1 and y0 < y1, got {spec.region!r}")
    for name in ("min_radius", "max_radius", "keep_away", "chunk_size", "tile_size"):
        if getattr(spec, name) is not None:
            inputs.bounded(float(getattr(spec, name)), name, 0.0, inputs.MAX_DISTANCE)
    if spec.height_range is not None:
        for end in spec.height_range:
            inputs.bounded(float(end), "height_range", -inputs.MAX_DISTANCE, inputs.MAX_DISTANCE)
    if spec.tile_size is not None and spec.tile_size < 2 * spec.max_radius:
        raise ValueError(f"tile_size ({spec.tile_size}) must be at least twice max_radius ({spec.max_radius}); "
                         "ten radii or more hides the repetition better")


def _validate_footprints(spec: LayerSpec, weights: np.ndarray) -> None:
    try:
        footprints = np.asarray(spec.footprints, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"footprints must be numbers, got {spec.footprints!r}") from error
    if footprints.shape != weights.shape:
        raise ValueError(f"footprints must give one radius per prefab ({len(weights)}), got {spec.footprints!r}")
    if not np.isfinite(footprints).all() or (footprints < 0).any() or (footprints > inputs.MAX_DISTANCE).any():
        raise ValueError(f"footprints must be from 0 to {inputs.MAX_DISTANCE:g}, got {spec.footprints!r}")
    if spec.tile_size is not None:
        raise ValueError("a repeated tile spaces its instances by the radius: clear tile_size or footprints")


def spacing_radii(spec: LayerSpec) -> tuple[float, float]:
    """The least and the largest radius the layer's sampler gives a point: ``min_radius``/``max_radius``, or with
    ``footprints`` a footprint times a scale plus half the gap (two such radii add up to the distance kept)."""
    if spec.footprints is None:
        return float(spec.min_radius), float(spec.max_radius)
    weights = np.asarray(spec.prefab_weights, dtype=np.float64)
    used = np.asarray(spec.footprints, dtype=np.float64)[weights > 0]
    low, high = (float(v) for v in spec.scale_range)
    shrink = variety.least_factor(spec.scale_by_density, spec.scale_by_slope)
    return (float(np.min(used)) * low * shrink + spec.min_radius * 0.5,
            float(np.max(used)) * high + spec.max_radius * 0.5)


def conflict_rule(spec: LayerSpec) -> str:
    """The sampler's conflict rule (``PoissonSettings.conflict``): radii add up when the layer is spaced by its
    objects' size, else the larger one counts."""
    return "larger" if spec.footprints is None else "sum"


def reach(spec: LayerSpec) -> float:
    """The farthest two of the layer's points can interact (a conflict, or keep-away from an earlier layer)."""
    if spec.footprints is None:
        return max(spec.max_radius, spec.keep_away)
    high = spacing_radii(spec)[1]
    return max(2.0 * high, spec.keep_away + high)


def blocker_radii(spec: LayerSpec, count: int, keep: np.ndarray | None) -> np.ndarray:
    """The radius each blocker gets in the layer's sampler: the distance kept, ``max(min_radius, keep_away,
    keep[i])``; with ``footprints`` (radii that add up) less the half gap a point's own radius already holds, so a
    footprint's edge keeps that distance from the blocker."""
    radii = np.full(count, max(spec.keep_away, spec.min_radius))
    if keep is None:
        return radii - spec.min_radius * 0.5 if spec.footprints is not None else radii
    keep = np.asarray(keep, dtype=np.float64)
    if keep.shape != (count,) or not np.isfinite(keep).all() or (keep < 0).any() or (keep > inputs.MAX_DISTANCE).any():
        raise ValueError(f"keep must hold one distance from 0 to {inputs.MAX_DISTANCE:g} per blocker ({count}), got "
                         f"shape {keep.shape}, largest {float(keep.max()) if keep.size else 0.0:g}")
    radii = np.maximum(radii, keep)
    return radii - spec.min_radius * 0.5 if spec.footprints is not None else radii


def chunk_side(spec: LayerSpec, width: float, depth: float) -> float:
    """The side of the layer's chunks on a terrain ``width`` × ``depth`` seen from above: ``chunk_size``, or when
    that is None, :data:`AUTO_CHUNK_RADII` times the reach, at least 1/:data:`AUTO_CHUNKS_ACROSS` of the longer
    side. From the layer's own settings and the terrain's size only, so the chunks stay where they are while the
    terrain is edited or a camera's region moves."""
    if spec.chunk_size is not None:
        return float(spec.chunk_size)
    return max(AUTO_CHUNK_RADII * reach(spec), max(width, depth) / AUTO_CHUNKS_ACROSS)
