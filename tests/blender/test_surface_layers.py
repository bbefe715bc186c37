"""Every Face layers, several targets, live update and consistent layers, through the real operators."""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path

import bpy
import numpy as np
import pytest
from mathutils.bvhtree import BVHTree
from scenes import add_layer, instances_of, make_prefabs, make_terrain, pairwise_min_ratio, point_attributes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
surface_checks = importlib.import_module("surface_checks")


def output(layer_name: str) -> dict[str, np.ndarray]:
    return point_attributes(bpy.data.objects[f"Strew {layer_name}"])


def world_triangles(objects: list[bpy.types.Object]) -> tuple[np.ndarray, np.ndarray]:
    """The evaluated meshes of ``objects`` in world space, as one triangle soup (the test's own reading)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    vertices, faces, base = [], [], 0
    for obj in objects:
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        mesh.calc_loop_triangles()
        matrix = np.array(evaluated.matrix_world)
        co = np.array([v.co[:] for v in mesh.vertices])
        vertices.append(co @ matrix[:3, :3].T + matrix[:3, 3])
        faces.append(np.array([t.vertices[:] for t in mesh.loop_triangles]) + base)
        base += len(mesh.vertices)
        evaluated.to_mesh_clear()
    return np.concatenate(vertices), np.concatenate(faces)


def make_sphere(name: str, radius: float, location=(0.0, 0.0, 0.0), subdivisions: int = 3) -> bpy.types.Object:
    bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=subdivisions, radius=radius, location=location)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def make_box(name: str, size: float, location=(0.0, 0.0, 0.0), collection: bpy.types.Collection | None = None
             ) -> bpy.types.Object:
    bpy.ops.mesh.primitive_cube_add(size=size, location=location)
    obj = bpy.context.active_object
    obj.name = name
    if collection is not None:
        for users in list(obj.users_collection):
            users.objects.unlink(obj)
        collection.objects.link(obj)
    return obj


def test_every_face_covers_a_sphere_with_3d_spacing() -> None:
    sphere = make_sphere("Rock", 3.0, location=(4.0, -2.0, 1.0))
    sphere.scale = (1.0, 1.0, 1.3)
    sphere.rotation_euler = (0.3, 0.2, 0.1)
    bpy.context.scene.strew.terrain = sphere
    add_layer("Moss", make_prefabs("Moss"), 0.4, 0.4, surface='ALL')
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    points = output("Moss")
    p = points["position"]
    assert pairwise_min_ratio(p, points["strew_radius"].astype(float)) >= 1.0 - 1e-6
    v, f = world_triangles([sphere])
    assert surface_checks.largest_gap(v, f, p, 0.4) < 0.4 * (1 + 1e-6)  # no fillable hole anywhere
    assert p[:, 2].min() < 1.0 - 3.0 and p[:, 2].max() > 1.0 + 3.0  # the underside too
    _, positions, matrices = instances_of("Strew Moss")
    up = matrices[:, :3, 2] / np.linalg.norm(matrices[:, :3, 2], axis=1, keepdims=True)
    outward = positions - np.array([4.0, -2.0, 1.0])
    assert ((up * outward).sum(axis=1) > 0).all()  # every instance stands along its (outward) face normal


def test_top_stays_the_default() -> None:
    sphere = make_sphere("Rock", 3.0)
    bpy.context.scene.strew.terrain = sphere
    layer = add_layer("Moss", make_prefabs("Moss"), 0.5, 0.5)
    assert layer.surface == 'TOP'
    bpy.ops.strew.scatter()
    assert output("Moss")["position"][:, 2].min() > -0.1  # seen from above: the upper half only


@pytest.mark.parametrize(("lo", "hi", "kind"), [(60, 120, "walls"), (100, 180, "overhangs")])
def test_wall_only_and_overhang_only_layers(lo: float, hi: float, kind: str) -> None:
    sphere = make_sphere("Rock", 3.0)
    bpy.context.scene.strew.terrain = sphere
    add_layer("Ivy", make_prefabs("Ivy"), 0.4, 0.4, surface='ALL', min_slope=math.radians(lo),
              max_slope=math.radians(hi))
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    p = output("Ivy")["position"]
    _, _, matrices = instances_of("Strew Ivy")
    up = matrices[:, :3, 2] / np.linalg.norm(matrices[:, :3, 2], axis=1, keepdims=True)
    angle = np.degrees(np.arccos(np.clip(up[:, 2], -1, 1)))
    assert len(p) > 10 and ((angle > lo - 1e-3) & (angle < hi + 1e-3)).all(), kind


def test_several_targets_in_one_layer() -> None:
    make_terrain()  # the terrain is not a target of this layer
    bpy.context.scene.strew.terrain = bpy.data.objects["Terrain"]
    rocks = bpy.data.collections.new("Rocks")
    bpy.context.scene.collection.children.link(rocks)
    a = make_box("Rock A", 2.0, location=(0.0, 0.0, 10.0), collection=rocks)
    b = make_box("Rock B", 2.0, location=(1.5, 0.3, 10.4), collection=rocks)  # overlaps A: 3-D spacing across
    b.rotation_euler = (0.4, 0.0, 0.7)
    b.modifiers.new("Bevel", 'BEVEL').width = 0.2
    c = make_sphere("Rock C", 1.0, location=(-4.0, 0.0, 10.0))
    for users in list(c.users_collection):
        users.objects.unlink(c)
    rocks.objects.link(c)
    add_layer("Lichen", make_prefabs("Lichen"), 0.3, 0.3, surface='ALL', targets=rocks)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    points = output("Lichen")
    p = points["position"]
    assert pairwise_min_ratio(p, points["strew_radius"].astype(float)) >= 1.0 - 1e-6
    v, f = world_triangles([a, b, c])
    tree = BVHTree.FromPolygons(v.tolist(), f.tolist())
    assert max(tree.find_nearest(point)[3] for point in p) < 1e-4  # on the evaluated, moved meshes
    assert (p[:, 0] < -2.5).sum() > 5 and (p[:, 0] > -1.5).sum() > 5  # on the sphere and on the boxes
    assert p[:, 2].min() > 8.0  # nothing on the terrain


def test_targets_from_above_without_a_terrain() -> None:
    crates = bpy.data.collections.new("Crates")
    bpy.context.scene.collection.children.link(crates)
    make_box("Crate A", 4.0, location=(0.0, 0.0, 2.0), collection=crates)
    make_box("Crate B", 4.0, location=(10.0, 0.0, 3.0), collection=crates)
    add_layer("Cans", make_prefabs("Cans"), 0.5, 0.5, targets=crates)  # From Above, no terrain picked
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    p = output("Cans")["position"]
    on_a, on_b = np.abs(p[:, 2] - 4.0) < 1e-6, np.abs(p[:, 2] - 5.0) < 1e-6
    assert (on_a | on_b).all() and on_a.sum() > 10 and on_b.sum() > 10  # the top faces only


def test_live_update_follows_a_terrain_edit() -> None:
    live_update = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    terrain = make_terrain(size=30.0, subdivisions=8)
    scene = bpy.context.scene
    scene.strew.terrain = terrain
    add_layer("Bushes", make_prefabs("Bushes"), 1.5, 1.5)
    bpy.ops.strew.scatter()
    before = output("Bushes")["position"]
    scene.strew.live_update = True
    terrain.location.z += 5.0
    bpy.context.view_layer.update()  # the depsgraph handler runs here and schedules the re-scatter
    assert live_update.scheduled()
    assert output("Bushes")["position"][:, 2].mean() == pytest.approx(before[:, 2].mean())  # nothing yet
    assert live_update.flush()  # what the timer does after the pause (timers do not run without a window)
    after = output("Bushes")["position"]
    assert after[:, 2].mean() == pytest.approx(before[:, 2].mean() + 5.0, abs=1e-3)
    bpy.context.view_layer.update()  # Strew's own output change does not schedule another run
    assert not live_update.scheduled()


def test_live_update_runs_in_slices_and_a_new_change_restarts_it() -> None:
    live_update = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    terrain = make_terrain(size=60.0, subdivisions=12)
    scene = bpy.context.scene
    scene.strew.terrain = terrain
    add_layer("Grass", make_prefabs("Grass"), 0.3, 0.3)  # tens of thousands of points: longer than one slice
    bpy.ops.strew.scatter()
    before = output("Grass")["position"]
    scene.strew.live_update = True
    terrain.location.z += 2.0
    bpy.context.view_layer.update()
    live = live_update.service(scene)
    assert live._on_timer() == 0.0  # one slice done, called again at once; nothing written yet
    assert np.array_equal(before, output("Grass")["position"])
    terrain.location.z += 3.0
    bpy.context.view_layer.update()  # a new change drops the unfinished run and waits for the pause again
    assert live_update.scheduled()
    assert live_update.flush()
    after = output("Grass")["position"]
    assert len(after) == len(before)
    assert after[:, 2].mean() == pytest.approx(before[:, 2].mean() + 5.0, abs=1e-3)


def test_a_file_saved_with_live_update_on_does_not_rescatter_when_loaded(tmp_path: Path) -> None:
    live_update = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    add_layer("Bushes", make_prefabs("Bushes"), 1.5, 1.5)
    bpy.ops.strew.scatter()
    scene.strew.live_update = True
    path = tmp_path / "live.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.open_mainfile(filepath=str(path))
    bpy.context.view_layer.update()
    bpy.context.view_layer.update()
    assert not live_update.scheduled()
    bpy.data.objects["Terrain"].location.x += 1.0  # the loaded file is watched from then on
    bpy.context.view_layer.update()
    assert live_update.scheduled()
    assert live_update.flush()


def test_live_update_is_off_by_default_and_waits_for_a_running_job() -> None:
    live_update = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    terrain = make_terrain(size=30.0, subdivisions=8)
    scene = bpy.context.scene
    scene.strew.terrain = terrain
    layer = add_layer("Bushes", make_prefabs("Bushes"), 1.5, 1.5)
    assert not scene.strew.live_update
    bpy.ops.strew.scatter()
    terrain.location.z += 1.0
    bpy.context.view_layer.update()
    assert not live_update.scheduled()
    scene.strew.live_update = True
    layer.seed = 9  # a layer setting counts as a change
    bpy.context.view_layer.update()
    assert live_update.scheduled()
    before = output("Bushes")["position"]
    live_update.job_started()
    try:
        assert not live_update.flush()  # a modal job runs: nothing happens, the update waits
        assert np.array_equal(before, output("Bushes")["position"])
    finally:
        live_update.job_finished()
    assert live_update.flush()
    assert not np.array_equal(before, output("Bushes")["position"])


def test_running_one_layer_keeps_the_layers_below_consistent() -> None:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=40.0, subdivisions=10)
    trees = add_layer("Trees", make_prefabs("Trees"), 3.0, 3.0, seed=1)
    add_layer("Bushes", make_prefabs("Bushes"), 1.0, 1.0, seed=2, keep_away=2.5)
    add_layer("Grass", make_prefabs("Grass"), 0.6, 0.6, seed=3, keep_away=0.8, surface='ALL')
    bpy.ops.strew.scatter()
    for seed in (5, 6):
        trees.seed = seed
        assert bpy.ops.strew.scatter(layer_index=0) == {'FINISHED'}
        t, b, g = output("Trees")["position"], output("Bushes")["position"], output("Grass")["position"]
        d_tb = np.linalg.norm(t[:, None, :2] - b[None, :, :2], axis=2)
        assert d_tb.min() >= 2.5 - 1e-6
        for above in (t, b):
            assert np.linalg.norm(g[:, None] - above[None], axis=2).min() >= 0.8 - 1e-6
