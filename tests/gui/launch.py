"""How to run a GUI session on this machine: a local windowed Blender or the ``blender-gui`` chroot.

Order: ``BLENDER`` (a Blender binary), then ``blender`` on the PATH — both need ``DISPLAY``, ``xdotool`` and
ImageMagick's ``import`` — then the ``blender-gui`` tool (``BLENDER_GUI``, default
/work/shared/tools/blender-gui) when it is set up. ``BLENDER_GUI_SUITE`` picks that tool's Blender: ``trixie``
(Debian 13's Blender 4.3, the default) or ``sid`` (Debian sid's Blender 5.2 LTS); ``make test-gui`` runs both.
Used by the GUI tests, by ``make docs`` and by ``bench/bench_window.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
BLENDER_GUI = Path(os.environ.get("BLENDER_GUI", "/work/shared/tools/blender-gui"))
MISSING = "no windowed Blender: set BLENDER (with DISPLAY, xdotool, ImageMagick) or set up blender-gui"


SUITE = os.environ.get("BLENDER_GUI_SUITE", "trixie")
"""The ``blender-gui`` Blender this run uses (the tool reads the same variable)."""


def _blender_gui_version() -> str | None:
    """The ``blender-gui`` chroot's ``Blender X.Y.Z…`` line, or None when it is not set up (or not root)."""
    if not BLENDER_GUI.is_file() or os.geteuid() != 0:
        return None
    done = subprocess.run([str(BLENDER_GUI), "version"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() if done.returncode == 0 and done.stdout.startswith("Blender") else None


def _blender_gui_ready() -> bool:
    return _blender_gui_version() is not None


def blender_version() -> str | None:
    """``major.minor`` of the windowed Blender :func:`session_command` runs (``4.3``, ``5.2``), or None."""
    if os.environ.get("DISPLAY") and shutil.which("xdotool") and shutil.which("import"):
        blender = os.environ.get("BLENDER") or shutil.which("blender")
        if blender:
            done = subprocess.run([blender, "--version"], capture_output=True, text=True, timeout=120)
            line = done.stdout.strip().splitlines()[0] if done.stdout.strip() else ""
        else:
            line = ""
    else:
        line = _blender_gui_version() or ""
    words = line.split()
    if len(words) < 2 or words[0] != "Blender":
        return None
    return ".".join(words[1].split(".")[:2])


def out_dir() -> Path:
    """Where a session writes its screenshots and ``session.json``: ``tests/gui/out/<major.minor>/``."""
    return REPO_ROOT / "tests" / "gui" / "out" / (blender_version() or "unknown")


def session_command(*args: str, script: str = "tests/gui/session.py") -> list[str] | None:
    """The command that runs ``tests/gui/session.py ARGS`` (or another ``script`` that drives a window, such as
    ``tests/gui/room_timing.py``) from the repository root, or None."""
    script_args = [script, *args]
    if os.environ.get("DISPLAY") and shutil.which("xdotool") and shutil.which("import"):
        blender = os.environ.get("BLENDER") or shutil.which("blender")
        if blender:
            return [sys.executable, *script_args, "--blender", blender]
    if _blender_gui_ready():
        return [str(BLENDER_GUI), "run", str(REPO_ROOT), "--", "python3", *script_args]
    return None


def built_zip() -> Path | None:
    """The newest ``dist/strew-*.zip`` (``make build``), relative to the repository root."""
    archives = sorted((REPO_ROOT / "dist").glob("strew-*.zip"), key=lambda p: p.stat().st_mtime)
    return archives[-1].relative_to(REPO_ROOT) if archives else None
