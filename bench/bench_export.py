"""Export Level against Blender's own exporters, on the demo and on the 10 km world: time in a fresh process,
file size, and how many of the instances Blender draws a reader that Blender did not write finds in the file
(pygltflib, usd-core, the tests' binary FBX reader); and a picture of the exported demo read back."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TITLE = "Export Level: glTF, USD and FBX against Blender's own exporters"
ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "images" / "export_demo_readback.png"
WORLD_TIMEOUT = 1200.0  # seconds a world export may take before the bench says it did not finish

# Blender's own exporters as a user runs them, in a fresh process that has Strew's file open but not Strew.
_PLAIN = {
    "glTF, default options": "bpy.ops.export_scene.gltf(filepath=OUT)",
    "glTF, Geometry Nodes Instances + GPU Instancing ticked":
        "bpy.ops.export_scene.gltf(filepath=OUT, export_gn_mesh=True, export_gpu_instances=True)",
    "USD, instancing on": "bpy.ops.wm.usd_export(filepath=OUT, use_instancing=True)",
    "FBX, default options": "bpy.ops.export_scene.fbx(filepath=OUT)",
}
_PLAIN_SUFFIX = {"glTF": ".glb", "USD": ".usdc", "FBX": ".fbx"}


def _python(*args: str, timeout: float = 900.0) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{args[:3]} failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    return took, done.stdout


def count_in_file(path: Path) -> int:
    """How many mesh placements a reader Blender did not write finds in ``path`` (instances and plain nodes)."""
    sys.path.insert(0, str(ROOT / "tests" / "blender"))
    if path.suffix in (".glb", ".gltf"):
        import pygltflib

        gltf = pygltflib.GLTF2().load(str(path))
        total = 0
        for node in gltf.nodes:
            if node.mesh is None:
                continue
            ext = (node.extensions or {}).get("EXT_mesh_gpu_instancing")
            total += gltf.accessors[ext["attributes"]["TRANSLATION"]].count if ext else 1
        return total
    if path.suffix.startswith(".usd"):
        from pxr import Usd, UsdGeom

        stage = Usd.Stage.Open(str(path))
        total = 0
        for prim in stage.Traverse():
            if prim.IsA(UsdGeom.PointInstancer):
                total += len(UsdGeom.PointInstancer(prim).GetProtoIndicesAttr().Get() or [])
            elif prim.IsA(UsdGeom.Mesh) and not _in_prototypes(prim):
                total += 1
        return total
    from fbx_reader import read  # the export tests' reader

    return len(read(path).mesh_models())


def _in_prototypes(prim) -> bool:
    from pxr import UsdGeom

    parent = prim.GetParent()
    while parent and not parent.IsPseudoRoot():
        if parent.IsA(UsdGeom.PointInstancer):
            return True
        parent = parent.GetParent()
    return False


def _drawn(blend: Path) -> tuple[int, int]:
    """Meshes Blender draws for the level: for Strew's outputs (instances and room tiles), and the other visible
    mesh objects with faces (terrain, water, road …)."""
    script = ("import bpy,sys; bpy.ops.wm.open_mainfile(filepath=sys.argv[1]); d=bpy.context.evaluated_depsgraph_get();"
              "ours=sum(1 for i in d.object_instances if i.is_instance and i.object.type=='MESH' and "
              "i.parent.original.get('strew_owner') in ('scatter','room'));"
              "tiles=sum(1 for o in bpy.context.scene.objects if o.get('strew_owner')=='room' and 'strew_tile' in o);"
              "other=sum(1 for o in bpy.context.scene.objects if o.type=='MESH' and o.visible_get() and "
              "not o.get('strew_owner') and len(o.data.polygons));"
              "print(ours + tiles, other)")
    _, out = _python("-c", script, str(blend))
    ours, other = (int(word) for word in out.split()[-2:])
    return ours, other


def _strew_row(blend: Path, out: Path, drawn: int, timeout: float = 900.0) -> str:
    try:
        took, printed = _python("-m", "strew", "export", str(blend), "-o", str(out), timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"| Strew Export Level `{out.suffix}` | did not finish in {timeout:.0f} s | | | |"
    inner = re.search(r"in ([0-9.]+) s", printed)
    found = count_in_file(out)
    return (f"| Strew Export Level `{out.suffix}` | {took:.1f} | {float(inner.group(1)) if inner else 0:.1f} | "
            f"{out.stat().st_size / 1e6:.2f} | {found:,} of {drawn:,} |")


def _plain_row(label: str, call: str, blend: Path, folder: Path, drawn: int) -> str:
    out = folder / f"plain{_PLAIN_SUFFIX[label.split(',')[0]]}"
    script = f"import bpy,sys; bpy.ops.wm.open_mainfile(filepath=sys.argv[1]); OUT=sys.argv[2]; {call}"
    try:
        took, _ = _python("-c", script, str(blend), str(out))
    except RuntimeError as error:
        return f"| Blender: {label} | failed ({error}) | | | |"
    found, size = count_in_file(out), out.stat().st_size / 1e6
    out.unlink()
    return f"| Blender: {label} | {took:.1f} | | {size:.2f} | {found:,} of {drawn:,} |"


def _picture(glb: Path) -> None:
    """Top view of the exported demo as pygltflib reads it: each instance a dot at its place, shaded by
    ``_STREW_RANDOM``; room tiles as squares."""
    sys.path.insert(0, str(ROOT / "docs"))
    sys.path.insert(0, str(ROOT / "tests" / "blender"))
    from export_check import read_gltf
    from raster import Canvas

    placed, _ = read_gltf(glb)
    xy = np.array([item.matrix[:2, 3] for item in placed])
    low, high = xy.min(axis=0), xy.max(axis=0)
    size = 900
    scale = (size - 40) / float((high - low).max())
    canvas = Canvas(size, size)
    colours = {"Fir": (0.13, 0.35, 0.16), "Bush": (0.35, 0.55, 0.2), "Rock": (0.45, 0.45, 0.45)}
    for item, (x, y) in zip(placed, xy, strict=True):
        px, py = 20 + (x - low[0]) * scale, size - 20 - (y - low[1]) * scale
        if "_STREW_TILE" in item.values:
            canvas.rect(px - 1.5, py - 1.5, px + 1.5, py + 1.5, (0.55, 0.35, 0.2))
            continue
        base = next((colour for key, colour in colours.items() if item.mesh.startswith(key)), None)
        if base is None or "_STREW_RANDOM" not in item.values:
            continue
        shade = 0.75 + 0.5 * float(item.values.get("_STREW_RANDOM", 0.5))
        canvas.disc(px, py, 2.2 if base is colours["Fir"] else 1.4, tuple(min(1.0, c * shade) for c in base))
    PICTURE.parent.mkdir(parents=True, exist_ok=True)
    PICTURE.write_bytes(canvas.to_png())


def _world_blend(folder: Path) -> Path:
    script = (
        "import sys, math, bpy; sys.path.insert(0, '.');"
        "from bench.bench_world import _terrain_object; from bench.bench_scatter import large_world_terrain;"
        "from strew import ensure_registered; from strew.demos import valley; from strew.scene import scatter_job;"
        "bpy.ops.wm.read_homefile(use_empty=True); ensure_registered(); s=bpy.context.scene; L=large_world_terrain();"
        "t=_terrain_object(bpy, L.vertices, L.triangles); trees=valley.build_prefabs(s)['Trees'];"
        "s.strew.terrain=t; l=s.strew.layers.add(); l.name, l.collection = 'Trees', trees;"
        "l.min_radius = l.max_radius = 6.0; l.max_slope, l.seed = math.radians(40), 1;"
        "r=scatter_job.run_to_end(bpy.context); print(r.reports[0].count);"
        "bpy.ops.wm.save_as_mainfile(filepath=sys.argv[1])")
    blend = folder / "world.blend"
    _python("-c", script, str(blend), timeout=1800.0)
    return blend


HEADER = ["| export | fresh process (s) | of which exporting (s) | file (MB) | mesh placements a reader finds |",
          "|---|---:|---:|---:|---:|"]


def run() -> str:
    rows: list[str] = []
    with tempfile.TemporaryDirectory(prefix="strew-bench-export-") as name:
        folder = Path(name)
        _python("-m", "strew", "demo", "--no-render", "--out", str(folder / "demo"), timeout=1800.0)
        blend = folder / "demo" / "strew_demo.blend"
        ours, other = _drawn(blend)
        drawn = ours + other
        rows += [f"The demo (`make demo`): Blender draws {drawn:,} meshes for this level, {ours:,} for Strew's "
                 f"outputs (three scatter layers and a room of real objects) and {other} others (terrain, water, "
                 "road). Each export runs in a fresh `python -m strew export` process (opening the file included); "
                 "the file is read back by pygltflib, usd-core or the tests' FBX reader, and every mesh placement "
                 "it holds is counted (a count above what Blender draws means the file also holds objects Blender "
                 "does not draw, such as the prefabs of hidden collections at their own places).", "", *HEADER]
        for suffix in (".glb", ".usdc", ".fbx"):
            rows.append(_strew_row(blend, folder / f"demo{suffix}", drawn))
        for label, call in _PLAIN.items():
            rows.append(_plain_row(label, call, blend, folder, drawn))
        _picture(folder / "demo.glb")
        world = _world_blend(folder)
        trees, ground = _drawn(world)
        drawn_world = trees + ground
        rows += ["", f"The 10 km world of the large-world figures: {trees:,} fir trees in one layer on one terrain "
                 f"({drawn_world:,} meshes drawn).", "", *HEADER]
        for suffix in (".glb", ".usdc", ".fbx"):
            rows.append(_strew_row(world, folder / f"world{suffix}", drawn_world, timeout=WORLD_TIMEOUT))
    rows += ["", f"![The exported demo read back by pygltflib, from above](docs/images/{PICTURE.name})", "",
             "The exported `.glb` of the demo as pygltflib reads it, from above: every tree, bush and rock a dot at "
             "its place, shaded by its `_STREW_RANDOM`; the room's tiles as brown squares."]
    return "\n".join(rows)
