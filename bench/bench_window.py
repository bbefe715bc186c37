"""Assemble Room in a real Blender window against the same room headless, in the same Blender and run.

A GUI session (tests/gui/session.py, parts ``room``) first assembles the room with ``blender -b`` (the
reference), then opens the window, builds the demo kit, sets 30×30×3 and clicks Assemble Room; the window's
time runs from the click until the operator is done (read back every 0.3 s). Needs a windowed Blender
(tests/gui/launch.py); without one the section says so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

TITLE = "Assemble Room in the window (Blender 4.3 with a window vs the same Blender headless)"

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT = REPO_ROOT / "tests" / "gui" / "out" / "bench"


def run() -> str:
    """Run a room session (or format the one named by ``STREW_GUI_REPORT``, e.g. ``make test-gui``'s)."""
    if given := os.environ.get("STREW_GUI_REPORT"):
        return summary(json.loads(Path(given).read_text()))
    sys.path.insert(0, str(REPO_ROOT / "tests" / "gui"))
    from launch import MISSING, built_zip, session_command

    archive = built_zip()
    command = session_command("--zip", str(archive), "--out", str(OUT.relative_to(REPO_ROOT)),
                              "--steps", "room") if archive else None
    if command is None:
        return f"Not measured in this run: {MISSING if archive else 'no dist/strew-*.zip (make build)'}.\n"
    subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=3600)
    return summary(json.loads((OUT / "session.json").read_text()))


def operator_seconds(reports: list[str]) -> float | None:
    """The time in the operator's last "… tiles placed … in X s" report."""
    for line in reversed(reports):
        if match := re.search(r" in ([0-9.]+) s", line):
            return float(match.group(1))
    return None


def summary(report: dict) -> str:
    """The table for one session report: the window's time beside the headless reference."""
    headless = report.get("headless_room", {})
    window = report["steps"].get("room_assembled", {})
    if not window or "seconds" not in headless:
        return f"The session did not finish: {report.get('error')}\n"
    window_op, headless_op = operator_seconds(window.get("reports", [])), operator_seconds(headless.get("report", []))
    ratio = window["seconds"] / headless["seconds"]
    op_ratio = f"{window_op / headless_op:.2f}×" if window_op and headless_op else "n/a"
    lines = [
        "| where | click (or call) to done | the operator's own time | operator report |",
        "|---|---:|---:|---|",
        f"| `blender -b` (reference) | {headless['seconds']:.2f} s | {headless_op or 0:.2f} s | "
        f"{'; '.join(headless.get('report', [])[-1:])} |",
        f"| the window, clicked | {window['seconds']:.2f} s ({ratio:.2f}×) | {window_op or 0:.2f} s ({op_ratio}) | "
        f"{'; '.join(window.get('reports', [])[-1:])} |",
        "",
        "The window's click-to-done time is read back by the session: it includes the click, a 2 s pause and a "
        "screenshot of the whole window taken during the run (the progress picture) and up to ~0.3 s of polling, "
        "so the operator's own time (from its start to its last step, as it reports it) is the comparison. "
        "The job runs in 0.1 s slices between the window's events and redraws its progress at most every 0.25 s, "
        "or less often when a redraw is slow (a redraw may take at most 15 % of the job's time). Progress "
        "during the run: `room_progress.png` in the session's folder (the whole window 2 s after the click), and "
        "the status bar alone as `docs/images/ui_progress.png`.",
    ]
    return "\n".join(lines) + "\n"
