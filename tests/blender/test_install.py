"""The `make build` zip installs from disk in a fresh Blender and the scatter demo runs from the installed copy."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import bpy
from conftest import REPO_ROOT


def _blender_ext_cli() -> Path:
    return Path(bpy.utils.system_resource('SCRIPTS')) / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"


def _build_zip(dist: Path) -> Path:
    done = subprocess.run(
        [sys.executable, str(_blender_ext_cli()), "build", "--source-dir", str(REPO_ROOT), "--output-dir", str(dist)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (archive,) = dist.glob("strew-*.zip")
    return archive


# Runs in a fresh Python with its own Blender user folder: nothing of the checkout is on the extension path.
_SCRIPT = textwrap.dedent("""
    import importlib, json, os, sys
    from pathlib import Path
    archive, out, user = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    os.environ["BLENDER_USER_RESOURCES"] = user
    import bpy
    result = bpy.ops.extensions.package_install_files(
        filepath=str(archive), repo="user_default", enable_on_install=True)
    assert result == {'FINISHED'}, result
    demo = importlib.import_module("bl_ext.user_default.strew.demos.build")
    code = demo.build_demo(out, render_images=False)
    blend = out / "strew_demo.blend"
    bpy.ops.wm.open_mainfile(filepath=str(blend))
    output = bpy.data.collections.get("Strew Output")
    counts = {ob.name: len(ob.data.vertices) for ob in output.objects} if output else {}
    print("RESULT " + json.dumps({
        "code": code,
        "demo_file": demo.__file__,
        "user": user,
        "enabled": "bl_ext.user_default.strew" in bpy.context.preferences.addons,
        "counts": counts,
        "blend_bytes": blend.stat().st_size,
    }))
""")


def test_installed_zip_runs_the_scatter_demo(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    dist.mkdir()
    archive = _build_zip(dist)
    out = tmp_path / "demo"
    user = tmp_path / "blender-user"
    user.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(archive), str(out), str(user)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(lines[-1][len("RESULT "):])
    assert result["code"] == 0
    assert result["enabled"]
    # The demo ran from the installed copy, not from this checkout.
    assert Path(result["demo_file"]).resolve().is_relative_to(Path(result["user"]).resolve())
    assert not Path(result["demo_file"]).resolve().is_relative_to(REPO_ROOT)
    assert result["blend_bytes"] > 0 and (out / "strew_demo.blend").is_file()
    counts = result["counts"]
    assert len(counts) == 3 and all(count > 0 for count in counts.values()), counts
    assert "strew demo: saved" in done.stdout
    for name, count in counts.items():
        assert f"{name}: {count:,} instances" in done.stdout, (name, done.stdout[-2000:])
