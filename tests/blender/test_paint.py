"""The Paint brush: strokes add instances by the layer's rules, Ctrl erases, painted ones survive a re-scatter."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain
from scipy.spatial import cKDTree


def _read(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    obj = bpy.data.objects[f"Strew {name}"]
    mesh = obj.data
    n = len(mesh.vertices)
    co = np.empty(n * 3)
    mesh.vertices.foreach_get("co", co)
    world = co.reshape(-1, 3) @ np.array(obj.matrix_world)[:3, :3].T + np.array(obj.matrix_world)[:3, 3]
    radii, painted = np.empty(n, dtype=np.float32), np.zeros(n, dtype=np.int32)
    mesh.attributes["strew_radius"].data.foreach_get("value", radii)
    if "strew_painted" in mesh.attributes:
        mesh.attributes["strew_painted"].data.foreach_get("value", painted)
    return world, radii.astype(float), painted.astype(bool)


def _conflicts(xy: np.ndarray, radii: np.ndarray) -> int:
    pairs = cKDTree(xy).query_pairs(float(radii.max()), output_type="ndarray")
    d = np.linalg.norm(xy[pairs[:, 0]] - xy[pairs[:, 1]], axis=1)
    return int((d < np.maximum(radii[pairs[:, 0]], radii[pairs[:, 1]]) - 1e-6).sum())


def _stroke(*points) -> list[dict]:
    return [{"name": "", "location": p} for p in points]


def test_paint_then_erase_then_rescatter_keeps_the_painted_instances() -> None:
    terrain = make_terrain()
    bpy.context.scene.strew.terrain = terrain
    add_layer("Trees", make_prefabs("Trees"), 3.0, 3.0, seed=1)
    bushes = add_layer("Bushes", make_prefabs("Bushes"), 1.0, 1.0, seed=2, keep_away=2.0)
    bushes.enabled = False  # "This Layer" re-runs the enabled layers below: keep the bushes out of it
    bpy.ops.strew.scatter(layer_index=0)
    tree_xy = _read("Trees")[0][:, :2]
    # Paint bushes where there are none yet: they keep 2 m from the trees and 1 m from each other.
    assert bpy.ops.strew.paint(layer_index=1, radius=6.0, stroke=_stroke((13, -7, 0), (17, -7, 0))) == {'FINISHED'}
    xy, radii, painted = _read("Bushes")
    assert len(xy) > 20 and painted.all()
    assert cKDTree(tree_xy).query(xy[:, :2])[0].min() >= 2.0 - 1e-6
    assert _conflicts(xy[:, :2], radii) == 0
    # Erase part of it.
    bpy.ops.strew.paint(layer_index=1, radius=2.0, erase=True, stroke=_stroke((13, -7, 0)))
    after, _, _ = _read("Bushes")
    assert len(after) < len(xy)
    assert (np.linalg.norm(after[:, :2] - (13, -7), axis=1) > 2.0).all()
    # A full scatter of the layer keeps what was painted and fills the rest around it.
    bpy.ops.strew.scatter(layer_index=1)
    final, final_radii, final_painted = _read("Bushes")
    assert final_painted.sum() == len(after) and len(final) > len(after)
    kept = cKDTree(final[final_painted][:, :2]).query(after[:, :2])[0]
    assert kept.max() < 1e-5
    assert _conflicts(final[:, :2], final_radii) == 0


def test_painting_an_image_masked_or_object_output_layer_reports_why() -> None:
    bpy.context.scene.strew.terrain = make_terrain()
    add_layer("Rocks", make_prefabs("Rocks"), 1.0, 1.0, output_mode='EMPTIES')
    with pytest.raises(RuntimeError, match="Point Instancer"):
        bpy.ops.strew.paint(stroke=_stroke((13, -7, 0)))
    with pytest.raises(RuntimeError, match="no layer"):
        bpy.ops.strew.paint(layer_index=5, stroke=_stroke((13, -7, 0)))
