"""Every registered layer input answers every question the job, the live cache and the live watch ask of it: read
from a real layer it gives a usable key, run key, watch list, reach and field part, and what it watches is what
its key depends on. A class missing a part, or registered without an example here, fails."""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Callable
from typing import Any

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain, point_attributes

ADDON = "bl_ext.strew_dev.strew"


def _module(name: str) -> Any:
    return importlib.import_module(f"{ADDON}.{name}")


def _box(name: str, collection: bpy.types.Collection, x: float, y: float) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(-2, -2, 0), (2, -2, 0), (2, 2, 0), (-2, 2, 0)], [], [(0, 1, 2, 3)])
    obj = bpy.data.objects.new(name, mesh)
    obj.location = (x, y, 9.0)
    collection.objects.link(obj)
    return obj


def _collection(name: str) -> bpy.types.Collection:
    collection = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(collection)
    _box(f"{name} 0", collection, 10.0, -5.0)
    return collection


def _camera(layer: bpy.types.PropertyGroup) -> None:
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    bpy.context.scene.collection.objects.link(camera)
    camera.location, camera.rotation_euler = (0.0, -30.0, 20.0), (math.radians(60), 0.0, 0.0)
    bpy.context.scene.camera = camera
    layer.camera_cull, layer.camera_margin = True, 1.0
    layer.camera_falloff, layer.camera_falloff_start, layer.camera_falloff_end = True, 5.0, 30.0


def _proximity(layer: bpy.types.PropertyGroup) -> None:
    layer.proximity_collection, layer.proximity_near, layer.proximity_far = _collection("Ponds"), 1.0, 6.0


def _exclude(layer: bpy.types.PropertyGroup) -> None:
    layer.exclusion_collection, layer.exclusion_margin = _collection("Houses"), 1.5


def _mask_group(layer: bpy.types.PropertyGroup) -> None:
    terrain = bpy.context.scene.strew.terrain
    terrain.vertex_groups.new(name="Meadow").add(list(range(0, len(terrain.data.vertices), 3)), 0.8, 'REPLACE')
    layer.mask_vertex_group, layer.mask_threshold = "Meadow", 0.5


def _noise(layer: bpy.types.PropertyGroup) -> None:
    layer.density_mode, layer.noise_scale, layer.density_low, layer.density_invert = 'NOISE', 8.0, 0.2, True


def _group_density(layer: bpy.types.PropertyGroup) -> None:
    terrain = bpy.context.scene.strew.terrain
    terrain.vertex_groups.new(name="Dense").add(list(range(0, len(terrain.data.vertices), 2)), 0.9, 'REPLACE')
    layer.density_mode, layer.density_vertex_group, layer.density_high = 'VERTEX_GROUP', "Dense", 0.7


def _image_density(layer: bpy.types.PropertyGroup) -> None:
    image = bpy.data.images.new("Density", 4, 4)
    image.pixels.foreach_set(np.linspace(0.0, 1.0, 64, dtype=np.float32))
    layer.density_mode, layer.density_image = 'IMAGE', image


def _mask_image(layer: bpy.types.PropertyGroup) -> None:
    image = bpy.data.images.new("Meadows", 4, 4)
    image.pixels.foreach_set(np.linspace(0.0, 1.0, 64, dtype=np.float32))
    layer.mask_image, layer.mask_image_threshold = image, 0.4


def _along(layer: bpy.types.PropertyGroup) -> None:
    collection = bpy.data.collections.new("Hedgerows")
    bpy.context.scene.collection.children.link(collection)
    curve = bpy.data.curves.new("Hedgerow", 'CURVE')
    spline = curve.splines.new('POLY')
    spline.points.add(2)
    for point, co in zip(spline.points, [(-10, -5, 0, 1), (0, 5, 0, 1), (12, 8, 0, 1)], strict=True):
        point.co = co
    collection.objects.link(bpy.data.objects.new("Hedgerow", curve))
    layer.along_curves, layer.along_mode, layer.along_width = collection, 'BAND', 3.0


def _targets(layer: bpy.types.PropertyGroup) -> None:
    layer.targets = _collection("Rocks")


EXAMPLES: dict[str, Callable[[bpy.types.PropertyGroup], None]] = {
    "NoiseDensity": _noise,
    "GroupDensity": _group_density,
    "ImageDensity": _image_density,
    "Camera": _camera,
    "Exclude": _exclude,
    "MaskGroup": _mask_group,
    "MaskImage": _mask_image,
    "Targets": _targets,
    "Proximity": _proximity,
    "Along": _along,
}
"""Per input class: settings of a layer that make it use that input (every registered class needs one)."""


@pytest.fixture
def layer() -> bpy.types.PropertyGroup:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    return add_layer("Trees", make_prefabs("Trees"), 1.0, 2.0, seed=1)


def _inputs() -> tuple[type, ...]:
    return _module("scene.layer_inputs").INPUTS


def _read(kind: type) -> Any:
    """The layer's input of class ``kind`` as the Scatter job reads it."""
    job = _module("scene.scatter_spec").read(bpy.context.scene)
    found = [part for part in job.layers[0].inputs if isinstance(part, kind)]
    assert len(found) == 1, f"{kind.__name__} is not read by scatter_spec"
    return found[0]


def test_every_registered_input_is_a_complete_input_class_with_an_example() -> None:
    base = _module("scene.layer_inputs").Input
    for kind in _inputs():
        assert issubclass(kind, base) and not inspect.isabstract(kind), kind
        assert kind.__doc__ and kind.__module__.startswith(f"{ADDON}.scene.layer_inputs"), kind
    assert set(EXAMPLES) == {kind.__name__ for kind in _inputs()}, "each input needs its example in EXAMPLES"


def test_a_layer_without_the_settings_uses_none_of_the_inputs(layer) -> None:
    assert _module("scene.scatter_spec").read(bpy.context.scene).layers[0].inputs == ()
    for kind in _inputs():
        watched = kind.watched(bpy.context.scene.strew, layer)
        assert watched.blocks == () and not watched.groups, kind


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_input_answers_every_question(layer, name: str) -> None:
    inputs = _module("scene.layer_inputs")
    kind = next(kind for kind in _inputs() if kind.__name__ == name)
    EXAMPLES[name](layer)
    bpy.context.view_layer.update()
    depsgraph = bpy.context.evaluated_depsgraph_get()
    part = _read(kind)
    watched = kind.watched(bpy.context.scene.strew, layer)
    assert isinstance(watched, inputs.Watched)
    assert all(isinstance(block, bpy.types.ID) for block in watched.blocks)
    assert all(isinstance(group, str) and group for group in watched.groups)
    assert part.vertex_groups() <= watched.groups, "the groups it reads are watched"
    hash(watched.values)
    key, run_key = part.key(depsgraph), part.run_key()
    hash(key), hash(run_key)
    assert key is None or key == _read(kind).key(depsgraph), "the key is stable"
    for collection, reach in part.reaches():
        assert isinstance(collection, bpy.types.Collection) and reach >= 0.0
    job = _module("scene.scatter_spec").read(bpy.context.scene)
    surfaces = _module("scene.layer_surface").Surfaces(job, depsgraph)
    source = surfaces.fields_source(job.layers[0])
    built = part.build(inputs.Source(source.lookup, source.mesh, depsgraph))
    assert isinstance(built, inputs.Part)
    xy = np.array([[10.0, -5.0], [0.0, 0.0], [-12.0, 8.0]])
    for field in (built.density, built.mask):
        if field is not None:
            assert np.asarray(field(xy)).shape == (3,)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_moving_what_an_input_watches_changes_its_key(layer, name: str) -> None:
    kind = next(kind for kind in _inputs() if kind.__name__ == name)
    EXAMPLES[name](layer)
    bpy.context.view_layer.update()
    objects = [block for block in kind.watched(bpy.context.scene.strew, layer).blocks
               if isinstance(block, bpy.types.Object)]
    before = _read(kind).key(bpy.context.evaluated_depsgraph_get())
    before_run = _read(kind).run_key()
    if before is None or not objects:
        pytest.skip(f"{name} is built again every run, or watches no object")
    for obj in objects:
        obj.location.x += 0.5
        bpy.context.view_layer.update()
        now = _read(kind)
        assert now.key(bpy.context.evaluated_depsgraph_get()) != before, obj.name
        if any(obj.name in {o.name for o in collection.all_objects} for collection, _ in now.reaches()):
            assert now.run_key() == before_run  # compared where it changed instead


def test_a_mask_image_keeps_the_layer_where_the_image_is_bright(layer) -> None:
    terrain = bpy.context.scene.strew.terrain
    terrain.location, terrain.rotation_euler, terrain.scale = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    image = bpy.data.images.new("East", 8, 8)
    pixels = np.zeros((8, 8, 4), dtype=np.float32)
    pixels[:, 4:, :3] = 1.0  # white on the east half (columns are x)
    pixels[..., 3] = 1.0
    image.pixels.foreach_set(pixels.ravel())
    layer.mask_image = image
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    x = point_attributes(bpy.data.objects["Strew Trees"])["position"][:, 0]
    assert len(x) > 20 and (x > -0.5).all()
