"""Every instance carries ``strew_random`` (its own value in [0, 1) for shading) and ``strew_id`` (its number).

``strew_random`` is a hash of the point's position and the layer's seed: the same point keeps it through a
re-scatter that moves other points, on any worker count; a material reads it through the instancer (Attribute
node, type Instancer) or, for real objects, as a custom property (type Object).
"""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain

from strew.core import hashing


def _scene(mode: str = 'GEOMETRY_NODES', seed: int = 4) -> bpy.types.PropertyGroup:
    bpy.context.scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    return add_layer("Trees", make_prefabs("Trees", 3), 1.0, 1.5, seed=seed, output_mode=mode)


def _points(name: str = "Strew Trees") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(world xy, strew_random, strew_id) of a layer's point output, as stored."""
    obj = bpy.data.objects[name]
    mesh = obj.data
    count = len(mesh.vertices)
    co = np.empty(count * 3)
    mesh.vertices.foreach_get("co", co)
    xy = (co.reshape(-1, 3) + np.array(obj.location[:]))[:, :2]
    random = np.empty(count, dtype=np.float32)
    mesh.attributes["strew_random"].data.foreach_get("value", random)
    ids = np.empty(count, dtype=np.int32)
    mesh.attributes["strew_id"].data.foreach_get("value", ids)
    return xy, random, ids


def _by_position(xy: np.ndarray, values: np.ndarray) -> dict[tuple[float, float], float]:
    return {(round(float(x), 3), round(float(y), 3)): float(v) for (x, y), v in zip(xy, values, strict=True)}


def test_every_point_has_a_random_value_and_an_id():
    _scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, random, ids = _points()
    assert len(xy) > 100
    assert ((random >= 0) & (random < 1)).all()
    assert ids.tolist() == list(range(len(xy)))
    # spread over [0, 1): each tenth holds some (a constant or a few values would fail)
    assert len(np.unique(np.floor(random * 10))) == 10
    assert len(np.unique(random)) > 0.95 * len(random)


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_the_value_is_the_hash_of_the_position_and_the_seed(seed):
    _scene(seed=seed)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, random, _ = _points()
    layer = bpy.context.scene.strew.layers[0]
    from_core = hashing.hash_uniform(xy, layer.seed, hashing.Stream.RANDOM).astype(np.float32)
    # the hash rounds positions to 0.1 mm; a stored float32 position may fall on the other side of that rounding
    assert (from_core == random).mean() > 0.97


def test_a_point_keeps_its_value_when_others_move():
    layer = _scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    before = _by_position(*_points()[:2])
    layer.max_slope = np.radians(8.0)  # a mask removes the points on steeper ground; the rest stay put
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    after = _by_position(*_points()[:2])
    kept = set(before) & set(after)
    assert 0 < len(kept) < len(before)
    assert all(before[key] == after[key] for key in kept)


def test_the_same_on_one_and_two_workers():
    _scene()
    bpy.context.scene.strew.chunk_size = 8.0
    bpy.context.scene.strew.workers = 1
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    one = _points()
    bpy.context.scene.strew.workers = 2
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    two = _points()
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)


def test_instances_hand_the_value_to_materials():
    """Instance on Points gives the point attributes to the instances a material's Attribute node reads."""
    _scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    _, random, _ = _points()
    obj = bpy.data.objects["Strew Trees"].evaluated_get(bpy.context.evaluated_depsgraph_get())
    if not hasattr(obj, "evaluated_geometry"):
        pytest.skip("this Blender has no Python access to evaluated instances (4.3+)")
    geometry = obj.evaluated_geometry()  # keeps the point cloud below alive
    instances = geometry.instances_pointcloud()
    assert instances is not None and len(instances.points) == len(random)
    values = np.empty(len(random), dtype=np.float32)
    instances.attributes["strew_random"].data.foreach_get("value", values)
    assert np.array_equal(values, random)
    assert "strew_id" in instances.attributes


@pytest.mark.parametrize("mode", ['EMPTIES', 'DUPLICATES'])
def test_real_objects_carry_both_as_custom_properties(mode):
    _scene(mode=mode)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    objects = [o for o in bpy.data.collections["Strew Trees"].objects if "strew_radius" in o]
    assert len(objects) > 100
    ids = sorted(o["strew_id"] for o in objects)
    assert ids == list(range(len(objects)))
    seed = bpy.context.scene.strew.layers[0].seed
    xy = np.array([o.matrix_world.translation[:2] for o in objects])
    expected = hashing.hash_uniform(xy, seed, hashing.Stream.RANDOM)
    got = np.array([o["strew_random"] for o in objects])
    assert (np.abs(got - expected) < 1e-12).mean() > 0.97  # the hash rounds positions to 0.1 mm
