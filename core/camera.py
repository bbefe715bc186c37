"""What a camera can see: frustum culling with a margin, clipping by distance, density falloff with distance.

A :class:`CameraView` is the camera's world matrix and its frame (the four corners of the view rectangle in
camera space, as Blender's ``Camera.view_frame`` gives them: aspect, sensor fit and lens shift included). The
camera looks down its local -Z. Points are kept when they lie within ``margin`` of the view volume (so an
instance whose centre is just outside the frame but whose crown reaches in still renders) and no farther than
``max_distance`` from the camera.

Examples
--------
>>> import numpy as np
>>> view = CameraView.perspective(location=(0, 0, 0), fov=np.pi / 2, aspect=1.0)  # looks down -Z
>>> points = np.array([[0.0, 0.0, -5.0], [0.0, 0.0, 5.0], [10.0, 0.0, -5.0]])
>>> in_view(points, view, margin=0.0).tolist()
[True, False, False]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import fpmath
from .terrain import TerrainLookup

ArrayFunction = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class CameraView:
    """A camera in world space.

    ``matrix_world`` is the (4, 4) camera-to-world matrix; ``frame`` the (4, 3) corners of the view rectangle
    in camera space, in order around the rectangle (any depth for a perspective camera); ``orthographic``
    makes the view a box along -Z instead of a pyramid from the camera's origin.
    """

    matrix_world: np.ndarray
    frame: np.ndarray
    orthographic: bool = False

    @staticmethod
    def perspective(location: tuple[float, float, float], fov: float, aspect: float,
                    rotation: np.ndarray | None = None) -> CameraView:
        """A perspective camera at ``location`` with horizontal field of view ``fov`` and width/height ``aspect``."""
        if not 0 < fov < math.pi:
            raise ValueError(f"fov must be between 0 and π radians, got {fov}")
        if not aspect > 0:
            raise ValueError(f"aspect must be > 0, got {aspect}")
        half_w = math.tan(fov / 2)
        half_h = half_w / aspect
        frame = np.array([[half_w, half_h, -1.0], [-half_w, half_h, -1.0],
                          [-half_w, -half_h, -1.0], [half_w, -half_h, -1.0]])
        matrix = np.eye(4)
        if rotation is not None:
            matrix[:3, :3] = rotation
        matrix[:3, 3] = location
        return CameraView(matrix_world=matrix, frame=frame)

    @property
    def location(self) -> np.ndarray:
        return np.asarray(self.matrix_world, dtype=np.float64)[:3, 3]


def _validate(view: CameraView) -> tuple[np.ndarray, np.ndarray]:
    matrix = np.asarray(view.matrix_world, dtype=np.float64)
    frame = np.asarray(view.frame, dtype=np.float64)
    if matrix.shape != (4, 4) or not np.isfinite(matrix).all():
        raise ValueError(f"matrix_world must be a finite (4, 4) matrix, got shape {matrix.shape}")
    if frame.shape != (4, 3) or not np.isfinite(frame).all():
        raise ValueError(f"frame must be the (4, 3) corners of the view rectangle, got shape {frame.shape}")
    if abs(fpmath.det3(matrix[:3, :3])) < 1e-12:
        raise ValueError("matrix_world is singular (a camera scaled to zero): give the camera a non-zero scale")
    if not view.orthographic and (frame[:, 2] >= 0).any():
        raise ValueError("a perspective frame must lie in front of the camera (z < 0 in camera space)")
    return matrix, frame


def _side_planes(frame: np.ndarray, orthographic: bool) -> tuple[np.ndarray, np.ndarray]:
    """Outward unit normals (4, 3) and offsets (4,) of the view volume's side planes: inside is n·p ≤ d."""
    centre = frame.mean(axis=0)
    normals = np.empty((4, 3))
    offsets = np.empty(4)
    for i in range(4):
        a, b = frame[i], frame[(i + 1) % 4]
        along = np.array([0.0, 0.0, -1.0]) if orthographic else a
        n = np.cross(b - a, along)
        length = float(fpmath.norm3(n))
        if length < 1e-12:
            raise ValueError("the camera frame is degenerate (two corners coincide): check the camera's lens")
        n /= length
        if fpmath.dot3(n, centre - a) > 0:
            n = -n
        normals[i], offsets[i] = n, fpmath.dot3(n, a)
    return normals, offsets


def _half_spaces(view: CameraView, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """The view volume widened by ``margin`` as half-spaces ``a · (p − t) ≤ b`` in world space, ``t`` the camera's
    location: rows ``a`` (5, 3), limits ``b`` (5,) — the four side planes and the camera's own plane."""
    matrix, frame = _validate(view)
    rot = matrix[:3, :3]
    # Distances are measured in camera space; turn the world margin into its largest camera-space equivalent,
    # so everything within ``margin`` in the world is kept even on a non-uniformly scaled camera.
    local_margin = margin / float(np.min(fpmath.norm3(rot.T)))
    normals, offsets = _side_planes(frame, view.orthographic)
    local = np.vstack([normals, [0.0, 0.0, 1.0]])  # side planes, then "in front of the camera"
    # Camera space of p is R⁻¹ (p − t), so n · R⁻¹ (p − t) = (R⁻ᵀ n) · (p − t).
    return fpmath.solve3(rot.T, local.T).T, np.append(offsets, 0.0) + local_margin


def in_view(points: np.ndarray, view: CameraView, margin: float = 0.0,
            max_distance: float | None = None) -> np.ndarray:
    """``(N,) bool``: which world-space ``points`` lie within ``margin`` of the view volume.

    The volume is the pyramid (or box) through the frame, in front of the camera; ``margin`` (world units)
    widens every side plane outward, so everything within ``margin`` of the volume is kept (a little more near
    the volume's edges). ``max_distance`` (world units from the camera's location) clips far points.
    """
    if not (math.isfinite(margin) and margin >= 0):
        raise ValueError(f"margin must be a finite distance ≥ 0, got {margin}")
    if max_distance is not None and not max_distance > 0:
        raise ValueError(f"max_distance must be > 0 or None, got {max_distance}")
    return _inside(points, view, *_half_spaces(view, margin), max_distance)


def _inside(points: np.ndarray, view: CameraView, rows: np.ndarray, limits: np.ndarray,
            max_distance: float | None) -> np.ndarray:
    points = np.asarray(points, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] != 3:
        raise ValueError(f"points must have shape (N, 3), got {points.shape}")
    keep = (fpmath.project(points - view.location, rows) <= limits).all(axis=1)
    if max_distance is not None:
        keep &= distance_to(points, view) <= max_distance
    return keep


def footprint(view: CameraView, bounds: np.ndarray, z_range: tuple[float, float], margin: float = 0.0,
              max_distance: float | None = None) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The XY rectangle holding every point that :func:`in_view` keeps inside ``bounds`` and ``z_range``.

    ``bounds`` is ``[[x0, y0], [x1, y1]]`` (the terrain's XY bounds), ``z_range`` its lowest and highest point:
    every surface point lies in that box, so the view volume (widened by ``margin``, cut at ``max_distance``)
    clipped to the box, projected to XY, is all a culled layer needs to sample. The clipped volume is a convex
    polyhedron; the answer is the bounding rectangle of its vertices (exact up to rounding). None when the
    camera sees nothing of the box.

    >>> view = CameraView.perspective(location=(0, 0, 10), fov=np.pi / 2, aspect=1.0)  # looks straight down
    >>> lo, hi = footprint(view, np.array([[-100.0, -100.0], [100.0, 100.0]]), (0.0, 0.0))
    >>> np.round(lo, 6).tolist(), np.round(hi, 6).tolist()
    ([-10.0, -10.0], [10.0, 10.0])
    """
    box = np.asarray(bounds, dtype=np.float64)
    low, high = (float(v) for v in z_range)
    if box.shape != (2, 2) or not np.isfinite(box).all() or not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"bounds must be finite [[x0, y0], [x1, y1]] and z_range finite, got {box!r}, {z_range!r}")
    in_view(np.zeros((0, 3)), view, margin, max_distance)  # validates margin and max_distance
    if max_distance is not None:  # the clip sphere's bounding box
        eye = view.location
        box = np.stack([np.maximum(box[0], eye[:2] - max_distance), np.minimum(box[1], eye[:2] + max_distance)])
        low, high = max(low, eye[2] - max_distance), min(high, eye[2] + max_distance)
    if (box[1] < box[0]).any() or high < low:
        return None
    # Half-spaces a·p ≤ b in world space: the view volume's planes as in_view tests them, then the box.
    camera_rows, camera_limits = _half_spaces(view, margin)
    eye3 = np.eye(3)
    rows = np.vstack([camera_rows, eye3, -eye3])
    limits = np.concatenate([camera_limits + fpmath.project(view.location[None], camera_rows)[0],
                             [box[1, 0], box[1, 1], high, -box[0, 0], -box[0, 1], -low]])
    corners = []
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            for k in range(j + 1, len(rows)):
                a = rows[[i, j, k]]
                if abs(fpmath.det3(a)) < 1e-12:
                    continue
                corners.append(fpmath.solve3(a, limits[[i, j, k]]))
    if not corners:
        return None
    points = np.array(corners)
    slack = 1e-9 * (1.0 + np.abs(limits) + fpmath.project(np.abs(points), np.abs(rows)))
    points = points[(fpmath.project(points, rows) <= limits + slack).all(axis=1)]
    if not len(points):
        return None
    lo, hi = points[:, :2].min(axis=0), points[:, :2].max(axis=0)
    pad = 1e-9 * (1.0 + np.abs(np.concatenate([lo, hi])).max())
    lo, hi = np.maximum(lo - pad, box[0]), np.minimum(hi + pad, box[1])
    if (hi <= lo).any():
        return None
    return (float(lo[0]), float(lo[1])), (float(hi[0]), float(hi[1]))


def distance_to(points: np.ndarray, view: CameraView) -> np.ndarray:
    """``(N,)`` world distance of each point from the camera's location."""
    points = np.asarray(points, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] != 3:
        raise ValueError(f"points must have shape (N, 3), got {points.shape}")
    return fpmath.norm3(points - view.location)


def distance_falloff(distance: np.ndarray, start: float, end: float, floor: float = 0.0) -> np.ndarray:
    """Density factor ``1`` up to ``start``, falling smoothly to ``floor`` at ``end`` and beyond.

    Multiplies a layer's density, so spacing grows with distance from the camera (smoothstep, no kink).
    """
    if not (math.isfinite(start) and math.isfinite(end) and 0 <= start < end):
        raise ValueError(f"falloff needs 0 ≤ start < end, got start={start}, end={end}")
    if not 0 <= floor <= 1:
        raise ValueError(f"floor must be between 0 and 1, got {floor}")
    t = np.clip((np.asarray(distance, dtype=np.float64) - start) / (end - start), 0.0, 1.0)
    smooth = t * t * (3.0 - 2.0 * t)
    return 1.0 - (1.0 - floor) * smooth


class _OnSurface:
    """Base of the sampler functions below: the surface point above ``xy`` (a picklable callable, so a
    process pool can take it)."""

    def __init__(self, view: CameraView, heights: ArrayFunction) -> None:
        self.view, self.heights = view, heights

    def points(self, xy: np.ndarray) -> np.ndarray:
        """Points on the surface above ``xy``; off the surface (NaN height) at the camera's own height."""
        xy = np.asarray(xy, dtype=np.float64)
        z = np.asarray(self.heights(xy), dtype=np.float64)
        return np.column_stack([xy, np.where(np.isfinite(z), z, self.view.location[2])])


class ViewMask(_OnSurface):
    """A sampler mask ``xy -> bool``: the surface point above ``xy`` (``heights(xy)`` gives z) is in view.

    With ``z_range`` (every finite height lies in it, e.g. a terrain's lowest and highest vertex), the vertical
    segment above ``xy`` through that range and the camera's height decides most points without asking
    ``heights``: the view volume is convex, so a segment with both ends inside lies inside, and one with both
    ends beyond the same plane (or wholly beyond the clip distance) lies outside. The answer is the same.
    """

    def __init__(self, view: CameraView, heights: ArrayFunction, margin: float = 0.0,
                 max_distance: float | None = None, z_range: tuple[float, float] | None = None) -> None:
        in_view(np.zeros((0, 3)), view, margin, max_distance)  # validate once, before the sampler calls it
        super().__init__(view, heights)
        self.margin, self.max_distance = margin, max_distance
        self._planes = _half_spaces(view, margin)  # once: the sampler calls the mask many times
        eye = float(view.location[2])  # off the surface a point is tested at the camera's height
        self._segment = None if z_range is None else (min(float(z_range[0]), eye), max(float(z_range[1]), eye))

    def __call__(self, xy: np.ndarray) -> np.ndarray:
        if self._segment is None:
            return _inside(self.points(xy), self.view, *self._planes, self.max_distance)
        xy = np.asarray(xy, dtype=np.float64)
        rows, limits = self._planes
        ends = [np.column_stack([xy, np.full(len(xy), z)]) - self.view.location for z in self._segment]
        beyond = [fpmath.project(end, rows) > limits for end in ends]
        sure_in = ~beyond[0].any(axis=1) & ~beyond[1].any(axis=1)
        sure_out = (beyond[0] & beyond[1]).any(axis=1)
        if self.max_distance is not None:
            far = [fpmath.dot3(end, end) > self.max_distance**2 for end in ends]
            sure_in &= ~far[0] & ~far[1]
            closest = np.clip(self.view.location[2], *self._segment) - self.view.location[2]
            across = ends[0][:, 0] * ends[0][:, 0] + ends[0][:, 1] * ends[0][:, 1]
            sure_out |= across + closest**2 > self.max_distance**2
        keep = sure_in
        unsure = ~(sure_in | sure_out)
        if unsure.any():
            keep[unsure] = _inside(self.points(xy[unsure]), self.view, *self._planes, self.max_distance)
        return keep


class FalloffDensity(_OnSurface):
    """A density factor ``xy -> [floor, 1]`` that thins instances with their distance from the camera."""

    def __init__(self, view: CameraView, heights: ArrayFunction, start: float, end: float,
                 floor: float = 0.0) -> None:
        distance_falloff(np.zeros(0), start, end, floor)  # validate once
        super().__init__(view, heights)
        self.start, self.end, self.floor = start, end, floor

    def __call__(self, xy: np.ndarray) -> np.ndarray:
        return distance_falloff(distance_to(self.points(xy), self.view), self.start, self.end, self.floor)


class SurfaceHeights:
    """``xy -> z`` of a terrain lookup's top surface (NaN off the terrain), as a picklable callable."""

    def __init__(self, terrain: TerrainLookup) -> None:
        self.terrain = terrain

    def __call__(self, xy: np.ndarray) -> np.ndarray:
        return self.terrain.sample(xy).z


__all__ = ["CameraView", "FalloffDensity", "SurfaceHeights", "ViewMask", "distance_falloff", "distance_to",
           "footprint", "in_view"]
