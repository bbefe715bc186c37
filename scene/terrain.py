"""Read a terrain (or any mesh object) into world-space numpy arrays, once per job."""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core import fpmath
from ..core.inputs import MAX_DISTANCE


@dataclass(frozen=True)
class MeshArrays:
    """An evaluated mesh in world space: vertices (V, 3), triangles (F, 3) in Blender's triangulation."""

    vertices: np.ndarray
    triangles: np.ndarray
    vertex_group_weights: dict[str, np.ndarray]


def world_vertices(mesh: bpy.types.Mesh, matrix_world: object) -> np.ndarray:
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", co)
    return fpmath.transform(co.reshape(-1, 3), np.array(matrix_world, dtype=np.float64))


def group_weights(obj: bpy.types.Object, mesh: bpy.types.Mesh, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per-vertex weights of the vertex groups ``names`` on ``mesh``, an evaluated mesh of ``obj`` (0 where a
    vertex is not in a group), read in one pass over the vertices."""
    columns: dict[int, np.ndarray] = {}
    out: dict[str, np.ndarray] = {}
    for name in names:
        group = obj.vertex_groups.get(name)
        if group is None:
            known = ", ".join(g.name for g in obj.vertex_groups) or rpt_("none")
            raise ValueError(rpt_('Terrain "{name}" has no vertex group "{group}" (it has: {known})').format(
                name=obj.name, group=name, known=known))
        out[name] = columns.setdefault(group.index, np.zeros(len(mesh.vertices), dtype=np.float64))
    if not columns:  # no group asked for: no pass over the vertices (0.1 s per 60k vertices)
        return out
    # Blender exposes deform weights only per vertex; this loop runs once per job, not per candidate.
    for vertex in mesh.vertices:
        for element in vertex.groups:
            column = columns.get(element.group)
            if column is not None:
                column[vertex.index] = element.weight
    return out


def read_weights(
    obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, names: tuple[str, ...]
) -> dict[str, np.ndarray]:
    """The weights of the vertex groups ``names`` on the evaluated mesh of ``obj``; groups it lacks are left
    out (the Scatter job reports them)."""
    evaluated = obj.evaluated_get(depsgraph)
    present = tuple(name for name in names if name in obj.vertex_groups)
    mesh = evaluated.to_mesh()
    try:
        return {} if mesh is None else group_weights(evaluated, mesh, present)
    finally:
        evaluated.to_mesh_clear()


def read_mesh(
    obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, vertex_groups: tuple[str, ...] = ()
) -> MeshArrays:
    """The evaluated mesh of ``obj`` (modifiers applied) in world space.

    Raises ``ValueError`` for objects that are not meshes or whose evaluated mesh has no faces, and
    :class:`GeometryError` for a vertex at NaN, infinity or beyond ``MAX_DISTANCE``.
    """
    if obj.type != 'MESH':
        raise ValueError(rpt_('"{name}" is a {kind}, not a mesh: pick a mesh object as the terrain').format(
            name=obj.name, kind=obj.type.lower()))
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        mesh.calc_loop_triangles()
        if len(mesh.loop_triangles) == 0:
            raise ValueError(
                rpt_('Terrain "{name}" has no faces: add faces or pick another mesh').format(name=obj.name))
        with np.errstate(invalid="ignore", over="ignore"):  # a vertex at infinity: named just below
            vertices = world_vertices(mesh, evaluated.matrix_world)
        check_vertices(rpt_('Mesh "{name}"').format(name=obj.name), mesh, vertices)
        triangles = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int64)
        mesh.loop_triangles.foreach_get("vertices", triangles)
        weights = group_weights(evaluated, mesh, tuple(name for name in vertex_groups if name))
    finally:
        evaluated.to_mesh_clear()
    return MeshArrays(vertices, triangles.reshape(-1, 3), weights)


class GeometryError(ValueError):
    """A mesh Strew cannot use as it is; the message names the object, the face and the vertex."""


def check_vertices(name: str, mesh: bpy.types.Mesh, points: np.ndarray) -> None:
    """Refuse (:class:`GeometryError` naming ``name``, the face and the vertex) a mesh whose ``points`` (its
    vertices, moved into world or tile space) hold NaN, infinity or a coordinate beyond ``MAX_DISTANCE``, which no
    surface, footprint, distance or socket can use."""
    low, high = float(points.min(initial=0.0)), float(points.max(initial=0.0))  # NaN if any is NaN
    if low >= -MAX_DISTANCE and high <= MAX_DISTANCE:
        return
    vertex = int(np.flatnonzero(~(np.abs(points) <= MAX_DISTANCE).all(axis=1))[0])  # NaN compares False
    if np.isfinite(points[vertex]).all():
        where = ", ".join(f"{c:g}" for c in points[vertex])
        problem = rpt_("farther than {limit:g} m from the origin").format(limit=MAX_DISTANCE)
    else:
        where = ", ".join(f"{c:g}" for c in mesh.vertices[vertex].co)  # as the vertex panel shows it
        problem = rpt_("not a finite point")
    corners = np.empty(len(mesh.loops), dtype=np.int64)
    mesh.loops.foreach_get("vertex_index", corners)
    starts = np.empty(len(mesh.polygons), dtype=np.int64)
    mesh.polygons.foreach_get("loop_start", starts)
    loops = np.flatnonzero(corners == vertex)
    if len(loops):
        face = int(np.searchsorted(starts, loops[0], side="right") - 1)
        raise GeometryError(rpt_("{name}: face {face} has a corner (vertex {vertex}) at ({where}), {problem}; move or "
                                 "delete that vertex").format(name=name, face=face, vertex=vertex, where=where,
                                                              problem=problem))
    raise GeometryError(rpt_("{name}: vertex {vertex} is at ({where}), {problem}; move or delete it").format(
        name=name, vertex=vertex, where=where, problem=problem))


def read_exclusions(
    collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Curves and meshes of ``collection`` seen from above: (polylines as segment arrays, footprint polygons).

    Every object becomes its evaluated mesh in world space: edges give (S, 2, 2) XY segments (roads, rivers,
    house outlines), faces give XY triangles (K, 3, 2) that are forbidden as a whole (house footprints, ponds);
    faces standing on edge seen from above give no triangle. Objects without geometry (empties, lights) add nothing.
    """
    segments: list[np.ndarray] = []
    footprints: list[np.ndarray] = []
    for obj in collection.all_objects:
        if obj.type not in {'MESH', 'CURVE', 'SURFACE', 'FONT'}:
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        try:
            if mesh is None or len(mesh.vertices) == 0:
                continue
            with np.errstate(invalid="ignore", over="ignore"):  # a vertex at infinity: named just below
                points = world_vertices(mesh, evaluated.matrix_world)
            named = rpt_('"{name}" (collection "{collection}")').format(name=obj.name, collection=collection.name)
            check_vertices(named, mesh, points)
            xy = points[:, :2]
            edges = np.empty(len(mesh.edges) * 2, dtype=np.int64)
            mesh.edges.foreach_get("vertices", edges)
            if len(edges):
                segments.append(xy[edges.reshape(-1, 2)])
            mesh.calc_loop_triangles()
            if len(mesh.loop_triangles):
                triangles = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int64)
                mesh.loop_triangles.foreach_get("vertices", triangles)
                corners = xy[triangles.reshape(-1, 3)]
                # A face seen edge-on from above (a wall, Suzanne's sides) covers no ground: leave it out.
                u, v = corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]
                covers = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0] != 0.0
                if covers.any():
                    footprints.append(corners[covers])
        finally:
            evaluated.to_mesh_clear()
    return segments, footprints
