"""A curve layer: instances along curves, spaced like an area layer or at a fixed step, standing on the surface
under the curve or on the curve itself, turned along it when asked.

Spacing and masks are those of the layer's :class:`~strew.core.scatter.LayerSpec` (radii or objects' size,
density, slope, height, masks, region, blockers with pair rules), measured from above when the instances stand on
the surface and in 3-D when they stand on the curve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import fpmath, variety
from ..hashing import Stream, hash_uniform, hash_yaw
from ..modes import AlongMode, AlongPlace
from ..orient import euler_from_matrices, instance_rotations
from ..poisson import Samples
from ..scatter import LayerPoints, LayerSpec, blocker_radii, place
from ..scatter.functions import allowed_function, radius_function
from ..scatter.points import instance_sizes
from ..scatter.spec import AUTO_CHUNK_RADII, conflict_rule, reach, spacing_radii
from ..terrain import TerrainLookup
from .along import AlongPoints, Spacing, fixed_step, maximal_along
from .path import CurvePath


@dataclass(frozen=True)
class AlongSpec:
    """How a layer follows its curves: ``mode`` (spaced or a fixed ``step`` with ``jitter``, a share of the step),
    where its instances stand (``place``), turned along the curve (``follow``), ``offset`` metres to the left of
    the curve (``both_sides``: and as far to the right)."""

    path: CurvePath
    mode: AlongMode = AlongMode.SPACED
    place: AlongPlace = AlongPlace.SURFACE
    step: float = 1.0
    jitter: float = 0.0
    follow: bool = True
    offset: float = 0.0
    both_sides: bool = False

    def __post_init__(self) -> None:
        if self.mode not in (AlongMode.SPACED, AlongMode.STEP):
            raise ValueError(f"a curve layer spaces its instances or steps them, got mode {self.mode!r}")
        if self.mode == AlongMode.STEP and not (np.isfinite(self.step) and self.step > 0):
            raise ValueError(f"along_step must be above 0, got {self.step!r}")
        if not 0 <= self.jitter <= 1:
            raise ValueError(f"along_jitter must be from 0 to 1, got {self.jitter!r}")
        if not np.isfinite(self.offset):
            raise ValueError(f"along_offset must be a number, got {self.offset!r}")

    def lines(self) -> CurvePath:
        """The lines the instances follow: the curves moved by the offset (to both sides when asked)."""
        if self.offset == 0:
            return self.path
        sides = [self.path.shifted(self.offset)] + ([self.path.shifted(-self.offset)] if self.both_sides else [])
        return CurvePath.of([line for side in sides for line in side.lines],
                            [loop for side in sides for loop in side.closed])


def curve_layer(along: AlongSpec, spec: LayerSpec, terrain: TerrainLookup | None,
                blockers: Samples | None = None, keep: np.ndarray | None = None) -> LayerPoints:
    """The layer's instances along ``along``'s curves. ``terrain`` is the surface under them (needed to stand on
    it; on the curve it only masks by slope when there is one). ``blockers`` (earlier layers' points, x, y[, z])
    each keep the layer's ``keep_away`` or their pair rule's distance (``keep``), as in an area layer."""
    on_curve = along.place == AlongPlace.CURVE
    if not on_curve and terrain is None:
        raise ValueError("instances that stand on the surface need a terrain or targets under the curve")
    path = along.lines()
    space = path if on_curve else path.flat()
    found = _sampled(along, space, spec, terrain, blockers, keep, on_curve)
    tangent = space.direction[found.segment]
    if on_curve:
        return _on_curve(spec, found, tangent, along.follow)
    assert terrain is not None
    points = place(terrain, spec, Samples(found.positions[:, :2], found.radii))
    if not along.follow:
        return points
    heading = fpmath.arctan2(tangent[:, 1], tangent[:, 0])
    xy = found.positions[:, :2]
    tilt, turn = variety.tilts(xy, spec.seed, spec.tilt) if spec.tilt > 0 else (None, None)
    rotations = instance_rotations(points.normals, heading, spec.align, tilt, turn)
    return LayerPoints(points.positions, points.radii, points.normals, points.prefab_index, rotations, points.scales,
                       points.randoms)


def _spacing(spec: LayerSpec, terrain: TerrainLookup | None, on_curve: bool) -> Spacing:
    """The layer's radii and mask as functions of world points (read at their xy)."""
    least, largest = spacing_radii(spec)
    origin = np.zeros(2)
    radius = radius_function(spec, origin, terrain)
    radius_at = None if radius is None else (lambda xyz: radius(xyz[:, :2]))
    if on_curve:
        allowed_at = _curve_allowed(spec)
    else:
        assert terrain is not None
        allowed = allowed_function(terrain, spec, origin)

        def allowed_at(xyz: np.ndarray) -> np.ndarray:
            return allowed(xyz[:, :2])
    return Spacing(least, largest, radius_at, allowed_at, conflict_rule(spec) == "sum")


def _curve_allowed(spec: LayerSpec):  # type: ignore[no-untyped-def]
    """On the curve: the layer's region, height range and mask (read at xy); None when nothing limits it."""
    region = None if spec.region is None else np.asarray(spec.region, dtype=np.float64)
    heights, mask = spec.height_range, spec.mask
    if region is None and heights is None and mask is None:
        return None

    def allowed(xyz: np.ndarray) -> np.ndarray:
        ok = np.ones(len(xyz), dtype=bool)
        if region is not None:
            ok &= (xyz[:, :2] >= region[0]).all(axis=1) & (xyz[:, :2] < region[1]).all(axis=1)
        if heights is not None:
            ok &= (xyz[:, 2] >= heights[0]) & (xyz[:, 2] <= heights[1])
        if mask is not None and ok.any():
            ok[ok] &= np.asarray(mask(xyz[ok, :2]), dtype=bool)
        return ok

    return allowed


def _blockers(spec: LayerSpec, blockers: Samples | None, keep: np.ndarray | None, on_curve: bool) -> Samples | None:
    """Earlier layers' points with the distance the layer keeps from each, in the space it is spaced in."""
    if blockers is None or not len(blockers.radii):
        return None
    positions = np.asarray(blockers.positions, dtype=np.float64)
    if positions.shape[1] == 2:
        positions = np.concatenate([positions, np.zeros((len(positions), 1))], axis=1)
    if not on_curve:
        positions = positions * np.array([1.0, 1.0, 0.0])
    return Samples(positions, blocker_radii(spec, len(positions), keep))


def _sampled(along: AlongSpec, space: CurvePath, spec: LayerSpec, terrain: TerrainLookup | None,
             blockers: Samples | None, keep: np.ndarray | None, on_curve: bool) -> AlongPoints:
    spacing = _spacing(spec, terrain, on_curve)
    clear = _blockers(spec, blockers, keep, on_curve)
    if along.mode == AlongMode.SPACED:
        return maximal_along(space.start, space.end, space.line, spacing, clear, spec.seed, chunk_of(spec))
    line, distance = fixed_step(space.line_lengths(), space.closed, along.step, along.jitter, spec.seed)
    segment, into = _located(space, line, distance)
    xyz = space.at(segment, into)
    radii = np.full(len(xyz), spacing.least)
    ok = np.ones(len(xyz), dtype=bool) if spacing.allowed is None else np.asarray(spacing.allowed(xyz), dtype=bool)
    if clear is not None and ok.any():
        ok[ok] &= ~_blocked(xyz[ok], radii[ok], clear, spacing)
    return AlongPoints(segment[ok], into[ok], xyz[ok], radii[ok])


def chunk_of(spec: LayerSpec) -> float:
    """The side of a curve layer's chunks: the layer's Chunk Size or :data:`AUTO_CHUNK_RADII` times its reach,
    never below twice the reach (chunks of one phase must not interact)."""
    far = reach(spec)
    return max(float(spec.chunk_size or AUTO_CHUNK_RADII * far), 2.0 * far)


def _blocked(xyz: np.ndarray, radii: np.ndarray, clear: Samples, spacing: Spacing) -> np.ndarray:
    """Which posts an earlier layer's point forbids."""
    from ..surface._hash import ReachHash

    table = ReachHash(clear.positions, clear.radii, spacing.largest, spacing.summed)
    query, ball = table.near(xyz)
    gap = xyz[query] - clear.positions[ball]
    gap2 = gap[:, 0] * gap[:, 0] + gap[:, 1] * gap[:, 1] + gap[:, 2] * gap[:, 2]
    reach = spacing.reach(radii[query], clear.radii[ball])
    hit = np.zeros(len(xyz), dtype=bool)
    hit[query[gap2 < reach * reach]] = True
    return hit


def _located(space: CurvePath, line: np.ndarray, distance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(segment, metres into it) of places ``distance`` metres along lines ``line``."""
    ends = np.cumsum(space.length)
    first = np.searchsorted(space.line, np.arange(len(space.lines)), side="left")
    line_start = np.where(first > 0, ends[np.maximum(first - 1, 0)], 0.0)
    target = line_start[line] + distance
    segment = np.searchsorted(ends, target, side="left")
    last = np.searchsorted(space.line, line, side="right") - 1
    segment = np.clip(np.maximum(segment, first[line]), 0, last)
    into = np.clip(target - (ends[segment] - space.length[segment]), 0.0, space.length[segment])
    return segment, into


def _on_curve(spec: LayerSpec, found: AlongPoints, tangent: np.ndarray, follow: bool) -> LayerPoints:
    """Instances standing on the curve: up stays up; turned along the tangent (its climb too) or by the hashed
    yaw."""
    xyz = found.positions
    xy = xyz[:, :2]
    up = np.tile([0.0, 0.0, 1.0], (len(xyz), 1))
    prefab, scales = instance_sizes(xy, spec, None)
    if follow:
        rotations = _frames(tangent)
    else:
        yaw = hash_yaw(xy, spec.seed) if spec.random_yaw else np.zeros(len(xy))
        tilt, heading = variety.tilts(xy, spec.seed, spec.tilt) if spec.tilt > 0 else (None, None)
        rotations = instance_rotations(up, yaw, 0.0, tilt, heading)
    return LayerPoints(positions=xyz, radii=found.radii, normals=up, prefab_index=prefab, rotations=rotations,
                       scales=scales, randoms=hash_uniform(xy, spec.seed, Stream.RANDOM))


def _frames(tangent: np.ndarray) -> np.ndarray:
    """Euler angles of frames whose +X is the tangent and whose +Z leans least from up (a vertical tangent:
    +Z toward +Y)."""
    x = tangent / fpmath.norm3(tangent)[:, None]
    up = np.where((np.abs(x[:, 2]) > 1.0 - 1e-9)[:, None], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0])
    z = up - x * fpmath.dot3(x, up)[:, None]
    z = z / fpmath.norm3(z)[:, None]
    y = np.stack([z[:, 1] * x[:, 2] - z[:, 2] * x[:, 1], z[:, 2] * x[:, 0] - z[:, 0] * x[:, 2],
                  z[:, 0] * x[:, 1] - z[:, 1] * x[:, 0]], axis=1)
    return euler_from_matrices(np.stack([x, y, z], axis=2))
