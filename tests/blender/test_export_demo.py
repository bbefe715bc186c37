"""Export Level on the demo itself (`make demo`'s valley and room, built here without renders): in .glb, .usdc and
.fbx a reader Blender did not write finds every instance Blender draws for Strew's outputs, by mesh name, at its
world matrix (≤ 1e-4 m in position; the rotation part of FBX within its single-precision Euler angles), each
file instance taken once, and `strew_random` per instance in glTF and USD."""

from __future__ import annotations

from pathlib import Path

import bpy
import fbx_reader
import numpy as np
import pytest
from export_check import drawn_instances, point_values, read_gltf
from export_check_usd import read_usd
from rooms_kits import module

POSITION = 1e-4  # metres
ROTATION = {"glb": 1e-5, "usdc": 1e-5, "fbx": 5e-4}
"""Largest error of a matrix's 3 × 3 part: FBX stores each model's rotation as XYZ Euler angles that Blender's
exporter computes in single precision (docs/export.md)."""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The demo built once, its drawn instances, and the three files Export Level writes of it."""
    build = module("demos.build")
    folder = tmp_path_factory.mktemp("demo")
    assert build.build_demo(folder, render_images=False) == 0
    job = module("scene.export.job")
    drawn = drawn_instances()
    randoms = {item.output: point_values(item.output, "strew_random") for item in drawn}
    files = {}
    for suffix in ("glb", "usdc", "fbx"):
        path = folder / f"level.{suffix}"
        result = job.export_level(bpy.context, job.ExportRequest(path))
        assert result.instances == len(drawn)
        files[suffix] = path
    return {"drawn": drawn, "randoms": randoms, "files": files}


def _pairs(drawn: list, placed: list[tuple[str, np.ndarray, dict]], rotation: float) -> list[tuple[int, int]]:
    """(drawn, placed) index pairs: each drawn instance with the file's nearest instance of the same mesh; fails
    on a missing mesh, a place farther than ``POSITION``, a rotation part off by more than ``rotation``, or a file
    instance taken twice."""
    by_mesh: dict[str, list[int]] = {}
    for number, (mesh, _, _) in enumerate(placed):
        by_mesh.setdefault(mesh, []).append(number)
    pairs = []
    groups: dict[str, list[int]] = {}
    for number, item in enumerate(drawn):
        groups.setdefault(item.mesh, []).append(number)
    for mesh, numbers in groups.items():
        candidates = by_mesh.get(mesh, [])
        assert len(candidates) >= len(numbers), f"{mesh}: {len(numbers)} drawn, {len(candidates)} in the file"
        ours = np.array([drawn[n].matrix for n in numbers])
        theirs = np.array([placed[c][1] for c in candidates])
        nearest = np.empty(len(numbers), dtype=np.int64)
        for start in range(0, len(numbers), 256):
            gaps = np.linalg.norm(ours[start:start + 256, None, :3, 3] - theirs[None, :, :3, 3], axis=2)
            nearest[start:start + 256] = gaps.argmin(axis=1)
        assert len(np.unique(nearest)) == len(numbers), f"{mesh}: a file instance stands for two drawn ones"
        position = np.abs(ours[:, :3, 3] - theirs[nearest, :3, 3]).max()
        turn = np.abs(ours[:, :3, :3] - theirs[nearest, :3, :3]).max()
        assert position <= POSITION and turn <= rotation, (mesh, position, turn)
        pairs += [(n, candidates[c]) for n, c in zip(numbers, nearest.tolist(), strict=True)]
    return pairs


def _placed(suffix: str, path: Path) -> list[tuple[str, np.ndarray, dict]]:
    if suffix == "glb":
        return [(item.mesh, item.matrix, item.values) for item in read_gltf(path)[0]]
    if suffix == "usdc":
        return [(item.mesh, item.matrix, item.values) for item in read_usd(path).placed]
    scene = fbx_reader.read(path)
    return [(scene.geometries[model.geometry][0], scene.to_blender(model), model.user())
            for model in scene.mesh_models()]


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["glb", "usdc", "fbx"])
def test_the_demo_leaves_blender_whole(demo: dict, suffix: str) -> None:
    drawn = demo["drawn"]
    assert len(drawn) > 5000
    placed = _placed(suffix, demo["files"][suffix])
    pairs = _pairs(drawn, placed, ROTATION[suffix])
    assert len(pairs) == len(drawn)
    if suffix == "fbx":
        return
    key = "_STREW_RANDOM" if suffix == "glb" else "strew_random"
    for ours, theirs in pairs:
        item = drawn[ours]
        expected = demo["randoms"][item.output][item.point]
        assert float(np.asarray(placed[theirs][2][key]).ravel()[0]) == pytest.approx(expected, abs=1e-7)
