"""What a surface sampling call takes: :class:`SurfaceSettings` and the array functions it holds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

RadiusFn = Callable[[np.ndarray], np.ndarray]
SurfaceRadiusFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
SurfaceMaskFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class SurfaceSettings:
    """What to sample.

    Parameters
    ----------
    min_radius, max_radius
        Radii are clamped to ``[min_radius, max_radius]``; ``max_radius=None`` means ``min_radius``.
    radius_at
        Array function ``xyz (M, 3) -> (M,)`` radius at each place; ``None`` means ``min_radius``.
    radius_reads_normals
        ``radius_at`` takes ``(xyz (M, 3), normals (M, 3))``, as ``is_allowed`` does: a radius that follows the
        face it lies on (an object's size scaled by the slope).
    is_allowed
        Array function ``(xyz (M, 3), normals (M, 3)) -> (M,) bool``; ``None`` allows the whole surface.
        :func:`slope_between` builds the usual one (walls, overhangs) from an up direction.
    seed
        Seed of the ``numpy.random.Generator`` behind every random choice.
    max_points
        Budget: refuse surfaces whose estimated point count ``area / min_radius**2`` exceeds it.
    conflict
        ``"larger"`` (default): two points conflict when closer (in 3-D) than the larger of their radii; ``"sum"``:
        when closer than the sum (objects of different sizes, each radius the object's own reach, pack side by
        side). The rules of :data:`strew.core.poisson.settings.CONFLICTS`.

    Examples
    --------
    >>> SurfaceSettings(min_radius=0.5).max_radius
    0.5
    """

    min_radius: float
    max_radius: float | None = None
    radius_at: RadiusFn | SurfaceRadiusFn | None = None
    is_allowed: SurfaceMaskFn | None = None
    seed: int = 0
    max_points: int = 20_000_000
    conflict: str = "larger"
    radius_reads_normals: bool = False

    def __post_init__(self) -> None:
        if self.max_radius is None:  # one value from here on: the field itself
            object.__setattr__(self, "max_radius", self.min_radius)
