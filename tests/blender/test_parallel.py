"""Workers and the farm in Blender: the same instances for 1, 2, 3 workers and for farm tasks + merge."""

from __future__ import annotations

import importlib
import itertools
import json
import subprocess
import sys
from pathlib import Path

import bpy
import pytest
from conftest import REPO_ROOT
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


def test_workers_one_two_three_write_identical_instances() -> None:
    _world()
    results = {}
    for workers in (1, 2, 3):
        bpy.context.scene.strew.workers = workers
        assert bpy.ops.strew.scatter() == {'FINISHED'}
        results[workers] = _outputs()
    assert results[1] == results[2] == results[3]
    stones = point_attributes(bpy.data.objects["Strew Stones"])
    assert len(stones["position"]) > 100
    assert pairwise_min_ratio(stones["position"][:, :2], stones["strew_radius"].astype(float)) >= 1 - 1e-5


@pytest.fixture
def strew(strew_extension, capsys):
    """``python -m strew ARGS`` in this process: returns (exit code, stderr)."""
    main = importlib.import_module(f"{strew_extension.__name__}.cli").main

    def run(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = main(list(args))
        return code, capsys.readouterr().err

    return run


def test_farm_tasks_and_merge_write_what_one_scatter_writes(tmp_path: Path, strew) -> None:
    _world()
    bpy.context.scene.strew.workers = 1
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    expected = _outputs()

    assert strew("scatter", str(source), "--plan", str(tmp_path / "plan.json")) == (0, "")
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
        assert strew("scatter", str(source), "--chunks", f"{first}:{end}", "--parts", str(parts)) == (0, "")
    out = tmp_path / "merged.blend"
    assert strew("merge", str(source), "--parts", str(parts), "-o", str(out)) == (0, "")
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert _outputs() == expected


def test_a_task_before_its_stage_names_the_tasks_to_run_first(tmp_path: Path, strew) -> None:
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    assert strew("scatter", str(source), "--plan", str(tmp_path / "plan.json"))[0] == 0
    stages = json.loads((tmp_path / "plan.json").read_text())["stages"]
    late = stages[1]["start"]
    code, error = strew("scatter", str(source), "--chunks", f"{late}:{late + 1}", "--parts", str(tmp_path / "p"))
    assert code == 2 and len(error.strip().splitlines()) == 1
    assert f"run the tasks {stages[0]['start']}:{stages[0]['stop']}" in error


@pytest.mark.parametrize(("options", "message"), [
    (["--workers", "0", "-o", "x.blend"], "--workers 0"),
    (["--chunks", "5:2", "--parts", "p"], "--chunks 5:2"),
    (["--chunks", "a:b", "--parts", "p"], "--chunks 'a:b'"),
    (["--chunks", "0:2"], "--chunks needs --parts"),
])
def test_bad_parallel_options_are_one_line_errors(tmp_path: Path, strew, options: list[str], message: str
                                                  ) -> None:
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    code, error = strew("scatter", str(source), *[o.replace("x.blend", str(tmp_path / "x.blend")) for o in options])
    assert code == 2 and message in error and len(error.strip().splitlines()) == 1, error
    assert not (tmp_path / "x.blend").exists()


def test_a_scheduler_that_does_not_answer_is_a_one_line_error(tmp_path: Path) -> None:
    """In its own process: a Dask client leaves its event-loop thread behind."""
    _world()
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    done = subprocess.run([sys.executable, "-m", "strew", "scatter", str(source), "--scheduler", "tcp://127.0.0.1:9",
                           "--scheduler-timeout", "1", "-o", str(tmp_path / "x.blend")],
                          capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert done.returncode == 2 and "no Dask scheduler answers" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "x.blend").exists()
