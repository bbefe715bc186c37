"""Exclude with the objects people have: Suzanne, a Solidify plane, a standing wall, text, a one-point curve, an
empty and a light. Scatter finishes, and no instance stands on the ground any mesh covers seen from above."""

from __future__ import annotations

import math

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain, point_attributes, scene_snapshot


def _link(obj: bpy.types.Object, collection: bpy.types.Collection) -> bpy.types.Object:
    for other in list(obj.users_collection):
        other.objects.unlink(obj)
    collection.objects.link(obj)
    return obj


def _covered(xy: np.ndarray, objects: list[bpy.types.Object]) -> np.ndarray:
    """Reference: which points lie inside a face of the objects' evaluated meshes seen from above (barycentric
    test on every triangle, edges included)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    inside = np.zeros(len(xy), dtype=bool)
    for obj in objects:
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        matrix = np.array(evaluated.matrix_world)
        co = np.array([(matrix @ np.array([*v.co, 1.0]))[:2] for v in mesh.vertices])
        mesh.calc_loop_triangles()
        for triangle in mesh.loop_triangles:
            a, b, c = co[list(triangle.vertices)]
            area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
            if area == 0:
                continue
            w1 = ((b[0] - xy[:, 0]) * (c[1] - xy[:, 1]) - (b[1] - xy[:, 1]) * (c[0] - xy[:, 0])) / area
            w2 = ((c[0] - xy[:, 0]) * (a[1] - xy[:, 1]) - (c[1] - xy[:, 1]) * (a[0] - xy[:, 0])) / area
            inside |= (w1 > 1e-9) & (w2 > 1e-9) & (1 - w1 - w2 > 1e-9)
        evaluated.to_mesh_clear()
    return inside


def test_everyday_objects_in_exclude_keep_the_ground_they_cover_free() -> None:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=40.0, subdivisions=16, displace=0.5)
    exclude = bpy.data.collections.new("Exclude")
    scene.collection.children.link(exclude)

    bpy.ops.mesh.primitive_monkey_add(size=6.0, location=(-8.0, 6.0, 2.0))
    suzanne = _link(bpy.context.active_object, exclude)
    bpy.ops.mesh.primitive_plane_add(size=6.0, location=(8.0, 8.0, 1.0))
    slab = _link(bpy.context.active_object, exclude)
    slab.modifiers.new("Solidify", 'SOLIDIFY').thickness = 0.5
    bpy.ops.mesh.primitive_plane_add(size=5.0, location=(0.0, -8.0, 2.0), rotation=(math.pi / 2, 0.0, 0.0))
    _link(bpy.context.active_object, exclude)  # a wall seen edge-on from above: covers no ground
    bpy.ops.object.text_add(location=(-10.0, -10.0, 1.0))
    text = _link(bpy.context.active_object, exclude)
    text.data.body = "STREW"
    text.scale = (3.0, 3.0, 3.0)
    curve = bpy.data.curves.new("Dot", 'CURVE')
    curve.splines.new('POLY')  # one point
    _link(bpy.data.objects.new("Dot", curve), exclude)
    _link(bpy.data.objects.new("Empty", None), exclude)
    _link(bpy.data.objects.new("Lamp", bpy.data.lights.new("Lamp", 'POINT')), exclude)

    add_layer("Shrubs", make_prefabs("Shrubs"), 0.6, 0.6, exclusion_collection=exclude, exclusion_margin=0.0)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy = point_attributes(bpy.data.objects["Strew Shrubs"])["position"][:, :2]
    assert len(xy) > 500
    assert not _covered(xy, [suzanne, slab, text]).any()
    near_wall = np.abs(xy[:, 1] + 8.0) < 0.3
    assert near_wall.any()  # the wall stands on edge: the ground along it stays open


def _house(vertex: int, value: float, axis: int) -> tuple[bpy.types.Collection, str]:
    """A collection "Houses" with a mesh "House" (a quad, a triangle, a loose vertex) whose vertex ``vertex`` has
    ``value`` on ``axis``, set the way a script or an importer stores it; returns the collection and the vertex's
    coordinates as the message shows them."""
    houses = bpy.data.collections.new("Houses")
    bpy.context.scene.collection.children.link(houses)
    mesh = bpy.data.meshes.new("House")
    mesh.from_pydata([(0, 0, 0), (4, 0, 0), (4, 4, 0), (0, 4, 0), (-6, -6, 0), (-5, -6, 0), (-5, -5, 0), (7, 7, 1)],
                     [], [(0, 1, 2, 3), (4, 5, 6)])
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    co[3 * vertex + axis] = value
    mesh.vertices.foreach_set("co", co)
    mesh.update()
    houses.objects.link(bpy.data.objects.new("House", mesh))
    return houses, ", ".join(f"{c:g}" for c in co[3 * vertex: 3 * vertex + 3])


@pytest.mark.parametrize(("vertex", "axis", "value", "where"), [
    (5, 0, math.nan, "face 1 has a corner (vertex 5)"),
    (0, 2, math.nan, "face 0 has a corner (vertex 0)"),
    (2, 1, -math.inf, "face 0 has a corner (vertex 2)"),
    (7, 0, math.nan, "vertex 7 is at"),  # a loose vertex: no face to name
    (6, 0, 3.4e38, "face 1 has a corner (vertex 6)"),  # what Blender stores for "inf" typed into a field
    (1, 1, -2e9, "face 0 has a corner (vertex 1)"),
])
@pytest.mark.parametrize("role", ["exclusion_collection", "proximity_collection", "targets", "terrain"])
def test_a_mesh_with_a_vertex_at_nan_infinity_or_far_away_is_named_with_its_face(
        vertex: int, axis: int, value: float, where: str, role: str) -> None:
    """Exclude, Proximity, Targets or the terrain itself: one line naming the object, the face and the vertex."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=20.0, subdivisions=4, displace=0.0)
    houses, shown = _house(vertex, value, axis)
    if role == "terrain":
        scene.strew.terrain = houses.objects["House"]
        add_layer("Shrubs", make_prefabs("Shrubs"), 1.0, 1.0)
    else:
        add_layer("Shrubs", make_prefabs("Shrubs"), 1.0, 1.0, **{role: houses})
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.scatter()
    message = str(failure.value).strip()
    assert "\n" not in message and "Traceback" not in message, message
    named = '"House" (collection "Houses")' if role.endswith("_collection") else 'Mesh "House"'
    assert f"{named}: {where}" in message and f"({shown})" in message, message
    problem = "not a finite point" if not math.isfinite(value) else "farther than 1e+09 m from the origin"
    assert problem in message and "move or delete" in message, message
    assert scene_snapshot() == before
