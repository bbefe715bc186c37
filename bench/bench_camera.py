"""Camera culling on the 10 km world: instances and scatter time with and without culling and falloff."""

from __future__ import annotations

import math
import time

import numpy as np

TITLE = "Camera culling"


def run() -> str:
    from bench.bench_scatter import LARGE_WORLD_SIZE, large_world_terrain
    from strew.core.camera import CameraView, FalloffDensity, SurfaceHeights, ViewMask, footprint
    from strew.core.scatter import LayerSpec, scatter_layer

    size = LARGE_WORLD_SIZE
    terrain = large_world_terrain()
    eye_xy = np.array([[5_000.0, 2_000.0]])
    eye = np.array([*eye_xy[0], terrain.sample(eye_xy).z[0] + 40.0])
    # Looking north over the hills, 60° horizontal field of view, 16:9, slightly down.
    pitch = math.radians(84.0)
    rotation = np.array([[1.0, 0.0, 0.0],
                         [0.0, math.cos(pitch), -math.sin(pitch)],
                         [0.0, math.sin(pitch), math.cos(pitch)]])
    view = CameraView.perspective(tuple(eye), math.radians(60.0), 16 / 9, rotation)

    heights = SurfaceHeights(terrain)
    base = dict(min_radius=6.0, max_radius=18.0, seed=1, chunk_size=512.0, max_slope=math.radians(40))
    clip, margin = 2_000.0, 20.0
    z = terrain.vertices[:, 2]
    z_range = (float(z.min()), float(z.max()))

    def seen(max_distance: float | None):  # what the Scatter job samples: the view's footprint on the terrain
        return footprint(view, terrain.bounds.as_array(), z_range, margin, max_distance)

    cases = [
        ("whole world", LayerSpec(**base)),
        ("culled to the view, margin 20 m, every candidate's height looked up, sampled over the whole terrain",
         LayerSpec(**base, mask=ViewMask(view, heights, margin))),
        ("culled to the view, margin 20 m", LayerSpec(**base, mask=ViewMask(view, heights, margin, None, z_range),
                                                      region=seen(None))),
        ("culled, clipped at 2 km", LayerSpec(**base, mask=ViewMask(view, heights, margin, clip, z_range),
                                              region=seen(clip))),
        ("culled, clipped at 2 km, falloff 300 m → 2 km", LayerSpec(
            **base, mask=ViewMask(view, heights, margin, clip, z_range), region=seen(clip),
            density=FalloffDensity(view, heights, 300.0, 2_000.0, 0.0))),
    ]
    area = size * size
    sampled = {label: (1.0 if spec.region is None else
                       (spec.region[1][0] - spec.region[0][0]) * (spec.region[1][1] - spec.region[0][1]) / area)
               for label, spec in cases}
    rows = [
        f"World {size / 1000:.0f} km × {size / 1000:.0f} km ({len(terrain.triangles):,} triangles), one layer "
        "r = 6 m (18 m where falloff thins it), slope ≤ 40°; camera 40 m above the ground, 60° field of view, 16:9.",
        "",
        "| layer | sampled area | instances | share of the world | seconds | time vs whole world |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    full_count = full_time = None
    for label, spec in cases:
        started = time.perf_counter()
        points = scatter_layer(terrain, spec)
        took = time.perf_counter() - started
        if full_count is None:
            full_count, full_time = len(points), took
        rows.append(f"| {label} | {sampled[label]:.0%} | {len(points):,} | {len(points) / full_count:.1%} | "
                    f"{took:.1f} | {took / full_time:.2f}× |")
    rows += ["", "A culled layer samples only the bounding rectangle of the view's footprint: the view volume widened "
             "by the margin, cut at the clip distance, between the terrain's lowest and highest point, seen from "
             "above (`core.camera.footprint`); the view mask decides most candidates from the vertical segment "
             "through the terrain's height range (both ends in view: in view), looking up the height only for the "
             "rest. Every instance of the culled layers lies inside the view volume "
             "widened by the margin "
             "(tests/core/test_camera.py checks the test against a pinhole projection; "
             "tests/blender/test_scatter_look.py against Blender's own `world_to_camera_view`)."]
    return "\n".join(rows)
