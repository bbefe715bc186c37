"""The command line checks its files before any work: one line on stderr, exit code 2, nothing written."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import bpy
import pytest
from conftest import ADDON_MODULE, REPO_ROOT
from scenes import make_prefabs, make_terrain

Paths = dict[str, Path]


def _strew(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "strew", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Paths:
    """A good scene, bad inputs of every kind, and places that cannot be written (made once: none is changed)."""
    tmp_path = tmp_path_factory.mktemp("files")
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.context.scene.strew.terrain = make_terrain(size=20.0, subdivisions=6)
    make_prefabs("Stones", 2)
    good = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(good))
    data = good.read_bytes()
    (tmp_path / "truncated.blend").write_bytes(data[: len(data) // 2])
    bpy.ops.wm.save_as_mainfile(filepath=str(tmp_path / "plain.blend"), compress=False, copy=True)
    plain = (tmp_path / "plain.blend").read_bytes()
    assert plain.startswith(b"BLENDER")
    (tmp_path / "plain-truncated.blend").write_bytes(plain[:-40])
    (tmp_path / "corrupt.blend").write_bytes(b"BLENDER17-01v0500" + bytes(range(256)) * 8)
    (tmp_path / "text.blend").write_text("not a blend file\n")
    (tmp_path / "folder.blend").mkdir()
    (tmp_path / "a-file").write_text("a plain file\n")
    return {"good": good, "dir": tmp_path, "truncated": tmp_path / "truncated.blend",
            "corrupt": tmp_path / "corrupt.blend", "text": tmp_path / "text.blend",
            "plain": tmp_path / "plain.blend", "plain-truncated": tmp_path / "plain-truncated.blend",
            "folder": tmp_path / "folder.blend", "file": tmp_path / "a-file"}


def _scatter(source: Path, output: Path) -> list[str]:
    return ["scatter", str(source), "--layer", "Stones:3:3", "-o", str(output)]


Case = Callable[[Paths], list[str]]
CASES: list[tuple[str, Case, str]] = [
    ("missing input", lambda f: _scatter(f["dir"] / "nope.blend", f["dir"] / "o.blend"), "no such file"),
    ("folder input", lambda f: _scatter(f["folder"], f["dir"] / "o.blend"), "is a folder"),
    ("text input", lambda f: _scatter(f["text"], f["dir"] / "o.blend"), "not a readable .blend file"),
    ("truncated input", lambda f: _scatter(f["truncated"], f["dir"] / "o.blend"), "not a readable .blend file"),
    ("corrupt input", lambda f: _scatter(f["corrupt"], f["dir"] / "o.blend"), "truncated or damaged"),
    ("truncated uncompressed input", lambda f: _scatter(f["plain-truncated"], f["dir"] / "o.blend"),
     "truncated or damaged"),
    ("output is a folder", lambda f: _scatter(f["good"], f["folder"]), "is a folder"),
    ("output under a file", lambda f: _scatter(f["good"], f["file"] / "sub" / "o.blend"), "is a file, not a folder"),
    ("output not writable", lambda f: _scatter(f["good"], Path("/proc/strew-test/o.blend")), "cannot write"),
    ("output not .blend", lambda f: _scatter(f["good"], f["dir"] / "o.txt"), "ending in .blend"),
    ("output is the input", lambda f: _scatter(f["good"], f["good"]), "--in-place"),
    ("no output", lambda f: ["scatter", str(f["good"]), "--layer", "Stones:3:3"], "say where to save"),
    ("zero radius", lambda f: [*_scatter(f["good"], f["dir"] / "o.blend"), "--layer", "T:0:3"], "min_radius"),
    ("max below min", lambda f: [*_scatter(f["good"], f["dir"] / "o.blend"), "--layer", "T:3:2"], "max_radius"),
    ("negative seed", lambda f: [*_scatter(f["good"], f["dir"] / "o.blend"), "--seed", "-1"], "--seed is -1"),
    ("steep slope", lambda f: [*_scatter(f["good"], f["dir"] / "o.blend"), "--max-slope", "100"], "(degrees) is 100"),
    ("negative chunk", lambda f: [*_scatter(f["good"], f["dir"] / "o.blend"), "--chunk-size", "-5"], "--chunk-size"),
    ("room: truncated input", lambda f: ["room", str(f["truncated"]), "-o", str(f["dir"] / "r.blend")],
     "not a readable .blend file"),
    ("room: output is the input", lambda f: ["room", str(f["good"]), "-o", str(f["good"])], "--in-place"),
    ("room: output under a file", lambda f: ["room", str(f["good"]), "-o", str(f["file"] / "r.blend")],
     "is a file, not a folder"),
    ("kit: output is a folder", lambda f: ["kit", str(f["folder"])], "is a folder"),
    ("kit: output under a file", lambda f: ["kit", str(f["file"] / "kit.blend")], "is a file, not a folder"),
    ("kit: empty name", lambda f: ["kit", str(f["dir"] / "kit.blend"), "--name", " "], "--name"),
    ("demo: out is a file", lambda f: ["demo", "--out", str(f["file"]), "--no-render"], "is a file"),
    ("demo: out under a file", lambda f: ["demo", "--out", str(f["file"] / "demo"), "--no-render"],
     "is a file, not a folder"),
    ("demo: out not writable", lambda f: ["demo", "--out", "/proc/strew-demo", "--no-render"], "cannot write"),
]


@pytest.mark.parametrize(("case", "message"), [(c, m) for _, c, m in CASES], ids=[name for name, _, _ in CASES])
def test_bad_files_are_refused_before_any_work(files: Paths, case: Case, message: str) -> None:
    before = {path: path.read_bytes() for path in files["dir"].iterdir() if path.is_file()}
    done = _strew(*case(files))
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("strew: error: "), done.stderr
    assert message in lines[0], lines[0]
    assert "Traceback" not in done.stdout + done.stderr
    after = {path: path.read_bytes() for path in files["dir"].iterdir() if path.is_file()}
    assert after == before  # nothing written, nothing changed


def test_good_blend_files_pass_the_checks(files: Paths) -> None:
    checks = importlib.import_module(f"{ADDON_MODULE}.cli_files")
    for name in ("good", "plain"):  # compressed (Blender's default) and uncompressed
        assert checks.readable_blend(str(files[name])) == files[name].resolve()
    assert checks.writable_blend(str(files["dir"] / "new" / "out.blend")) == files["dir"] / "new" / "out.blend"
    assert checks.writable_folder(str(files["dir"] / "demo")) == files["dir"] / "demo"
    assert not (files["dir"] / "new").exists() and not (files["dir"] / "demo").exists()  # checked, not made


def test_in_place_overwrites_the_input(files: Paths, tmp_path: Path) -> None:
    copy = tmp_path / "copy.blend"
    copy.write_bytes(files["plain"].read_bytes())
    done = _strew("scatter", str(copy), "--terrain", "Terrain", "--layer", "Stones:3:3", "--in-place")
    assert done.returncode == 0, done.stdout + done.stderr
    bpy.ops.wm.open_mainfile(filepath=str(copy))
    assert "Strew Stones" in bpy.data.objects


def test_a_user_collection_named_strew_output_is_not_reported_as_ours(tmp_path: Path) -> None:
    """The counts come from what Strew wrote; a user's "Strew Output" holding a camera stays as it was."""
    bpy.context.scene.strew.terrain = make_terrain(size=20.0, subdivisions=6)
    make_prefabs("Stones", 2)
    theirs = bpy.data.collections.new("Strew Output")
    bpy.context.scene.collection.children.link(theirs)
    theirs.objects.link(bpy.data.objects.new("Their Camera", bpy.data.cameras.new("Their Camera")))
    source, out = tmp_path / "scene.blend", tmp_path / "deep" / "out.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    done = _strew("scatter", str(source), "--terrain", "Terrain", "--layer", "Stones:3:3", "-o", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Strew Stones:" in done.stdout and "Their Camera" not in done.stdout
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert [o.name for o in bpy.data.collections["Strew Output"].objects] == ["Their Camera"]
    assert "Strew Stones" in bpy.data.objects
