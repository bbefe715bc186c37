"""Scatter in real Blender: instances on the evaluated surface, spacing, masks, maximality, ownership, undo."""

from __future__ import annotations

import math
from pathlib import Path

import bpy
import numpy as np
import pytest
from scenes import (
    add_layer,
    distance_to_segments,
    instances_of,
    make_prefabs,
    make_road,
    make_terrain,
    pairwise_min_ratio,
    point_attributes,
    ray_down,
    scene_snapshot,
    terrain_bvh,
)

MAX_SLOPE = math.radians(32)
ROAD = [(-40.0, -30.0), (0.0, 5.0), (45.0, 10.0)]
TOLERANCE = 1e-4  # positions are stored as float32 in the point mesh


def _forest_scene() -> dict[str, object]:
    terrain = make_terrain()
    settings = bpy.context.scene.strew
    settings.terrain = terrain
    trees = make_prefabs("Trees", names=["tree 3", "tree2", "Tree10", "Tree_1", "oak"])
    bushes = make_prefabs("Bushes", 2)
    roads, segments = make_road(ROAD)
    add_layer("Trees", trees, 3.0, 6.0, seed=42, max_slope=MAX_SLOPE, density_mode='NOISE', noise_scale=15.0,
              exclusion_collection=roads, exclusion_margin=3.0, align_to_normal=0.5)
    add_layer("Bushes", bushes, 1.5, 1.5, seed=7, keep_away=2.5, max_slope=MAX_SLOPE,
              exclusion_collection=roads, exclusion_margin=1.0)
    return {"terrain": terrain, "segments": segments, "trees": trees, "bushes": bushes}


def test_scatter_guarantees_on_a_transformed_displaced_terrain() -> None:
    built = _forest_scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    output = bpy.data.collections["Strew Output"]
    trees_obj, bushes_obj = output.objects["Strew Trees"], output.objects["Strew Bushes"]
    trees, bushes = point_attributes(trees_obj), point_attributes(bushes_obj)
    assert len(trees["position"]) > 30 and len(bushes["position"]) > 100

    bvh = terrain_bvh(built["terrain"])
    blender_order = {
        "Trees": ["oak", "tree 3", "tree2", "Tree10", "Tree_1"],  # as Blender 5.0 sorts them (checked by hand)
        "Bushes": ["Bushes 0", "Bushes 1"],
    }
    for layer_obj, attrs, prefabs in ((trees_obj, trees, blender_order["Trees"]),
                                      (bushes_obj, bushes, blender_order["Bushes"])):
        names, positions, matrices = instances_of(layer_obj.name)
        assert len(names) == len(attrs["position"])
        np.testing.assert_allclose(positions, attrs["position"], atol=TOLERANCE)
        # Pick Instance counts children in Blender's natural, case-insensitive name order.
        assert names == [prefabs[i] for i in attrs["strew_prefab"]]
        # On the evaluated surface, on allowed slopes.
        z, normals = ray_down(bvh, positions[:, :2])
        assert np.isfinite(z).all()
        np.testing.assert_allclose(positions[:, 2], z, atol=TOLERANCE)
        slope = np.arccos(np.clip(normals[:, 2], -1, 1))
        assert slope.max() <= MAX_SLOPE + 1e-3
        # Orientation as Blender applies the rotation attribute: the instance's up axis leans toward the
        # surface normal by Align to Normal × the slope (trees 0.5, bushes 0), and the scale is in range.
        up = matrices[:, :3, 2]
        scale = np.linalg.norm(up, axis=1)
        assert ((scale >= 0.85 - 1e-6) & (scale <= 1.15 + 1e-6)).all()
        tilt = np.arccos(np.clip(up[:, 2] / scale, -1, 1))
        align = 0.5 if layer_obj is trees_obj else 0.0
        np.testing.assert_allclose(tilt, align * slope, atol=2e-3)
        # Exclusion margins hold.
        margin = 3.0 if layer_obj is trees_obj else 1.0
        assert distance_to_segments(positions[:, :2], built["segments"]).min() >= margin - TOLERANCE

    # Pairwise spacing within layers and across them (bushes keep max(own radius, keep away) from trees).
    assert pairwise_min_ratio(trees["position"][:, :2], trees["strew_radius"].astype(float)) >= 1 - 1e-5
    assert pairwise_min_ratio(bushes["position"][:, :2], bushes["strew_radius"].astype(float)) >= 1 - 1e-5
    d = np.sqrt(((bushes["position"][:, None, :2] - trees["position"][None, :, :2]) ** 2).sum(-1))
    assert d.min() >= max(2.5, 1.5) - TOLERANCE

    # Maximal: no probe where one more bush could stand.
    rng = np.random.default_rng(0)
    lo, hi = bushes["position"][:, :2].min(0) - 5, bushes["position"][:, :2].max(0) + 5
    probes = rng.uniform(lo, hi, size=(50_000, 2))
    z, normals = ray_down(bvh, probes)
    allowed = np.isfinite(z)
    allowed[allowed] &= np.arccos(np.clip(normals[allowed, 2], -1, 1)) <= MAX_SLOPE - 1e-3
    allowed &= distance_to_segments(probes, built["segments"]) >= 1.0 + 1e-3
    near_bush = np.sqrt(((probes[:, None] - bushes["position"][None, :, :2]) ** 2).sum(-1)).min(1) < 1.5 + 1e-3
    near_tree = np.sqrt(((probes[:, None] - trees["position"][None, :, :2]) ** 2).sum(-1)).min(1) < 2.5 + 1e-3
    fillable = allowed & ~near_bush & ~near_tree
    assert allowed.sum() > 10_000
    assert fillable.sum() <= 2, f"{fillable.sum()} probes where a bush still fits, e.g. {probes[fillable][:3]}"


def test_same_seed_same_instances_and_clear_after_save_and_reload(tmp_path: Path) -> None:
    _forest_scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    first = point_attributes(bpy.data.objects["Strew Trees"])
    assert bpy.ops.strew.scatter() == {'FINISHED'}  # re-scatter replaces, never duplicates
    assert len([o for o in bpy.data.objects if o.name.startswith("Strew Trees")]) == 1
    again = point_attributes(bpy.data.objects["Strew Trees"])
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])

    path = tmp_path / "forest.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.wm.open_mainfile(filepath=str(path))
    user_objects = sorted(o.name for o in bpy.data.objects if not o.name.startswith("Strew "))
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert "Strew Output" not in bpy.data.collections
    assert not [o for o in bpy.data.objects if o.get("strew_owner")]
    assert sorted(o.name for o in bpy.data.objects) == user_objects
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    reloaded = point_attributes(bpy.data.objects["Strew Trees"])
    for key in first:
        np.testing.assert_array_equal(first[key], reloaded[key])


def test_undo_restores_the_scene() -> None:
    _forest_scene()
    before = scene_snapshot()
    bpy.ops.ed.undo_push(message="before scatter")
    # Like a click: the operator's own UNDO flag pushes the step (the second argument asks for undo).
    assert bpy.ops.strew.scatter('EXEC_DEFAULT', True) == {'FINISHED'}
    assert "Strew Output" in bpy.data.collections
    bpy.ops.ed.undo()
    assert "Strew Output" not in bpy.data.collections
    assert scene_snapshot() == before


def test_scatter_one_layer_keeps_the_others() -> None:
    _forest_scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    trees = point_attributes(bpy.data.objects["Strew Trees"])
    layers = bpy.context.scene.strew.layers
    layers["Bushes"].seed = 99
    assert bpy.ops.strew.scatter(layer_index=1) == {'FINISHED'}
    after = point_attributes(bpy.data.objects["Strew Trees"])
    np.testing.assert_array_equal(trees["position"], after["position"])
    bushes = point_attributes(bpy.data.objects["Strew Bushes"])
    d = np.sqrt(((bushes["position"][:, None, :2] - trees["position"][None, :, :2]) ** 2).sum(-1))
    assert d.min() >= 2.5 - TOLERANCE
    assert bpy.ops.strew.clear(layer_index=1) == {'FINISHED'}
    assert "Strew Bushes" not in bpy.data.objects and "Strew Trees" in bpy.data.objects


def test_scripting_contract_from_the_issue() -> None:
    make_terrain("Terrain")
    make_prefabs("Trees")
    s = bpy.context.scene.strew
    s.terrain = bpy.data.objects["Terrain"]
    layer = s.layers.add()
    layer.name = "Trees"
    layer.collection = bpy.data.collections["Trees"]
    layer.min_radius, layer.max_radius = 4.0, 9.0
    layer.max_slope = math.radians(30)
    layer.seed = 42
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    obj = bpy.data.collections["Strew Output"].objects["Strew Trees"]
    names, _, _ = instances_of(obj.name)
    assert len(names) == len(obj.data.vertices) > 10
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert "Strew Trees" not in bpy.data.objects


@pytest.mark.parametrize("mode", ['EMPTIES', 'DUPLICATES'])
def test_real_object_outputs_and_their_limit(mode: str) -> None:
    terrain = make_terrain(size=20.0, subdivisions=8, displace=1.0)
    bpy.context.scene.strew.terrain = terrain
    rocks = make_prefabs("Rocks", 2)
    add_layer("Rocks", rocks, 2.0, 2.0, seed=3, output_mode=mode, align_to_normal=1.0)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    output = bpy.data.collections["Strew Rocks"]
    placed = [o for o in output.objects if "strew_radius" in o]  # the instances; "Strew Rocks" is their parent
    assert len(placed) > 20 and len(output.objects) == len(placed) + 1
    assert all(o.parent == bpy.data.objects["Strew Rocks"] for o in placed)
    xy = np.array([o.matrix_world.translation[:2] for o in placed])
    # Fully aligned: each object's up axis is the terrain normal under it (same Euler convention as the GN output).
    _, normals = ray_down(terrain_bvh(terrain), xy)
    up = np.array([np.array(o.matrix_world.to_3x3().col[2]) for o in placed])
    np.testing.assert_allclose(up / np.linalg.norm(up, axis=1, keepdims=True), normals, atol=2e-3)
    assert pairwise_min_ratio(xy, np.full(len(xy), 2.0)) >= 1 - 1e-6
    if mode == 'DUPLICATES':
        assert {o.data.name for o in placed} <= {o.data.name for o in rocks.objects}
    else:
        assert all(o.instance_type == 'COLLECTION' and o.instance_collection is not None for o in placed)
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert len(rocks.objects) == 2 and all(o.name in bpy.data.objects for o in rocks.objects)
    assert not [c for c in bpy.data.collections if c.get("strew_owner")]

    bpy.context.scene.strew.max_objects = 5
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="Max Objects"):
        bpy.ops.strew.scatter()
    assert scene_snapshot() == before


def _bad_no_terrain(built: dict) -> None:
    bpy.context.scene.strew.terrain = None


def _bad_empty_collection(built: dict) -> None:
    bpy.context.scene.strew.layers[0].collection = bpy.data.collections.new("Empty")


def _bad_no_collection(built: dict) -> None:
    bpy.context.scene.strew.layers[0].collection = None


def _bad_zero_radius(built: dict) -> None:
    bpy.context.scene.strew.layers[0].min_radius = 0.0


def _bad_min_above_max(built: dict) -> None:
    layer = bpy.context.scene.strew.layers[0]
    layer.min_radius, layer.max_radius = 5.0, 2.0


def _bad_too_many_points(built: dict) -> None:
    bpy.context.scene.strew.layers[0].min_radius = 0.001


def _bad_unknown_vertex_group(built: dict) -> None:
    layer = bpy.context.scene.strew.layers[0]
    layer.density_mode = 'VERTEX_GROUP'
    layer.density_vertex_group = "no such group"


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (_bad_no_terrain, "terrain"),
        (_bad_empty_collection, "empty"),
        (_bad_no_collection, "no collection"),
        (_bad_zero_radius, "Min Radius"),
        (_bad_min_above_max, "Max Radius"),
        (_bad_unknown_vertex_group, "vertex group"),
        (_bad_too_many_points, "max_points"),
    ],
)
def test_bad_input_reports_and_leaves_the_scene_unchanged(spoil, message: str) -> None:
    built = _forest_scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}  # an earlier result must survive a failed run
    spoil(built)
    before = scene_snapshot()
    runs = bpy.ops.strew.scatter.poll()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.scatter()
    if runs:  # otherwise poll() refused it, with its own message in the UI
        assert message.lower() in str(failure.value).lower()
    assert scene_snapshot() == before


def test_non_mesh_terrain_is_refused() -> None:
    _forest_scene()
    curve_obj = bpy.data.objects.new("NotATerrain", bpy.data.curves.new("c", 'CURVE'))
    bpy.context.scene.collection.objects.link(curve_obj)
    try:
        bpy.context.scene.strew.terrain = curve_obj
    except (TypeError, ValueError, RuntimeError):
        return  # Blender's pointer poll refuses it at assignment: also a clear refusal
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="not a mesh"):
        bpy.ops.strew.scatter()
    assert scene_snapshot() == before


@pytest.mark.parametrize(("scale", "rotation_x", "depth"), [
    ((1e-7, 1e-7, 1.0), 0.0, 0.0),       # a terrain a few micrometres wide
    ((1.0, 1.0, 1.0), math.pi / 2, 0.0),  # a wall: a plane stood up
    ((1.0, 1.0, 1.0), math.pi / 2, 1e-4),  # a wall leaning a tenth of a millimetre
    ((1.0, 1e-6, 1.0), 0.0, 0.0),         # a sliver
])
def test_a_terrain_with_no_area_seen_from_above_is_refused_as_such(scale: tuple, rotation_x: float,
                                                                   depth: float) -> None:
    _forest_scene()
    plane = bpy.data.meshes.new("Plane")
    plane.from_pydata([(-10, -10, 0), (10, -10, 0), (10, 10, 0), (-10, 10, 0)], [], [(0, 1, 2, 3)])
    plane.vertices[0].co.z += depth
    terrain = bpy.data.objects.new("Flat", plane)
    bpy.context.scene.collection.objects.link(terrain)
    terrain.scale, terrain.rotation_euler = scale, (rotation_x, 0.0, 0.0)
    bpy.context.scene.strew.terrain = terrain
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.scatter()
    message = str(failure.value).strip()
    assert "\n" not in message and "the terrain has no area to scatter on from above" in message, message
    assert "\"Flat\"" in message, message  # the object it names
    assert "max_points" not in message, message
    assert scene_snapshot() == before


def test_layer_list_operators() -> None:
    settings = bpy.context.scene.strew
    for _ in range(3):
        assert bpy.ops.strew.layer_add() == {'FINISHED'}
    assert len(settings.layers) == 3 and len({layer.name for layer in settings.layers}) == 3
    settings.active_layer_index = 2
    moved = settings.layers[2].name
    assert bpy.ops.strew.layer_move(direction='UP') == {'FINISHED'}
    assert settings.layers[1].name == moved and settings.active_layer_index == 1
    assert bpy.ops.strew.layer_remove() == {'FINISHED'}
    assert len(settings.layers) == 2 and moved not in [layer.name for layer in settings.layers]
