"""Assemble Room clicked in the window against the same room headless, several times in one Blender session.

Runs where the windowed Blender runs, like ``session.py`` (standard library only): ``python3
tests/gui/room_timing.py --zip dist/strew-X.zip --out tests/gui/out/bench/4.3 --runs 5``. The window comes up once
with the demo kit and a 30×30×3 room set in the Tile Rooms panel; then each run clicks Assemble Room (the window's
time) and runs ``blender -b`` on the same room (the headless reference), alternating which goes first, so both see
the same load. Before each click the window is left to settle (nothing drawn for ``QUIET`` seconds: the viewport has
finished refining its anti-aliasing after the room was cleared); the last ``--unsettled-runs`` click 1 s after the
clear instead, to show what that refinement costs. With each measurement: ``/proc/loadavg`` and the CPU time of the
window's Blender threads (main thread, the others: Mesa's llvmpipe drawing threads among them) and of the headless
Blender. The modal operator's timer ticks are timed from inside Blender (the operator's ``modal`` is wrapped for the
measurement): the time the job ran in its slices and the time between slices (the window's events and redraws), and
how often each region was drawn meanwhile (draw handlers that count). Writes ``OUT/timing.json`` (one record per
run).
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
import sys, time, bpy
name = next(n for n in sys.modules if n.endswith('strew.operators.modal_job'))
job = sys.modules[name].ModalJob
if not hasattr(job, 'timed_modal'):
    job.timed_modal = job.modal
    job.ticks = []
    job.draws = []
    def modal(self, context, event):
        started = time.perf_counter()
        result = job.timed_modal(self, context, event)
        job.ticks.append((event.type, started, time.perf_counter()))
        return result
    job.modal = modal
    def counter(label):
        return lambda: job.draws.append((label, time.perf_counter()))
    for space, regions in ((bpy.types.SpaceView3D, ('WINDOW', 'UI', 'HEADER', 'TOOLS')),
                           (bpy.types.SpaceProperties, ('WINDOW',)), (bpy.types.SpaceOutliner, ('WINDOW',)),
                           (bpy.types.SpaceDopeSheetEditor, ('WINDOW',))):
        for region in regions:
            try:
                space.draw_handler_add(counter(space.__name__ + ' ' + region), (), region, 'POST_PIXEL')
            except (TypeError, ValueError, RuntimeError):
                pass
job.ticks.clear()
job.draws.clear()
"""

READ_TICKS = """
import sys
job = sys.modules[next(n for n in sys.modules if n.endswith('strew.operators.modal_job'))].ModalJob
result = {'ticks': list(job.ticks), 'draws': list(job.draws)}
"""

CLEAR_ROOM = "bpy.ops.strew.clear_room()"
QUIET = 1.5
"""Seconds without any redraw after which the window counts as settled."""


def loadavg() -> list[float]:
    return [float(v) for v in Path("/proc/loadavg").read_text().split()[:3]]


def thread_times(pid: int) -> dict[str, float]:
    """CPU seconds (user + system) of a process's threads: its main thread, all the others together, and the
    others by name (``llvmpipe`` for Mesa's drawing threads; digits dropped)."""
    tick = os.sysconf("SC_CLK_TCK")
    times = {"main": 0.0, "others": 0.0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            comm = (task / "comm").read_text().strip().rstrip("0123456789-:") or "?"
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if int(task.name) == pid:
            times["main"] += seconds
        else:
            times["others"] += seconds
            times["thread " + comm] = times.get("thread " + comm, 0.0) + seconds
    return times


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


def redraw_summary(ticks: list[list], draws: list[list]) -> dict[str, int]:
    """How often each region was drawn from the first timer tick to the last (the job's run in the window)."""
    timer = [a for kind, a, _ in ticks if kind == "TIMER"]
    if not timer:
        return {}
    counts: dict[str, int] = {}
    for label, at in draws:
        if timer[0] <= at <= timer[-1]:
            counts[label] = counts.get(label, 0) + 1
    return counts


def settle(window: Window, quiet: float = QUIET, timeout: float = 120.0) -> float:
    """Wait until the window has drawn nothing for ``quiet`` seconds; the seconds waited.

    After a change in the scene the viewport refines its anti-aliasing over several redraws (the Workbench's
    samples, each a full re-render: ~0.3 s of two cores with Mesa's software OpenGL); a click before they end
    shares the CPU with them. A user who clicks a settled window does not pay that."""
    window.run(TICKS)
    started = quiet_since = time.perf_counter()
    seen = 0
    while time.perf_counter() - quiet_since < quiet:
        if time.perf_counter() - started > timeout:
            raise StepFailed(f"the window kept drawing for {timeout:.0f} s")
        time.sleep(0.25)
        drawn = len(window.run(READ_TICKS)["draws"])
        if drawn != seen:
            seen, quiet_since = drawn, time.perf_counter()
    return time.perf_counter() - started


def window_run(session: Session, place: tuple[int, int], pid: int, settled: bool) -> dict:
    w = session.window
    waited = settle(w) if settled else 0.0
    w.run(TICKS)
    before_cpu, before_load = thread_times(pid), loadavg()
    log_mark = len(session.reports("tiles placed"))
    started = time.perf_counter()
    w.click(*place, settle=0.05)
    w.wait_for(lambda: len(session.reports("tiles placed")) > log_mark, 600, "Assemble Room to finish", every=0.3)
    seconds = time.perf_counter() - started
    after_cpu, after_load = thread_times(pid), loadavg()
    session.wait_idle(60)
    read = w.run(READ_TICKS)
    return {"seconds": seconds, "report": session.reports("tiles placed")[-1], "loadavg": [before_load, after_load],
            "cpu": {k: after_cpu[k] - before_cpu.get(k, 0.0) for k in after_cpu},
            "settled": settled, "waited": waited,
            "ticks": tick_summary(read["ticks"], started), "redraws": redraw_summary(read["ticks"], read["draws"])}


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
    parser.add_argument("--unsettled-runs", type=int, default=1,
                        help="more runs that click 1 s after clearing the room, while the viewport still redraws")
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
        report["idle_cpu_per_s"] = {k: (idle_after[k] - idle.get(k, 0.0)) / 3.0 for k in idle_after}
        for run in range(args.runs + args.unsettled_runs):
            record: dict = {"run": run + 1}
            order = ("window", "headless") if run % 2 == 0 else ("headless", "window")
            for where in order:
                if where == "window":
                    window.run(CLEAR_ROOM)  # every click replaces the same room: start from none, as headless
                    time.sleep(1.0)
                    record["window"] = window_run(session, place, pid, settled=run < args.runs)
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
