"""The viewport preview draws each layer's own point output, renamed or far from the origin, never a copy."""

from __future__ import annotations

import importlib

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain


def _preview():  # the module as Blender loaded it
    return importlib.import_module("bl_ext.strew_dev.strew.panels.preview")


def _scene(offset: float = 0.0) -> None:
    bpy.context.scene.strew.terrain = make_terrain(size=16.0, subdivisions=6, location=(offset, offset, 0.0))
    add_layer("Trees", make_prefabs("Trees", 2), 2.0, 2.0, seed=1)
    add_layer("Rocks", make_prefabs("Rocks", 2), 1.0, 1.0, seed=2)
    assert bpy.ops.strew.scatter() == {'FINISHED'}


def test_renamed_outputs_are_drawn_and_copies_are_not() -> None:
    _scene()
    trees = bpy.data.objects["Strew Trees"]
    trees.name = "Forest"
    copy = trees.copy()
    trees.users_collection[0].objects.link(copy)
    assert sorted(obj.name for obj in _preview().drawn(bpy.context.scene)) == ["Forest", "Strew Rocks"]
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert _preview().drawn(bpy.context.scene) == []


@pytest.mark.parametrize("offset", [0.0, 1e5, 1e7], ids=["origin", "1e5", "1e7"])
def test_points_are_drawn_where_they_are_stored(offset: float) -> None:
    _scene(offset)
    for obj in _preview().drawn(bpy.context.scene):
        points, radii = _preview().world_points(obj)
        co = np.empty(len(obj.data.vertices) * 3, dtype=np.float32)
        obj.data.vertices.foreach_get("co", co)
        stored = co.reshape(-1, 3).astype(np.float64) + np.array(obj.location[:], dtype=np.float32)
        np.testing.assert_array_equal(points, stored)
        assert np.abs(points[:, :2] - offset).max() < 30.0
        assert set(radii.tolist()) == {2.0 if obj.name == "Strew Trees" else 1.0}
