"""The farm's files: paths of the wrong kind, damaged parts and parts of another job are one-line errors.

Every refusal is exit code 2 with one line on stderr, and the output file is not written.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain


def _world(path: Path, seed: int = 5, radius: float = 1.4, height: float = 0.0) -> Path:
    """A 40 m terrain in 10 m chunks and one layer, saved to ``path``."""
    bpy.ops.wm.read_homefile(use_empty=True)
    terrain = make_terrain(size=40.0, subdivisions=16)
    terrain.data.vertices[0].co.z += height
    bpy.context.scene.strew.terrain = terrain
    bpy.context.scene.strew.chunk_size = 10.0
    bpy.context.scene.strew.workers = 1
    add_layer("Stones", make_prefabs("Stones", 2), radius, radius, seed=seed)
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _tasks(strew, source: Path) -> int:
    plan = source.with_suffix(".json")
    assert strew("scatter", source, "--plan", plan)[0] == 0
    return int(json.loads(plan.read_text())["tasks"])


def _parts(strew, source: Path, parts: Path) -> Path:
    code, _, error = strew("scatter", source, "--chunks", f"0:{_tasks(strew, source)}", "--parts", parts)
    assert code == 0, error
    return parts


def _refused(strew, args: list[object], message: str, output: Path) -> str:
    code, _, error = strew(*args)
    lines = error.strip().splitlines()
    assert code == 2 and len(lines) == 1 and message in lines[0], error
    assert "Traceback" not in error
    assert not output.exists()
    return lines[0]


@pytest.mark.parametrize(("where", "message"), [
    ("a file", "is a file"), ("under a file", "is a file, not a folder"),
])
def test_parts_that_are_no_folder(tmp_path: Path, strew, where: str, message: str) -> None:
    source = _world(tmp_path / "scene.blend")
    (tmp_path / "a-file").write_text("not a folder\n")
    parts = tmp_path / "a-file" if where == "a file" else tmp_path / "a-file" / "parts"
    _refused(strew, ["scatter", source, "--chunks", "0:2", "--parts", parts], f"--parts {parts}",
             tmp_path / "a-file" / "parts")
    _refused(strew, ["merge", source, "--parts", parts, "-o", tmp_path / "out.blend"], f"--parts {parts}",
             tmp_path / "out.blend")
    assert (tmp_path / "a-file").read_text() == "not a folder\n"


def test_merge_without_the_parts_folder(tmp_path: Path, strew) -> None:
    source = _world(tmp_path / "scene.blend")
    _refused(strew, ["merge", source, "--parts", tmp_path / "nowhere", "-o", tmp_path / "out.blend"],
             "no such folder", tmp_path / "out.blend")


@pytest.mark.parametrize(("plan", "message"), [
    (lambda t: t, "is a folder"), (lambda t: t / "a-file" / "plan.json", "is a file, not a folder"),
    (lambda t: Path("/proc/strew-test/plan.json"), "cannot write"),
])
def test_plans_that_cannot_be_written(tmp_path: Path, strew, plan: Callable[[Path], Path], message: str) -> None:
    source = _world(tmp_path / "scene.blend")
    (tmp_path / "a-file").write_text("not a folder\n")
    before = sorted(tmp_path.iterdir())
    _refused(strew, ["scatter", source, "--plan", plan(tmp_path)], message, tmp_path / "plan.json")
    assert sorted(tmp_path.iterdir()) == before


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _junk(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 3)


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF
    path.write_bytes(bytes(data))


def _missing_array(path: Path) -> None:
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files if name != "radii"}
    np.savez(path, **arrays)


def _pickled(path: Path) -> None:
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["positions"] = np.array([object()], dtype=object)
    np.savez(path, **arrays)


def _a_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize("damage", [_truncate, _junk, _empty, _flip_a_byte, _missing_array, _pickled, _a_folder])
def test_damaged_parts_are_named(tmp_path: Path, strew, damage: Callable[[Path], None]) -> None:
    source = _world(tmp_path / "scene.blend")
    parts = _parts(strew, source, tmp_path / "parts")
    victim = sorted(parts.rglob("chunk-*.npz"))[3]
    damage(victim)
    message = "is missing" if damage is _a_folder else "is damaged"
    line = _refused(strew, ["merge", source, "--parts", parts, "-o", tmp_path / "out.blend"], f"{victim}",
                    tmp_path / "out.blend")
    assert message in line and "run the tasks" in line


@pytest.mark.parametrize("other", [dict(seed=6), dict(seed=2**31 - 1), dict(radius=1.5), dict(height=0.5)],
                         ids=["seed", "largest seed", "radius", "terrain"])
def test_parts_of_another_job_are_refused(tmp_path: Path, strew, other: dict[str, float]) -> None:
    theirs = _parts(strew, _world(tmp_path / "theirs.blend", **other), tmp_path / "parts")
    source = _world(tmp_path / "scene.blend")
    _refused(strew, ["merge", source, "--parts", theirs, "-o", tmp_path / "out.blend"], "was computed from another",
             tmp_path / "out.blend")
    # and a task that reads them as its earlier chunks
    last = _tasks(strew, source)
    _refused(strew, ["scatter", source, "--chunks", f"{last - 1}:{last}", "--parts", theirs],
             "was computed from another", tmp_path / "out.blend")


def test_parts_of_the_same_job_merge(tmp_path: Path, strew) -> None:
    source = _world(tmp_path / "scene.blend")
    parts = _parts(strew, source, tmp_path / "parts")
    copy = shutil.copytree(parts, tmp_path / "copied")  # moved between machines: still the same job
    assert strew("merge", source, "--parts", copy, "-o", tmp_path / "out.blend")[::2] == (0, "")
    assert not [p for p in parts.rglob("*") if "partial" in p.name]
    assert all(zipfile.is_zipfile(p) for p in parts.rglob("chunk-*.npz"))
