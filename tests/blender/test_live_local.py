"""A terrain edit under Live Update samples only the chunks near it, and the result is what a fresh Scatter makes,
byte for byte."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from live import layer_key, live_update, outputs, settle, surface_key
from scenes import add_layer, make_prefabs, make_terrain

LAYERS = ("Trees", "Bushes")


@pytest.fixture
def wide_scene() -> bpy.types.Object:
    terrain = make_terrain(size=100.0, subdivisions=40)
    scene = bpy.context.scene
    scene.strew.terrain = terrain
    scene.strew.chunk_size = 15.0
    add_layer("Trees", make_prefabs("Trees"), 2.0, 3.0, seed=1, density_mode='NOISE', noise_scale=12.0)
    add_layer("Bushes", make_prefabs("Bushes"), 1.0, 1.0, seed=2, keep_away=1.5)
    bpy.ops.strew.scatter()
    scene.strew.live_update = True
    return terrain


def assert_equals_a_fresh_scatter() -> None:
    """The live output is byte for byte what the Scatter button makes (every chunk sampled, no cache)."""
    live = outputs()
    bpy.ops.strew.scatter()
    for name, attributes in outputs().items():
        for key, values in attributes.items():
            np.testing.assert_array_equal(live[name][key], values, err_msg=f"{name}.{key}")


def bump(terrain: bpy.types.Object, x: float, y: float, across: float = 0.0) -> None:
    """Raise the vertices within 4 m of (x, y) by 2 m; with ``across``, also slide them sideways by up to that
    much, as a sculpt brush moves vertices along the surface's normal."""
    for vertex in terrain.data.vertices:
        if (vertex.co.x - x) ** 2 + (vertex.co.y - y) ** 2 < 16.0:
            vertex.co.z += 2.0
            vertex.co.x += across * np.sin(vertex.co.y)
            vertex.co.y += across * np.cos(vertex.co.x)
    terrain.data.update()


@pytest.mark.parametrize(("spot", "across"), [((5.0, -3.0), 0.0), ((-40.0, 35.0), 0.0), ((5.0, -3.0), 0.8)],
                         ids=["inside", "near the rim", "sculpted"])
def test_a_bump_samples_the_chunks_near_it_and_equals_a_fresh_scatter(wide_scene, spot, across) -> None:
    cache = live_update().service(bpy.context.scene).cache
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 4))  # a full live run fills the cache
    runs = {name: cache.runs[layer_key(name)][1] for name in LAYERS}
    lookup = cache.surfaces[surface_key("Terrain")][1].lookup
    settle(lambda: bump(wide_scene, *spot, across=across))
    surface = cache.surfaces[surface_key("Terrain")][1]
    edited = surface.lookup  # worked out from the one before for the changed triangles (the Displace modifier
    assert edited is not lookup  # pushes along the normals: the evaluated terrain moves sideways too)
    fresh = type(edited)(surface.mesh.vertices, surface.mesh.triangles)
    for name in ("kept", "bary", "height", "normal"):
        assert getattr(edited._tables, name).tobytes() == getattr(fresh._tables, name).tobytes(), name
    for name in ("items", "starts"):
        assert getattr(edited._tables.grid.cells, name).tobytes() == getattr(fresh._tables.grid.cells, name).tobytes()
    for name in LAYERS:
        parts, before = cache.runs[layer_key(name)][1].parts, runs[name].parts
        kept = sum(a is b for a, b in zip(parts, before, strict=True))
        assert 0.6 * len(parts) < kept < len(parts), (name, kept, len(parts))  # only chunks near the bump sampled
    assert_equals_a_fresh_scatter()


def test_a_bump_then_a_seed_change_samples_everything_again(wide_scene) -> None:
    cache = live_update().service(bpy.context.scene).cache
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 4))
    settle(lambda: bump(wide_scene, 5.0, -3.0))
    trees = cache.runs[layer_key("Trees")][1].parts
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 9))
    assert not any(a is b for a, b in zip(cache.runs[layer_key("Trees")][1].parts, trees, strict=True))
    live = outputs()
    bpy.ops.strew.scatter()
    for name, attributes in outputs().items():
        for key, values in attributes.items():
            np.testing.assert_array_equal(live[name][key], values, err_msg=f"{name}.{key}")


@pytest.mark.parametrize("role", ["exclusion_collection", "proximity_collection"])
def test_moving_an_exclude_or_proximity_object_samples_near_it_and_equals_a_fresh_scatter(wide_scene, role) -> None:
    scene = bpy.context.scene
    rocks = bpy.data.collections.new("Rocks")
    scene.collection.children.link(rocks)
    mesh = bpy.data.meshes.new("Rock")
    mesh.from_pydata([(-2, -2, 0), (2, -2, 0), (2, 2, 0), (-2, 2, 0)], [], [(0, 1, 2, 3)])
    rock = bpy.data.objects.new("Rock", mesh)
    rock.location = (5.0, -3.0, 20.0)
    rocks.objects.link(rock)
    trees = scene.strew.layers["Trees"]
    cache = live_update().service(scene).cache
    if role == "exclusion_collection":
        settle(lambda: (setattr(trees, role, rocks), setattr(trees, "exclusion_margin", 1.0)))
    else:
        settle(lambda: (setattr(trees, role, rocks), setattr(trees, "proximity_far", 6.0)))
    runs = {name: cache.runs[layer_key(name)][1] for name in LAYERS}
    settle(lambda: setattr(rock, "location", (8.0, -1.0, 20.0)), by_handler=True)
    for name in LAYERS:
        parts, before = cache.runs[layer_key(name)][1].parts, runs[name].parts
        kept = sum(a is b for a, b in zip(parts, before, strict=True))
        assert 0.6 * len(parts) < kept < len(parts), (name, kept, len(parts))  # only chunks near the rock sampled
    assert_equals_a_fresh_scatter()
