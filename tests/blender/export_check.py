"""Oracles for Export Level: what Blender draws for Strew's outputs, walked here on its own, and a glTF file read
back with pygltflib (a reader Blender did not write) into world matrices per mesh name."""

from __future__ import annotations

import json
import shutil
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path

import bpy
import numpy as np
from small_scenes import road_kit, scatter_scene

# glTF's Y-up axes from Blender's Z-up ones: (x, y, z) -> (x, z, -y).
Y_UP = np.array([[1.0, 0, 0, 0], [0, 0, 1.0, 0], [0, -1.0, 0, 0], [0, 0, 0, 1.0]])
VALIDATOR = Path(__file__).resolve().parents[2] / ".venv" / "node" / "node_modules" / "gltf-validator"


@dataclass
class Drawn:
    """One mesh instance Blender draws for a Strew output: which output, which mesh, where, from which point."""

    output: str
    mesh: str
    matrix: np.ndarray
    point: int


def drawn_instances() -> list[Drawn]:
    """Every evaluated instance whose instancer is a Strew-owned object, in world space."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    out = []
    for instance in depsgraph.object_instances:
        if not instance.is_instance or instance.object.type != 'MESH':
            continue
        parent = instance.parent.original
        if parent.get("strew_owner") not in ("scatter", "room"):
            continue
        out.append(Drawn(parent.name, instance.object.original.data.name, np.array(instance.matrix_world),
                         int(instance.persistent_id[0])))
    return out


def point_values(name: str, attribute: str) -> np.ndarray:
    """A point attribute of a Strew output's mesh as float64."""
    mesh = bpy.data.objects[name].data
    data = mesh.attributes[attribute]
    width = 3 if data.data_type == 'FLOAT_VECTOR' else 1
    raw = np.zeros(len(mesh.vertices) * width, dtype=bool if data.data_type == 'BOOLEAN' else np.float64)
    data.data.foreach_get("vector" if width == 3 else "value", raw)
    return raw.astype(np.float64).reshape(-1, width) if width == 3 else raw.astype(np.float64)


def level_scene(mirror: bool = True) -> None:
    """A scatter layer and a 5 x 5 road room written as Instances, its turn tile allowed to mirror."""
    scatter_scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    kit = road_kit()
    kit.objects["turn"]["strew_mirror"] = mirror
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(5, 5, 1), seed=2, origin=(30.0, 0.0, 0.0)) == {'FINISHED'}


def _trs(node) -> np.ndarray:
    if node.matrix:
        return np.array(node.matrix, dtype=np.float64).reshape(4, 4).T
    return compose(np.array([node.translation or (0, 0, 0)]), np.array([node.rotation or (0, 0, 0, 1)]),
                   np.array([node.scale or (1, 1, 1)]))[0]


def compose(t: np.ndarray, q: np.ndarray, s: np.ndarray) -> np.ndarray:
    """T · R · S from glTF's translation, quaternion (x, y, z, w) and scale, one matrix per row."""
    x, y, z, w = q.T
    rotation = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], 1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], 1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], 1)], 1)
    out = np.zeros((len(t), 4, 4))
    out[:, :3, :3] = rotation * s[:, None, :]
    out[:, :3, 3] = t
    out[:, 3, 3] = 1
    return out


@dataclass
class GltfInstance:
    mesh: str
    matrix: np.ndarray  # world, Blender's Z-up axes
    values: dict[str, np.ndarray]


def read_gltf(path: Path) -> tuple[list[GltfInstance], object]:
    """Every mesh placement in a .glb/.gltf (plain nodes and EXT_mesh_gpu_instancing rows) in Blender's axes."""
    import pygltflib

    gltf = pygltflib.GLTF2().load(str(path))
    blob = gltf.binary_blob() if path.suffix == ".glb" else None
    buffers = {}

    def accessor(index: int) -> np.ndarray:
        acc = gltf.accessors[index]
        view = gltf.bufferViews[acc.bufferView]
        if view.buffer not in buffers:
            uri = gltf.buffers[view.buffer].uri
            buffers[view.buffer] = blob if uri is None else (path.parent / uri).read_bytes()
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc.type]
        dtype = {5126: "<f4", 5125: "<u4", 5123: "<u2", 5121: "u1"}[acc.componentType]
        data = np.frombuffer(buffers[view.buffer], dtype=dtype, count=acc.count * width,
                             offset=(view.byteOffset or 0) + (acc.byteOffset or 0))
        return data.astype(np.float64).reshape(acc.count, width) if width > 1 else data.astype(np.float64)

    back = np.linalg.inv(Y_UP)
    out: list[GltfInstance] = []

    def visit(index: int, parent: np.ndarray) -> None:
        node = gltf.nodes[index]
        world = parent @ _trs(node)
        if node.mesh is not None:
            mesh = gltf.meshes[node.mesh].name
            ext = (node.extensions or {}).get("EXT_mesh_gpu_instancing")
            if ext:
                attributes = ext["attributes"]
                rows = compose(accessor(attributes["TRANSLATION"]), accessor(attributes["ROTATION"]),
                               accessor(attributes["SCALE"]))
                values = {key: accessor(value) for key, value in attributes.items() if key.startswith("_")}
                for number, row in enumerate(rows):
                    out.append(GltfInstance(mesh, back @ world @ row @ Y_UP,
                                            {key: column[number] for key, column in values.items()}))
            else:
                extras = node.extras or {}
                out.append(GltfInstance(mesh, back @ world @ Y_UP,
                                        {f"_{key.upper()}": np.asarray(value) for key, value in extras.items()
                                         if key.startswith("strew_")}))
        for child in node.children or []:
            visit(child, world)

    for root in gltf.scenes[gltf.scene or 0].nodes:
        visit(root, np.eye(4))
    return out, gltf


def match(drawn: list[Drawn], placed: list[GltfInstance], tolerance: float = 1e-4) -> list[tuple[Drawn, GltfInstance]]:
    """Pair every drawn instance with the file's instance of the same mesh at the same place (AssertionError for
    one missing or farther than ``tolerance`` in any matrix entry)."""
    by_mesh: dict[str, list[GltfInstance]] = {}
    for item in placed:
        by_mesh.setdefault(item.mesh, []).append(item)
    pairs = []
    for item in drawn:
        candidates = by_mesh.get(item.mesh, [])
        assert candidates, f"{item.output}: mesh {item.mesh} is not in the file"
        errors = [np.abs(c.matrix - item.matrix).max() for c in candidates]
        best = int(np.argmin(errors))
        assert errors[best] <= tolerance, (item.output, item.mesh, item.point, errors[best])
        pairs.append((item, candidates.pop(best)))
    return pairs


def validate(path: Path) -> dict | None:
    """The Khronos glTF validator's report for ``path``; None, with a one-line warning, where Node is missing
    (where Node is present the validator must be: ``make gltf-validator`` installs it)."""
    node = shutil.which("node")
    if node is None:
        warnings.warn("no Node.js here: the Khronos glTF validator did not run", stacklevel=2)
        return None
    assert VALIDATOR.is_dir(), "the Khronos glTF validator is missing: run `make gltf-validator`"
    script = ("const v=require(process.argv[1]),fs=require('fs'),p=require('path'),f=process.argv[2];"
              "v.validateBytes(new Uint8Array(fs.readFileSync(f)),{uri:f,externalResourceFunction:(u)=>"
              "Promise.resolve(new Uint8Array(fs.readFileSync(p.resolve(p.dirname(f),decodeURIComponent(u)))))})"
              ".then(r=>console.log(JSON.stringify(r.issues)))")
    done = subprocess.run([node, "-e", script, str(VALIDATOR), str(path)], capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(done.stdout)
