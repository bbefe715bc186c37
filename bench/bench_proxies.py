"""Viewport frame time with and without Proxy Beyond, measured in a real Blender window.

For each ``blender-gui`` Blender (Debian 13's 4.3, Debian sid's 5.2 LTS; ``STREW_PROXY_SUITES`` picks), installs
``dist/strew-*.zip`` in a Blender user folder of its own and runs ``bench/proxy_window.py`` in the window on each
scene of ``STREW_PROXY_SCENES``: ``field``, a layer of ``STREW_PROXY_COUNT`` instances (default 10,000) of three
4,800-triangle prefabs on a 300 m field, seen from one corner, proxies beyond 40 m; ``world``, the 10 km world of
``bench/bench_world.py`` (about 1.9 M fir trees), seen from its camera, proxies beyond 200 m. Frames are timed with
``wm.redraw_timer(type='DRAW_WIN')`` with the output hidden, proxies off and each proxy kind.
The window draws with Mesa's llvmpipe (software, on this machine's cores), so the times are far longer than on a
GPU; the ratios are the point. Needs the windowed Blender (tests/gui/launch.py); without one the section says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TITLE = "Viewport proxies by distance (a real window, Blender 4.3 and 5.2 LTS)"

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT = REPO_ROOT / "tests" / "gui" / "out" / "bench" / "proxies"
SUITES = tuple(os.environ.get("STREW_PROXY_SUITES", "trixie sid").split())
COUNT = int(os.environ.get("STREW_PROXY_COUNT", "10000"))
ROUNDS = int(os.environ.get("STREW_PROXY_ROUNDS", "1"))
SCENES = tuple(os.environ.get("STREW_PROXY_SCENES", "field world").split())


def run() -> str:
    """Measure every Blender (or format the reports named by ``STREW_PROXY_REPORTS``, comma-separated)."""
    if given := os.environ.get("STREW_PROXY_REPORTS"):
        return summary([json.loads(Path(p).read_text()) for p in given.split(",")])
    sys.path.insert(0, str(REPO_ROOT / "tests" / "gui"))
    import launch

    archive = launch.built_zip()
    if archive is None:
        return "Not measured in this run: no dist/strew-*.zip (make build).\n"
    reports = []
    for suite, scene in ((suite, scene) for suite in SUITES for scene in SCENES):
        os.environ["BLENDER_GUI_SUITE"] = suite
        if launch.blender_version() is None or not launch.BLENDER_GUI.is_file():
            reports.append({"blender": f"blender-gui {suite}", "error": launch.MISSING})
            continue
        folder = OUT / suite / scene
        folder.mkdir(parents=True, exist_ok=True)
        out = (folder / "report.json").relative_to(REPO_ROOT)
        user = (folder / "user").relative_to(REPO_ROOT)
        script = (f"export BLENDER_USER_RESOURCES=/project/{user}; "
                  f"blender --background --command extension install-file --repo user_default --enable {archive} "
                  f"> {folder.relative_to(REPO_ROOT)}/install.log 2>&1; "
                  f"blender --python bench/proxy_window.py -- {out} {COUNT} {ROUNDS} {scene} "
                  f"> {folder.relative_to(REPO_ROOT)}/blender.log 2>&1")
        (REPO_ROOT / out).unlink(missing_ok=True)
        subprocess.run([str(launch.BLENDER_GUI), "run", str(REPO_ROOT), "--", "bash", "-c", script],
                       cwd=REPO_ROOT, capture_output=True, text=True, timeout=3600)
        path = REPO_ROOT / out
        reports.append(json.loads(path.read_text()) if path.is_file()
                       else {"blender": f"blender-gui {suite}", "error": "the window wrote no report"})
    os.environ.pop("BLENDER_GUI_SUITE", None)
    return summary(reports)


def summary(reports: list[dict]) -> str:
    lines = []
    for report in reports:
        if "error" in report and not report.get("rounds"):
            lines.append(f"**{report['blender']}**: not measured ({report['error'].splitlines()[0]}).\n")
            continue
        shown = report.get("shown_with_proxies", {})
        hull, decimated = (report.get("proxy_triangles", {}).get(kind, []) for kind in ("HULL", "DECIMATE"))
        triangles = ", ".join(f"{t:,}" for t in report["prefab_triangles"])
        where = (f"of three {triangles}-triangle prefabs on a 300 m × 300 m field, seen from a corner 8 m up"
                 if report.get("scene", "field") == "field" else
                 f"of the demo's three fir trees ({triangles} triangles) on the 10 km × 10 km world of \"A 10 km "
                 "world rendered with camera culling\" (r = 6 m, slope ≤ 40°, no culling), seen from its camera 40 m "
                 "up looking north to the far edge")
        lines += [
            f"**Blender {report['blender']}**: {report['instances']:,} instances {where} (3D view "
            f"{report['region'][0]} × {report['region'][1]} px, solid shading, Mesa llvmpipe; Scatter took "
            f"{report['scatter_seconds']:.1f} s in the window); proxies "
            f"beyond {report['distance']:.0f} m: {shown.get('full', 0):,} instances in full, "
            f"{shown.get('proxy', 0):,} as proxies. Proxy triangles per prefab: Bounds 12, Convex Hull "
            f"{', '.join(f'{t:,}' for t in hull)}, Decimated 10 % {', '.join(f'{t:,}' for t in decimated)}. "
            f"The view empty stood {report['view_empty_from_eye_m']:.1e} m from the 3D view's eye (moved by the "
            "window's draw handler and timer).",
            "",
            "| round | load (1 min) | setting | frame (s) | vs off | applying the setting (s) |",
            "|---:|---:|---|---:|---:|---:|",
        ]
        for number, record in enumerate(report["rounds"], 1):
            off = next(setting["frame_s"] for setting in record["settings"] if setting["label"].startswith("off"))
            for setting in record["settings"]:
                lines.append(f"| {number} | {record['loadavg'][0]} | {setting['label']} | {setting['frame_s']:.2f} | "
                             f"{setting['frame_s'] / off:.2f}× | {setting['setup_s']:.2f} |")
        lines.append("")
    lines.append("A frame is `wm.redraw_timer(type='DRAW_WIN')` of the whole window after one warm-up frame (the "
                 "output's evaluation and the new GPU batches are not in it); renders are unaffected by the "
                 "setting (tests/blender/test_proxies.py renders through a recording engine).")
    return "\n".join(lines) + "\n"
