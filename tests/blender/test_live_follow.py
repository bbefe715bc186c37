"""Live Update follows everything a layer reads: its Exclude, Proximity and Targets collections (members, their
transforms and geometry), its prefabs (members, weights), its keep-away rules and the camera's frame; the Viewport
Display settings apply at once without sampling again."""

from __future__ import annotations

import math
from collections.abc import Callable

import bpy
import numpy as np
import pytest
from live import assert_same_as_a_fresh_scatter, layer_key, live_update, positions, settle
from mathutils import Vector
from scenes import add_layer, make_prefabs, make_terrain, point_attributes

ROLES = {"exclusion_collection": "Trees", "proximity_collection": "Bushes", "targets": "Moss"}  # setting: its layer
SPOTS = [(13.0, -7.0), (6.0, -2.0), (20.0, -11.0), (9.0, -12.0)]  # box centres (x, y), inside the terrain
NEW_SPOT = (16.0, -2.0)  # where a box linked by a test stands


def _box(name: str, spot: tuple[float, float], collection: bpy.types.Collection,
         size: float = 5.0) -> bpy.types.Object:
    """A flat box standing above the terrain at ``spot``: a house footprint, a pond's area, a rock's top."""
    half = size / 2
    corners = [(x, y, z) for x in (-half, half) for y in (-half, half) for z in (0.0, 1.0)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 2, 6, 4), (1, 5, 7, 3), (0, 4, 5, 1), (2, 3, 7, 6)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(corners, [], faces)
    obj = bpy.data.objects.new(name, mesh)
    obj.location = (*spot, 9.0)
    collection.objects.link(obj)
    return obj


def _collection(name: str, spots: list[tuple[float, float]]) -> bpy.types.Collection:
    collection = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(collection)
    for number, spot in enumerate(spots):
        _box(f"{name} {number}", spot, collection)
    return collection


@pytest.fixture
def followed_scene() -> bpy.types.Scene:
    """Trees keep out of Houses, Bushes grow near Ponds, Moss covers Rocks; Live Update on."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    add_layer("Trees", make_prefabs("Trees"), 2.0, 2.0, seed=1, exclusion_collection=_collection("Houses", SPOTS[:2]),
              exclusion_margin=0.0)
    add_layer("Bushes", make_prefabs("Bushes"), 1.0, 3.0, seed=2, keep_away=1.0,
              proximity_collection=_collection("Ponds", SPOTS[2:]), proximity_near=1.0, proximity_far=6.0)
    add_layer("Moss", make_prefabs("Moss"), 0.6, 0.6, seed=3, targets=_collection("Rocks", SPOTS[1:3]))
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.live_update = True
    return scene


def _link(collection: bpy.types.Collection, _obj: bpy.types.Object) -> None:
    _box(f"{collection.name} new", NEW_SPOT, collection)


def _unlink(collection: bpy.types.Collection, obj: bpy.types.Object) -> None:
    collection.objects.unlink(obj)


def _child(collection: bpy.types.Collection, _obj: bpy.types.Object) -> None:
    child = bpy.data.collections.new(f"{collection.name} child")
    _box(f"{collection.name} child box", NEW_SPOT, child)
    collection.children.link(child)


def _move(_collection: bpy.types.Collection, obj: bpy.types.Object) -> None:
    obj.location.x += 4.0


def _edit(_collection: bpy.types.Collection, obj: bpy.types.Object) -> None:
    co = np.empty(len(obj.data.vertices) * 3)
    obj.data.vertices.foreach_get("co", co)
    obj.data.vertices.foreach_set("co", co * 1.6)
    obj.data.update()


def _delete(_collection: bpy.types.Collection, obj: bpy.types.Object) -> None:
    bpy.data.objects.remove(obj)


CHANGES: dict[str, Callable[[bpy.types.Collection, bpy.types.Object], None]] = {
    "link": _link, "unlink": _unlink, "child": _child, "move": _move, "edit": _edit, "delete": _delete}


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("role", list(ROLES))
def test_a_change_in_a_collection_the_layer_reads_re_scatters_it(followed_scene: bpy.types.Scene, role: str,
                                                                 change: str) -> None:
    """Blender's own depsgraph update is enough to notice it (nothing handed over)."""
    layer = followed_scene.strew.layers[ROLES[role]]
    collection = getattr(layer, role)
    before = positions(layer.name)
    settle(lambda: CHANGES[change](collection, collection.objects[0]), by_handler=True)
    assert not np.array_equal(positions(layer.name), before)
    assert_same_as_a_fresh_scatter()


def test_a_mesh_linked_into_a_collection_excluded_from_the_view_layer_re_scatters(followed_scene) -> None:
    """Blender reports no object of such a collection, only that the scene changed: the members tell."""
    houses = followed_scene.strew.layers["Trees"].exclusion_collection
    followed_scene.view_layers[0].layer_collection.children[houses.name].exclude = True
    bpy.context.view_layer.update()
    assert live_update().flush()
    before = positions("Trees")
    settle(lambda: _link(houses, houses.objects[0]), by_handler=True)
    assert not np.array_equal(positions("Trees"), before)
    assert_same_as_a_fresh_scatter()


def _prefab_indices(layer_name: str) -> np.ndarray:
    return point_attributes(bpy.data.objects[f"Strew {layer_name}"])["strew_prefab"]


@pytest.mark.parametrize("change", ["link", "unlink"])
def test_a_prefab_added_or_taken_out_is_placed(followed_scene: bpy.types.Scene, change: str) -> None:
    prefabs = followed_scene.strew.layers["Bushes"].collection
    if change == "link":
        settle(lambda: prefabs.objects.link(bpy.data.objects.new("Bushes 3", bpy.data.meshes["Bushes 0_mesh"])),
               by_handler=True)
        assert set(_prefab_indices("Bushes")) == {0, 1, 2, 3}
    else:
        settle(lambda: prefabs.objects.unlink(prefabs.objects["Bushes 0"]), by_handler=True)
        assert set(_prefab_indices("Bushes")) == {0, 1}
    assert_same_as_a_fresh_scatter()


@pytest.mark.parametrize("how", ["setting", "custom property"])
def test_a_prefab_weight_places_the_same_points_again(followed_scene: bpy.types.Scene, how: str) -> None:
    cache = live_update().service(followed_scene).cache
    settle(lambda: setattr(followed_scene.strew.layers["Trees"], "seed", 5))  # fills the cache
    samples = {name: cache.samples[layer_key(name)][1] for name in ("Trees", "Bushes")}
    before, picks = positions("Trees"), _prefab_indices("Trees")
    prefab = bpy.data.objects["Trees 2"]

    def weigh() -> None:
        if how == "setting":
            prefab.strew.weight = 0.0
        else:
            prefab["strew_weight"] = 0.0

    settle(weigh)  # a panel edit reaches the handler; a script's is seen at the next update (handed over here)
    assert all(cache.samples[layer_key(name)][1] is points for name, points in samples.items())  # nothing sampled
    np.testing.assert_array_equal(positions("Trees"), before)
    assert 2 in picks and 2 not in _prefab_indices("Trees")
    assert_same_as_a_fresh_scatter()


def test_a_keep_away_rule_distance_re_scatters(followed_scene: bpy.types.Scene) -> None:
    bushes = followed_scene.strew.layers["Bushes"]
    rule = bushes.keep_away_rules.add()
    settle(lambda: setattr(rule, "layer", "Trees"))
    before = positions("Bushes")
    settle(lambda: setattr(rule, "distance", 4.0))
    assert not np.array_equal(positions("Bushes"), before)
    assert_same_as_a_fresh_scatter()


def test_the_render_resolution_re_culls_a_layer_that_looks_through_the_camera(followed_scene) -> None:
    camera = bpy.data.objects.new("Cam", bpy.data.cameras.new("Cam"))
    followed_scene.collection.objects.link(camera)
    camera.location = (13.0, -40.0, 15.0)
    camera.rotation_euler = (Vector((13.0, -7.0, 2.0)) - camera.location).to_track_quat('-Z', 'Y').to_euler()
    followed_scene.camera = camera
    moss = followed_scene.strew.layers["Moss"]
    settle(lambda: (setattr(moss, "camera_cull", True), setattr(moss, "camera_margin", 0.0)))
    for _ in range(2):  # a narrower frame each time: fewer instances
        before = positions("Moss")
        settle(lambda: setattr(followed_scene.render, "resolution_x", followed_scene.render.resolution_x // 4))
        assert len(positions("Moss")) < len(before)
        assert_same_as_a_fresh_scatter()


def _drawn(layer_name: str) -> tuple[int, int, set[str]]:
    """What the viewport draws of a layer: instances, points of point clouds, and the instanced objects' names."""
    output = bpy.data.objects[f"Strew {layer_name}"]
    instances, points, names = 0, 0, set()
    for item in bpy.context.evaluated_depsgraph_get().object_instances:  # valid only while iterating
        if item.is_instance and item.parent is not None and item.parent.original == output:
            if item.object.type == 'POINTCLOUD':
                points += len(item.object.data.points)
            else:
                instances += 1
                names.add(item.object.original.name.rsplit(" ", 1)[0])
    return instances, points, names


@pytest.mark.parametrize("live", [False, True], ids=["live off", "live on"])
def test_viewport_display_applies_at_once_without_sampling(followed_scene: bpy.types.Scene, live: bool) -> None:
    module = live_update()
    followed_scene.strew.live_update = live
    trees = followed_scene.strew.layers["Trees"]
    output = bpy.data.objects["Strew Trees"]
    total = len(output.data.vertices)

    def shown(change: Callable[[], None]) -> tuple[int, int, set[str]]:
        change()
        bpy.context.view_layer.update()
        module.on_depsgraph_update(followed_scene, bpy.context.evaluated_depsgraph_get())  # as Blender's window
        assert not module.scheduled()  # nothing to sample or write again
        assert bpy.data.objects["Strew Trees"] == output  # the same output object, only drawn otherwise
        return _drawn("Trees")

    instances, _, names = shown(lambda: setattr(trees, "viewport_percent", 25.0))
    assert abs(instances - 0.25 * total) < 4 * math.sqrt(total) + 1 and names == {"Trees"}
    instances, _, names = shown(lambda: setattr(trees, "display_mode", 'BOUNDS'))
    assert abs(instances - 0.25 * total) < 4 * math.sqrt(total) + 1 and names == {"Strew Bounds Trees"}
    instances, points, _ = shown(lambda: setattr(trees, "display_mode", 'POINTS'))
    assert instances == 0 and abs(points - 0.25 * total) < 4 * math.sqrt(total) + 1
    instances, _, names = shown(lambda: (setattr(trees, "display_mode", 'FULL'),
                                         setattr(trees, "viewport_percent", 100.0)))
    assert instances == total and names == {"Trees"} and not output.modifiers.get("Strew Viewport")
    assert not [c for c in bpy.data.collections if c.name.startswith("Strew Bounds")]


def test_a_run_in_progress_writes_the_display_as_it_is_when_it_writes(followed_scene: bpy.types.Scene) -> None:
    module = live_update()
    trees = followed_scene.strew.layers["Trees"]
    settle(lambda: setattr(trees, "seed", 9))
    trees.seed = 10
    module.on_depsgraph_update(followed_scene, bpy.context.evaluated_depsgraph_get())
    service = module.service(followed_scene)
    assert service._start()
    next(service._run.job)  # the run has read the settings
    trees.viewport_percent = 25.0
    assert module.flush()
    total = len(bpy.data.objects["Strew Trees"].data.vertices)
    assert abs(_drawn("Trees")[0] - 0.25 * total) < 4 * math.sqrt(total) + 1
