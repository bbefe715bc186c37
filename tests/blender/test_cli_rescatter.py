"""``python -m strew rescatter`` and ``scatter --proxy-beyond`` in their own processes, read back from the saved
file: the region refilled and everything far from it kept, proxies switched on; bad input refused in one line."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from cli_process import refused, strew_run, succeeded
from scenes import add_layer, make_prefabs, make_terrain, point_attributes


@pytest.fixture
def scattered(empty_scene, tmp_path):
    bpy.context.scene.strew.terrain = make_terrain(size=60.0, subdivisions=12)
    add_layer("Grass", make_prefabs("Blades"), 1.0, 1.0, seed=3, output_mode='GEOMETRY_NODES')
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    path = tmp_path / "field.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _grass(path) -> np.ndarray:
    bpy.ops.wm.open_mainfile(filepath=str(path))
    return point_attributes(bpy.data.objects["Strew Grass"])["position"]


def test_rescatter_a_circle_keeps_the_rest_and_the_spacing(scattered, tmp_path) -> None:
    before = _grass(scattered)
    out = tmp_path / "out.blend"
    done = succeeded(strew_run("rescatter", scattered, "--layer", "Grass", "--circle", "10,-5,6", "--seed", "9",
                               "-o", out, cwd=tmp_path))
    assert "Strew Grass:" in done
    after = _grass(out)
    centre = np.array([10.0, -5.0])
    far_before = before[np.linalg.norm(before[:, :2] - centre, axis=1) > 6.0 + 3.0]
    far_after = after[np.linalg.norm(after[:, :2] - centre, axis=1) > 6.0 + 3.0]
    assert far_before.shape == far_after.shape and np.abs(far_before - far_after).max() < 1e-4
    inside_before = before[np.linalg.norm(before[:, :2] - centre, axis=1) < 6.0]
    inside_after = after[np.linalg.norm(after[:, :2] - centre, axis=1) < 6.0]
    assert len(inside_after) > 10 and inside_before.tobytes() != inside_after.tobytes()
    d = np.sqrt(((after[:, None, :2] - after[None, :, :2]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    assert d.min() >= 1.0 - 1e-4


@pytest.mark.parametrize(("flags", "message"), [
    (["--layer", "Trees", "--box", "0,0,5,5"], "no layer named 'Trees'"),
    (["--layer", "Grass", "--box", "0,0,5"], "--box '0,0,5': write 4 numbers"),
    (["--layer", "Grass", "--circle", "a,b,c"], "--circle 'a,b,c': write 3 numbers"),
    (["--layer", "Grass", "--circle", "5000,5000,3"], "off the terrain"),
])
def test_bad_rescatter_input_is_refused_in_one_line(scattered, tmp_path, flags, message) -> None:
    refused(strew_run("rescatter", scattered, *flags, "-o", tmp_path / "out.blend", cwd=tmp_path), message)
    assert not (tmp_path / "out.blend").exists()


def test_proxy_beyond_from_the_command_line(scattered, tmp_path) -> None:
    out = tmp_path / "proxied.blend"
    succeeded(strew_run("scatter", scattered, "--layer", "Grass:1:1:Blades", "--proxy-beyond", "25:hull", "-o", out,
                        cwd=tmp_path))
    bpy.ops.wm.open_mainfile(filepath=str(out))
    layer = bpy.context.scene.strew.layers["Grass"]
    assert layer.proxy_beyond and layer.proxy_distance == 25.0 and layer.proxy_kind == 'HULL'
    refused(strew_run("scatter", scattered, "--layer", "Grass:1:1:Blades", "--proxy-beyond", "25:cubes", "-o", out,
                      cwd=tmp_path), "KIND is one of")
