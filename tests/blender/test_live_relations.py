"""Live Update with Around and On Layer: a change of the linked layer, or of the meshes its instances draw, runs the
dependent layer again on what changed, and the result is what a fresh Scatter makes (no stale cache entry)."""

from __future__ import annotations

import bpy
import numpy as np
from live import assert_same_as_a_fresh_scatter, positions, settle
from scenes import add_layer, make_prefabs, make_terrain


def _scene() -> None:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=24.0, subdivisions=6)
    add_layer("Rocks", make_prefabs("Rocks", 2), 5.0, 5.0, seed=1)
    add_layer("Trees", make_prefabs("Trees", 2), 4.0, 4.0, seed=2)
    around = add_layer("Mushrooms", make_prefabs("Mushrooms", 2), 0.4, 0.4, seed=3)
    around.around.layer, around.around_min, around.around_max = "Trees", 0.5, 2.0
    add_layer("Moss", make_prefabs("Moss", 1), 0.05, 0.05, seed=4).on_layer.layer = "Rocks"
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.live_update = True


def _nearest(points: np.ndarray, centres: np.ndarray) -> np.ndarray:
    return np.sqrt(((points[:, None, :2] - centres[None, :, :2]) ** 2).sum(-1)).min(axis=1)


def test_the_ring_follows_its_layer_through_live_updates() -> None:
    _scene()
    before = positions("Mushrooms")
    settle(lambda: setattr(bpy.context.scene.strew.layers["Trees"], "seed", 12))
    after = positions("Mushrooms")
    assert len(after) != len(before) or not np.array_equal(after, before)
    gap = _nearest(after, positions("Trees"))
    assert gap.min() >= 0.5 - 1e-4 and gap.max() <= 2.0 + 1e-4
    assert_same_as_a_fresh_scatter()


def test_editing_a_linked_prefab_mesh_places_the_moss_again() -> None:
    _scene()
    before = positions("Moss")
    rock = bpy.data.objects["Rocks 0"]

    def grow() -> None:
        rock.data.vertices[3].co.z += 0.5  # the tip of the first rock prefab rises
        rock.data.update()

    settle(grow, by_handler=False)
    after = positions("Moss")
    assert len(after) != len(before) or not np.array_equal(after, before)
    assert after[:, 2].max() > before[:, 2].max()  # moss on the higher tips
    assert_same_as_a_fresh_scatter()
