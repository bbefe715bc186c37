"""``make demo``: the valley scattered and the two-storey tile room beside it, saved and rendered."""

from __future__ import annotations

import time
from pathlib import Path

import bpy

from .. import ensure_registered
from ..scene.instancer import OUTPUT_COLLECTION, OWNER
from ..scene.ownership import owned_collection
from . import room, valley
from .render import render, setup_render


def build_demo(out: Path, render_images: bool = True, samples: int = 16) -> int:
    """Build, scatter, save and (optionally) render the demo; prints what it made and how long each step took."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    scene = bpy.context.scene
    timings: dict[str, float] = {}

    started = time.perf_counter()
    terrain = valley.build_terrain(scene)
    roads = valley.build_road(scene)
    prefabs = valley.build_prefabs(scene)
    valley.configure_layers(scene, terrain, prefabs, roads)
    timings["build scene"] = time.perf_counter() - started

    started = time.perf_counter()
    result = bpy.ops.strew.scatter()
    timings["scatter (3 layers)"] = time.perf_counter() - started
    if result != {'FINISHED'}:
        print("strew demo: scatter failed")
        return 1
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER, create=False)
    counts = {obj.name: len(obj.data.vertices) for obj in output.objects}

    setup_render(scene, samples)
    views = valley.views(scene)
    built = room.build_room_demo(scene, out, render_images=render_images, samples=samples)
    timings.update(built["timings"])
    blend_path = out / "strew_demo.blend"
    started = time.perf_counter()
    bpy.ops.wm.save_as_mainfile(filepath=str(blend_path), check_existing=False)
    timings["save"] = time.perf_counter() - started

    images = list(built["images"])
    if render_images:
        for view, name in views:
            timings[f"render {name}"] = render(scene, view, out / name)
            images.append(out / name)

    print(f"strew demo: saved {blend_path}")
    for name, count in counts.items():
        print(f"  {name}: {count:,} instances")
    for name, count in built["counts"].items():
        print(f"  tile room, {name}: {count:,}")
    for image in images:
        print(f"  rendered {image}")
    for step, seconds in timings.items():
        print(f"  {step}: {seconds:.2f} s")
    return 0
