"""Curve objects read as polylines in world space (what a curve layer follows).

A curve without bevel, extrusion or a taper is read as Blender draws it: its evaluated edges (Bézier, poly and
NURBS splines at the curve's resolution, modifiers applied), chained into lines in their order. A bevelled or
extruded curve evaluates to a tube; its centre lines are read from its Bézier and poly splines instead
(``mathutils.geometry.interpolate_bezier`` at the curve's resolution); a NURBS spline there is refused in one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_
from mathutils import Matrix, Vector
from mathutils.geometry import interpolate_bezier

from ..core.curve import CurvePath
from .terrain import check_vertices, world_vertices


def _is_tube(curve: bpy.types.Curve) -> bool:
    """Whether the curve evaluates to a surface rather than its lines."""
    return bool(curve.bevel_depth > 0 or curve.extrude > 0
                or (curve.bevel_mode == 'OBJECT' and curve.bevel_object is not None))


def read_curves(objects: Iterable[bpy.types.Object], depsgraph: bpy.types.Depsgraph) -> CurvePath:
    """Every line of the curve objects, in world space (``ValueError`` naming a curve that cannot be read)."""
    lines: list[np.ndarray] = []
    closed: list[bool] = []
    for obj in objects:
        curve: Any = obj.data
        found = _spline_lines(obj) if _is_tube(curve) else _drawn_lines(obj, depsgraph)
        for points, loop in found:
            if len(points) >= 2:
                lines.append(points)
                closed.append(loop)
    try:
        return CurvePath.of(lines, closed)
    except ValueError as error:
        raise ValueError(rpt_("Curves: {error}").format(error=error)) from error


def _drawn_lines(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> list[tuple[np.ndarray, bool]]:
    """The evaluated curve's edges chained into lines (a line closes when its last edge returns to its start)."""
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        if mesh is None or not len(mesh.edges):
            return []
        with np.errstate(invalid="ignore", over="ignore"):
            points = world_vertices(mesh, evaluated.matrix_world)
        check_vertices(rpt_('Curve "{name}"').format(name=obj.name), mesh, points)
        edges = np.empty(len(mesh.edges) * 2, dtype=np.int64)
        mesh.edges.foreach_get("vertices", edges)
    finally:
        evaluated.to_mesh_clear()
    pairs = edges.reshape(-1, 2)
    breaks = np.flatnonzero(pairs[1:, 0] != pairs[:-1, 1]) + 1
    found = []
    for run in np.split(pairs, breaks):
        loop = len(run) > 2 and run[-1, 1] == run[0, 0]
        chain = run[:-1] if loop else run
        indices = np.concatenate([chain[:, 0], chain[-1:, 1]])
        found.append((points[indices], bool(loop)))
    return found


def _spline_lines(obj: bpy.types.Object) -> list[tuple[np.ndarray, bool]]:
    """Centre lines of a bevelled or extruded curve's splines, in world space."""
    matrix = obj.matrix_world
    found = []
    for spline in obj.data.splines:
        if spline.type == 'BEZIER':
            points = _bezier(spline, max(int(obj.data.resolution_u), 1), matrix)
        elif spline.type == 'POLY':
            points = [matrix @ Vector(point.co[:3]) for point in spline.points]
        else:
            raise ValueError(rpt_('Curve "{name}" has a bevel or extrusion and a NURBS spline: Strew follows the '
                                  "centre of Bézier and poly splines there; set its bevel and extrusion to 0 or "
                                  "make the spline Bézier").format(name=obj.name))
        found.append((np.array([[p.x, p.y, p.z] for p in points], dtype=np.float64).reshape(-1, 3),
                      bool(spline.use_cyclic_u)))
    return found


def _bezier(spline: bpy.types.Spline, resolution: int, matrix: Matrix) -> list[Vector]:
    """The spline's points as Blender evaluates them: ``resolution`` steps per span."""
    knots = list(spline.bezier_points)
    spans = list(pairwise(knots)) + ([(knots[-1], knots[0])] if spline.use_cyclic_u and len(knots) > 1 else [])
    points: list[Vector] = []
    for a, b in spans:
        span = interpolate_bezier(matrix @ a.co, matrix @ a.handle_right, matrix @ b.handle_left, matrix @ b.co,
                                  resolution + 1)
        points.extend(span[:-1])
    if spans and not spline.use_cyclic_u:
        points.append(matrix @ knots[-1].co)
    if not spans and knots:
        points.append(matrix @ knots[0].co)
    return points


def curve_shape(objects: Iterable[bpy.types.Object]) -> tuple[object, ...]:
    """What the read lines depend on, read from the objects' own data (no evaluation): each curve's world
    matrix, its splines' points and the settings that shape them."""
    shape: list[object] = []
    for obj in objects:
        curve = obj.data
        shape.append((obj.name, tuple(np.array(obj.matrix_world, dtype=np.float64).ravel().tolist()),
                      curve.resolution_u, curve.bevel_depth, curve.extrude, len(obj.modifiers)))
        for spline in curve.splines:
            if spline.type == 'BEZIER':
                co = np.empty(len(spline.bezier_points) * 9)
                values = [c for p in spline.bezier_points for v in (p.co, p.handle_left, p.handle_right) for c in v]
                co[:] = values
            else:
                co = np.array([c for p in spline.points for c in p.co], dtype=np.float64)
            shape.append((spline.type, spline.use_cyclic_u, spline.order_u, spline.resolution_u,
                          spline.use_endpoint_u, spline.use_bezier_u, co.tobytes()))
    return tuple(shape)
