"""Maximal Poisson-disk sampling on the surface of triangle meshes, with 3-D spacing.

Two samples *conflict* when they are closer in 3-D than the larger of their two radii (or, with
``conflict="sum"``, than the sum: each radius an object's own reach): across a thin wall, around an edge or
between two meshes alike. :func:`sample_surface` returns a conflict-free set of points on
the triangles (also clear of optional ``blockers``) that is maximal: no place of the surface is left where
one more sample would fit. Each sample carries its face index and that face's unit normal.

Examples
--------
>>> import numpy as np
>>> from strew.core.surface import SurfaceSettings, sample_surface
>>> cube_v = np.array([[x, y, z] for x in (0, 4) for y in (0, 4) for z in (0, 4)], dtype=float)
>>> cube_f = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
...                    [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
>>> s = sample_surface(cube_v, cube_f, SurfaceSettings(min_radius=0.5, seed=1))
>>> bool(len(s.positions) > 100), s.normals.shape[1], bool(np.allclose(np.linalg.norm(s.normals, axis=1), 1))
(True, 3, True)
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from .. import fpmath
from ..poisson.settings import _finite_positive, check_conflict
from ..poisson.settings import validate_blockers as validate_plane_blockers
from ..steps import run_to_end
from ._fill import fill
from ._mesh import face_frames, usable_faces, validate_mesh
from ._state import SurfaceState
from .settings import SurfaceMaskFn, SurfaceSettings


class SurfaceSamples(NamedTuple):
    """Samples on a surface: ``positions`` (N, 3), ``normals`` (N, 3) unit face normals, ``faces`` (N,) int64
    indices into the input triangles, ``radii`` (N,)."""

    positions: np.ndarray
    normals: np.ndarray
    faces: np.ndarray
    radii: np.ndarray


def validate(settings: SurfaceSettings) -> None:
    """Raise ``ValueError`` naming the field and the fix when ``settings`` cannot be sampled."""
    min_radius = _finite_positive("min_radius", settings.min_radius, "use a positive finite distance")
    max_radius = _finite_positive("max_radius", settings.max_radius, "use a positive finite distance or None")
    if max_radius < min_radius:
        raise ValueError(f"max_radius ({max_radius}) is smaller than min_radius ({min_radius}); raise max_radius")
    for name in ("seed", "max_points"):
        value, low = getattr(settings, name), 0 if name == "seed" else 1
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    for name in ("radius_at", "is_allowed"):
        fn = getattr(settings, name)
        if fn is not None and not callable(fn):
            raise ValueError(f"{name} must be an array function or None, got {fn!r}")
    check_conflict(settings.conflict)
    if not isinstance(settings.radius_reads_normals, bool):
        raise ValueError(f"radius_reads_normals must be True or False, got {settings.radius_reads_normals!r}")


def validate_blockers(blockers: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Blockers as float64 ``(B, 3)`` positions and ``(B,)`` radii, or ``ValueError`` naming the problem."""
    return validate_plane_blockers(blockers, dims=3)


def sample_surface_steps(
    vertices: Any, triangles: Any, settings: SurfaceSettings, blockers: Any = None
) -> Generator[float, None, SurfaceSamples]:
    """:func:`sample_surface` as a generator: yields the fraction done between steps, returns the samples."""
    validate(settings)
    v, t = validate_mesh(vertices, triangles)
    blocker_xyz, blocker_r = validate_blockers(blockers)
    corners = v[t]
    areas, normals = face_frames(corners)
    keep = usable_faces(corners, areas)
    if keep.size == 0:
        raise ValueError("every triangle has zero area; give the mesh at least one face with an area")
    area = float(areas[keep].sum())
    estimate = area / settings.min_radius**2
    if estimate > settings.max_points:
        raise ValueError(
            f"about {estimate:,.0f} points (area {area:g} / min_radius {settings.min_radius:g}^2) exceed "
            f"max_points={settings.max_points:,}; raise min_radius or pass max_points={math.ceil(estimate):,}"
        )
    state = SurfaceState(settings, normals, area, blocker_xyz, blocker_r)
    yield from fill(state, corners[keep], keep, area)
    return SurfaceSamples(state.positions, normals[state.faces], state.faces, state.radii)


def sample_surface(vertices: Any, triangles: Any, settings: SurfaceSettings, blockers: Any = None) -> SurfaceSamples:
    """Sample points on the triangles with no two closer (in 3-D) than the larger of their radii (the sum with
    ``settings.conflict == "sum"``).

    Parameters
    ----------
    vertices, triangles
        The surface: float (V, 3) positions and integer (F, 3) vertex indices (several meshes concatenated).
        Zero-area faces are skipped.
    settings
        See :class:`SurfaceSettings`.
    blockers
        Existing points (``positions`` (B, 3), ``radii`` (B,)) that take part in the distance test.

    Returns
    -------
    SurfaceSamples

    Examples
    --------
    >>> square = sample_surface([[0, 0, 0], [5, 0, 0], [5, 5, 0], [0, 5, 0]], [[0, 1, 2], [0, 2, 3]],
    ...                         SurfaceSettings(min_radius=1.0, seed=2))
    >>> bool((np.abs(square.positions[:, 2]) == 0).all()), square.faces.dtype
    (True, dtype('int64'))
    """
    return run_to_end(sample_surface_steps(vertices, triangles, settings, blockers))


def slope_between(up: Any, min_angle: float, max_angle: float) -> SurfaceMaskFn:
    """Mask of faces whose normal makes an angle in ``[min_angle, max_angle]`` (radians) with ``up``.

    ``0 .. pi/2`` is everything facing up; walls are about ``pi/3 .. 2*pi/3``; ``pi/2 .. pi`` is what faces
    down (under overhangs).

    >>> walls = slope_between((0, 0, 1), math.radians(60), math.radians(120))
    >>> walls(np.zeros((2, 3)), np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])).tolist()
    [False, True]
    """
    axis = np.asarray(up, dtype=np.float64)
    length = float(fpmath.norm3(axis)) if axis.shape == (3,) else 0.0
    if not (math.isfinite(length) and length > 0):
        raise ValueError(f"up must be a non-zero (x, y, z) direction, got {up!r}")
    if not 0.0 <= min_angle <= max_angle <= math.pi:
        raise ValueError(f"need 0 <= min_angle <= max_angle <= pi (radians), got {min_angle}, {max_angle}")
    axis = axis / length
    lo, hi = math.cos(max_angle), math.cos(min_angle)

    def allowed(xyz: np.ndarray, normals: np.ndarray) -> np.ndarray:
        c = fpmath.dot3(normals, axis)
        return (c >= lo - 1e-12) & (c <= hi + 1e-12)

    return allowed


__all__ = ["SurfaceSamples", "SurfaceSettings", "sample_surface", "sample_surface_steps", "slope_between"]
