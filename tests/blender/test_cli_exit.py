"""``python -m strew`` ends with exit code 0 soon after saving, on every supported ``bpy`` (``make test-compat``).

Each command runs in its own Python process, as a pipeline runs it; a crash or a hang in the ``bpy`` module's
teardown shows here as a signal exit code or a timeout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import bpy
from scenes import make_prefabs, make_terrain

# Generous for a loaded machine; a hang at exit is unbounded.
TIMEOUT = 240.0


def _strew(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BLENDER_USER_RESOURCES=str(cwd / "blender-user"))
    return subprocess.run([sys.executable, "-m", "strew", *args], capture_output=True, text=True, timeout=TIMEOUT,
                          cwd=cwd, env=env)


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, f"exit code {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def test_kit_and_room_exit_zero_after_saving(tmp_path: Path) -> None:
    kit, room = tmp_path / "kit.blend", tmp_path / "room.blend"
    out = _ok(_strew("kit", str(kit), cwd=tmp_path))
    assert kit.is_file() and 'kit "Tiles":' in out
    out = _ok(_strew("room", str(kit), "--size", "4", "4", "1", "--seed", "2", "-o", str(room), cwd=tmp_path))
    assert room.is_file() and "Strew Room:" in out


def test_scatter_exits_zero_after_saving_and_varies_spacing(tmp_path: Path) -> None:
    make_terrain(size=30.0, subdivisions=12)
    make_prefabs("Trees", count=2)
    scene_path, out_path = tmp_path / "scene.blend", tmp_path / "out.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(scene_path))
    started = time.perf_counter()
    out = _ok(_strew("scatter", str(scene_path), "--terrain", "Terrain", "--layer", "Trees:1.5:4", "--seed", "7",
                     "-o", str(out_path), cwd=tmp_path))
    assert time.perf_counter() - started < TIMEOUT
    assert "Strew Trees:" in out and out_path.is_file()
    bpy.ops.wm.open_mainfile(filepath=str(out_path))
    layer = bpy.context.scene.strew.layers["Trees"]
    assert layer.density_mode == 'NOISE'  # MIN < MAX asked for varying spacing
    radii = [v.value for v in bpy.data.objects["Strew Trees"].data.attributes["strew_radius"].data]
    assert min(radii) >= 1.5 - 1e-6 and max(radii) <= 4.0 + 1e-6
    assert max(radii) - min(radii) > 0.25, (min(radii), max(radii))  # Uniform would give 1.5 everywhere


def test_usage_error_exits_two_without_a_traceback(tmp_path: Path) -> None:
    done = _strew("scatter", str(tmp_path / "missing.blend"), "-o", str(tmp_path / "o.blend"), cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "strew: error:" in done.stderr and "Traceback" not in done.stderr
