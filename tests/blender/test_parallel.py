"""Workers and the farm in Blender: the same instances for 1, 2, 3 workers and for farm tasks + merge."""

from __future__ import annotations

import importlib
import itertools
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import bpy
import numpy as np
import pytest
from conftest import REPO_ROOT
from processes import alive, processes_with
from scenes import add_layer, make_prefabs, make_terrain, pairwise_min_ratio, point_attributes

LAYERS = ("Strew Stones", "Strew Pebbles")


def _world() -> None:
    """A 40 m terrain in chunks of 10 m (6 × 5 chunks), two layers, the second kept away from the first."""
    bpy.context.scene.strew.terrain = make_terrain(size=40.0, subdivisions=16)
    bpy.context.scene.strew.chunk_size = 10.0
    add_layer("Stones", make_prefabs("Stones", 2), 1.4, 2.6, seed=5, density_mode='NOISE', noise_scale=9.0)
    add_layer("Pebbles", make_prefabs("Pebbles", 2), 0.8, 0.8, seed=6, keep_away=1.5)


def _outputs() -> dict[str, dict[str, bytes]]:
    return {name: {key: value.tobytes() for key, value in point_attributes(bpy.data.objects[name]).items()}
            for name in LAYERS}


def test_workers_auto_one_two_three_write_identical_instances() -> None:
    _world()
    results = {}
    for workers in (1, 2, 3, 0):  # 0: Auto
        bpy.context.scene.strew.workers = workers
        assert bpy.ops.strew.scatter() == {'FINISHED'}
        results[workers] = _outputs()
    assert results[1] == results[2] == results[3] == results[0]
    stones = point_attributes(bpy.data.objects["Strew Stones"])
    assert len(stones["position"]) > 100
    assert pairwise_min_ratio(stones["position"][:, :2], stones["strew_radius"].astype(float)) >= 1 - 1e-5


def test_workers_stay_up_between_runs_and_stop_on_a_new_count_and_a_file_load(strew_extension) -> None:
    pool_module = importlib.import_module(f"{strew_extension.__name__}.core.pool")
    _world()
    bpy.context.scene.strew.workers = 2
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    pool = pool_module.kept_pool(2)
    pids = pool.pids
    assert len(pids) == 2 and all(map(alive, pids))
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert pool_module.kept_pool(2) is pool and pool.pids == pids  # the second run found them running
    bpy.context.scene.strew.workers = 3  # a new count stops them
    assert not any(map(alive, pids)) and not pool_module._KEPT
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    usable = pool_module.usable_workers(3)  # never more than the cores
    pids = pool_module.kept_pool(usable).pids
    assert len(pids) == usable and all(map(alive, pids))
    bpy.ops.wm.read_homefile(use_empty=True)  # another file: they stop
    assert not any(map(alive, pids)) and not pool_module._KEPT


def test_workers_are_auto_unless_a_file_sets_a_count(tmp_path: Path, strew_extension) -> None:
    """Auto starts no worker for a layer the pool would not speed up; a count set in a file stays that count."""
    pool_module = importlib.import_module(f"{strew_extension.__name__}.core.pool")
    bpy.ops.wm.read_homefile(use_empty=True)
    assert bpy.context.scene.strew.workers == 0 and not bpy.context.scene.strew.is_property_set("workers")
    _world()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert not any(pool.running for pool in pool_module._KEPT)  # 30 small chunks: one process is faster
    source = tmp_path / "two.blend"
    bpy.context.scene.strew.workers = 2
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    bpy.ops.wm.open_mainfile(filepath=str(source))
    assert bpy.context.scene.strew.workers == 2


def _painted(name: str) -> np.ndarray:
    mesh = bpy.data.objects[name].data
    flags = np.zeros(len(mesh.vertices), dtype=np.int32)
    mesh.attributes["strew_painted"].data.foreach_get("value", flags)
    return flags.astype(bool)


def _paint_and_rules() -> None:
    """Painted stones in the middle and a pair rule: pebbles keep 1.8 m from the stones (1.5 m from the others)."""
    stroke = [{"name": "", "location": (x, -7.0, 2.0)} for x in (9.0, 13.0, 17.0)]
    assert bpy.ops.strew.paint(layer_index=0, radius=5.0, stroke=stroke) == {'FINISHED'}
    rule = bpy.context.scene.strew.layers[1].keep_away_rules.add()
    rule.layer, rule.distance = "Stones", 1.8


def test_farm_tasks_and_merge_write_what_one_scatter_writes(tmp_path: Path, strew) -> None:
    _world()
    bpy.context.scene.strew.workers = 1
    _paint_and_rules()
    painted = _painted("Strew Stones")
    assert painted.sum() >= 3
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    expected = _outputs()

    assert strew("scatter", str(source), "--plan", str(tmp_path / "plan.json"))[::2] == (0, "")
    graph = json.loads((tmp_path / "plan.json").read_text())
    stages = graph["stages"]
    assert stages[0]["layer"] == "Stones" and stages[-1]["layer"] == "Pebbles"
    assert stages[-1]["stop"] == graph["tasks"]
    assert all(a["stop"] == b["start"] for a, b in itertools.pairwise(stages))
    parts = tmp_path / "parts"
    middle = (stages[0]["start"] + stages[0]["stop"]) // 2
    jobs = [(stages[0]["start"], middle), (middle, stages[0]["stop"])]  # one stage split over two machines
    jobs += [(stage["start"], stage["stop"]) for stage in stages[1:]]
    for first, end in jobs:
        assert strew("scatter", str(source), "--chunks", f"{first}:{end}", "--parts", str(parts))[::2] == (0, "")
    out = tmp_path / "merged.blend"
    assert strew("merge", str(source), "--parts", str(parts), "-o", str(out))[::2] == (0, "")
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert _outputs() == expected
    stones = point_attributes(bpy.data.objects["Strew Stones"])
    pebbles = point_attributes(bpy.data.objects["Strew Pebbles"])
    assert _painted("Strew Stones").sum() == painted.sum()
    assert len(stones["position"]) > 100 and len(pebbles["position"]) > 20, len(pebbles["position"])
    gaps = np.linalg.norm(pebbles["position"][:, None, :2] - stones["position"][None, :, :2], axis=2).min(axis=1)
    assert gaps.min() >= 1.8 - 1e-4  # the pair rule holds across the farm's part files


def test_a_task_before_its_stage_names_the_tasks_to_run_first(tmp_path: Path, strew) -> None:
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    assert strew("scatter", str(source), "--plan", str(tmp_path / "plan.json"))[0] == 0
    stages = json.loads((tmp_path / "plan.json").read_text())["stages"]
    late = stages[1]["start"]
    code, _, error = strew("scatter", str(source), "--chunks", f"{late}:{late + 1}", "--parts", str(tmp_path / "p"))
    assert code == 2 and len(error.strip().splitlines()) == 1
    assert f"run the tasks {stages[0]['start']}:{stages[0]['stop']}" in error


@pytest.mark.parametrize(("options", "message"), [
    (["--workers", "-1", "-o", "x.blend"], "--workers is -1"),
    (["--chunks", "5:2", "--parts", "p"], "--chunks 5:2"),
    (["--chunks", "a:b", "--parts", "p"], "--chunks 'a:b'"),
    (["--chunks", "0:2"], "--chunks needs --parts"),
])
def test_bad_parallel_options_are_one_line_errors(tmp_path: Path, strew, options: list[str], message: str
                                                  ) -> None:
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    code, _, error = strew("scatter", str(source), *[o.replace("x.blend", str(tmp_path / "x.blend")) for o in options])
    assert code == 2 and message in error and len(error.strip().splitlines()) == 1, error
    assert not (tmp_path / "x.blend").exists()


@pytest.mark.parametrize("listener", ["refused", "silent"])
def test_a_scheduler_that_does_not_answer_is_a_one_line_error(tmp_path: Path, listener: str) -> None:
    """In its own process: a Dask client leaves its event-loop thread behind. A port that accepts and never
    answers ends within the timeout too."""
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        address = "tcp://127.0.0.1:9" if listener == "refused" else f"tcp://127.0.0.1:{server.getsockname()[1]}"
        done = subprocess.run([sys.executable, "-m", "strew", "scatter", str(source), "--scheduler", address,
                               "--scheduler-timeout", "1", "-o", str(tmp_path / "x.blend")],
                              capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert done.returncode == 2 and "no Dask scheduler answers" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "x.blend").exists()


def test_the_command_line_leaves_no_worker_behind(tmp_path: Path) -> None:
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    token = uuid.uuid4().hex
    marker = f"STREW_TEST_MARKER={token}"
    env = dict(os.environ, STREW_TEST_MARKER=token)
    done = subprocess.run([sys.executable, "-m", "strew", "scatter", str(source), "--workers", "2", "-o",
                           str(tmp_path / "out.blend")], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "out.blend").is_file()
    deadline = time.monotonic() + 10
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = processes_with(marker)
    assert left == [], [Path(f"/proc/{pid}/cmdline").read_bytes()[:200] for pid in left]
