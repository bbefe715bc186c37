"""A stroke on a layer's density or mask image under Live Update samples only the chunks under the changed
pixels' footprint, and the output is byte for byte what a fresh Scatter of the painted image makes."""

from __future__ import annotations

import importlib

import bpy
import numpy as np
import pytest
from live import live_update, outputs, settle
from scenes import add_layer, make_prefabs, make_terrain

SIDE = 32  # pixels


def _image(name: str) -> bpy.types.Image:
    image = bpy.data.images.new(name, SIDE, SIDE)
    ramp = np.linspace(0.3, 1.0, SIDE * SIDE, dtype=np.float32)
    image.pixels.foreach_set(np.repeat(ramp, 4))
    return image


def _stroke(image: bpy.types.Image, row: int, col: int, value: float) -> None:
    """Paint a 3 × 3 dab of grey ``value`` centred on pixel (row, col), rows bottom to top."""
    pixels = np.empty(SIDE * SIDE * 4, dtype=np.float32)
    image.pixels.foreach_get(pixels)
    grid = pixels.reshape(SIDE, SIDE, 4)
    grid[max(row - 1, 0):row + 2, max(col - 1, 0):col + 2, :3] = value
    image.pixels.foreach_set(pixels)
    image.update()
    image.update_tag()  # as a paint stroke tags it: the depsgraph reports the image


def _scene(seed: int, setting: str) -> bpy.types.Image:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=64.0, subdivisions=24)
    scene.strew.chunk_size = 10.0
    image = _image("Paint")
    settings: dict[str, object] = ({"density_mode": 'IMAGE', "density_image": image} if setting == "density"
                                   else {"mask_image": image, "mask_image_threshold": 0.5})
    add_layer("Trees", make_prefabs("Trees"), 1.2, 2.0, seed=seed, **settings)
    add_layer("Bushes", make_prefabs("Bushes"), 1.0, 1.0, seed=seed + 1, keep_away=1.0)
    return image


def _runs() -> dict[str, object]:
    cache = live_update().service(bpy.context.scene).cache
    return {layer.name: cache.runs[layer.layer_id][1] for layer in bpy.context.scene.strew.layers}


@pytest.mark.parametrize(("seed", "setting", "dab"), [(1, "density", (12, 17)), (5, "mask", (20, 9)),
                                                      (9, "density", (0, 31))],
                         ids=["density", "mask", "density at a corner"])
def test_a_stroke_samples_only_under_it_and_equals_a_fresh_scatter(seed: int, setting: str, dab) -> None:
    image = _scene(seed, setting)
    scene = bpy.context.scene
    scene.strew.live_update = True
    bpy.ops.strew.scatter()
    runs = _runs()
    settle(lambda: _stroke(image, *dab, value=0.05 if setting == "mask" else 1.0), by_handler=True)
    after = _runs()
    for name, run in runs.items():  # Bushes run again only where the Trees moved (maybe nowhere)
        kept = sum(a is b for a, b in zip(after[name].parts, run.parts, strict=True))
        assert 0.6 * len(run.parts) < kept <= len(run.parts) - (name == "Trees"), (name, kept, len(run.parts))
    live = outputs()
    scene.strew.live_update = False
    bpy.ops.strew.scatter()
    for name, attributes in outputs().items():
        for key, values in attributes.items():
            assert live[name][key].tobytes() == values.tobytes(), f"{name}.{key}"


def test_an_image_of_another_size_samples_everything() -> None:
    image = _scene(3, "density")
    scene = bpy.context.scene
    scene.strew.live_update = True
    bpy.ops.strew.scatter()
    runs = _runs()
    settle(lambda: (image.scale(SIDE // 2, SIDE // 2), image.update_tag()), by_handler=True)
    after = _runs()
    assert not any(a is b for a, b in zip(after["Trees"].parts, runs["Trees"].parts, strict=True))


def test_the_boxes_hold_every_place_whose_value_changed() -> None:
    """Probed densely (inside the image's rectangle, beyond its edges and on the pixel centres), the bilinear field
    of the painted image differs from the one before only inside the boxes."""
    strew = "bl_ext.strew_dev.strew"
    changed_boxes = importlib.import_module(f"{strew}.scene.image_changes").changed_boxes
    image_field = importlib.import_module(f"{strew}.core.fields").ImageField
    rng = np.random.default_rng(7)
    low, high = np.array([-13.0, 4.0]), np.array([27.0, 30.0])
    for _ in range(8):
        height, width = (int(n) for n in rng.integers(2, 300, size=2))
        before = rng.random((height, width))
        after = before.copy()
        for _ in range(int(rng.integers(1, 4))):
            row, col = int(rng.integers(0, height)), int(rng.integers(0, width))
            after[row:row + int(rng.integers(1, 6)), col:col + int(rng.integers(1, 6))] = rng.random()
        boxes = changed_boxes((before,), (after,), low, high)
        assert boxes is not None and len(boxes)
        size = (high - low) / np.array([width, height])
        centres = np.stack(np.meshgrid(low[0] + (np.arange(width) + 0.5) * size[0],
                                       low[1] + (np.arange(height) + 0.5) * size[1]), axis=-1).reshape(-1, 2)
        probes = np.concatenate([rng.uniform(low - 8.0, high + 8.0, size=(150_000, 2)), centres])
        differs = image_field(before, low, high)(probes) != image_field(after, low, high)(probes)
        assert differs.any()
        inside = np.zeros(len(probes), dtype=bool)
        for (x0, y0), (x1, y1) in boxes:
            inside |= (probes[:, 0] >= x0) & (probes[:, 0] <= x1) & (probes[:, 1] >= y0) & (probes[:, 1] <= y1)
        assert inside[differs].all(), (height, width)
        assert inside.mean() < 0.5  # a few dabs: the boxes cover a small part of the image


def test_an_image_of_another_size_gives_no_boxes() -> None:
    changed_boxes = importlib.import_module("bl_ext.strew_dev.strew.scene.image_changes").changed_boxes
    assert changed_boxes((np.zeros((4, 4)),), (np.zeros((4, 5)),), np.zeros(2), np.ones(2)) is None
