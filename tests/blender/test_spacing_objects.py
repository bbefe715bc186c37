"""Spacing by object size: every instance keeps its own footprint, and footprints keep the gap between their edges.

The checks measure what Blender draws, not what Strew computed: each drawn instance's footprint comes from the
evaluated prefab's bounding box under the instance's own world matrix (the depsgraph's instances, or the real
objects), and every pair of instances is compared.
"""

from __future__ import annotations

import importlib
import math

import bpy
import numpy as np
import pytest
from live import assert_same_as_a_fresh_scatter, positions, settle
from mathutils import Vector
from scenes import (
    add_layer,
    distance_to_segments,
    make_road,
    make_terrain,
    ray_down,
    scene_snapshot,
    terrain_bvh,
)
from scipy.spatial import cKDTree

from strew.core import hashing

GAP = 0.5


def _prefabs() -> bpy.types.Collection:
    """Two of Blender's own primitives, radii 0.25 and 2.5, in an excluded collection."""
    collection = bpy.data.collections.new("Rocks")
    bpy.context.scene.collection.children.link(collection)
    bpy.ops.mesh.primitive_cylinder_add(radius=0.25, depth=0.4, location=(0.0, 0.0, 0.0))
    pebble = bpy.context.active_object
    pebble.name = "Pebble"
    bpy.ops.mesh.primitive_uv_sphere_add(radius=2.5, location=(0.0, 0.0, 0.0))
    boulder = bpy.context.active_object
    boulder.name = "Boulder"
    for obj in (pebble, boulder):
        for other in list(obj.users_collection):
            other.objects.unlink(obj)
        collection.objects.link(obj)
    bpy.context.view_layer.layer_collection.children[collection.name].exclude = True
    return collection


def _scene(output: str = 'GEOMETRY_NODES', seed: int = 3, size: float = 40.0) -> bpy.types.PropertyGroup:
    bpy.context.scene.strew.terrain = make_terrain(size=size, subdivisions=10, displace=1.0)
    return add_layer("Rocks", _prefabs(), GAP, GAP, seed=seed, spacing='OBJECTS', scale_min=0.5, scale_max=1.6,
                     output_mode=output)


def _drawn(axes: int = 2) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(origins, footprint radii, prefab names) of every instance Blender draws for the layer: seen from above
    (``axes=2``: origins' x, y and the circle about each origin holding the drawn bounding box's x, y), or in 3-D
    (``axes=3``: the sphere about each origin holding the drawn bounding box)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    origins, radii, names = [], [], []
    for inst in depsgraph.object_instances:
        obj = inst.object
        if not (inst.is_instance and obj.name in ("Pebble", "Boulder")):
            continue
        _add(np.array(inst.matrix_world), obj, origins, radii, names, axes)
    for obj in bpy.data.objects:  # linked duplicates: real objects sharing a prefab's mesh
        if not inst_is_duplicate(obj):
            continue
        _add(np.array(obj.matrix_world), obj.evaluated_get(depsgraph), origins, radii, names, axes)
    return np.array(origins), np.array(radii), names


def inst_is_duplicate(obj: bpy.types.Object) -> bool:
    return obj.get("strew_owner") is not None and obj.data is not None and obj.name.startswith("Rocks.")


def _add(matrix: np.ndarray, obj: bpy.types.Object, origins: list, radii: list, names: list, axes: int) -> None:
    corners = np.array(obj.bound_box) @ matrix[:3, :3].T
    origins.append(matrix[:axes, 3])
    radii.append(float(np.sqrt((corners[:, :axes] ** 2).sum(axis=1)).max()))
    names.append(obj.name.split(".")[0] if obj.name.startswith("Rocks.") else obj.name)


def _closest_gap(xy: np.ndarray, radii: np.ndarray) -> float:
    """The smallest distance between two footprints' edges (every pair that could be close is measured)."""
    tree = cKDTree(xy)
    pairs = tree.query_pairs(2.0 * float(radii.max()) + 2.0 * GAP, output_type='ndarray')
    distance = np.linalg.norm(xy[pairs[:, 0]] - xy[pairs[:, 1]], axis=1)
    return float((distance - radii[pairs[:, 0]] - radii[pairs[:, 1]]).min())


@pytest.mark.parametrize("seed", [1, 3, 8])
def test_footprints_never_overlap_and_keep_the_gap(seed):
    _scene(seed=seed)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, radii, names = _drawn()
    big = np.array([n == "Boulder" for n in names])
    assert big.sum() >= 3 and (~big).sum() > 300
    # float32 positions in the output: allow a hundredth of a millimetre
    assert _closest_gap(xy, radii) >= GAP - 1e-5
    # small objects pack between large ones: some pebble stands closer to a boulder than two boulders can
    tree = cKDTree(xy[big])
    near, _ = tree.query(xy[~big])
    assert (near < 2.0 * radii[big].min() + GAP).any()


def test_no_place_left_where_the_object_drawn_there_would_fit():
    layer = _scene(seed=5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, radii, _ = _drawn()
    footprint = {"Pebble": 0.25 * math.sqrt(2.0), "Boulder": 2.5 * math.sqrt(2.0)}  # square bounding boxes
    terrain = bpy.context.scene.strew.terrain
    corners = np.array([terrain.matrix_world @ Vector(c) for c in terrain.bound_box])[:, :2]
    probes = np.random.default_rng(0).uniform(corners.min(axis=0), corners.max(axis=0), (100_000, 2))
    probes = probes[np.isfinite(ray_down(terrain_bvh(terrain), probes)[0])]  # places on the ground
    assert len(probes) > 30_000
    prefab = hashing.hash_choice(probes, layer.seed, [1.0, 1.0])  # pick order: Boulder, Pebble (by name)
    scale = hashing.hash_scale(probes, layer.seed, layer.scale_min, layer.scale_max)
    own = np.where(prefab == 0, footprint["Boulder"], footprint["Pebble"]) * scale
    reach = float(own.max() + radii.max()) + GAP  # every instance that could hold a probe off
    distance, index = cKDTree(xy).query(probes, k=256, distance_upper_bound=reach)
    found = np.isfinite(distance)
    held = (found & (distance < own[:, None] + radii[np.where(found, index, 0)] + GAP)).any(axis=1)
    assert held.mean() > 0.9995  # every free place would be a hole a drawn object fits in


def test_collection_empties_keep_the_prefab_scale():
    _scene(output='EMPTIES', seed=2, size=30.0)
    bpy.data.objects["Boulder"].scale = (0.4, 0.4, 0.4)  # empties draw the prefab as it stands
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, radii, _ = _drawn()
    assert len(xy) > 100
    assert _closest_gap(xy, radii) >= GAP - 1e-5


def test_strew_radius_overrides_the_footprint():
    _scene(seed=4)
    bpy.data.objects["Pebble"]["strew_radius"] = 1.5
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, radii, names = _drawn()
    pebble = np.array([n == "Pebble" for n in names])
    assert pebble.sum() > 10
    radii[pebble] = 1.5 * _scales()[pebble]  # what the user asked it to cover, at the instance's scale
    assert _closest_gap(xy, radii) >= GAP - 1e-5


def _scales() -> np.ndarray:
    """The scale of every drawn instance, in the order of :func:`_drawn`."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    return np.array([np.linalg.norm(np.array(inst.matrix_world)[:3, 0]) for inst in depsgraph.object_instances
                     if inst.is_instance and inst.object.name in ("Pebble", "Boulder")])


@pytest.mark.parametrize("value", ["wide", -1.0])
def test_an_unusable_strew_radius_is_one_line_and_changes_nothing(value):
    _scene()
    bpy.data.objects["Pebble"]["strew_radius"] = value
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as raised:
        bpy.ops.strew.scatter()
    message = str(raised.value).strip().splitlines()[-1]
    assert "strew_radius" in message and "Pebble" in message and "Traceback" not in str(raised.value)
    assert scene_snapshot() == before


def test_the_same_on_one_and_two_workers():
    _scene(seed=6)
    settings = bpy.context.scene.strew
    settings.chunk_size = 10.0
    settings.workers = 1
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    one = _drawn()[0]
    settings.workers = 2
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    two = _drawn()[0]
    assert np.array_equal(np.sort(one, axis=0), np.sort(two, axis=0))



def test_painting_and_rescattering_keep_footprints_apart():
    _scene(seed=2)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, _, _ = _drawn()
    centre = xy.mean(axis=0)
    at = (float(centre[0]), float(centre[1]))
    assert bpy.ops.strew.rescatter_region(layer_index=0, shape='CIRCLE', centre=at, radius=8.0, seed=77) == {
        'FINISHED'}
    dab = [{"name": "", "location": (*at, 0.0)}]
    assert bpy.ops.strew.paint(layer_index=0, radius=3.0, erase=True, stroke=dab) == {'FINISHED'}
    assert bpy.ops.strew.paint(layer_index=0, radius=6.0, stroke=dab) == {'FINISHED'}
    xy, radii, _ = _drawn()
    assert len(xy) > 100
    assert _closest_gap(xy, radii) >= GAP - 1e-5  # the layer's own instances are kept apart exactly


def test_the_command_line_sets_it(strew_extension, tmp_path, capsys):
    main = importlib.import_module(f"{strew_extension.__name__}.cli").main
    layer = _scene(seed=6)
    layer.spacing = 'RADIUS'
    path = tmp_path / "rocks.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    assert main(["scatter", str(path), "--layer", "Rocks:0.5:0.5", "--spacing", "objects",
                 "--in-place"]) == 0
    bpy.ops.wm.open_mainfile(filepath=str(path))
    assert bpy.context.scene.strew.layers["Rocks"].spacing == 'OBJECTS'
    xy, radii, _ = _drawn()
    assert len(xy) > 100 and _closest_gap(xy, radii) >= GAP - 1e-5
    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main(["scatter", str(path), "--spacing", "sizes", "--in-place"])
    assert stopped.value.code == 2 and "--spacing" in capsys.readouterr().err


@pytest.mark.parametrize("change", ["edit", "strew_radius"])
def test_live_update_follows_the_prefabs_size(change):
    _scene(seed=2, size=30.0)
    rocks = bpy.data.collections["Rocks"]
    bpy.context.view_layer.layer_collection.children[rocks.name].exclude = False  # a kit being modelled
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    bpy.context.scene.strew.live_update = True
    before = positions("Rocks")
    boulder = bpy.data.objects["Boulder"]

    def grow() -> None:
        if change == "edit":
            co = np.empty(len(boulder.data.vertices) * 3)
            boulder.data.vertices.foreach_get("co", co)
            boulder.data.vertices.foreach_set("co", co * 0.5)
            boulder.data.update()
        else:
            boulder["strew_radius"] = 1.0

    settle(grow, by_handler=True)
    assert not np.array_equal(positions("Rocks"), before)
    assert_same_as_a_fresh_scatter()


@pytest.mark.parametrize("margin", [0.0, 1.0])
def test_a_road_in_exclude_keeps_its_margin_from_every_footprint(margin):
    layer = _scene(seed=5)
    terrain = bpy.context.scene.strew.terrain
    corners = np.array([terrain.matrix_world @ Vector(c) for c in terrain.bound_box])[:, :2]
    low, high = corners.min(axis=0), corners.max(axis=0)
    road, segments = make_road([(low[0], low[1]), ((low[0] + high[0]) / 2, high[1] - 6.0), (high[0], low[1] + 4.0)])
    layer.exclusion_collection, layer.exclusion_margin = road, margin
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, radii, names = _drawn()
    assert "Boulder" in names and len(xy) > 100
    clearance = distance_to_segments(xy, segments) - radii
    assert clearance.min() >= margin - 1e-4  # no boulder overhangs the road
    assert clearance.min() < margin + 0.5  # and the ground along the road is used


def test_every_face_keeps_the_gap_between_spheres_in_3d():
    """On Every Face an instance stands along its face's normal: it keeps the sphere about its origin that holds its
    drawn bounding box, and two spheres keep the gap in 3-D, across the curve of the rock too."""
    bpy.ops.mesh.primitive_uv_sphere_add(radius=12.0, location=(3.0, -2.0, 1.0))
    rock = bpy.context.active_object
    rock.name = "Rock"
    bpy.context.scene.strew.terrain = rock
    add_layer("Rocks", _prefabs(), GAP, GAP, seed=4, spacing='OBJECTS', surface='ALL', scale_min=0.5, scale_max=1.6)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    origins, radii, names = _drawn(axes=3)
    big = np.array([n == "Boulder" for n in names])
    assert big.sum() >= 3 and (~big).sum() > 200
    assert origins[:, 2].min() < 1.0 - 10.0 and origins[:, 2].max() > 1.0 + 10.0  # on the underside too
    # float32 positions in the output: allow a hundredth of a millimetre
    assert _closest_gap(origins, radii) >= GAP - 1e-5
    # small objects pack between large ones: some pebble stands closer to a boulder than two boulders can
    near, _ = cKDTree(origins[big]).query(origins[~big])
    assert (near < 2.0 * radii[big].min() + GAP).any()

