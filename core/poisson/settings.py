"""What to sample (:class:`PoissonSettings`), what comes back (:class:`Samples`), and their validation."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, cast

import numpy as np

from .. import inputs
from ..inputs import MAX_DISTANCE, near_origin

METHODS = ("maximal", "bridson")
CONFLICTS = ("larger", "sum")
"""When two points conflict: closer than the larger of their radii (a radius is a spacing), or closer than the sum
(a radius is the point's own extent: a footprint plus half the gap two neighbours keep)."""

RadiusFn = Callable[[np.ndarray], np.ndarray]
MaskFn = Callable[[np.ndarray], np.ndarray]


class Samples(NamedTuple):
    """Sampled points: ``positions`` (N, 2) float64 and ``radii`` (N,) float64."""

    positions: np.ndarray
    radii: np.ndarray


@dataclass(frozen=True)
class PoissonSettings:
    """What to sample.

    Parameters
    ----------
    size
        ``(w, h)`` of the rectangle ``[0, w) x [0, h)``.
    min_radius, max_radius
        Radii are clamped to ``[min_radius, max_radius]``; ``max_radius=None`` means ``min_radius``.
    radius_at
        Array function ``xy (M, 2) -> (M,)`` radius at each place; ``None`` means ``min_radius``.
    is_allowed
        Array function ``xy (M, 2) -> (M,) bool``; ``None`` allows everything.
    seed
        Seed of the ``numpy.random.Generator`` behind every random choice.
    start_points
        Bridson: how many random start points to try to place (reaches islands cut off by a mask).
    tileable
        Wrap distances around (a torus): the set tiles seamlessly.
    attempts
        Bridson: candidates tried around an active point before it retires.
    method
        ``"maximal"`` (default) or ``"bridson"``.
    max_points
        Budget: refuse jobs whose estimated point count ``w*h / min_radius**2`` exceeds it.
    conflict
        ``"larger"`` (default): two points conflict when closer than the larger of their radii; ``"sum"``: when
        closer than the sum (objects of different sizes, each radius the object's own reach, pack side by side).
    least_radius_at
        With ``conflict="sum"``: array function ``xy (M, 2) -> (M,)``, a smooth lower bound of ``radius_at`` (its
        value without the randomness drawn per place, e.g. the smallest object plus the local gap). A refinement
        box dies when a placed point holds it for the bound at its corners and centre, not only for
        ``min_radius``; ``None``: ``min_radius`` everywhere.
    anchor
        Where the rectangle lies on the world's grid of cells of side ``min_radius / sqrt(2)`` (``(ix, iy)`` of
        its first cell; the rectangle is then a whole number of such cells). The maximal sampler's darts hash
        world cells, so two calls agree on what they share; ``None``: the rectangle's own grid from ``(0, 0)``.

    Examples
    --------
    >>> PoissonSettings(size=(10.0, 10.0), min_radius=0.5).max_radius
    0.5
    """

    size: tuple[float, float]
    min_radius: float
    max_radius: float | None = None
    radius_at: RadiusFn | None = None
    is_allowed: MaskFn | None = None
    seed: int = 0
    start_points: int = 1
    tileable: bool = False
    attempts: int = 30
    method: str = "maximal"
    max_points: int = 20_000_000
    anchor: tuple[int, int] | None = None
    conflict: str = "larger"
    least_radius_at: RadiusFn | None = None

    def __post_init__(self) -> None:
        if self.max_radius is None:  # one value from here on: the field itself
            object.__setattr__(self, "max_radius", self.min_radius)


def varies(settings: PoissonSettings) -> bool:
    """Whether point radii vary (a ``radius_at`` and a range to vary in): only then does ``max_radius`` size
    the neighbour window; otherwise every point has ``min_radius``."""
    return settings.radius_at is not None and float(cast(float, settings.max_radius)) > float(settings.min_radius)


def distances(settings: PoissonSettings) -> tuple[float, float]:
    """``(closest, farthest)``: the least distance two points keep, and the farthest two points can conflict."""
    low = float(settings.min_radius)
    high = float(cast(float, settings.max_radius)) if varies(settings) else low
    return conflict_distances(low, high, settings.conflict)


def conflict_distances(low: float, high: float, conflict: str) -> tuple[float, float]:
    """``(closest, farthest)`` for radii from ``low`` to ``high`` under a :data:`CONFLICTS` rule."""
    return (2.0 * low, 2.0 * high) if conflict == "sum" else (low, high)


def check_conflict(conflict: object) -> None:
    """``ValueError`` unless ``conflict`` is one of :data:`CONFLICTS`."""
    if conflict not in CONFLICTS:
        raise ValueError(f"conflict must be one of {CONFLICTS}, got {conflict!r}")


def _finite_positive(name: str, value: object, fix: str) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}; {fix}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number}; {fix}")
    if number <= 0:
        raise ValueError(f"{name} must be > 0, got {number}; {fix}")
    return number


def validate(settings: PoissonSettings) -> None:
    """Raise ``ValueError`` naming the field and the fix when ``settings`` cannot be sampled."""
    try:
        w, h = settings.size
    except (TypeError, ValueError):
        raise ValueError(f"size must be a pair (w, h), got {settings.size!r}") from None
    w = _finite_positive("size[0] (width)", w, "give the rectangle a positive finite width")
    h = _finite_positive("size[1] (height)", h, "give the rectangle a positive finite height")
    min_radius = _finite_positive("min_radius", settings.min_radius, "use a positive finite distance")
    max_radius = _finite_positive("max_radius", settings.max_radius, "use a positive finite distance or None")
    if max_radius < min_radius:
        raise ValueError(
            f"max_radius ({max_radius}) is smaller than min_radius ({min_radius}); raise max_radius or leave it None"
        )
    if settings.method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {settings.method!r}")
    check_conflict(settings.conflict)
    for name in ("attempts", "start_points", "max_points"):
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    inputs.seed(settings.seed)
    for name in ("radius_at", "is_allowed", "least_radius_at"):
        fn = getattr(settings, name)
        if fn is not None and not callable(fn):
            raise ValueError(f"{name} must be an array function xy (M, 2) -> (M,) or None, got {fn!r}")
    if settings.anchor is not None:
        try:
            ax, ay = (int(v) for v in settings.anchor)
        except (TypeError, ValueError):
            raise ValueError(f"anchor must be a pair of integers (ix, iy), got {settings.anchor!r}") from None
        if (ax, ay) != tuple(settings.anchor) or settings.tileable:
            raise ValueError(f"anchor must be a pair of integers (ix, iy) of a non-tileable rectangle, got "
                             f"{settings.anchor!r}")
    farthest = distances(settings)[1]
    if settings.tileable and min(w, h) < 2.0 * farthest:
        raise ValueError(
            f"tileable needs size >= twice the farthest conflict distance on both sides (size {w:g} x {h:g}, "
            f"farthest {farthest:g}); enlarge the tile or lower the radii"
        )


def validate_blockers(blockers: Samples | None, dims: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Blockers as float64 ``(B, dims)`` positions and ``(B,)`` radii, or ``ValueError`` naming the problem."""
    if blockers is None:
        return np.zeros((0, dims)), np.zeros(0)
    try:
        positions = np.asarray(blockers.positions, dtype=np.float64)
        radii = np.asarray(blockers.radii, dtype=np.float64)
    except (AttributeError, TypeError, ValueError):
        raise ValueError(f"blockers must be Samples(positions=(B, {dims}) floats, radii=(B,) floats)") from None
    if positions.size == 0 and radii.size == 0:
        return np.zeros((0, dims)), np.zeros(0)
    if positions.ndim != 2 or positions.shape[1] != dims:
        raise ValueError(f"blockers.positions must have shape (B, {dims}), got {positions.shape}")
    if radii.shape != (positions.shape[0],):
        raise ValueError(
            f"blockers.radii must have shape ({positions.shape[0]},) to match positions, got {radii.shape}"
        )
    if not np.isfinite(positions).all():
        raise ValueError("blockers.positions contain NaN or inf; drop or fix those blockers")
    if not np.isfinite(radii).all() or (radii <= 0).any() or (radii > MAX_DISTANCE).any():
        raise ValueError(f"blockers.radii must be > 0 and at most {MAX_DISTANCE:g}; drop or fix those blockers")
    near_origin(positions, "blockers.positions")
    return positions, radii
