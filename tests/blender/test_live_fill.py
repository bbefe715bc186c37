"""The Scatter button fills the live update's cache: the first edit after it samples only the chunks near the edit,
and the output is byte for byte what a fresh Scatter of the edited scene makes."""

from __future__ import annotations

import importlib
import math

import bpy
import numpy as np
import pytest
from live import layer_key, live_update, outputs, settle
from scenes import add_layer, make_prefabs, make_terrain

BUMP = (5.0, -3.0)


def _fill():  # the module as Blender loaded it
    return importlib.import_module("bl_ext.strew_dev.strew.scene.live_fill")


def _bump(terrain: bpy.types.Object, x: float, y: float) -> None:
    """Raise the vertices within 4 m of (x, y) by 2 m."""
    for vertex in terrain.data.vertices:
        if (vertex.co.x - x) ** 2 + (vertex.co.y - y) ** 2 < 16.0:
            vertex.co.z += 2.0
    terrain.data.update()


def _houses() -> bpy.types.Collection:
    collection = bpy.data.collections.new("Houses")
    bpy.context.scene.collection.children.link(collection)
    mesh = bpy.data.meshes.new("House")
    mesh.from_pydata([(-2, -2, 0), (2, -2, 0), (2, 2, 0), (-2, 2, 0)], [], [(0, 1, 2, 3)])
    house = bpy.data.objects.new("House", mesh)
    house.location = (-15.0, 15.0, 20.0)
    collection.objects.link(house)
    return collection


def _camera() -> None:
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    bpy.context.scene.collection.objects.link(camera)
    camera.location, camera.rotation_euler = (10.0, -50.0, 40.0), (math.radians(45), 0.0, 0.0)
    bpy.context.scene.camera = camera


def _image() -> bpy.types.Image:
    image = bpy.data.images.new("Density", 8, 8)
    image.pixels.foreach_set(np.linspace(0.2, 1.0, 256, dtype=np.float32))
    return image


def _scene(seed: int) -> bpy.types.Object:
    """A wide terrain in 15 m chunks, with layers of different inputs: noise with Exclude, camera cull, Object Size
    spacing, and an image density (below the others, so they keep it away)."""
    terrain = make_terrain(size=64.0, subdivisions=24)
    terrain.data.vertices[0].co.z += 8.0  # a spike in a corner: the bump leaves the height range (the camera's view
    terrain.data.update()  # region, hence the culled layer's chunk grid) as it was
    scene = bpy.context.scene
    scene.strew.terrain = terrain
    scene.strew.chunk_size = 12.0
    add_layer("Trees", make_prefabs("Trees"), 2.0, 3.0, seed=seed, density_mode='NOISE', noise_scale=12.0,
              exclusion_collection=_houses(), exclusion_margin=1.0)
    _camera()
    add_layer("Bushes", make_prefabs("Bushes"), 1.2, 1.6, seed=seed + 1, keep_away=1.5, camera_cull=True,
              camera_margin=2.0)
    add_layer("Rocks", make_prefabs("Rocks"), 1.5, 1.5, seed=seed + 2, spacing='OBJECTS')
    add_layer("Flowers", make_prefabs("Flowers"), 1.5, 2.0, seed=seed + 3, density_mode='IMAGE',
              density_image=_image())
    return terrain


def _runs() -> dict[str, object]:
    cache = live_update().service(bpy.context.scene).cache
    return {layer.name: cache.runs[layer.layer_id][1] for layer in bpy.context.scene.strew.layers
            if layer.layer_id in cache.runs}


def _assert_equals_a_fresh_scatter() -> None:
    """The live output equals what the Scatter button makes with Live Update off (the plain job), byte for byte."""
    live = outputs()
    bpy.context.scene.strew.live_update = False
    bpy.ops.strew.scatter()
    for name, attributes in outputs().items():
        for key, values in attributes.items():
            assert live[name][key].tobytes() == values.tobytes(), f"{name}.{key}"


@pytest.mark.parametrize("seed", [1])  # seed 5 in the test of the modal job below
def test_the_first_edit_after_a_scatter_samples_only_near_it(seed: int) -> None:
    terrain = _scene(seed)
    scene = bpy.context.scene
    scene.strew.live_update = True
    bpy.ops.strew.scatter()
    runs = _runs()
    assert set(runs) == {"Trees", "Bushes", "Rocks", "Flowers"}  # every layer's run, straight after the Scatter
    settle(lambda: _bump(terrain, *BUMP))
    after = _runs()
    for name, run in runs.items():
        kept = sum(a is b for a, b in zip(after[name].parts, run.parts, strict=True))
        assert 0.6 * len(run.parts) < kept < len(run.parts), (name, kept, len(run.parts))
    _assert_equals_a_fresh_scatter()


def test_the_scatter_output_is_the_plain_jobs_and_live_update_off_keeps_nothing() -> None:
    _scene(3)
    scene = bpy.context.scene
    assert _fill().scatter_sampler(scene) is None
    bpy.ops.strew.scatter()
    plain = outputs()
    assert not live_update().service(scene).cache.runs
    scene.strew.live_update = True
    bpy.ops.strew.scatter()
    for name, attributes in outputs().items():
        for key, values in attributes.items():
            assert plain[name][key].tobytes() == values.tobytes(), f"{name}.{key}"
    assert _runs()


def test_the_modal_scatters_job_with_workers_fills_the_cache() -> None:
    """What the Scatter button's ``invoke`` hands the modal runner (the job with :func:`scatter_sampler`), on two
    worker processes."""
    terrain = _scene(5)
    scene = bpy.context.scene
    scene.strew.live_update, scene.strew.workers = True, 2
    job = importlib.import_module("bl_ext.strew_dev.strew.scene.scatter_job")
    steps = job.run(bpy.context, None, sampler=_fill().scatter_sampler(scene))
    while True:
        try:
            next(steps)
        except StopIteration:
            break
    runs = _runs()
    assert set(runs) == {"Trees", "Bushes", "Rocks", "Flowers"}
    settle(lambda: _bump(terrain, *BUMP))
    after = _runs()
    for name, run in runs.items():
        kept = sum(a is b for a, b in zip(after[name].parts, run.parts, strict=True))
        assert 0.6 * len(run.parts) < kept < len(run.parts), (name, kept, len(run.parts))
    _assert_equals_a_fresh_scatter()


def test_a_scatter_of_one_layer_keeps_the_other_layers_entries() -> None:
    _scene(2)
    scene = bpy.context.scene
    scene.strew.live_update = True
    bpy.ops.strew.scatter()
    before = _runs()
    bpy.ops.strew.scatter(layer_index=2)  # Rocks and the enabled layers below it
    after = _runs()
    assert after["Trees"] is before["Trees"] and after["Bushes"] is before["Bushes"]
    assert after["Rocks"] is not before["Rocks"]
    assert layer_key("Rocks") in live_update().service(scene).cache.samples
