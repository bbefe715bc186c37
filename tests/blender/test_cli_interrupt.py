"""Ctrl+C on ``python -m strew``: one line, exit code 130, every worker ended, no file written or half-written.

A terminal sends SIGINT to every process of the command; each test does the same to the command's own session,
at several moments of its work.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import bpy
import pytest
from conftest import REPO_ROOT
from processes import processes_with
from scenes import make_prefabs, make_terrain

NOTHING_SAVED = "strew: interrupted (Ctrl+C); nothing was saved"


def _interrupt(args: list[str], cwd: Path, when: float | None, processes: int = 1,
               started: Path | None = None) -> tuple[int, str, list[int]]:
    """Run ``python -m strew ARGS``; send Ctrl+C ``when`` seconds after ``processes`` of it run (the command and
    its workers) and, if given, the path ``started`` exists (the command's work has begun). Returns (exit code,
    stderr, the processes left 10 s after it ended)."""
    token = uuid.uuid4().hex
    marker = f"STREW_TEST_MARKER={token}"
    env = dict(os.environ, STREW_TEST_MARKER=token, BLENDER_USER_RESOURCES=str(cwd / "blender-user"))
    # A command typed in a terminal starts with Ctrl+C live; a test process may have come to ignore SIGINT
    # (a library's doing), and an ignored signal stays ignored across exec.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        command = subprocess.Popen([sys.executable, "-m", "strew", *args], cwd=REPO_ROOT, env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 120
    while len(processes_with(marker)) < processes and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.05)
    while started is not None and not started.exists() and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.02)
    time.sleep(when or 0.0)
    assert command.poll() is None, "the command ended before the interrupt: give it more work"
    os.killpg(command.pid, signal.SIGINT)
    _, err = command.communicate(timeout=120)
    deadline = time.monotonic() + 10
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    return command.returncode, err, processes_with(marker)


@pytest.fixture
def big_scene(tmp_path: Path) -> Path:
    """A 400 m terrain in 12 chunks and a 0.4 m layer: seconds of work on every core."""
    bpy.context.scene.strew.terrain = make_terrain(size=300.0, subdivisions=60)
    bpy.context.scene.strew.chunk_size = 100.0
    make_prefabs("Stones", 2)
    source = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    return source


def _one_line(code: int, err: str, left: list[int], line: str = NOTHING_SAVED) -> None:
    assert code == 130, err[-3000:]
    assert err.strip().splitlines() == [line], err[-3000:]
    assert left == []


@pytest.mark.parametrize("when", [0.3, 1.5], ids=["while importing", "while sampling"])
def test_ctrl_c_on_scatter(big_scene: Path, when: float) -> None:
    out = big_scene.parent / "out.blend"
    args = ["scatter", str(big_scene), "--terrain", "Terrain", "--layer", "Stones:0.4:0.4", "--workers", "2",
            "-o", str(out)]
    workers = min(2, len(os.sched_getaffinity(0)))  # capped at the cores; 1 runs in the command's process
    _one_line(*_interrupt(args, big_scene.parent, when, processes=1 if when < 1 or workers < 2 else 1 + workers))
    assert sorted(p.name for p in big_scene.parent.iterdir() if p.is_file()) == ["scene.blend"]


def test_ctrl_c_on_a_farm_task_leaves_no_part_file_behind(big_scene: Path) -> None:
    parts = big_scene.parent / "parts"
    # A denser layer than the scatter tests': the farm task must still be running 4 s after it starts.
    args = ["scatter", str(big_scene), "--layer", "Stones:0.2:0.2", "--chunks", "0:12", "--parts", str(parts)]
    _one_line(*_interrupt(args, big_scene.parent, 4.0))
    assert not [p for p in parts.rglob("*") if p.is_file() and "partial" in p.name]


def test_ctrl_c_on_room(tmp_path: Path) -> None:
    kit = tmp_path / "kit.blend"
    made = subprocess.run([sys.executable, "-m", "strew", "kit", str(kit)], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    out = tmp_path / "room.blend"
    args = ["room", str(kit), "--size", "60", "60", "3", "--connected", "-o", str(out)]
    _one_line(*_interrupt(args, tmp_path, 5.0))
    assert not out.exists()


def test_ctrl_c_on_demo(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    args = ["demo", "--out", str(out), "--no-render"]
    # The demo's folder is made as its build begins: Ctrl+C lands a moment later, while the scene is built and
    # scattered (the whole build takes a few seconds).
    _one_line(*_interrupt(args, tmp_path, 0.3, started=out),
              line=f"strew: interrupted (Ctrl+C); {out} may hold part of the demo")
    assert not (out / "strew_demo.blend").exists()


def test_ctrl_c_while_a_file_is_written_removes_it(tmp_path: Path) -> None:
    """The moment that matters for "no half-written file": the interrupt comes inside the write."""
    script = (
        "import os, signal, time\nfrom pathlib import Path\nfrom strew import cli_interrupt\n"
        "from strew.scene.scatter_farm import replace_whole\n"
        "def write(temporary):\n    temporary.write_text('half')\n    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(30)\n"
        f"with cli_interrupt.watching():\n    replace_whole(Path({str(tmp_path / 'part.npz')!r}), write)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 130, done.stderr[-3000:]
    assert done.stderr.strip().splitlines() == [NOTHING_SAVED]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_ctrl_c_while_saving_waits_for_the_save_and_names_it(tmp_path: Path) -> None:
    script = (
        "import os, signal, time\nfrom pathlib import Path\nfrom strew import cli_interrupt\n"
        "with cli_interrupt.watching():\n    with cli_interrupt.deferred():\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n        time.sleep(0.5)\n"
        "        cli_interrupt.SAVED.append(Path('out.blend'))\n"
        "    print('not reached')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 130, done.stderr[-3000:]
    assert done.stderr.strip().splitlines() == ["strew: interrupted (Ctrl+C) after saving out.blend"]
    assert "not reached" not in done.stdout
