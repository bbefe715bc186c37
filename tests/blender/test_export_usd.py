"""Export Level to USD, read back with usd-core's pxr: every instance Blender draws for a scatter layer and a
room with mirrored tiles, in a PointInstancer at its place (≤ 1e-4 m, full matrix, mirrors included), with one
value per instance; engine axis and unit presets; bad input refused with nothing written."""

from __future__ import annotations

import sys
from pathlib import Path

import bpy
import numpy as np
import pytest
from export_check import drawn_instances, level_scene, match, point_values
from export_check_usd import read_usd
from rooms_kits import module

TOLERANCE = 1e-4


def _export(path: Path, **options) -> object:
    job = module("scene.export.job")
    return job.export_level(bpy.context, job.ExportRequest(path, **options))


@pytest.mark.parametrize("suffix, engine, strew_only", [(".usdc", "BLENDER", False), (".usda", "UNITY", False),
                                                        (".usd", "UNREAL", True)])
def test_every_drawn_instance_arrives_in_a_point_instancer(tmp_path: Path, suffix: str, engine: str,
                                                           strew_only: bool) -> None:
    level_scene()
    drawn = drawn_instances()
    mirrored = point_values("Strew Room", "strew_mirror")
    room = [item for item in drawn if item.output == "Strew Room"]
    assert mirrored[[item.point for item in room]].any() and len(room) == 25, "the room must hold mirrored tiles"
    modes = sys.modules[module("scene.export.job").__name__.rsplit(".scene.", 1)[0] + ".core.modes"]
    result = _export(tmp_path / f"level{suffix}", engine=modes.EngineAxes(engine), strew_only=strew_only)
    assert result.instances == len(drawn)
    assert [p.name for p in tmp_path.iterdir()] == [f"level{suffix}"]
    read = read_usd(tmp_path / f"level{suffix}")
    from pxr import UsdGeom

    expected = {"BLENDER": (UsdGeom.Tokens.z, 1.0), "UNITY": (UsdGeom.Tokens.y, 1.0),
                "UNREAL": (UsdGeom.Tokens.z, 0.01)}
    assert (UsdGeom.GetStageUpAxis(read.stage), UsdGeom.GetStageMetersPerUnit(read.stage)) == expected[engine]
    instanced = [item for item in read.placed if item.instancer]
    assert len(instanced) == len(drawn), "one PointInstancer row per drawn instance, nothing else instanced"
    assert sorted(path.rsplit("/", 2)[-2] for path in read.instancers) == ["Strew_Room", "Strew_Stones"]
    pairs = match(drawn, instanced, TOLERANCE)
    error = max(float(np.abs(found.matrix - item.matrix).max()) for item, found in pairs)
    print(f"USD {engine}: {len(pairs)} of {len(drawn)} instances found, max matrix error {error:.2e}")
    randoms, ids = point_values("Strew Stones", "strew_random"), point_values("Strew Stones", "strew_id")
    tiles, cells = point_values("Strew Room", "strew_tile"), point_values("Strew Room", "strew_cell")
    turns = point_values("Strew Room", "strew_rotation")
    for item, found in pairs:
        assert found.instancer.endswith(item.output.replace(" ", "_") + "/Instances")
        if item.output == "Strew Stones":
            assert found.values["strew_random"] == pytest.approx(randoms[item.point], abs=1e-7)
            assert int(found.values["strew_id"]) == int(ids[item.point])
        else:
            assert int(found.values["strew_tile"]) == int(tiles[item.point])
            np.testing.assert_array_equal(found.values["strew_cell"], cells[item.point])
            assert int(found.values["strew_rotation"]) == int(turns[item.point])
            assert bool(found.values["strew_mirror"]) == bool(mirrored[item.point])
        assert (np.linalg.det(found.matrix[:3, :3]) < 0) == (np.linalg.det(item.matrix[:3, :3]) < 0)
    assert sum(bool(mirrored[item.point]) for item, _ in pairs if item.output == "Strew Room") > 0
    room_instancer = next(value for key, value in read.instancers.items() if "Strew_Room" in key)
    prim = room_instancer.GetPrim()
    assert list(prim.GetAttribute("strew:tiles").Get()) == list(bpy.data.objects["Strew Room"]["strew_tiles"])
    assert prim.GetAttribute("strew:output").Get() == "room"
    for primvar in UsdGeom.PrimvarsAPI(prim).GetPrimvars():
        assert primvar.GetInterpolation() == UsdGeom.Tokens.vertex, primvar.GetName()
        assert len(primvar.Get()) == 25, primvar.GetName()


def test_prototypes_are_each_mesh_once_and_not_drawn_on_their_own(tmp_path: Path) -> None:
    level_scene()
    drawn = drawn_instances()
    _export(tmp_path / "level.usdc", strew_only=True, terrain=False)
    read = read_usd(tmp_path / "level.usdc")
    for path, instancer in read.instancers.items():
        targets = instancer.GetPrototypesRel().GetTargets()
        output = next(item.output for item in drawn if item.output.replace(" ", "_") in path)
        assert len(targets) == len({item.mesh for item in drawn if item.output == output})
        from pxr import Sdf

        assert read.stage.GetPrimAtPath(targets[0]).GetParent().GetSpecifier() == Sdf.SpecifierOver
    stones = {item.mesh for item in drawn if item.output == "Strew Stones"}
    assert not [item.mesh for item in read.placed if not item.instancer and item.mesh in stones]


def test_pxr_missing_is_one_line_and_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    level_scene()
    job = module("scene.export.job")
    monkeypatch.setitem(sys.modules, "pxr", None)
    with pytest.raises(job.ExportError, match="pip install usd-core"):
        _export(tmp_path / "level.usdc")
    assert list(tmp_path.iterdir()) == []


def test_a_deleted_prefab_collection_is_refused(tmp_path: Path) -> None:
    level_scene()
    bpy.data.collections.remove(bpy.data.collections["Stones"])
    job = module("scene.export.job")
    with pytest.raises(job.ExportError, match='"Strew Stones" draws none of its'):
        _export(tmp_path / "level.usda")
    assert list(tmp_path.iterdir()) == []


def test_the_hooks_fix_of_a_plain_export_finds_every_instance(tmp_path: Path) -> None:
    """What the USD hook does to the stage in Blender (whose exporter hands it over), done here on a file written
    with the exporter's default options (instances realized on 5.x, one Xform each on 4.2)."""
    level_scene()
    drawn = drawn_instances()
    usd = module("scene.export.usd")
    instances = module("scene.export.instances")
    path = tmp_path / "plain.usda"
    assert bpy.ops.wm.usd_export(filepath=str(path)) == {'FINISHED'}
    from pxr import Usd

    stage = Usd.Stage.Open(str(path))
    assert usd.fix_stage(stage, instances.collect(bpy.context.evaluated_depsgraph_get())) == []
    stage.GetRootLayer().Save()
    read = read_usd(path)
    instanced = [item for item in read.placed if item.instancer]
    assert len(instanced) == len(drawn)
    assert len(match(drawn, instanced, TOLERANCE)) == len(drawn)
    stones = {item.mesh for item in drawn if item.output == "Strew Stones"}
    assert not [item.mesh for item in read.placed if not item.instancer and item.mesh in stones]


def test_a_plain_usd_export_with_the_hook_registered_still_writes(tmp_path: Path) -> None:
    """The bpy wheel cannot hand the hook its stage: the export must go on as Blender writes it."""
    level_scene()
    usd = module("scene.export.usd")
    registered = usd.StrewUsdHook.is_registered
    if not registered:
        usd.register()
    try:
        assert bpy.ops.wm.usd_export(filepath=str(tmp_path / "plain.usdc")) == {'FINISHED'}
    finally:
        if not registered:
            usd.unregister()
    assert read_usd(tmp_path / "plain.usdc").placed
