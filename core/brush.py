"""Painting and erasing instances by hand: fill a disk with new points that respect everything already there.

:func:`paint` fills the disk as the layer's sampler would (maximal, no two points closer than the larger of
their radii, and none closer than that to an existing point), so a painted patch is indistinguishable from a
scattered one and never overlaps its neighbours. :func:`erase` says which points a stroke removes.

Examples
--------
>>> import numpy as np
>>> from strew.core.poisson import Samples
>>> existing = Samples(positions=np.array([[0.0, 0.0]]), radii=np.array([1.0]))
>>> new = paint(existing, centre=(0.0, 0.0), brush_radius=3.0, min_radius=1.0, seed=1)
>>> bool((np.linalg.norm(new.positions, axis=1) >= 1.0).all())  # keeps clear of the existing point
True
"""

from __future__ import annotations

import math
from collections.abc import Callable

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


def paint(existing: Samples | None, centre: tuple[float, float], brush_radius: float, min_radius: float,
          max_radius: float | None = None, radius_at: ArrayFunction | None = None,
          is_allowed: ArrayFunction | None = None, seed: int = 0) -> Samples:
    """New points inside the disk (``centre``, ``brush_radius``), maximal against themselves and ``existing``.

    ``radius_at`` and ``is_allowed`` take world ``xy`` like the layer's own functions; only existing points
    within reach of the disk take part, so a stroke costs the same in a small scene and a huge one.
    """
    c = _centre(centre, brush_radius)
    positions, radii = validate_blockers(existing)
    reach = max(float(radii.max(initial=0.0)), float(max_radius or min_radius))
    origin = c - brush_radius
    near = (np.abs(positions - c) <= brush_radius + reach).all(axis=1)
    blockers = Samples(positions=positions[near] - origin, radii=radii[near]) if near.any() else None

    def allowed(xy: np.ndarray) -> np.ndarray:
        world = xy + origin
        inside = ((world - c) ** 2).sum(axis=1) <= brush_radius * brush_radius
        if is_allowed is None:
            return inside
        return inside & np.asarray(is_allowed(world), dtype=bool)

    shifted = None if radius_at is None else (lambda xy: radius_at(xy + origin))
    settings = PoissonSettings(size=(2.0 * brush_radius, 2.0 * brush_radius), min_radius=min_radius,
                               max_radius=max_radius, radius_at=shifted, is_allowed=allowed, seed=seed)
    new = sample(settings, blockers)
    return Samples(positions=new.positions + origin, radii=new.radii)


def erase(positions: np.ndarray, centre: tuple[float, float], brush_radius: float) -> np.ndarray:
    """``(N,) bool``: the points of ``positions`` (N, 2 or 3; x, y used) that a stroke at ``centre`` removes."""
    c = _centre(centre, brush_radius)
    xy = np.asarray(positions, dtype=np.float64)
    if xy.ndim != 2 or xy.shape[1] not in (2, 3):
        raise ValueError(f"positions must have shape (N, 2) or (N, 3), got {xy.shape}")
    return ((xy[:, :2] - c) ** 2).sum(axis=1) <= brush_radius * brush_radius


__all__ = ["erase", "paint"]
