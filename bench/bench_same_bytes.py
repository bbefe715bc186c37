"""The same layer, byte for byte: fresh processes, worker counts and every interpreter the checkout has.

Runs ``tests/core/same_bytes_job.py`` (one layer with variable radius, chunks, align, tilt, random yaw, scale
ranges and weighted prefabs) in a fresh process per row, under this interpreter, the Python 3.11 + numpy 1.26
of ``make test`` (``.venv-numpy126``) and each ``make test-compat`` venv that exists, and compares the SHA-256 of
every output array. Then what the CPU-independent functions of ``core.fpmath`` cost next to numpy's own.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TITLE = "The same bytes on every interpreter, numpy and worker count (one layer, SHA-256 of every array)"

REPO_ROOT = Path(__file__).resolve().parents[1]
JOB = REPO_ROOT / "tests" / "core" / "same_bytes_job.py"


def _interpreters() -> list[str]:
    found = [sys.executable]
    for venv in sorted(REPO_ROOT.glob(".venv-*")):
        python = venv / "bin" / "python"
        if python.exists() and (venv / ".strew-installed").exists():
            found.append(str(python))
    return found


def _job(python: str, workers: int) -> tuple[dict, float]:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "strew").symlink_to(REPO_ROOT, target_is_directory=True)
        env = {**os.environ, "PYTHONPATH": folder}
        started = time.perf_counter()
        done = subprocess.run([python, str(JOB), str(workers)], capture_output=True, text=True, env=env,
                              cwd=folder, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1]), time.perf_counter() - started


def _cost() -> list[str]:
    from strew.core import fpmath

    x = np.random.default_rng(0).uniform(-3.0, 3.0, 1_000_000)
    pairs = {
        "sin and cos": (lambda: fpmath.sincos(x), lambda: (np.sin(x), np.cos(x))),
        "arctan2": (lambda: fpmath.arctan2(x, x + 0.5), lambda: np.arctan2(x, x + 0.5)),
        "arccos": (lambda: fpmath.arccos(x / 3.0), lambda: np.arccos(x / 3.0)),
        "log": (lambda: fpmath.log(np.abs(x) + 1e-3), lambda: np.log(np.abs(x) + 1e-3)),
    }
    rows = ["", "Cost of the CPU-independent functions against numpy's on 1,000,000 values (best of 5, in turn):",
            "", "| function | core.fpmath | numpy | ratio |", "|---|---:|---:|---:|"]
    for name, (ours, theirs) in pairs.items():
        best = [float("inf"), float("inf")]
        for _ in range(5):
            for i, call in enumerate((ours, theirs)):
                started = time.perf_counter()
                call()
                best[i] = min(best[i], time.perf_counter() - started)
        rows.append(f"| {name} | {best[0] * 1e3:.1f} ms | {best[1] * 1e3:.1f} ms | {best[0] / best[1]:.1f}× |")
    return rows


def run() -> str:
    rows = ["| interpreter | Python | numpy | workers | points | SHA-256 of all arrays (first 16) | time |",
            "|---|---|---|---:|---:|---|---:|"]
    seen = set()
    for python in _interpreters():
        for workers in ((1, 2, 3) if python == sys.executable else (1, 2)):
            report, took = _job(python, workers)
            digests = report["digests"]
            combined = hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()[:16]
            seen.add(combined)
            where = Path(python).parents[1].name
            rows.append(f"| {where} | {report['python']} | {report['numpy']} | {workers} | {digests['count']} | "
                        f"`{combined}` | {took:.1f} s |")
    verdict = ("All rows give the same bytes." if len(seen) == 1
               else f"**{len(seen)} different results**: determinism is broken.")
    return "\n".join([*rows, "", verdict, *_cost()])
