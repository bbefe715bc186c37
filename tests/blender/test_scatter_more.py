"""Scatter: chunks, repeated tiles, vertex groups, images, footprints, cancelling, the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import bpy
import numpy as np
import pytest
from conftest import REPO_ROOT
from scenes import (
    add_layer,
    distance_to_segments,
    make_prefabs,
    make_road,
    make_terrain,
    pairwise_min_ratio,
    point_attributes,
    scene_snapshot,
)


def _terrain_and_prefabs(**terrain):
    obj = make_terrain(**terrain)
    bpy.context.scene.strew.terrain = obj
    return obj, make_prefabs("Stones", 2)


@pytest.mark.parametrize("chunk_size", [7.0, 23.0])
def test_chunked_scatter_has_no_seams(chunk_size: float) -> None:
    _, stones = _terrain_and_prefabs()
    bpy.context.scene.strew.chunk_size = chunk_size
    add_layer("Stones", stones, 1.2, 2.4, seed=5, density_mode='NOISE', noise_scale=9.0)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    chunked = point_attributes(bpy.data.objects["Strew Stones"])
    assert pairwise_min_ratio(chunked["position"][:, :2], chunked["strew_radius"].astype(float)) >= 1 - 1e-5
    bpy.context.scene.strew.chunk_size = 10_000.0
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    whole = point_attributes(bpy.data.objects["Strew Stones"])
    assert abs(len(chunked["position"]) - len(whole["position"])) <= 0.04 * len(whole["position"])


def test_repeated_tile_layer() -> None:
    _, stones = _terrain_and_prefabs()
    add_layer("Stones", stones, 1.5, 1.5, seed=2, use_tile=True, tile_size=15.0, tile_keep=0.8)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    points = point_attributes(bpy.data.objects["Strew Stones"])
    assert len(points["position"]) > 100
    assert pairwise_min_ratio(points["position"][:, :2], points["strew_radius"].astype(float)) >= 1 - 1e-5


def test_vertex_group_density_and_mask() -> None:
    terrain, stones = _terrain_and_prefabs(location=(0.0, 0.0, 0.0), rotation_z=0.0, scale=(1.0, 1.0, 1.0))
    group = terrain.vertex_groups.new(name="Meadow")
    xy = np.array([v.co[:2] for v in terrain.data.vertices])
    inside = np.flatnonzero(xy[:, 0] > 5.0)  # the east part of the terrain is painted (weight 1)
    group.add(inside.tolist(), 1.0, 'REPLACE')
    add_layer("Stones", stones, 1.0, 1.0, seed=3, mask_vertex_group="Meadow", mask_threshold=0.99)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    points = point_attributes(bpy.data.objects["Strew Stones"])["position"]
    assert len(points) > 50
    # Weights blend linearly across the one row of quads at the paint edge (subdivided): stay east of it.
    assert points[:, 0].min() >= 5.0 - 60.0 / 24 - 1e-6

    layer = bpy.context.scene.strew.layers[0]
    layer.mask_vertex_group = ""
    layer.min_radius, layer.max_radius = 0.8, 3.0
    layer.density_mode = 'VERTEX_GROUP'
    layer.density_vertex_group = "Meadow"
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    attrs = point_attributes(bpy.data.objects["Strew Stones"])
    east = attrs["position"][:, 0] > 10
    west = attrs["position"][:, 0] < 0
    assert np.allclose(attrs["strew_radius"][east], 0.8) and np.allclose(attrs["strew_radius"][west], 3.0)


def test_image_density() -> None:
    _, stones = _terrain_and_prefabs(location=(0.0, 0.0, 0.0), rotation_z=0.0, scale=(1.0, 1.0, 1.0))
    image = bpy.data.images.new("Density", 8, 8)
    pixels = np.zeros((8, 8, 4), dtype=np.float32)
    pixels[:, 4:, :3] = 1.0  # white (dense) on the east half, rows go bottom to top
    pixels[..., 3] = 1.0
    image.pixels.foreach_set(pixels.ravel())
    add_layer("Stones", stones, 1.0, 4.0, seed=3, density_mode='IMAGE', density_image=image)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    attrs = point_attributes(bpy.data.objects["Strew Stones"])
    x = attrs["position"][:, 0]
    assert np.allclose(attrs["strew_radius"][x > 10], 1.0) and np.allclose(attrs["strew_radius"][x < -10], 4.0)


def test_mesh_footprints_and_curves_are_kept_clear() -> None:
    _, stones = _terrain_and_prefabs(location=(0.0, 0.0, 0.0), rotation_z=0.0, scale=(1.0, 1.0, 1.0))
    roads, segments = make_road([(-30.0, 10.0), (30.0, 12.0)])
    bpy.ops.mesh.primitive_cube_add(size=8.0, location=(-10.0, -10.0, 2.0))
    house = bpy.context.object
    for collection in house.users_collection:
        collection.objects.unlink(house)
    roads.objects.link(house)
    add_layer("Stones", stones, 1.0, 1.0, seed=3, exclusion_collection=roads, exclusion_margin=1.5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy = point_attributes(bpy.data.objects["Strew Stones"])["position"][:, :2]
    assert distance_to_segments(xy, segments).min() >= 1.5 - 1e-4
    # Distance from each instance to the house's 8 × 8 footprint (0 inside it).
    gap = np.hypot(np.maximum(np.abs(xy[:, 0] + 10) - 4, 0), np.maximum(np.abs(xy[:, 1] + 10) - 4, 0))
    assert gap.min() >= 1.5 - 1e-4
    assert len(xy) > 200 and house.name in bpy.data.objects


def test_cancelled_job_leaves_the_scene_unchanged(strew_extension) -> None:
    """What ESC does: the job generator is closed before it finishes; nothing was written."""
    _, stones = _terrain_and_prefabs()
    add_layer("Stones", stones, 1.0, 1.0, seed=1)
    add_layer("More", stones, 1.0, 1.0, seed=2)
    before = scene_snapshot()
    job = sys.modules[f"{strew_extension.__name__}.scene.scatter_job"].run(bpy.context)
    steps = [next(job), next(job), next(job)]
    fractions = [fraction for fraction, _ in steps]
    assert fractions == sorted(fractions) and fractions[-1] < 1.0
    assert all(text for _, text in steps)  # what runs next, for the status bar
    job.close()
    assert scene_snapshot() == before


def test_command_line_scatter(tmp_path: Path) -> None:
    _terrain_and_prefabs()
    make_prefabs("Bushes", 2)
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    out = tmp_path / "out.blend"
    done = subprocess.run(
        [sys.executable, "-m", "strew", "scatter", str(source), "--terrain", "Terrain", "--layer", "Stones:2:3",
         "--layer", "Bushes:1:1.5", "--seed", "42", "-o", str(out)],
        capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Strew Stones" in done.stdout and out.is_file()
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert {o.name for o in bpy.data.collections["Strew Output"].objects} == {"Strew Stones", "Strew Bushes"}
    assert [layer.seed for layer in bpy.context.scene.strew.layers] == [42, 43]

    bad = subprocess.run([sys.executable, "-m", "strew", "scatter", str(source), "--layer", "Stones:3:2", "-o",
                          str(tmp_path / "bad.blend")], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert bad.returncode == 2 and "max_radius" in bad.stderr
    assert not (tmp_path / "bad.blend").exists()
