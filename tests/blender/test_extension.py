"""The extension registers, unregisters and installs like any Blender extension."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import bpy
from conftest import ADDON_MODULE, REPO_ROOT, disable_strew, enable_strew

MANIFEST = tomllib.loads((REPO_ROOT / "blender_manifest.toml").read_text())


def _blender_ext_cli() -> Path:
    return Path(bpy.utils.system_resource('SCRIPTS')) / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"


def test_operators_and_panel_are_registered(strew_extension: object) -> None:
    assert hasattr(bpy.ops.strew, "about")
    assert bpy.ops.strew.about() == {'FINISHED'}
    panel = bpy.types.Panel.bl_rna_get_subclass_py("STREW_PT_main")
    assert panel is not None
    assert panel.bl_category == "Strew" and panel.bl_region_type == 'UI'
    assert strew_extension.__name__ == ADDON_MODULE


def test_scene_settings_exist() -> None:
    assert hasattr(bpy.context.scene, "strew")
    assert bpy.context.scene.strew.show_preview is False


def test_version_matches_manifest(strew_extension: object) -> None:
    assert strew_extension.__version__ == MANIFEST["version"]


def test_enable_disable_enable() -> None:
    disable_strew()
    assert not hasattr(bpy.types.Scene, "strew")
    assert bpy.types.Panel.bl_rna_get_subclass_py("STREW_PT_main") is None
    enable_strew()
    assert hasattr(bpy.types.Scene, "strew")
    assert bpy.ops.strew.about() == {'FINISHED'}


def test_built_zip_installs_and_enables(tmp_path: Path) -> None:
    """Build the zip with Blender's own tool, then install it in a fresh Blender process."""
    dist = tmp_path / "dist"
    dist.mkdir()
    subprocess.run(
        [sys.executable, str(_blender_ext_cli()), "build", "--source-dir", str(REPO_ROOT),
         "--output-dir", str(dist)],
        check=True, capture_output=True, text=True,
    )
    (archive,) = dist.glob("strew-*.zip")
    names = zipfile.ZipFile(archive).namelist()
    assert "blender_manifest.toml" in names and "core/__init__.py" in names
    assert not any(n.startswith(("tests/", "bench/", ".venv/", ".git/")) or "__pycache__" in n for n in names)

    script = textwrap.dedent(f"""
        import os, tempfile
        os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp()
        import bpy, addon_utils
        result = bpy.ops.extensions.package_install_files(
            filepath={str(archive)!r}, repo="user_default", enable_on_install=True)
        assert result == {{'FINISHED'}}, result
        enabled = list(bpy.context.preferences.addons.keys())
        assert "bl_ext.user_default.strew" in enabled, enabled
        assert bpy.ops.strew.about() == {{'FINISHED'}}
        print("INSTALLED-OK")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert "INSTALLED-OK" in done.stdout, done.stdout + done.stderr
