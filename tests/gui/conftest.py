"""Run one GUI session (``session.py``) for the whole test module, or skip with one line without a window.

The session's screenshots and ``session.json`` go to ``tests/gui/out/<Blender major.minor>/`` (``BLENDER_GUI_SUITE``
picks the ``blender-gui`` Blender: ``make test-gui`` runs this module once per Blender)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from launch import MISSING, REPO_ROOT, blender_version, built_zip, out_dir, session_command


def pytest_report_header() -> str:
    suite = os.environ.get("BLENDER_GUI_SUITE", "trixie")
    return f"windowed Blender: {blender_version() or 'none'} (BLENDER_GUI_SUITE={suite})"


@pytest.fixture(scope="session")
def session() -> dict:
    """The recorded steps of one GUI session: ``{"steps": {name: {"state": …, "screenshot": …}}, "error": …}``."""
    archive = built_zip()
    if archive is None:
        pytest.fail("no dist/strew-*.zip: run `make build` (make test-gui does)")
    out = out_dir()
    args = ["--zip", str(archive), "--out", str(out.relative_to(REPO_ROOT))]
    if steps := os.environ.get("STREW_GUI_STEPS"):
        args += ["--steps", steps]
    command = session_command(*args)
    if command is None:
        pytest.skip(MISSING)
    out.mkdir(parents=True, exist_ok=True)
    (out / "session.json").unlink(missing_ok=True)
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=3600)
    report_path = out / "session.json"
    assert report_path.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(report_path.read_text())
