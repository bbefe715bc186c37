"""Viewport frame time with and without Proxy Beyond, in a real Blender window (run by ``bench/bench_proxies.py``).

``blender --python bench/proxy_window.py -- OUT.json COUNT ROUNDS SCENE`` (windowed, Strew installed and enabled).
SCENE ``field``: a flat 300 m field, a layer of about COUNT instances of three prefabs of 4,800 triangles each, seen
from one corner, 8 m above the ground. SCENE ``world``: the 10 km world of ``bench/bench_world.py`` (its terrain, the
demo's fir trees r = 6 m on slopes ≤ 40°, no culling: about 1.9 M instances), seen from that bench's camera, 40 m
above the ground looking north. Then, ROUNDS times, for each setting in turn (so all see the same load): set it, let
the output evaluate, and time ``wm.redraw_timer(type='DRAW_WIN')`` (one warm-up frame, then ``FRAMES`` frames).
Also checks that the "Strew View" empty followed the 3D view's eye (the draw handler and timer of
``scene/proxy_view.py``). Writes OUT.json and quits.
"""

from __future__ import annotations

import faulthandler
import json
import math
import os
import sys
import time
from pathlib import Path

import bmesh
import bpy
from mathutils import Euler, Matrix, Vector

ARGS = sys.argv[sys.argv.index("--") + 1:]
OUT = Path(ARGS[0])
COUNT = int(ARGS[1])
ROUNDS = int(ARGS[2])
SCENE = ARGS[3] if len(ARGS) > 3 else "field"
FRAMES = int(os.environ.get("STREW_PROXY_FRAMES", "1"))
FAULTS = OUT.with_suffix(".faults.txt").open("w")  # where a crash's Python stack goes (Blender's own has none)
faulthandler.enable(file=FAULTS)
REPO_ROOT = Path(__file__).resolve().parents[1]
SIZE = 300.0
DISTANCE = {"field": 40.0, "world": 200.0}[SCENE]
LAYER = {"field": "Bushes", "world": "Trees"}[SCENE]
SETTINGS = [  # (label, proxy_beyond, kind, ratio); proxy_beyond None: the output hidden (the window's own cost)
    ("output hidden (the window without the layer)", None, 'BOUNDS', 0.1),
    ("off (every instance in full)", False, 'BOUNDS', 0.1),
    (f"Bounds beyond {DISTANCE:.0f} m", True, 'BOUNDS', 0.1),
    (f"Convex Hull beyond {DISTANCE:.0f} m", True, 'HULL', 0.1),
    (f"Decimated 10 % beyond {DISTANCE:.0f} m", True, 'DECIMATE', 0.1),
]
report: dict = {"blender": bpy.app.version_string, "count": COUNT, "rounds": [], "distance": DISTANCE,
                "scene": SCENE}


def _prefab(name: str, matrix: Matrix) -> bpy.types.Object:
    """A bush: five overlapping spheres of 960 triangles each (4,800 in all), lumpy, so its hull is lighter."""
    bm = bmesh.new()
    for x, y, z, radius in ((0.0, 0.0, 0.5, 0.5), (0.4, 0.1, 0.4, 0.35), (-0.35, 0.2, 0.45, 0.4),
                            (0.1, -0.4, 0.35, 0.35), (0.0, 0.1, 0.9, 0.3)):
        bmesh.ops.create_uvsphere(bm, u_segments=32, v_segments=16, radius=radius,
                                  matrix=Matrix.Translation((x, y, z)))
    bm.transform(matrix)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return bpy.data.objects.new(name, mesh)


def build_field() -> bpy.types.Collection:
    """The 300 m field and three 4,800-triangle bushes spaced for about COUNT instances."""
    mesh = bpy.data.meshes.new("Field")
    n = 31
    corners = [(SIZE * (i / (n - 1) - 0.5), SIZE * (j / (n - 1) - 0.5), 0.0) for i in range(n) for j in range(n)]
    mesh.from_pydata(corners, [], [(i * n + j, (i + 1) * n + j, (i + 1) * n + j + 1, i * n + j + 1)
                          for i in range(n - 1) for j in range(n - 1)])
    field = bpy.data.objects.new("Field", mesh)
    scene = bpy.context.scene
    scene.collection.objects.link(field)
    prefabs = bpy.data.collections.new("Bushes")
    scene.collection.children.link(prefabs)
    for k, matrix in enumerate((Matrix.Identity(4), Matrix.Diagonal((1.4, 1.0, 0.8, 1.0)),
                                Matrix.Diagonal((0.7, 0.7, 1.8, 1.0)))):
        prefabs.objects.link(_prefab(f"Bush {k}", matrix))
    bpy.context.view_layer.layer_collection.children["Bushes"].exclude = True
    settings = scene.strew
    settings.terrain = field
    layer = settings.layers.add()
    layer.name, layer.collection = LAYER, prefabs
    # Poisson-disk sampling keeps about 0.71 points per r² square metres
    layer.min_radius = layer.max_radius = math.sqrt(0.71 * SIZE * SIZE / COUNT)
    return prefabs


def build_world() -> bpy.types.Collection:
    """The 10 km world of bench/bench_world.py with the demo's fir trees, r = 6 m, slope ≤ 40°, seed 1."""
    sys.path.insert(0, str(REPO_ROOT))
    from bench.bench_scatter import large_world_mesh

    strew = next(name for name in sys.modules if name.endswith(".strew") or name == "strew")
    valley = __import__(f"{strew}.demos.valley", fromlist=["build_prefabs"])
    vertices, triangles = large_world_mesh()
    mesh = bpy.data.meshes.new("World")
    mesh.from_pydata(vertices.tolist(), [], triangles.tolist())
    scene = bpy.context.scene
    terrain = bpy.data.objects.new("World", mesh)
    scene.collection.objects.link(terrain)
    trees = valley.build_prefabs(scene)["Trees"]
    settings = scene.strew
    settings.terrain = terrain
    layer = settings.layers.add()
    layer.name, layer.collection = LAYER, trees
    layer.min_radius = layer.max_radius = 6.0
    layer.max_slope, layer.seed = math.radians(40), 1
    return trees


def build() -> None:
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    prefabs = build_field() if SCENE == "field" else build_world()
    started = time.perf_counter()
    bpy.ops.strew.scatter()
    report["scatter_seconds"] = time.perf_counter() - started
    report["instances"] = len(bpy.data.objects[f"Strew {LAYER}"].data.vertices)
    layer = bpy.context.scene.strew.layers[0]
    triangles = []
    for obj in prefabs.objects:
        obj.data.calc_loop_triangles()
        triangles.append(len(obj.data.loop_triangles))
    report["prefab_triangles"] = triangles
    proxies = {}
    for kind in ('HULL', 'DECIMATE'):
        layer.proxy_kind, layer.proxy_beyond = kind, True
        meshes = [o.data for c in bpy.data.collections if c.get("strew_proxies") for o in c.objects]
        for mesh in meshes:
            mesh.calc_loop_triangles()
        proxies[kind] = [len(mesh.loop_triangles) for mesh in meshes]
    layer.proxy_beyond = False
    report["proxy_triangles"] = proxies


def view_3d() -> tuple[bpy.types.Window, bpy.types.Area, bpy.types.Region]:
    window = bpy.context.window_manager.windows[0]
    area = max((a for a in window.screen.areas if a.type == 'VIEW_3D'), key=lambda a: a.width * a.height)
    region = next(r for r in area.regions if r.type == 'WINDOW')
    return window, area, region


def look(area: bpy.types.Area) -> Vector:
    """Field: look over it from its south-west corner, 8 m up, slightly down. World: bench_world's camera, 40 m
    above the ground at (5 km, 2 km), looking north 6° down, seeing to the world's far edge. The eye's position."""
    space = area.spaces.active
    space.shading.type = 'SOLID'
    r3d = space.region_3d
    r3d.view_perspective = 'PERSP'
    if SCENE == "field":
        eye = Vector((-SIZE / 2 + 5.0, -SIZE / 2 + 5.0, 8.0))
        rotation = Euler((math.radians(80.0), 0.0, math.radians(-45.0))).to_quaternion()
        space.clip_end = 1000.0
    else:
        terrain = bpy.data.objects["World"]
        hit, ground, *_ = terrain.ray_cast(Vector((5_000.0, 2_000.0, 1_000.0)), Vector((0.0, 0.0, -1.0)))
        eye = Vector((5_000.0, 2_000.0, (ground.z if hit else 0.0) + 40.0))
        rotation = Euler((math.radians(84.0), 0.0, 0.0)).to_quaternion()
        space.clip_end = 12_000.0
    r3d.view_rotation = rotation
    r3d.view_distance = 50.0
    r3d.view_location = eye + rotation @ Vector((0.0, 0.0, -50.0))
    return eye


def time_frames(window, area, region, frames: int) -> float:
    with bpy.context.temp_override(window=window, area=area, region=region):
        bpy.ops.wm.redraw_timer(type='DRAW_WIN', iterations=1)  # warm-up: evaluation, GPU batches
        started = time.perf_counter()
        bpy.ops.wm.redraw_timer(type='DRAW_WIN', iterations=frames)
        return (time.perf_counter() - started) / frames


def apply(label: str, on: bool | None, kind: str, ratio: float) -> float:
    layer = bpy.context.scene.strew.layers[0]
    started = time.perf_counter()
    layer.proxy_kind, layer.proxy_ratio, layer.proxy_distance = kind, ratio, DISTANCE
    layer.proxy_beyond = bool(on)
    bpy.data.objects[f"Strew {LAYER}"].hide_viewport = on is None
    bpy.context.evaluated_depsgraph_get()  # the modifier's evaluation is not counted in the frames
    return time.perf_counter() - started


def shown_counts() -> dict[str, int]:
    obj = bpy.data.objects[f"Strew {LAYER}"]
    counts: dict[str, int] = {}
    for item in bpy.context.evaluated_depsgraph_get().object_instances:
        if item.is_instance and item.parent and item.parent.original == obj:
            key = "proxy" if item.object.original.name.startswith("Strew Proxy") else "full"
            counts[key] = counts.get(key, 0) + 1
    return counts


STEPS: list = []


def step() -> float | None:
    try:
        if not STEPS:
            return None
        STEPS.pop(0)()
        return 0.5 if STEPS else None
    except Exception as error:  # the report says what failed, then Blender quits
        import traceback

        report["error"] = f"{error!r}\n{traceback.format_exc()}"
        OUT.write_text(json.dumps(report, indent=1))
        bpy.ops.wm.quit_blender()
        return None


def start() -> None:
    build()
    _, area, region = view_3d()
    report["eye"] = list(look(area))
    report["region"] = [region.width, region.height]


def check_follow() -> None:
    """The empty "Strew View" is at the eye of the 3D view (moved by the draw handler and the timer)."""
    window, area, region = view_3d()
    layer = bpy.context.scene.strew.layers[0]
    layer.proxy_beyond = True
    with bpy.context.temp_override(window=window, area=area, region=region):
        bpy.ops.wm.redraw_timer(type='DRAW_WIN', iterations=1)


def read_follow() -> None:
    view = next(o for o in bpy.data.objects if o.get("strew_kind") == "view")
    eye = Vector(report["eye"])
    report["view_empty_from_eye_m"] = (view.location - eye).length
    report["shown_with_proxies"] = shown_counts()


def measure_round() -> None:
    window, area, region = view_3d()
    record = {"loadavg": Path("/proc/loadavg").read_text().split()[:3], "settings": []}
    for label, on, kind, ratio in SETTINGS:
        setup = apply(label, on, kind, ratio)
        frame = time_frames(window, area, region, FRAMES)
        record["settings"].append({"label": label, "setup_s": setup, "frame_s": frame})
    report["rounds"].append(record)


def finish() -> None:
    OUT.write_text(json.dumps(report, indent=1))
    bpy.ops.wm.quit_blender()


STEPS.extend([start, check_follow, read_follow, *[measure_round] * ROUNDS, finish])
bpy.app.timers.register(step, first_interval=3.0)
