"""Live update re-uses what did not change (terrain lookup, fields, sampled points) and follows the camera."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from live import assert_same_as_a_fresh_scatter, layer_key, live_update, positions, settle, surface_key
from mathutils import Vector
from scenes import add_layer, make_prefabs, make_terrain


@pytest.fixture
def layered_scene() -> bpy.types.Object:
    terrain = make_terrain(size=30.0, subdivisions=8)
    scene = bpy.context.scene
    scene.strew.terrain = terrain
    add_layer("Trees", make_prefabs("Trees"), 2.5, 4.0, seed=1, density_mode='NOISE', noise_scale=10.0)
    add_layer("Bushes", make_prefabs("Bushes"), 1.2, 1.2, seed=2, keep_away=2.0)
    bpy.ops.strew.scatter()
    scene.strew.live_update = True
    return terrain


def test_a_look_setting_places_the_same_points_again(layered_scene: bpy.types.Object) -> None:
    cache = live_update().service(bpy.context.scene).cache
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 5))  # fills the cache
    trees, bushes = cache.samples[layer_key("Trees")][1], cache.samples[layer_key("Bushes")][1]
    before = positions("Trees")
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "scale_max", 1.8))
    # nothing sampled
    assert cache.samples[layer_key("Trees")][1] is trees and cache.samples[layer_key("Bushes")][1] is bushes
    np.testing.assert_array_equal(positions("Trees"), before)
    assert_same_as_a_fresh_scatter()


def test_a_seed_change_samples_that_layer_and_the_ones_it_moves(layered_scene: bpy.types.Object) -> None:
    cache = live_update().service(bpy.context.scene).cache
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 7))  # fills the cache
    trees, bushes = cache.samples[layer_key("Trees")][1], cache.samples[layer_key("Bushes")][1]
    settle(lambda: setattr(bpy.context.scene.strew.layers["Bushes"], "seed", 8))
    assert cache.samples[layer_key("Trees")][1] is trees  # above the change: not even run
    assert cache.samples[layer_key("Bushes")][1] is not bushes
    assert_same_as_a_fresh_scatter()


@pytest.mark.parametrize("edit", ["geometry", "transform", "modifier"])
def test_a_terrain_edit_rebuilds_the_lookup(layered_scene: bpy.types.Object, edit: str) -> None:
    cache = live_update().service(bpy.context.scene).cache
    terrain = layered_scene
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 3))
    surface = cache.surfaces[surface_key("Terrain")][1]
    before = positions("Bushes")

    def change() -> None:
        if edit == "geometry":
            for vertex in terrain.data.vertices[:20]:
                vertex.co.z += 1.5
            terrain.data.update()
        elif edit == "transform":
            terrain.rotation_euler.z += 0.3
        else:
            terrain.modifiers["Displace"].strength *= 1.5

    settle(change)
    assert cache.surfaces[surface_key("Terrain")][1] is not surface
    assert not np.array_equal(positions("Bushes"), before)
    assert_same_as_a_fresh_scatter()
    assert len(cache.surfaces) == 1 and set(cache.samples) <= {layer_key("Trees"), layer_key("Bushes")}  # one each


def test_the_cache_is_dropped_when_a_file_loads(layered_scene: bpy.types.Object, tmp_path) -> None:
    cache = live_update().service(bpy.context.scene).cache
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 3))
    assert cache.surfaces and cache.samples
    path = tmp_path / "cache.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.open_mainfile(filepath=str(path))
    assert not cache.surfaces and not cache.samples and not cache.fields


def _camera() -> bpy.types.Object:
    camera = bpy.data.objects.new("Cam", bpy.data.cameras.new("Cam"))
    bpy.context.scene.collection.objects.link(camera)
    camera.location = (13.0, -40.0, 15.0)
    camera.rotation_euler = (Vector((13.0, -7.0, 2.0)) - camera.location).to_track_quat('-Z', 'Y').to_euler()
    bpy.context.scene.camera = camera
    return camera


def test_a_camera_move_or_lens_change_re_culls_only_layers_that_use_it() -> None:
    module = live_update()
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    camera = _camera()
    culled = add_layer("Trees", make_prefabs("Trees"), 1.5, 1.5, seed=1)
    culled.camera_cull, culled.camera_margin = True, 0.0
    bpy.ops.strew.scatter()
    scene.strew.live_update = True
    before = positions("Trees")

    camera.location.x += 6.0
    bpy.context.view_layer.update()
    assert module.scheduled()  # debounced: nothing written yet
    np.testing.assert_array_equal(positions("Trees"), before)
    assert module.flush()
    moved = positions("Trees")
    assert not np.array_equal(moved, before)
    assert_same_as_a_fresh_scatter()

    camera.data.lens *= 2.0  # a narrower view: fewer instances
    bpy.context.view_layer.update()
    assert module.scheduled() and module.flush()
    assert 0 < len(positions("Trees")) < len(moved)
    assert_same_as_a_fresh_scatter()

    other = _camera()  # another scene camera: the culled layer looks through it
    settle(lambda: setattr(bpy.context.scene, "camera", other))
    assert_same_as_a_fresh_scatter()

    settle(lambda: setattr(culled, "camera_cull", False))
    camera.location.x -= 6.0  # the layer no longer looks at the camera: nothing to do
    camera.data.lens /= 2.0
    bpy.context.view_layer.update()
    assert not module.scheduled()


def test_painted_vertex_weights_are_part_of_the_key(layered_scene: bpy.types.Object) -> None:
    terrain = layered_scene
    group = terrain.vertex_groups.new(name="Dense")
    group.add(list(range(len(terrain.data.vertices) // 2)), 1.0, 'REPLACE')
    trees = bpy.context.scene.strew.layers["Trees"]
    settle(lambda: (setattr(trees, "density_mode", 'VERTEX_GROUP'), setattr(trees, "density_vertex_group", "Dense")))
    before = positions("Trees")
    group.add(list(range(len(terrain.data.vertices))), 0.0, 'REPLACE')  # paint the group away
    settle(lambda: setattr(trees, "scale_max", 1.7))  # any change: the weights are read again and compared
    assert not np.array_equal(positions("Trees"), before)
    assert_same_as_a_fresh_scatter()


def test_weight_painting_re_scatters_the_layers_that_read_the_group(layered_scene: bpy.types.Object) -> None:
    terrain = layered_scene
    group = terrain.vertex_groups.new(name="Dense")
    everything = list(range(len(terrain.data.vertices)))
    group.add(everything, 1.0, 'REPLACE')
    scene = bpy.context.scene
    bushes = scene.strew.layers["Bushes"]
    settle(lambda: setattr(bushes, "mask_vertex_group", "Dense"))
    trees, before = positions("Trees"), positions("Bushes")
    bpy.context.view_layer.objects.active = terrain
    bpy.ops.object.mode_set(mode='WEIGHT_PAINT')
    try:
        settle(terrain.data.update)  # a stroke that leaves every weight as it was: nothing is sampled again
        np.testing.assert_array_equal(positions("Bushes"), before)

        def paint() -> None:
            group.add(everything[: len(everything) // 2], 0.0, 'REPLACE')
            terrain.data.update()

        settle(paint)
    finally:
        bpy.ops.object.mode_set(mode='OBJECT')
    assert len(positions("Bushes")) < 0.7 * len(before)  # half the terrain painted out of the mask
    np.testing.assert_array_equal(positions("Trees"), trees)  # the layer above does not read the group
    assert_same_as_a_fresh_scatter()


def test_weights_are_not_read_outside_weight_paint_mode(layered_scene: bpy.types.Object) -> None:
    terrain = layered_scene
    group = terrain.vertex_groups.new(name="Dense")
    group.add(list(range(len(terrain.data.vertices))), 1.0, 'REPLACE')
    trees = bpy.context.scene.strew.layers["Trees"]
    settle(lambda: (setattr(trees, "density_mode", 'VERTEX_GROUP'), setattr(trees, "density_vertex_group", "Dense")))
    module = live_update()
    terrain.data.update()  # in Object mode a geometry report with the same fingerprint is not a change
    bpy.context.view_layer.update()
    assert not module.scheduled()


def test_weights_assigned_in_edit_mode_re_scatter(layered_scene: bpy.types.Object) -> None:
    import bmesh

    terrain = layered_scene
    group = terrain.vertex_groups.new(name="Dense")
    group.add(list(range(len(terrain.data.vertices))), 1.0, 'REPLACE')
    bushes = bpy.context.scene.strew.layers["Bushes"]
    settle(lambda: setattr(bushes, "mask_vertex_group", "Dense"))
    module = live_update()
    bpy.context.view_layer.objects.active = terrain
    bpy.ops.object.mode_set(mode='EDIT')
    try:
        bpy.context.view_layer.update()  # Edit mode shows the modifiers set to show there: a re-scatter
        assert module.flush()
        before = positions("Bushes")

        def assign() -> None:  # what Assign in the Vertex Groups panel does, for half the vertices, weight 0
            mesh = bmesh.from_edit_mesh(terrain.data)
            deform = mesh.verts.layers.deform.active
            for vertex in mesh.verts[: len(mesh.verts) // 2]:
                vertex[deform][group.index] = 0.0
            bmesh.update_edit_mesh(terrain.data)

        settle(assign)  # the geometry is as it was: only the weights tell
        assert len(positions("Bushes")) < 0.7 * len(before)
    finally:
        bpy.ops.object.mode_set(mode='OBJECT')
    bpy.context.view_layer.update()
    assert module.flush()
    assert_same_as_a_fresh_scatter()


def test_painting_a_group_no_layer_reads_changes_nothing(layered_scene: bpy.types.Object) -> None:
    terrain = layered_scene
    group = terrain.vertex_groups.new(name="Unused")
    module = live_update()
    bpy.context.view_layer.objects.active = terrain
    bpy.ops.object.mode_set(mode='WEIGHT_PAINT')
    try:
        bpy.context.view_layer.update()
        assert module.flush()
        group.add(list(range(len(terrain.data.vertices))), 1.0, 'REPLACE')
        terrain.data.update()
        bpy.context.view_layer.update()
        assert not module.scheduled()
    finally:
        bpy.ops.object.mode_set(mode='OBJECT')


def test_a_renamed_scene_keeps_its_live_update_and_sees_a_change_made_with_the_rename(layered_scene) -> None:
    before = positions("Trees")
    scene = bpy.context.scene

    def rename_and_reseed() -> None:
        scene.name = "Renamed"
        scene.strew.layers["Trees"].seed = 7

    settle(rename_and_reseed)
    assert not np.array_equal(positions("Trees"), before)
    assert_same_as_a_fresh_scatter()


def test_a_failing_live_run_shows_its_problem_until_a_run_succeeds(layered_scene) -> None:
    module = live_update()
    scene = bpy.context.scene
    layer = scene.strew.layers["Bushes"]
    settle(lambda: setattr(layer, "mask_vertex_group", "nowhere"))
    problem = module.problem(scene)
    assert problem is not None and 'no vertex group "nowhere"' in problem and "\n" not in problem
    settle(lambda: setattr(layer, "mask_vertex_group", ""))
    assert module.problem(scene) is None
    assert_same_as_a_fresh_scatter()


@pytest.mark.parametrize("swap", [False, True], ids=["renamed", "names swapped"])
def test_renamed_layers_and_terrain_keep_their_cache_and_take_no_other_layers(layered_scene, swap: bool) -> None:
    """The cache follows a layer by its id and the terrain by its session: a rename samples nothing again, and a
    layer given another layer's old name never takes that layer's points."""
    cache = live_update().service(bpy.context.scene).cache
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 5))  # fills the cache
    trees, bushes = bpy.context.scene.strew.layers
    kept = {layer.layer_id: cache.samples[layer.layer_id][1] for layer in (trees, bushes)}

    def rename() -> None:
        layered_scene.name = "Ground"
        if swap:
            trees.name, bushes.name, trees.name = "Tmp", "Trees", "Bushes"
        else:
            trees.name = "Oaks"

    settle(rename)
    settle(lambda: setattr(trees, "scale_max", 1.8))
    assert all(cache.samples[key][1] is points for key, points in kept.items())  # nothing sampled again
    assert surface_key("Ground") in cache.surfaces
    assert_same_as_a_fresh_scatter()
