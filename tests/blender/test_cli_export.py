"""``python -m strew export`` in its own process: a level saved with a scatter layer and a mirrored room is written
to .glb, .usdc and .fbx (read back: every drawn instance there), and bad input is one line, exit code 2, nothing
written."""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from cli_process import refused, strew_run, succeeded
from export_check import drawn_instances, level_scene, match, read_gltf


@pytest.fixture
def level_file(tmp_path: Path) -> tuple[Path, int]:
    level_scene()
    drawn = len(drawn_instances())
    path = tmp_path / "level.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path, drawn


@pytest.mark.parametrize("suffix", [".glb", ".usdc", ".fbx"])
def test_export_writes_every_instance(level_file: tuple[Path, int], tmp_path: Path, suffix: str) -> None:
    blend, drawn = level_file
    out = tmp_path / "out" / f"level{suffix}"
    out.parent.mkdir()
    printed = succeeded(strew_run("export", blend, "-o", out, "--engine", "unity", cwd=tmp_path))
    assert f"exported {drawn:,} instances of 2 Strew outputs" in printed
    assert [p.name for p in out.parent.iterdir() if p.is_file()] == [out.name]
    if suffix == ".glb":
        placed, _ = read_gltf(out)
        assert len(match(drawn_instances(), placed)) == drawn


@pytest.mark.parametrize("args, message", [
    (["-o", "level.obj"], "use one of the extensions .glb"),
    (["-o", "missing/level.glb"], "does not exist"),
    (["-o", "level.glb", "--engine", "cryengine"], "invalid choice"),
])
def test_bad_input_is_one_line_and_writes_nothing(level_file: tuple[Path, int], tmp_path: Path, args: list[str],
                                                 message: str) -> None:
    blend, _ = level_file
    before = sorted(p.name for p in tmp_path.iterdir())
    refused(strew_run("export", blend, *args, cwd=tmp_path), message)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "blender-user") == \
        [name for name in before if name != "blender-user"]


def test_a_file_without_strew_outputs_is_refused(tmp_path: Path) -> None:
    bpy.ops.mesh.primitive_monkey_add()
    blend = tmp_path / "plain.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))
    refused(strew_run("export", blend, "-o", "plain.glb", cwd=tmp_path), "Nothing of Strew's to export")
    assert not (tmp_path / "plain.glb").exists()
