"""``python -m strew`` in its own process, as a pipeline runs it: its result, a success, or a refusal in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TIMEOUT = 240.0  # generous for a loaded machine


def strew_run(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m strew ARGS`` in ``cwd`` with Blender's user resources there."""
    env = dict(os.environ, BLENDER_USER_RESOURCES=str(cwd / "blender-user"))
    return subprocess.run([sys.executable, "-m", "strew", *map(str, args)], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd, env=env)


def succeeded(done: subprocess.CompletedProcess[str]) -> str:
    """The output of a run that exited 0."""
    assert done.returncode == 0, f"exit code {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def refused(done: subprocess.CompletedProcess[str], message: str) -> None:
    """The run exited 2 with one ``strew: error:`` line holding ``message`` and no traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("strew: error: "), done.stderr
    assert message in lines[0] and "Traceback" not in done.stderr, lines[0]
