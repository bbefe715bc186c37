"""Camera culling and falloff, viewport display, variety, proximity and pair keep-away, in real Blender."""

from __future__ import annotations

import math

import bpy
import numpy as np
import pytest
from mathutils import Vector
from scenes import add_layer, make_prefabs, make_terrain
from scipy.spatial import cKDTree


def _points(name: str) -> tuple[np.ndarray, np.ndarray]:
    obj = bpy.data.objects[f"Strew {name}"]
    mesh = obj.data
    co = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", co)
    world = co.reshape(-1, 3) @ np.array(obj.matrix_world)[:3, :3].T + np.array(obj.matrix_world)[:3, 3]
    radii = np.empty(len(mesh.vertices), dtype=np.float32)
    mesh.attributes["strew_radius"].data.foreach_get("value", radii)
    return world, radii.astype(float)


def _camera(location, target, lens: float = 35.0) -> bpy.types.Object:
    camera = bpy.data.objects.new("Cam", bpy.data.cameras.new("Cam"))
    bpy.context.scene.collection.objects.link(camera)
    camera.location = location
    camera.rotation_euler = (Vector(target) - Vector(location)).to_track_quat('-Z', 'Y').to_euler()
    camera.data.lens = lens
    bpy.context.scene.camera = camera
    bpy.context.view_layer.update()
    return camera


def _in_frame(points: np.ndarray, camera: bpy.types.Object) -> np.ndarray:
    """Reference: Blender's own projection (world_to_camera_view) inside the frame, in front of the camera."""
    from bpy_extras.object_utils import world_to_camera_view

    scene = bpy.context.scene
    uvz = np.array([tuple(world_to_camera_view(scene, camera, Vector(p))) for p in points])
    return (uvz[:, 0] >= 0) & (uvz[:, 0] <= 1) & (uvz[:, 1] >= 0) & (uvz[:, 1] <= 1) & (uvz[:, 2] > 0)


def test_camera_culling_keeps_what_the_camera_sees_plus_the_margin() -> None:
    terrain = make_terrain()
    bpy.context.scene.strew.terrain = terrain
    layer = add_layer("Trees", make_prefabs("Trees"), 1.0, 1.0, seed=3)
    bpy.ops.strew.scatter()
    everything, _ = _points("Trees")
    camera = _camera((13.0, -40.0, 15.0), (13.0, -7.0, 2.0))
    layer.camera_cull, layer.camera_margin = True, 0.0
    bpy.ops.strew.scatter()
    culled, _ = _points("Trees")
    assert 0 < len(culled) < 0.8 * len(everything)
    assert _in_frame(culled, camera).all()
    # Inside the view the culled layer is as dense as the full one (it is maximal there too).
    visible = everything[_in_frame(everything, camera)]
    assert abs(len(culled) - len(visible)) < 0.1 * len(visible)
    layer.camera_margin = 5.0
    bpy.ops.strew.scatter()
    assert len(_points("Trees")[0]) > len(culled)
    layer.camera_max_distance = 30.0
    bpy.ops.strew.scatter()
    far = np.linalg.norm(_points("Trees")[0] - np.array(camera.location), axis=1)
    assert (far <= 30.0 + 1e-6).all()


def test_falloff_spreads_instances_with_distance() -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    layer = add_layer("Grass", make_prefabs("Grass"), 0.8, 3.0, seed=2)
    camera = _camera((13.0, -45.0, 10.0), (13.0, -7.0, 2.0))
    layer.camera_falloff, layer.camera_falloff_start, layer.camera_falloff_end = True, 20.0, 60.0
    bpy.ops.strew.scatter()
    points, radii = _points("Grass")
    distance = np.linalg.norm(points - np.array(camera.location), axis=1)
    assert np.allclose(radii[distance < 19.0], 0.8, atol=1e-5)
    assert radii[distance > 61.0].min() > 2.99


def test_no_camera_is_a_clear_error_and_changes_nothing() -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    layer = add_layer("Trees", make_prefabs("Trees"), 2.0, 2.0)
    layer.camera_cull = True
    with pytest.raises(RuntimeError, match="no camera"):
        bpy.ops.strew.scatter()
    assert "Strew Output" not in bpy.data.collections


@pytest.mark.parametrize(("mode", "share"), [('FULL', 0.3), ('POINTS', 1.0), ('BOUNDS', 0.5)])
def test_viewport_display(mode: str, share: float) -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    layer = add_layer("Trees", make_prefabs("Trees"), 1.0, 1.0)
    layer.display_mode, layer.viewport_percent = mode, share * 100
    bpy.ops.strew.scatter()
    obj = bpy.data.objects["Strew Trees"]
    total = len(obj.data.vertices)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    meshes, cloud_points = [], 0
    for item in depsgraph.object_instances:  # items are valid only while iterating
        if not (item.is_instance and item.parent and item.parent.original == obj):
            continue
        if item.object.type == 'MESH':
            meshes.append(item.object.original.name)
        elif item.object.type == 'POINTCLOUD':
            cloud_points += len(item.object.data.points)
    if mode == 'POINTS':
        assert not meshes and cloud_points == total  # points only, no instanced geometry in the viewport
    else:
        assert abs(len(meshes) - share * total) < 4 * math.sqrt(total) + 1
        if mode == 'BOUNDS':
            assert all(name.startswith("Strew Bounds Trees") for name in meshes)
    bpy.ops.strew.clear()
    assert not [c for c in bpy.data.collections if c.name.startswith("Strew Bounds")]


def test_tilt_and_scale_rules_reach_the_instances() -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    layer = add_layer("Rocks", make_prefabs("Rocks"), 1.5, 1.5, seed=4)
    bpy.ops.strew.scatter()
    obj = bpy.data.objects["Strew Rocks"]
    rot = np.empty(len(obj.data.vertices) * 3, dtype=np.float32)
    obj.data.attributes["strew_rotation"].data.foreach_get("vector", rot)
    assert np.allclose(rot.reshape(-1, 3)[:, :2], 0.0, atol=1e-6)  # upright, yaw only
    layer.tilt = math.radians(20)
    bpy.ops.strew.scatter()
    obj = bpy.data.objects["Strew Rocks"]
    obj.data.attributes["strew_rotation"].data.foreach_get("vector", rot)
    assert np.abs(rot.reshape(-1, 3)[:, :2]).max() > 0.05


def test_pair_keep_away_and_proximity() -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    add_layer("Trees", make_prefabs("Trees"), 4.0, 4.0, seed=1)
    add_layer("Rocks", make_prefabs("Rocks"), 1.0, 1.0, seed=2)
    grass = add_layer("Grass", make_prefabs("Grass"), 0.7, 2.5, seed=3)
    rule = grass.keep_away_rules.add()
    rule.layer, rule.distance = "Trees", 3.0
    road = bpy.data.curves.new("Road", 'CURVE')
    spline = road.splines.new('POLY')
    spline.points.add(1)
    spline.points[0].co, spline.points[1].co = (-20, -7, 0, 1), (45, -7, 0, 1)
    roads = bpy.data.collections.new("Roads")
    roads.objects.link(bpy.data.objects.new("Road", road))
    grass.proximity_collection, grass.proximity_mode = roads, 'ATTRACT'
    grass.proximity_near, grass.proximity_far = 1.0, 12.0
    bpy.ops.strew.scatter()
    trees, _ = _points("Trees")
    rock_points, _ = _points("Rocks")
    grass_points, grass_radii = _points("Grass")
    assert cKDTree(trees[:, :2]).query(grass_points[:, :2])[0].min() >= 3.0 - 1e-6
    # Rocks have no rule with Trees: only their own spacing applies, so some stand closer than 3.
    assert 1.0 - 1e-6 <= cKDTree(trees[:, :2]).query(rock_points[:, :2])[0].min() < 3.0
    along = (grass_points[:, 0] > -20.0) & (grass_points[:, 0] < 45.0)  # beside the road, not past its ends
    near = (np.abs(grass_points[:, 1] + 7.0) < 0.9) & along
    far = np.abs(grass_points[:, 1] + 7.0) > 12.5
    assert np.allclose(grass_radii[near], 0.7, atol=1e-5) and np.allclose(grass_radii[far], 2.5, atol=1e-5)
    grass.keep_away_rules[0].layer = "Nowhere"
    with pytest.raises(RuntimeError, match="not a layer above"):
        bpy.ops.strew.scatter()


def test_a_keep_away_rule_follows_its_layer_through_renames() -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    trees = add_layer("Trees", make_prefabs("Trees"), 4.0, 4.0, seed=1)
    grass = add_layer("Grass", make_prefabs("Grass"), 0.7, 0.7, seed=3)
    rule = grass.keep_away_rules.add()
    rule.layer, rule.distance = "Trees", 3.0
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    for name in ("Oaks", "Pines", "Trees"):  # a rename, another, and back; each Scatter keeps the rule
        trees.name = name
        assert bpy.ops.strew.scatter() == {'FINISHED'}
        assert rule.layer == name
        tree_xy, _ = _points(name)
        grass_xy, _ = _points("Grass")
        assert cKDTree(tree_xy[:, :2]).query(grass_xy[:, :2])[0].min() >= 3.0 - 1e-6
    # a layer picked by hand is what the rule names from then on
    layers = bpy.context.scene.strew.layers
    add_layer("Rocks", make_prefabs("Rocks"), 2.0, 2.0, seed=2)
    layers.move(2, 1)  # Rocks above Grass (the list's items move: look them up again)
    rule = layers["Grass"].keep_away_rules[0]
    rule.layer = "Rocks"
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    layers["Trees"].name = "Elms"
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert layers["Grass"].keep_away_rules[0].layer == "Rocks"
