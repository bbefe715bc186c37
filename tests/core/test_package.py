"""The package imports in plain Python without bpy, and its metadata is consistent."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_core_imports_without_bpy() -> None:
    """Every module of strew.core imports in a Python where bpy, mathutils and gpu cannot be imported."""
    code = (
        "import sys, pkgutil, importlib\n"
        "for name in ('bpy', 'mathutils', 'gpu', 'bmesh'):\n"
        "    sys.modules[name] = None  # makes 'import bpy' fail, as in a Python without Blender\n"
        "import strew, strew.core\n"
        "for info in pkgutil.walk_packages(strew.core.__path__, 'strew.core.'):\n"
        "    importlib.import_module(info.name)\n"
        "print(strew.__version__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == tomllib.loads((REPO_ROOT / "blender_manifest.toml").read_text())["version"]


def test_every_subpackage_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    skip = {"tests", "bench", "docs", "demo", "dist", "build"}
    found = {"strew"} | {
        "strew." + ".".join(p.parent.relative_to(REPO_ROOT).parts)
        for p in REPO_ROOT.rglob("__init__.py")
        if p.parent != REPO_ROOT
        and not (set(p.relative_to(REPO_ROOT).parts) & skip)
        and not p.relative_to(REPO_ROOT).parts[0].startswith(".")  # .venv, .venv-bpy42 (make test-compat), .git
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
