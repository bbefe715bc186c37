"""Export Level to glTF, read back with pygltflib and the Khronos validator: every instance Blender draws for a
scatter layer and a room with mirrored tiles, at its place (≤ 1e-4 m), with its values; plain File ▸ Export too;
bad input refused in one line with nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import bpy
import numpy as np
import pytest
from export_check import drawn_instances, level_scene, match, point_values, read_gltf, validate
from rooms_kits import module


def _export(path: Path, **options) -> object:
    job = module("scene.export.job")
    return job.export_level(bpy.context, job.ExportRequest(path, **options))


@pytest.mark.parametrize("suffix, gpu", [(".glb", True), (".gltf", True), (".glb", False)])
def test_every_drawn_instance_arrives_with_its_values(tmp_path: Path, suffix: str, gpu: bool) -> None:
    level_scene()
    drawn = drawn_instances()
    room = [item for item in drawn if item.output == "Strew Room"]
    mirrored = point_values("Strew Room", "strew_mirror")
    assert mirrored.any() and len(room) == 25, "the room must hold mirrored tiles for this test to mean anything"
    result = _export(tmp_path / f"level{suffix}", gpu_instancing=gpu)
    assert result.instances == len(drawn)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"level{suffix}"] + (["level.bin"] if suffix == ".gltf" else []))
    placed, gltf = read_gltf(tmp_path / f"level{suffix}")
    pairs = match(drawn, placed)
    assert len(pairs) == len(drawn)
    randoms = point_values("Strew Stones", "strew_random")
    tiles, cells = point_values("Strew Room", "strew_tile"), point_values("Strew Room", "strew_cell")
    for item, found in pairs:
        if item.output == "Strew Stones":
            assert found.values["_STREW_RANDOM"] == pytest.approx(randoms[item.point], abs=1e-7)
            assert int(found.values["_STREW_ID"]) == item.point
        else:
            assert int(found.values["_STREW_TILE"]) == int(tiles[item.point])
            np.testing.assert_array_equal(found.values["_STREW_CELL"], cells[item.point])
            assert bool(found.values["_STREW_MIRROR"]) == bool(mirrored[item.point])
            assert (np.linalg.det(found.matrix[:3, :3]) < 0) == bool(mirrored[item.point])
    room_node = next(node for node in gltf.nodes if node.name == "Strew Room")
    assert room_node.extras["strew_tiles"] == list(bpy.data.objects["Strew Room"]["strew_tiles"])
    report = validate(tmp_path / f"level{suffix}")
    if report is not None:
        assert report["numErrors"] == 0, [m for m in report["messages"] if m["severity"] == 0][:5]


def test_a_plain_gltf_export_carries_strews_instances(tmp_path: Path) -> None:
    level_scene()
    drawn = drawn_instances()
    path = tmp_path / "plain.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(path)) == {'FINISHED'}
    placed, _ = read_gltf(path)
    assert len(match(drawn, placed)) == len(drawn)


def test_only_strew_leaves_the_users_other_objects_out_and_keeps_the_selection(tmp_path: Path) -> None:
    level_scene()
    bpy.ops.mesh.primitive_monkey_add(location=(0, 0, 30))
    suzanne = bpy.context.active_object
    before = {obj.name: obj.select_get() for obj in bpy.context.view_layer.objects}
    _export(tmp_path / "strew.glb", strew_only=True, terrain=False)
    _, gltf = read_gltf(tmp_path / "strew.glb")
    names = {node.name for node in gltf.nodes}
    assert suzanne.name not in names and "Terrain" not in names and "Strew Room" in names
    assert {obj.name: obj.select_get() for obj in bpy.context.view_layer.objects} == before
    assert bpy.context.view_layer.objects.active == suzanne


@pytest.mark.parametrize("name, expected", [
    ("level.obj", "use one of the extensions"),
    ("missing/level.glb", "does not exist"),
])
def test_bad_paths_are_one_line_and_nothing_is_written(tmp_path: Path, name: str, expected: str) -> None:
    level_scene()
    job = module("scene.export.job")
    with pytest.raises(job.ExportError, match=expected):
        _export(tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    """A folder nobody may write in (not even root: /proc), and one whose rights forbid it."""
    level_scene()
    job = module("scene.export.job")
    with pytest.raises(job.ExportError, match="not writable"):
        _export(Path("/proc/level.glb"))
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        with pytest.raises(job.ExportError, match="not writable"):
            _export(locked / "level.glb") if os.geteuid() else _export(Path("/proc/level.glb"))
    finally:
        locked.chmod(0o700)
    assert list(locked.iterdir()) == []


def test_nothing_of_strews_and_a_deleted_prefab_collection_are_refused(tmp_path: Path) -> None:
    job = module("scene.export.job")
    with pytest.raises(job.ExportError, match="scatter a layer or assemble a room"):
        _export(tmp_path / "empty.glb")
    level_scene()
    bpy.data.collections.remove(bpy.data.collections["Stones"])
    with pytest.raises(job.ExportError, match='"Strew Stones" draws none of its'):
        _export(tmp_path / "level.glb")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_replaced_only_when_the_export_succeeds(tmp_path: Path) -> None:
    level_scene()
    target = tmp_path / "level.glb"
    target.write_bytes(b"old")
    _export(target)
    assert target.read_bytes()[:4] == b"glTF"
    assert [p.name for p in tmp_path.iterdir()] == ["level.glb"]


def test_a_room_of_real_objects_alone_is_a_level(tmp_path: Path) -> None:
    """Room tiles written as real objects are Strew's too: exported as nodes with their values as extras."""
    from small_scenes import road_kit

    kit = road_kit()
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(3, 3, 1), seed=1, output='OBJECTS') == {'FINISHED'}
    _export(tmp_path / "room.glb", strew_only=True)
    _, gltf = read_gltf(tmp_path / "room.glb")
    tiles = [node for node in gltf.nodes if (node.extras or {}).get("strew_tile")]
    assert len(tiles) == 9
    assert all(len(node.extras["strew_cell"]) == 3 for node in tiles)
