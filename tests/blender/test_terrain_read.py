"""Reading a terrain again after an edit (``read_mesh`` with the previous read) gives the arrays of a read from
scratch, byte for byte, whatever the edit: heights, corners sliding sideways (a quad whose diagonal flips), an
n-gon, the transform, painted weights, other faces, Edit mode. And Blender's arrays read whole (``mesh_columns``)
are what its per-item collections hold."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import bmesh
import bpy
import numpy as np
import pytest


def terrain_module():  # the module as Blender loaded it
    return importlib.import_module("bl_ext.strew_dev.strew.scene.terrain")


def make_mesh(name: str = "Ground", n: int = 30) -> bpy.types.Object:
    """A hilly grid of quads, with a fan of triangles and a hexagon (an n-gon) in one corner, a vertex group and a
    modifier, moved and rotated."""
    xs = np.linspace(-15.0, 15.0, n + 1)
    gx, gy = np.meshgrid(xs, xs, indexing="ij")
    vertices = np.column_stack([gx.ravel(), gy.ravel(), np.sin(gx.ravel() / 3.0) * np.cos(gy.ravel() / 4.0)])
    faces = [(i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, i * (n + 1) + j + 1)
             for i in range(n) for j in range(n) if not (i < 3 and j < 3)]
    corner = len(vertices)
    angles = np.linspace(0.0, 2 * np.pi, 7)[:-1]
    ring = np.column_stack([-20.0 + 2.0 * np.cos(angles), -20.0 + 2.0 * np.sin(angles), 0.3 * np.sin(3 * angles)])
    vertices = np.concatenate([vertices, ring, [[-20.0, -20.0, 1.0]]])
    faces.append(tuple(range(corner, corner + 6)))  # the hexagon
    faces += [(corner + 6, corner + k, corner + (k + 1) % 6) for k in range(2)]  # two triangles on its side
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices.tolist(), [], faces)
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler.z = (3.0, -2.0, 1.0), 0.4
    group = obj.vertex_groups.new(name="Paint")
    group.add(list(range(0, len(vertices), 3)), 0.7, 'REPLACE')
    obj.modifiers.new("Weld", 'WELD')  # a modifier that keeps the faces: the evaluated mesh is Blender's own copy
    bpy.context.view_layer.update()
    return obj


def read(obj: bpy.types.Object, previous=None):
    return terrain_module().read_mesh(obj, bpy.context.evaluated_depsgraph_get(), ("Paint",), previous)


def assert_same(a, b) -> None:
    assert a.vertices.tobytes() == b.vertices.tobytes()
    assert a.triangles.dtype == b.triangles.dtype and a.triangles.tobytes() == b.triangles.tobytes()
    assert a.vertex_group_weights.keys() == b.vertex_group_weights.keys()
    for name, weights in a.vertex_group_weights.items():
        assert weights.tobytes() == b.vertex_group_weights[name].tobytes()


def moved(obj: bpy.types.Object, change: Callable[[np.ndarray], None]) -> None:
    co = np.empty(len(obj.data.vertices) * 3)
    obj.data.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    change(co)
    obj.data.vertices.foreach_set("co", co.ravel())
    obj.data.update()
    bpy.context.view_layer.update()


def _bump(co: np.ndarray) -> None:
    co[:, 2] += 2.0 * np.clip(1.0 - np.hypot(co[:, 0] - 4.0, co[:, 1] - 2.0) / 5.0, 0.0, 1.0)


def _sculpt(co: np.ndarray) -> None:  # corners slide sideways too; one quad made concave (its diagonal flips)
    weight = np.clip(1.0 - np.hypot(co[:, 0] + 3.0, co[:, 1] - 5.0) / 5.0, 0.0, 1.0)
    co[:, :2] += 0.4 * weight[:, None] * np.column_stack([np.sin(co[:, 1]), np.cos(co[:, 0])])
    co[:, 2] += weight
    co[31 * 11 + 10, :2] += (-0.6, 0.8)  # across the first-to-third diagonal of the quad at (10, 10): a dart


def _ngon(co: np.ndarray) -> None:
    co[-3, :2] += (1.8, 3.0)  # a hexagon corner pushed in past its centre: the hexagon is split another way


EDITS: dict[str, Callable[[bpy.types.Object], None]] = {
    "heights": lambda obj: moved(obj, _bump),
    "sculpt": lambda obj: moved(obj, _sculpt),
    "n-gon": lambda obj: moved(obj, _ngon),
    "transform": lambda obj: (setattr(obj.rotation_euler, "z", 0.9), bpy.context.view_layer.update()),
    "weights": lambda obj: (obj.vertex_groups["Paint"].add([1, 2, 5], 0.2, 'REPLACE'), obj.data.update(),
                            bpy.context.view_layer.update()),
    "faces": lambda obj: (obj.data.polygons.foreach_set("select", [False] * len(obj.data.polygons)),
                          _delete_face(obj, 100)),
}


def _delete_face(obj: bpy.types.Object, index: int) -> None:
    mesh = bmesh.new()
    mesh.from_mesh(obj.data)
    mesh.faces.ensure_lookup_table()
    bmesh.ops.delete(mesh, geom=[mesh.faces[index]], context='FACES_ONLY')
    mesh.to_mesh(obj.data)
    mesh.free()
    obj.data.update()
    bpy.context.view_layer.update()


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_read_after_an_edit_is_a_read_from_scratch(edit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The loop triangles of the faces an edit moved are read one by one however many there are (in use, only up
    # to a share of them: a small terrain like this one would read them all in one go).
    monkeypatch.setattr(terrain_module(), "SHORT_READ", 1.0)
    obj = make_mesh()
    before = read(obj)
    assert read(obj, before) is before  # nothing changed: the earlier read itself
    EDITS[edit](obj)
    again = read(obj, before)
    assert_same(again, read(obj))
    if edit in {"sculpt", "n-gon"}:  # Blender split a face another way: the read saw it
        changed = (before.triangles != again.triangles).any(axis=1)
        assert changed.any() and changed.sum() < 10
    if edit != "weights":
        assert again.vertices.tobytes() != before.vertices.tobytes() or again.triangles.shape != before.triangles.shape


def test_a_read_after_an_edit_in_edit_mode_is_a_read_from_scratch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terrain_module(), "SHORT_READ", 1.0)
    obj = make_mesh()
    bpy.context.view_layer.objects.active = obj
    before = read(obj)  # in Object mode
    bpy.ops.object.mode_set(mode='EDIT')
    try:
        in_edit = read(obj, before)
        assert_same(in_edit, read(obj))
        mesh = bmesh.from_edit_mesh(obj.data)
        mesh.verts.ensure_lookup_table()
        for index in (200, 201, 232):
            mesh.verts[index].co.x += 0.7
            mesh.verts[index].co.z += 1.0
        bmesh.update_edit_mesh(obj.data)
        bpy.context.view_layer.update()
        assert_same(read(obj, in_edit), read(obj))
    finally:
        bpy.ops.object.mode_set(mode='OBJECT')
    assert_same(read(obj, in_edit), read(obj))


def test_whole_arrays_are_what_the_item_collections_hold() -> None:
    obj = make_mesh()
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    try:
        columns = terrain_module().mesh_columns(mesh)
        co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", co)
        loops = np.empty(len(mesh.loops), dtype=np.int32)
        mesh.loops.foreach_get("vertex_index", loops)
        sizes = np.empty(len(mesh.polygons), dtype=np.int32)
        mesh.polygons.foreach_get("loop_total", sizes)
        edges = np.empty(len(mesh.edges) * 2, dtype=np.int32)
        mesh.edges.foreach_get("vertices", edges)
    finally:
        evaluated.to_mesh_clear()
    for got, expected in ((columns.positions, co), (columns.corner_verts, loops), (columns.face_sizes, sizes),
                          (columns.edges, edges)):
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    assert set(sizes.tolist()) == {3, 4, 6}
