"""Real-Blender test harness.

The extension is enabled exactly the way Blender loads an installed one: a user extension repository
whose directory holds a folder ``strew`` (a symlink to this checkout, so the checkout's own folder name
does not matter), then ``addon_utils.enable("bl_ext.<repo>.strew")``. Blender's user resources go to a
temporary folder so tests never touch the developer's own Blender configuration.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_USER_RESOURCES = tempfile.mkdtemp(prefix="strew-blender-user-")
os.environ["BLENDER_USER_RESOURCES"] = _USER_RESOURCES

import bpy  # noqa: E402  (must come after BLENDER_USER_RESOURCES is set)

# Blender's own script modules are importable only once bpy is imported.
addon_utils = importlib.import_module("addon_utils")

REPO_ROOT = Path(__file__).resolve().parents[2]
REPO_MODULE = "strew_dev"
ADDON_MODULE = f"bl_ext.{REPO_MODULE}.strew"


def _install_dev_repository() -> Path:
    parent = Path(tempfile.mkdtemp(prefix="strew-repo-"))
    (parent / "strew").symlink_to(REPO_ROOT, target_is_directory=True)
    repos = bpy.context.preferences.extensions.repos
    if REPO_MODULE not in {repo.module for repo in repos}:
        repos.new(name=REPO_MODULE, module=REPO_MODULE, custom_directory=str(parent), source='USER')
    return parent


def enable_strew() -> object:
    """Enable the extension (idempotent) and return its module."""
    module = addon_utils.enable(ADDON_MODULE, default_set=True, handle_error=_raise)
    assert module is not None, f"could not enable {ADDON_MODULE}"
    return module


def disable_strew() -> None:
    addon_utils.disable(ADDON_MODULE, default_set=True, handle_error=_raise)


def _raise(exc: BaseException) -> None:
    raise exc


@pytest.fixture(scope="session", autouse=True)
def strew_extension() -> Iterator[object]:
    """The enabled extension module, for the whole test session."""
    _install_dev_repository()
    yield enable_strew()


@pytest.fixture(autouse=True)
def empty_scene(strew_extension: object) -> Iterator[bpy.types.Scene]:
    """Every test starts from an empty file with the extension enabled."""
    bpy.ops.wm.read_homefile(use_empty=True)
    enable_strew()
    yield bpy.context.scene


@pytest.fixture
def strew(strew_extension: object, capsys: pytest.CaptureFixture[str]):
    """``python -m strew ARGS`` in this process: returns (exit code, stdout, stderr)."""
    main = importlib.import_module(f"{strew_extension.__name__}.cli").main

    def run(*args: object) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run
