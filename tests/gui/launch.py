"""How to run a GUI session on this machine: a local windowed Blender or the ``blender-gui`` chroot.

Order: ``BLENDER`` (a Blender binary), then ``blender`` on the PATH — both need ``DISPLAY``, ``xdotool`` and
ImageMagick's ``import`` — then the ``blender-gui`` tool (``BLENDER_GUI``, default
/work/shared/tools/blender-gui) when it is set up. Used by the GUI tests and by ``make docs``.
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


def _blender_gui_ready() -> bool:
    if not BLENDER_GUI.is_file() or os.geteuid() != 0:
        return False
    done = subprocess.run([str(BLENDER_GUI), "version"], capture_output=True, text=True, timeout=60)
    return done.returncode == 0 and done.stdout.startswith("Blender")


def session_command(*args: str) -> list[str] | None:
    """The command that runs ``tests/gui/session.py ARGS`` from the repository root, or None."""
    script = ["tests/gui/session.py", *args]
    if os.environ.get("DISPLAY") and shutil.which("xdotool") and shutil.which("import"):
        blender = os.environ.get("BLENDER") or shutil.which("blender")
        if blender:
            return [sys.executable, *script, "--blender", blender]
    if _blender_gui_ready():
        return [str(BLENDER_GUI), "run", str(REPO_ROOT), "--", "python3", *script]
    return None


def built_zip() -> Path | None:
    """The newest ``dist/strew-*.zip`` (``make build``), relative to the repository root."""
    archives = sorted((REPO_ROOT / "dist").glob("strew-*.zip"), key=lambda p: p.stat().st_mtime)
    return archives[-1].relative_to(REPO_ROOT) if archives else None
