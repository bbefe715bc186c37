"""A 10 km world with camera culling, through the Scatter job and rendered: instances and time with and without
culling, and a small Cycles picture of what the camera sees (docs/images/world_10km.jpg)."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

TITLE = "A 10 km world rendered with camera culling"
PICTURE = Path(__file__).resolve().parents[1] / "docs" / "images" / "world_10km.jpg"


def _terrain_object(bpy, vertices: np.ndarray, triangles: np.ndarray):
    mesh = bpy.data.meshes.new("World")
    mesh.from_pydata(vertices.tolist(), [], triangles.tolist())
    mesh.polygons.foreach_set("use_smooth", np.ones(len(triangles), dtype=bool))
    obj = bpy.data.objects.new("World", mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def run() -> str:
    import bpy

    from bench.bench_scatter import LARGE_WORLD_SIZE, large_world_terrain
    from strew import ensure_registered
    from strew.demos import valley
    from strew.demos.render import render, setup_render
    from strew.scene import scatter_job

    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    scene = bpy.context.scene
    lookup = large_world_terrain()
    terrain = _terrain_object(bpy, lookup.vertices, lookup.triangles)
    grass = bpy.data.materials.new("Grass")
    grass.use_nodes = True
    grass.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.3, 0.36, 0.16, 1.0)
    terrain.data.materials.append(grass)
    trees = valley.build_prefabs(scene)["Trees"]
    settings = scene.strew
    settings.terrain = terrain
    layer = settings.layers.add()
    layer.name, layer.collection = "Trees", trees
    layer.min_radius = layer.max_radius = 6.0
    layer.max_slope, layer.seed = math.radians(40), 1

    # The camera of the culling figures: 40 m above the ground, looking north 6° down, 60° across, 16:9.
    eye = np.array([5_000.0, 2_000.0])
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    camera.location = (*eye, float(lookup.sample(eye[None]).z[0]) + 40.0)
    camera.rotation_euler = (math.radians(84.0), 0.0, 0.0)
    camera.data.sensor_fit, camera.data.angle = 'HORIZONTAL', math.radians(60.0)
    camera.data.clip_end = 3_000.0
    scene.camera = camera
    setup_render(scene, samples=8)
    scene.render.resolution_x, scene.render.resolution_y = 640, 360
    scene.render.image_settings.file_format = 'JPEG'

    rows = [
        f"World {LARGE_WORLD_SIZE / 1000:.0f} km × {LARGE_WORLD_SIZE / 1000:.0f} km ({len(lookup.triangles):,} "
        "triangles) as a Blender mesh, one layer of the demo's fir trees r = 6 m, slope ≤ 40°; the Scatter job "
        f"(scene → arrays → core → one Point Instancer, {settings.workers} worker processes); camera 40 m above "
        "the ground, 60° field of view.",
        "",
        "| layer | instances | Scatter job (s) |",
        "|---|---:|---:|",
    ]
    for label, cull, clip in [("whole world", False, 0.0), ("culled to the view, margin 20 m", True, 0.0),
                              ("culled, clipped at 2 km", True, 2_000.0)]:
        layer.camera_cull, layer.camera_margin, layer.camera_max_distance = cull, 20.0, clip
        started = time.perf_counter()
        result = scatter_job.run_to_end(bpy.context)
        took = time.perf_counter() - started
        rows.append(f"| {label} | {result.reports[0].count:,} | {took:.1f} |")
    took = render(scene, camera, PICTURE)
    rows += ["", f"![The 10 km world, culled and clipped at 2 km](docs/images/{PICTURE.name})", "",
             f"Rendered from the last row's scene: Cycles, 8 samples, {scene.render.resolution_x} × "
             f"{scene.render.resolution_y}, {took:.1f} s (CPU). Beyond the 2 km clip the terrain is bare."]
    return "\n".join(rows)
