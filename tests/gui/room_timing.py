"""Assemble Room clicked in the window against the same room headless, several times in one Blender session.

Runs where the windowed Blender runs, like ``session.py`` (standard library only):
``python3 tests/gui/room_timing.py --zip dist/strew-X.zip --out tests/gui/out/bench/4.3 --runs 5``.
The window comes up once with the demo kit and a 30×30×3 room set in the Tile Rooms panel; then each run clicks
Assemble Room (the window's time) and runs ``blender -b`` on the same room (the headless reference), alternating
which goes first, so both see the same load. With each measurement: ``/proc/loadavg`` and the CPU time of the
window's Blender threads (main thread, the others: Mesa's llvmpipe drawing threads among them) and of the
headless Blender. The modal operator's timer ticks are timed from inside Blender (the operator's ``modal`` is
wrapped for the measurement): the time the job ran in its slices and the time between slices (the window's
events and redraws). Writes ``OUT/timing.json`` (one record per run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from session import Session, headless_room
from window import HERE, StepFailed, Window

TICKS = """
import sys, time
name = next(n for n in sys.modules if n.endswith('strew.operators.modal_job'))
job = sys.modules[name].ModalJob
if not hasattr(job, 'timed_modal'):
    job.timed_modal = job.modal
    job.ticks = []
    def modal(self, context, event):
        started = time.perf_counter()
        result = job.timed_modal(self, context, event)
        job.ticks.append((event.type, started, time.perf_counter()))
        return result
    job.modal = modal
job.ticks.clear()
"""

READ_TICKS = """
import sys
job = sys.modules[next(n for n in sys.modules if n.endswith('strew.operators.modal_job'))].ModalJob
result = list(job.ticks)
"""

CLEAR_ROOM = "bpy.ops.strew.clear_room()"


def loadavg() -> list[float]:
    return [float(v) for v in Path("/proc/loadavg").read_text().split()[:3]]


def thread_times(pid: int) -> dict[str, float]:
    """CPU seconds (user + system) of a process's threads: its main thread and all the others together."""
    tick = os.sysconf("SC_CLK_TCK")
    main = others = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if int(task.name) == pid:
            main += seconds
        else:
            others += seconds
    return {"main": main, "others": others}


def children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def tick_summary(ticks: list[list], started: float) -> dict[str, float]:
    """The timer ticks of one run: time in the job's slices, time between them, the longest gap."""
    timer = [(a, b) for kind, a, b in ticks if kind == "TIMER"]
    if not timer:
        return {}
    inside = sum(b - a for a, b in timer)
    gaps = [timer[k + 1][0] - timer[k][1] for k in range(len(timer) - 1)]
    return {"ticks": len(timer), "in_slices": inside, "between": sum(gaps), "longest_gap": max(gaps, default=0.0),
            "gaps_over_50ms": sum(1 for g in gaps if g > 0.05), "first_to_last": timer[-1][1] - timer[0][0],
            "events": len(ticks) - len(timer)}


def window_run(session: Session, place: tuple[int, int], pid: int) -> dict:
    w = session.window
    w.run(TICKS)
    before_cpu, before_load = thread_times(pid), loadavg()
    log_mark = len(session.reports("tiles placed"))
    started = time.perf_counter()
    w.click(*place, settle=0.05)
    w.wait_for(lambda: len(session.reports("tiles placed")) > log_mark, 600, "Assemble Room to finish", every=0.3)
    seconds = time.perf_counter() - started
    after_cpu, after_load = thread_times(pid), loadavg()
    session.wait_idle(60)
    ticks = w.run(READ_TICKS)
    return {"seconds": seconds, "report": session.reports("tiles placed")[-1], "loadavg": [before_load, after_load],
            "cpu": {k: after_cpu[k] - before_cpu[k] for k in after_cpu}, "ticks": tick_summary(ticks, started)}


def headless_run(blender: str) -> dict:
    before_cpu, before_load = children_cpu(), loadavg()
    started = time.perf_counter()
    result = headless_room(blender)
    result["process_seconds"] = time.perf_counter() - started
    result["cpu"] = children_cpu() - before_cpu
    result["loadavg"] = [before_load, loadavg()]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blender", default="blender")
    parser.add_argument("--zip", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    exchange = out / "exchange"
    exchange.mkdir(exist_ok=True)
    subprocess.run([args.blender, "--background", "--command", "extension", "install-file",
                    "--repo", "user_default", "--enable", args.zip], check=True, capture_output=True)
    version = subprocess.run([args.blender, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    blend = out / "scene.blend"
    subprocess.run([args.blender, "--background", "--factory-startup", "--python", str(HERE / "make_scene.py"),
                    "--", str(blend)], check=True, capture_output=True)
    window = Window(args.blender, out, exchange)
    session = Session(window)
    report: dict = {"blender": version, "runs": [], "error": None}
    try:
        window.start(blend)
        assert window.process is not None
        pid = window.process.pid
        session.open_strew_tab()
        session.click_header(80)  # fold the Scatter panel: Tile Rooms moves up under it
        session.press("bpy.ops.strew.build_demo_kit(", column=0.75, hint=139)
        session.edit("strew.room.size", ["30", "30", "3"], hint=150, downward=True)
        place = session.button("bpy.ops.strew.assemble_room(", column=0.4, hint=450)
        session.rest_mouse()
        idle = thread_times(pid)
        time.sleep(3.0)
        idle_after = thread_times(pid)
        report["idle_cpu_per_s"] = {k: (idle_after[k] - idle[k]) / 3.0 for k in idle}
        for run in range(args.runs):
            record: dict = {"run": run + 1}
            order = ("window", "headless") if run % 2 == 0 else ("headless", "window")
            for where in order:
                if where == "window":
                    window.run(CLEAR_ROOM)  # every click replaces the same room: start from none, as headless
                    time.sleep(1.0)
                    record["window"] = window_run(session, place, pid)
                    window.shot(f"room_{run + 1}")
                    session.rest_mouse()
                else:
                    record["headless"] = headless_run(args.blender)
                time.sleep(1.0)
            report["runs"].append(record)
            print(json.dumps(record), flush=True)
    except (StepFailed, subprocess.CalledProcessError, AssertionError) as error:
        report["error"] = str(error)
        window.shot("failure")
    finally:
        window.stop()
        (out / "timing.json").write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
