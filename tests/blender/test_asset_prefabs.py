"""A layer's prefabs may be assets: empties instancing collections that are not in the scene, nested ones. The
output draws them, and a layer spaced by object size keeps their whole drawn footprints the gap apart. The
footprints are measured on what Blender draws (``depsgraph.object_instances``)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import bpy
import numpy as np
import pytest
from assets import asset, box, linked_shed, placed
from scenes import add_layer, point_attributes

GAP = 0.3
NO_ID = 2147483647


def _props(folder: Path) -> bpy.types.Collection:
    """"A pile" places the "Crates" asset; "B stack" places a collection placing it twice (nested); "C shed" places
    a collection linked from a library."""
    crates = asset("Crates", box("Crate", 2.0, location=(1.0, 0.0, 1.0)), offset=(0.5, 0.0, 0.0))
    stack = asset("Stack")
    placed(crates, "Low", (0.0, 0.0, 0.0), into=stack)
    placed(crates, "High", (1.0, 2.0, 2.0), rotation_z=0.5, into=stack)
    props = bpy.data.collections.new("Props")
    bpy.context.scene.collection.children.link(props)
    bpy.context.view_layer.layer_collection.children["Props"].exclude = True
    placed(crates, "A pile", (0.0, 0.0, 0.0), into=props)
    placed(stack, "B stack", (0.0, 0.0, 0.0), into=props)
    placed(linked_shed(folder), "C shed", (0.0, 0.0, 0.0), into=props)
    return props


def _drawn_footprints(output: str) -> tuple[np.ndarray, np.ndarray, int]:
    """(origins (N, 2), footprint radii, meshes drawn) of what Blender draws for the layer "Props": per instance,
    the circle about its origin holding the XY corners of every mesh drawn for it."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    corners: dict[object, list[np.ndarray]] = defaultdict(list)
    origins: dict[object, np.ndarray] = {}
    crates = 0
    for instance in depsgraph.object_instances:
        parent = instance.parent
        if not instance.is_instance or parent is None or parent.original.get("strew_layer") != "Props":
            continue
        ids = [int(step) for step in instance.persistent_id if step != NO_ID]
        # The output's points (instances of one object), or its real objects (one empty each).
        group = ids[-1] if output == 'GEOMETRY_NODES' else parent.original.name
        matrix = np.array(instance.matrix_world)
        if instance.object.type == 'EMPTY' and len(ids) == 1 and output == 'GEOMETRY_NODES':
            origins[group] = matrix[:2, 3]
        if output == 'EMPTIES':
            origins[group] = np.array(parent.matrix_world)[:2, 3]
        if instance.object.type == 'MESH':
            crates += 1
            corners[group].append((np.array(instance.object.bound_box) @ matrix[:3, :3].T + matrix[:3, 3])[:, :2])
    keys = sorted(origins, key=str)
    xy = np.array([origins[key] for key in keys])
    radii = np.array([np.sqrt(((np.concatenate(corners[key]) - origins[key]) ** 2).sum(axis=1)).max()
                      for key in keys])
    return xy, radii, crates


@pytest.mark.parametrize("output", ['GEOMETRY_NODES', 'EMPTIES'])
@pytest.mark.parametrize("seed", [1, 6])
def test_asset_prefabs_are_drawn_and_keep_their_footprints_apart(seed: int, output: str, tmp_path: Path) -> None:
    bpy.ops.mesh.primitive_plane_add(size=50.0)
    bpy.context.scene.strew.terrain = bpy.context.active_object
    add_layer("Props", _props(tmp_path), GAP, GAP, seed=seed, spacing='OBJECTS', output_mode=output)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy, radii, crates = _drawn_footprints(output)
    if output == 'GEOMETRY_NODES':
        attributes = point_attributes(bpy.data.objects["Strew Props"])
        kinds = np.bincount(attributes["strew_prefab"], minlength=3)
        assert kinds.min() >= 2  # every asset is placed
        assert crates == kinds[0] + 2 * kinds[1] + kinds[2]  # a pile draws one crate, a stack two, a shed one
        np.testing.assert_allclose(np.sort(xy, axis=0), np.sort(attributes["position"][:, :2], axis=0), atol=1e-4)
    assert len(xy) > 20 and crates > len(xy)
    gaps = np.linalg.norm(xy[:, None] - xy[None], axis=2) - radii[:, None] - radii[None]
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() >= GAP - 1e-5  # float32 positions: a hundredth of a millimetre
