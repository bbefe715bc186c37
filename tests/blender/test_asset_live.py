"""Live Update follows assets: moving the empty that places one, editing an object inside the collection it
places (a collection that is not in the scene), or what a Geometry Nodes modifier instances, re-scatters, and the
result is what a fresh Scatter makes."""

from __future__ import annotations

from collections.abc import Callable

import bpy
import numpy as np
import pytest
from assets import asset, barn, box, instancing_grid, placed
from live import assert_same_as_a_fresh_scatter, live_update, positions, settle
from mathutils import Matrix
from scenes import add_layer, make_prefabs, make_terrain


def _scene(role: str) -> dict[str, bpy.types.ID]:
    """A live scene whose layer "Grass" reads a collection holding a placed barn and a Geometry Nodes grid in its
    ``role`` setting; returns what the tests move."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=80.0, subdivisions=20, displace=0.5)
    scene.strew.chunk_size = 15.0
    held = bpy.data.collections.new("Held")
    scene.collection.children.link(held)
    barn_asset = barn()
    empty = placed(barn_asset, "Barn asset", (8.0, -10.0, 0.0), rotation_z=0.4, into=held)
    grid = instancing_grid("Blocks", size=16.0, cuts=2, block=2.0)
    grid.location = (-15.0, 12.0, 0.0)
    if role == "targets":
        floor = asset("Floor", box("Floor", 30.0, location=(0.0, 0.0, -15.0)))
        placed(floor, "Floor asset", (13.0, -7.0, 0.0), into=held)
    held.objects.link(grid)
    settings: dict[str, object] = {role: held}
    if role == "exclusion_collection":
        settings["exclusion_margin"] = 1.0
    elif role == "proximity_collection":
        settings["proximity_far"] = 8.0
    add_layer("Grass", make_prefabs("Grass"), 1.0, 2.0, seed=3, **settings)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.live_update = True
    settle(lambda: setattr(scene.strew.layers["Grass"], "seed", 4))
    return {"empty": empty, "barn": barn_asset.objects["Barn"], "block": bpy.data.objects["Blocks block"]}


CHANGES: dict[str, Callable[[dict[str, bpy.types.ID]], None]] = {
    "move-the-empty": lambda held: setattr(held["empty"], "location", (3.0, -6.0, 0.0)),
    "edit-inside-the-asset": lambda held: setattr(held["barn"], "scale", (1.4, 0.6, 1.0)),
    "turn-the-asset": lambda held: setattr(held["empty"], "rotation_euler", (0.0, 0.0, 1.2)),
    "resize-what-nodes-instance": lambda held: _stretch(held["block"].data),
}


def _stretch(mesh: bpy.types.Mesh) -> None:
    mesh.transform(Matrix.Diagonal((2.5, 2.5, 1.0, 1.0)))
    mesh.update()


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("role", ["exclusion_collection", "proximity_collection", "targets"])
def test_a_change_to_an_asset_re_scatters_like_a_fresh_scatter(role: str, change: str) -> None:
    held = _scene(role)
    before = positions("Grass").copy()
    runs = live_update().service(bpy.context.scene).cache.runs
    settle(lambda: CHANGES[change](held), by_handler=True)  # noticed by Blender's own update
    after = positions("Grass")
    assert len(after) != len(before) or not np.array_equal(after, before)
    assert runs  # the live run went through the cache
    assert_same_as_a_fresh_scatter()
