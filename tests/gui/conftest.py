"""Run one GUI session (``session.py``) for the whole test module, or skip with one line without a window."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from launch import MISSING, REPO_ROOT, built_zip, session_command

OUT = Path(__file__).resolve().parent / "out"


@pytest.fixture(scope="session")
def session() -> dict:
    """The recorded steps of one GUI session: ``{"steps": {name: {"state": …, "screenshot": …}}, "error": …}``."""
    archive = built_zip()
    if archive is None:
        pytest.fail("no dist/strew-*.zip: run `make build` (make test-gui does)")
    args = ["--zip", str(archive), "--out", "tests/gui/out"]
    if steps := os.environ.get("STREW_GUI_STEPS"):
        args += ["--steps", steps]
    command = session_command(*args)
    if command is None:
        pytest.skip(MISSING)
    OUT.mkdir(exist_ok=True)
    (OUT / "session.json").unlink(missing_ok=True)
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=3600)
    report_path = OUT / "session.json"
    assert report_path.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(report_path.read_text())
