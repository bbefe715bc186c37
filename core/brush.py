"""Painting, erasing and re-sampling instances by hand: fill a region with new points that respect everything there.

:func:`paint` fills a disk as the layer's sampler would (maximal, no two points closer than the larger of
their radii, and none closer than that to an existing point), so a painted patch is indistinguishable from a
scattered one and never overlaps its neighbours. :func:`erase` says which points a stroke removes.
:func:`fill` does the same for any :data:`Region` (a :class:`Circle` or an axis-aligned :class:`Box`): Rescatter
Region removes the points a region :meth:`~Box.contains` and fills it again with another seed, with the
:func:`rim_band` the removed points held outside the rim, so the set stays maximal across it.

Examples
--------
>>> import numpy as np
>>> from strew.core.poisson import Samples
>>> existing = Samples(positions=np.array([[0.0, 0.0]]), radii=np.array([1.0]))
>>> new = paint(existing, centre=(0.0, 0.0), brush_radius=3.0, min_radius=1.0, seed=1)
>>> bool((np.linalg.norm(new.positions, axis=1) >= 1.0).all())  # keeps clear of the existing point
True
>>> box = Box((0.0, 0.0), (4.0, 2.0))
>>> inside = fill(None, box, min_radius=0.5, seed=3).positions
>>> bool(box.contains(inside).all())
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .poisson import PoissonSettings, Samples, sample, validate_blockers

ArrayFunction = Callable[[np.ndarray], np.ndarray]


def _centre(centre: tuple[float, float], brush_radius: float) -> np.ndarray:
    c = np.asarray(centre, dtype=np.float64)
    if c.shape != (2,) or not np.isfinite(c).all():
        raise ValueError(f"centre must be a finite (x, y) pair, got {centre!r}")
    if not (math.isfinite(brush_radius) and brush_radius > 0):
        raise ValueError(f"brush_radius must be a finite distance > 0, got {brush_radius}")
    return c


def _xy(positions: np.ndarray) -> np.ndarray:
    xy = np.asarray(positions, dtype=np.float64)
    if xy.ndim != 2 or xy.shape[1] not in (2, 3):
        raise ValueError(f"positions must have shape (N, 2) or (N, 3), got {xy.shape}")
    return xy[:, :2]


@dataclass(frozen=True, init=False)
class Circle:
    """The disk around ``centre`` (world x, y) of ``radius``, its rim included."""

    centre: np.ndarray
    radius: float

    def __init__(self, centre: tuple[float, float], radius: float) -> None:
        object.__setattr__(self, "centre", _centre(centre, float(radius)))
        object.__setattr__(self, "radius", float(radius))

    @property
    def low(self) -> np.ndarray:
        return self.centre - self.radius

    @property
    def high(self) -> np.ndarray:
        return self.centre + self.radius

    @property
    def size(self) -> tuple[float, float]:
        return 2.0 * self.radius, 2.0 * self.radius

    def contains(self, positions: np.ndarray) -> np.ndarray:
        """``(N,) bool``: the points of ``positions`` (N, 2 or 3; x, y used) inside the disk."""
        return ((_xy(positions) - self.centre) ** 2).sum(axis=1) <= self.radius * self.radius

    def distance(self, positions: np.ndarray) -> np.ndarray:
        """``(N,)``: how far each point of ``positions`` lies outside the disk (0 inside)."""
        return np.maximum(np.sqrt(((_xy(positions) - self.centre) ** 2).sum(axis=1)) - self.radius, 0.0)


@dataclass(frozen=True, init=False)
class Box:
    """The axis-aligned box between two corners in world x, y (either order), its edges included."""

    low: np.ndarray
    high: np.ndarray

    def __init__(self, corner: tuple[float, float], other: tuple[float, float]) -> None:
        a, b = np.asarray(corner, dtype=np.float64), np.asarray(other, dtype=np.float64)
        if a.shape != (2,) or b.shape != (2,) or not (np.isfinite(a).all() and np.isfinite(b).all()):
            raise ValueError(f"the box's corners must be finite (x, y) pairs, got {corner!r} and {other!r}")
        if (a == b).any():
            raise ValueError(f"the box from {tuple(a)} to {tuple(b)} has no area: give it a width and a depth")
        object.__setattr__(self, "low", np.minimum(a, b))
        object.__setattr__(self, "high", np.maximum(a, b))

    @property
    def size(self) -> tuple[float, float]:
        width, depth = self.high - self.low
        return float(width), float(depth)

    def contains(self, positions: np.ndarray) -> np.ndarray:
        """``(N,) bool``: the points of ``positions`` (N, 2 or 3; x, y used) inside the box."""
        xy = _xy(positions)
        return (xy >= self.low).all(axis=1) & (xy <= self.high).all(axis=1)

    def distance(self, positions: np.ndarray) -> np.ndarray:
        """``(N,)``: how far each point of ``positions`` lies outside the box (0 inside)."""
        xy = _xy(positions)
        return np.sqrt((np.maximum(np.maximum(self.low - xy, xy - self.high), 0.0) ** 2).sum(axis=1))


Region = Circle | Box


Bounds = tuple[np.ndarray, np.ndarray]


def clipped(region: Region, within: Bounds | None, band: float = 0.0) -> Bounds | None:
    """The region's x, y bounds (grown by ``band`` on every side) cut to ``within`` (low, high corners), or None
    when they do not meet."""
    low, high = region.low - band, region.high + band
    if within is None:
        return low, high
    low, high = np.maximum(low, within[0]), np.minimum(high, within[1])
    return None if (high < low).any() else (low, high)


def rim_band(max_radius: float, removed: np.ndarray, conflict: str = "larger") -> float:
    """How far outside a region the points removed from it held the layer's spacing: where a place may have no
    point within reach once they are gone, so a refill must cover it too (:func:`fill`'s ``band``).

    A removed point of radius ``r`` held off a new one of radius ``r'`` closer than ``max(r, r')`` (``r + r'``
    when radii add up); new radii are at most ``max_radius``. The band does not shrink below the layer's own
    reach, so sampling the same region again sees the same rectangle whatever was removed.

    >>> rim_band(1.0, np.array([0.6, 1.4])), rim_band(1.0, np.array([0.6]), "sum")
    (1.4, 2.0)
    """
    largest = max(float(max_radius), float(np.max(removed, initial=0.0)))
    return float(max_radius) + largest if conflict == "sum" else largest


def probes(region: Region, across: int = 33, within: Bounds | None = None) -> np.ndarray:
    """``(M, 2)``: a grid of ``across`` × ``across`` places over the region's bounds (cut to ``within``), those
    inside it (to ask whether any ground lies under a region)."""
    bounds = clipped(region, within)
    if bounds is None:
        return np.zeros((0, 2))
    low, high = bounds
    t = np.linspace(0.0, 1.0, across)
    gx, gy = np.meshgrid(low[0] + t * (high[0] - low[0]), low[1] + t * (high[1] - low[1]), indexing="ij")
    xy = np.column_stack([gx.ravel(), gy.ravel()])
    return xy[region.contains(xy)]


def _domain(region: Region, within: Bounds | None, min_radius: float, band: float) -> Bounds | None:
    """The rectangle sampled for ``region`` and its ``band``: their bounds cut to ``within``, each side at least
    one background cell (a region narrower than a cell holds one point at most and needs no finer grid)."""
    bounds = clipped(region, within, band)
    if bounds is None:
        return None
    low, high = bounds
    grow = np.maximum(min_radius / math.sqrt(2.0) - (high - low), 0.0) / 2.0
    return low - grow, high + grow


def fill(existing: Samples | None, region: Region, min_radius: float, max_radius: float | None = None,
         radius_at: ArrayFunction | None = None, is_allowed: ArrayFunction | None = None, seed: int = 0,
         conflict: str = "larger", within: Bounds | None = None, band: float = 0.0) -> Samples:
    """New points inside ``region`` (and inside ``within``, the x, y bounds of the ground when given: a region
    much larger than the terrain costs what the terrain does), maximal against themselves and ``existing``.

    ``band`` > 0 also fills the places outside the region within that distance of it wherever one more point
    fits there (:func:`rim_band`: where points removed from the region held the spacing), so the whole set stays
    maximal across the rim; a place already held by ``existing`` gets nothing.

    ``radius_at`` and ``is_allowed`` take world ``xy`` like the layer's own functions; only existing points
    within reach of the region take part, so a region costs the same in a small scene and a huge one. ``conflict``
    as in :class:`~strew.core.poisson.PoissonSettings` (``"sum"``: radii are the objects' own reach).
    """
    positions, radii = validate_blockers(existing)
    band = float(band)
    if not (math.isfinite(band) and band >= 0.0):
        raise ValueError(f"band must be a finite distance >= 0, got {band}")
    domain = _domain(region, within, float(min_radius), band)
    if domain is None:
        return Samples(positions=np.zeros((0, 2)), radii=np.zeros(0))
    largest, own = float(radii.max(initial=0.0)), float(max_radius or min_radius)
    reach = largest + own if conflict == "sum" else max(largest, own)
    origin, size = domain[0], domain[1] - domain[0]
    near = ((positions >= domain[0] - reach) & (positions <= domain[1] + reach)).all(axis=1)
    blockers = Samples(positions=positions[near] - origin, radii=radii[near]) if near.any() else None

    def allowed(xy: np.ndarray) -> np.ndarray:
        world = xy + origin
        inside = region.contains(world) if band == 0.0 else region.distance(world) <= band
        if is_allowed is None:
            return inside
        return inside & np.asarray(is_allowed(world), dtype=bool)

    shifted = None if radius_at is None else (lambda xy: radius_at(xy + origin))
    settings = PoissonSettings(size=(float(size[0]), float(size[1])), min_radius=min_radius, max_radius=max_radius,
                               radius_at=shifted, is_allowed=allowed, seed=seed, conflict=conflict)
    new = sample(settings, blockers)
    return Samples(positions=new.positions + origin, radii=new.radii)


def paint(existing: Samples | None, centre: tuple[float, float], brush_radius: float, min_radius: float,
          max_radius: float | None = None, radius_at: ArrayFunction | None = None,
          is_allowed: ArrayFunction | None = None, seed: int = 0, conflict: str = "larger") -> Samples:
    """New points inside the disk (``centre``, ``brush_radius``), maximal against themselves and ``existing``
    (:func:`fill` of a :class:`Circle`)."""
    return fill(existing, Circle(centre, brush_radius), min_radius, max_radius, radius_at, is_allowed, seed,
                conflict)


def erase(positions: np.ndarray, centre: tuple[float, float], brush_radius: float) -> np.ndarray:
    """``(N,) bool``: the points of ``positions`` (N, 2 or 3; x, y used) that a stroke at ``centre`` removes."""
    return Circle(centre, brush_radius).contains(positions)


__all__ = ["Box", "Circle", "Region", "clipped", "erase", "fill", "paint", "probes", "rim_band"]
