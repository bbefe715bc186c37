"""Read a terrain (or any mesh object) into world-space numpy arrays, once per job."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core import fpmath
from ..core.inputs import MAX_DISTANCE

SHORT_READ = 1 / 16
"""Re-read the loop triangles of the faces an edit moved one by one up to this share of the triangles (each costs
about ten times what it costs in one ``foreach_get`` of them all)."""


@dataclass(frozen=True)
class MeshColumns:
    """An evaluated mesh's arrays as Blender stores them, in object space: vertex positions (V * 3 float32), every
    face corner's vertex, each face's corner count and the edges' vertex pairs (E * 2), int32."""

    positions: np.ndarray
    corner_verts: np.ndarray
    face_sizes: np.ndarray
    edges: np.ndarray


@dataclass(frozen=True)
class MeshSource:
    """What a mesh read was made from, for reading the same object again after an edit (:func:`read_mesh`): its
    positions, corners and faces (:class:`MeshColumns`, no edges), world matrix and object mode."""

    columns: MeshColumns
    matrix: np.ndarray
    mode: str


@dataclass(frozen=True)
class MeshArrays:
    """An evaluated mesh in world space: vertices (V, 3), triangles (F, 3) in Blender's triangulation."""

    vertices: np.ndarray
    triangles: np.ndarray
    vertex_group_weights: dict[str, np.ndarray]
    source: MeshSource | None = None


def _attribute(mesh: bpy.types.Mesh, name: str, field: str, out: np.ndarray) -> bool:
    """Read the attribute ``name`` whole into ``out`` (one copy of Blender's array; reading the same data through
    ``mesh.vertices`` or ``mesh.loops`` goes item by item, 50-300 times slower); False when the mesh has no such
    attribute of that size."""
    attribute = mesh.attributes.get(name)
    if attribute is None or len(attribute.data) * (len(out) // max(1, len(attribute.data))) != len(out):
        return False
    attribute.data.foreach_get(field, out)
    return True


def mesh_columns(mesh: bpy.types.Mesh) -> MeshColumns:
    """The arrays of ``mesh`` (see :class:`MeshColumns`), read through its attributes ("position" and Blender's
    internal ".corner_vert" and ".edge_verts", in every Blender Strew supports) and its loop triangles' faces, with
    the per-item collections as the fallback."""
    positions = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    if not _attribute(mesh, "position", "vector", positions):
        mesh.vertices.foreach_get("co", positions)
    corners = np.empty(len(mesh.loops), dtype=np.int32)
    if not _attribute(mesh, ".corner_vert", "value", corners):
        mesh.loops.foreach_get("vertex_index", corners)
    edges = np.empty(len(mesh.edges) * 2, dtype=np.int32)
    if not _attribute(mesh, ".edge_verts", "value", edges):
        mesh.edges.foreach_get("vertices", edges)
    faces = len(mesh.polygons)
    sizes = None
    if faces and hasattr(mesh, "loop_triangle_polygons"):
        # A face of n corners is n - 2 loop triangles, listed face after face: the corner counts without a pass
        # over the faces.
        mesh.calc_loop_triangles()
        of_triangle = np.empty(len(mesh.loop_triangle_polygons), dtype=np.int32)
        mesh.loop_triangle_polygons.foreach_get("value", of_triangle)
        if len(of_triangle) == len(corners) - 2 * faces:
            sizes = (np.bincount(of_triangle, minlength=faces) + 2).astype(np.int32)
    if sizes is None or len(sizes) != faces:
        sizes = np.empty(faces, dtype=np.int32)
        mesh.polygons.foreach_get("loop_total", sizes)
    return MeshColumns(positions, corners, sizes, edges)


def world_vertices(mesh: bpy.types.Mesh, matrix_world: object) -> np.ndarray:
    positions = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    if not _attribute(mesh, "position", "vector", positions):
        mesh.vertices.foreach_get("co", positions)
    return fpmath.transform(positions.reshape(-1, 3).astype(np.float64), np.array(matrix_world, dtype=np.float64))


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
    obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, vertex_groups: tuple[str, ...] = (),
    previous: MeshArrays | None = None,
) -> MeshArrays:
    """The evaluated mesh of ``obj`` (modifiers applied) in world space.

    ``previous``: an earlier read of the same object (with the same ``vertex_groups``). Where the faces are the same
    and the object is in the same mode, the vertices that did not move and the loop triangles of the faces none of
    whose corners moved are taken from it (Blender splits a face by its own corners' positions alone), and only the
    rest is transformed and read: the same arrays as a read from scratch, at a cost that follows the edit.
    ``previous`` itself comes back when nothing changed.

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
        columns = mesh_columns(mesh)
        source = MeshSource(MeshColumns(columns.positions, columns.corner_verts, columns.face_sizes,
                                        np.zeros(0, dtype=np.int32)),
                            np.array(evaluated.matrix_world, dtype=np.float64), obj.mode)
        before = previous.source if previous is not None else None
        if before is not None and not (before.mode == source.mode
                                       and before.columns.positions.shape == columns.positions.shape
                                       and np.array_equal(before.columns.face_sizes, columns.face_sizes)
                                       and np.array_equal(before.columns.corner_verts, columns.corner_verts)):
            before = None  # other faces: nothing to take over
        local = columns.positions.reshape(-1, 3)
        moved = None
        if before is not None:
            # Bit for bit (a coordinate going from 0.0 to -0.0 moved); few vertices move in an edit.
            coordinates = np.flatnonzero(columns.positions.view(np.uint32) != before.columns.positions.view(np.uint32))
            moved = _distinct(coordinates // 3)
        with np.errstate(invalid="ignore", over="ignore"):  # a vertex at infinity: named just below
            if previous is not None and before is not None and moved is not None and _same_bits(before.matrix,
                                                                                                 source.matrix):
                vertices = previous.vertices
                if len(moved):
                    vertices = vertices.copy()
                    vertices[moved] = fpmath.transform(local[moved].astype(np.float64), source.matrix)
            else:
                vertices = fpmath.transform(local.astype(np.float64), source.matrix)
        if previous is None or vertices is not previous.vertices:
            check_vertices(rpt_('Mesh "{name}"').format(name=obj.name), mesh, vertices)
        triangles = _loop_triangles(mesh, columns, None if previous is None or moved is None else (previous, moved))
        weights = group_weights(evaluated, mesh, tuple(name for name in vertex_groups if name))
    finally:
        evaluated.to_mesh_clear()
    if (previous is not None and vertices is previous.vertices and triangles is previous.triangles
            and _same_weights(previous.vertex_group_weights, weights)):
        return previous
    return MeshArrays(vertices, triangles, weights, source)


def _distinct(ordered: np.ndarray) -> np.ndarray:
    """The distinct values of an ascending array (``np.unique`` imports ``numpy.ma`` on its first call: tens of
    milliseconds on the first live update)."""
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _same_weights(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(_same_bits(a[name], b[name]) for name in a)


def _loop_triangles(mesh: bpy.types.Mesh, columns: MeshColumns,
                    edit: tuple[MeshArrays, np.ndarray] | None) -> np.ndarray:
    """Blender's loop triangles of ``mesh`` as (F, 3) vertex indices; with ``edit`` (an earlier read of the same
    faces, and the vertices that moved since), those of the faces with a moved corner read again, the others taken
    from the earlier read (its array itself when no face has a moved corner)."""
    count = len(mesh.loop_triangles)
    if edit is not None and len(edit[0].triangles) == count:
        previous, moved = edit
        if not len(moved):
            return previous.triangles
        sizes = columns.face_sizes
        starts = np.cumsum(sizes) - sizes
        flags = np.zeros(len(columns.positions) // 3, dtype=bool)
        flags[moved] = True
        corners = np.flatnonzero(flags[columns.corner_verts])
        faces = _distinct(np.searchsorted(starts, corners, side="right") - 1)
        per_face = sizes[faces] - 2
        first = starts[faces] - 2 * faces  # a face's loop triangles follow those of the faces before it
        rows = np.repeat(first - np.cumsum(per_face) + per_face, per_face)
        rows += np.arange(len(rows))
        if len(rows) <= SHORT_READ * count:
            triangles = previous.triangles.copy()
            # Runs of consecutive triangles, each read as one slice of the collection.
            breaks = np.flatnonzero(np.diff(rows) != 1) + 1
            loop_triangles = mesh.loop_triangles
            for run in np.split(rows, breaks) if len(rows) else ():
                start, stop = int(run[0]), int(run[-1]) + 1
                items: list[Any] = list(loop_triangles[start:stop])  # (the stubs index no property array)
                triangles[start:stop] = [item.vertices[:] for item in items]
            return triangles
    flat = np.empty(count * 3, dtype=np.int32)
    mesh.loop_triangles.foreach_get("vertices", flat)
    return flat.astype(np.int64).reshape(-1, 3)


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
