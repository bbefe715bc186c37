"""Far from the world origin the output keeps its spacing: positions are stored relative to an origin near them.

Every check reads positions the way they are stored: float32 offsets plus the float32 location of the object
they are relative to, added in float64.
"""

from __future__ import annotations

import importlib

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain

OFFSETS = [0.0, 1e5, 1e7]
MODES = ['GEOMETRY_NODES', 'EMPTIES', 'DUPLICATES']
RADIUS = 1.0
KEEP = 1.5  # the rocks' distance from the trees


def _scene(offset: float, mode: str) -> None:
    bpy.context.scene.strew.terrain = make_terrain(size=16.0, subdivisions=6, location=(offset + 13.0,
                                                                                       -offset - 7.0, 2.0))
    add_layer("Trees", make_prefabs("Trees", 2), 2.0, 2.0, seed=1, output_mode=mode)
    add_layer("Rocks", make_prefabs("Rocks", 2), RADIUS, RADIUS, seed=2, output_mode=mode, keep_away=KEEP)


def _stored(layer_name: str) -> np.ndarray:
    """World positions in float64 from what Blender stores: local float32 coordinates + the float32 location."""
    found = [block for block in (*bpy.data.objects, *bpy.data.collections) if block.get("strew_layer") == layer_name
             and block.get("strew_layer_id") and block.name == f"Strew {layer_name}"]
    collections = [block for block in found if isinstance(block, bpy.types.Collection)]
    if collections:  # real objects: children of the empty "Strew <layer>"
        instances = [o for o in collections[0].objects if "strew_radius" in o]
        parent = instances[0].parent
        assert parent is not None and all(o.parent == parent for o in instances)
        assert np.allclose(np.array(parent.matrix_basis)[:3, :3], np.eye(3))
        local = np.array([o.location[:] for o in instances], dtype=np.float32)
        return local.astype(np.float64) + np.array(parent.location[:], dtype=np.float32).astype(np.float64)
    (obj,) = [block for block in found if isinstance(block, bpy.types.Object)]
    assert np.allclose(np.array(obj.matrix_basis)[:3, :3], np.eye(3))
    co = np.empty(len(obj.data.vertices) * 3, dtype=np.float32)
    obj.data.vertices.foreach_get("co", co)
    return co.reshape(-1, 3).astype(np.float64) + np.array(obj.location[:], dtype=np.float32).astype(np.float64)


def _closest(a: np.ndarray, b: np.ndarray | None = None) -> float:
    """The smallest xy distance over every pair (within ``a``, or between ``a`` and ``b``), by brute force."""
    other = a if b is None else b
    d = np.sqrt(((a[:, None, :2] - other[None, :, :2]) ** 2).sum(-1))
    if b is None:
        d[np.arange(len(a)), np.arange(len(a))] = np.inf
    return float(d.min())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("offset", OFFSETS, ids=["origin", "1e5", "1e7"])
def test_spacing_holds_far_from_the_origin(offset: float, mode: str) -> None:
    _scene(offset, mode)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    trees, rocks = _stored("Trees"), _stored("Rocks")
    assert len(trees) > 10 and len(rocks) > 10
    assert np.abs(trees[:, 0] - offset).max() < 40.0  # where the terrain is
    assert _closest(trees) >= 2.0 * (1 - 1e-6)
    assert _closest(rocks) >= RADIUS * (1 - 1e-6)
    assert _closest(rocks, trees) >= KEEP * (1 - 1e-6)
    # This Layer reads the trees back from the scene as blockers: still kept away from, at full precision.
    assert bpy.ops.strew.scatter(layer_index=1) == {'FINISHED'}
    again = _stored("Rocks")
    assert _closest(again) >= RADIUS * (1 - 1e-6) and _closest(again, trees) >= KEEP * (1 - 1e-6)
    np.testing.assert_allclose(np.sort(again, axis=0), np.sort(rocks, axis=0), rtol=0, atol=1e-5)


@pytest.mark.parametrize("offset", OFFSETS, ids=["origin", "1e5", "1e7"])
def test_the_instancer_draws_what_it_stores(offset: float) -> None:
    _scene(offset, 'GEOMETRY_NODES')
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    stored = _stored("Rocks")
    depsgraph = bpy.context.evaluated_depsgraph_get()
    drawn = np.array([inst.matrix_world.translation[:] for inst in depsgraph.object_instances
                      if inst.is_instance and inst.parent is not None and inst.parent.original.name == "Strew Rocks"])
    assert len(drawn) == len(stored)
    # Blender draws in float32 world space: each instance within a float32 step of where it is stored.
    step = float(np.spacing(np.float32(offset + 50.0)))
    np.testing.assert_allclose(np.sort(drawn, axis=0), np.sort(stored, axis=0), rtol=0, atol=2 * step + 1e-5)


@pytest.mark.parametrize("offset", OFFSETS, ids=["origin", "1e5", "1e7"])
def test_erasing_and_painting_far_from_the_origin(offset: float) -> None:
    _scene(offset, 'GEOMETRY_NODES')
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    before = _stored("Rocks")
    centre = np.round(before[len(before) // 2, :2])  # whole metres: exact in the stroke's float32 location
    stroke = [{"name": "", "location": (*centre.tolist(), 0.0)}]
    assert bpy.ops.strew.paint(layer_index=1, radius=3.0, erase=True, stroke=stroke) == {'FINISHED'}
    after = _stored("Rocks")
    distance = np.hypot(*(before[:, :2] - centre).T)
    kept = before[distance > 3.0]
    assert 0 < len(after) < len(before) and len(after) == len(kept)
    np.testing.assert_allclose(np.sort(after, axis=0), np.sort(kept, axis=0), rtol=0, atol=1e-5)
    assert _closest(after) >= RADIUS * (1 - 1e-6)
    # Painting the hole again keeps the layer's spacing and its distance from the trees.
    assert bpy.ops.strew.paint(layer_index=1, radius=3.0, stroke=stroke) == {'FINISHED'}
    painted = _stored("Rocks")
    assert len(painted) > len(after)
    assert _closest(painted) >= RADIUS * (1 - 1e-6) and _closest(painted, _stored("Trees")) >= KEEP * (1 - 1e-6)


def test_a_live_update_far_from_the_origin_keeps_the_spacing() -> None:
    live = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    _scene(1e7, 'GEOMETRY_NODES')
    scene = bpy.context.scene
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.live_update = True
    before = _stored("Rocks")
    scene.strew.layers["Trees"].seed = 7
    live.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
    assert live.flush() and live.problem(scene) is None
    trees, rocks = _stored("Trees"), _stored("Rocks")
    assert not np.array_equal(np.sort(rocks, axis=0), np.sort(before, axis=0))  # the rocks moved with the trees
    assert _closest(trees) >= 2.0 * (1 - 1e-6) and _closest(rocks) >= RADIUS * (1 - 1e-6)
    assert _closest(rocks, trees) >= KEEP * (1 - 1e-6)


def _drawn_closest(layer_name: str) -> float:
    """The closest pair of a layer's instances as Blender draws and renders them (float32 world matrices)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    drawn = np.array([inst.matrix_world.translation[:] for inst in depsgraph.object_instances
                      if inst.is_instance and inst.parent is not None
                      and inst.parent.original.name == f"Strew {layer_name}"])
    return _closest(drawn)


@pytest.mark.parametrize("offset", [0.0, 1e3, 1e4, 3e5, 1e6], ids=["origin", "1 km", "10 km", "300 km", "1000 km"])
def test_where_blender_cannot_draw_the_spacing_the_scatter_says_so_in_one_line(offset: float, capfd) -> None:
    _scene(offset, 'GEOMETRY_NODES')
    capfd.readouterr()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    warnings = [line for line in capfd.readouterr().out.splitlines() if line.startswith("Warning: ")]
    rocks = [line for line in warnings if line.startswith("Warning: Rocks: ")]
    assert _closest(_stored("Rocks")) >= RADIUS * (1 - 1e-6)  # as stored: exact however far
    if _drawn_closest("Rocks") < RADIUS * 0.999:  # drawn closer than the spacing: never without a word
        assert rocks
    # Said where float32 world space may take more than a thousandth of the spacing (from about 8 km for 1 m).
    assert bool(rocks) == (offset >= 1e4)
    for said in rocks:
        assert "move the terrain nearer the world origin" in said and "of their 1 m spacing" in said
