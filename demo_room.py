"""The Tile Rooms part of ``make demo``: build the 53-tile kit, assemble a two-storey room, render it.

Call from ``demo.build_demo`` after the scatter part (the room stands at x = +200, away from the terrain)::

    from .demo_room import build_room_demo
    room = build_room_demo(scene, out, render_images=render_images, samples=samples)
    timings.update(room["timings"])

It returns ``{"timings": {step: seconds}, "counts": {...}, "images": [paths]}``; the images are
``room_overview.png`` (upper storey from above, no roof), ``room_ground_floor.png`` (same view, upper storey
hidden) and ``room_inside.png`` (eye height on the upper floor). The cameras are "Room Overview" and
"Room Inside"; ``scene.camera`` is left as it was.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import bpy
from mathutils import Vector

from .scene.demo_kit import CELL, HEIGHT, build_demo_kit
from .scene.room_output import room_collection

ROOM_ORIGIN = (200.0, 0.0, 0.0)
ROOM_SIZE = (12, 12, 2)
ROOM_SEED = 3
ENTRANCE = (1, 1, 1)  # a plain floor on the upper storey (open to the sky): the interior camera stands here


def _camera(scene: bpy.types.Scene, name: str, location, target, lens: float = 24.0) -> bpy.types.Object:
    camera = bpy.data.objects.new(name, bpy.data.cameras.new(name))
    scene.collection.objects.link(camera)
    camera.location = location
    camera.rotation_euler = (Vector(target) - Vector(location)).to_track_quat('-Z', 'Y').to_euler()
    camera.data.lens = lens
    camera.data.clip_start = 0.05
    camera.data.clip_end = 1000.0
    return camera


def _ensure_light(scene: bpy.types.Scene) -> None:
    if scene.world is None:
        world = bpy.data.worlds.new("Strew Room Sky")
        world.use_nodes = True
        background = world.node_tree.nodes["Background"]
        background.inputs["Color"].default_value = (0.55, 0.7, 0.9, 1.0)
        background.inputs["Strength"].default_value = 0.8
        scene.world = world
    if not any(obj.type == 'LIGHT' and obj.data.type == 'SUN' for obj in scene.objects):
        sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", 'SUN'))
        sun.data.energy = 3.5
        sun.rotation_euler = (math.radians(40), math.radians(10), math.radians(35))
        scene.collection.objects.link(sun)


def _render(scene: bpy.types.Scene, camera: bpy.types.Object, path: Path, samples: int) -> float:
    started = time.perf_counter()
    if scene.render.engine != 'CYCLES':
        scene.render.engine = 'CYCLES'
        scene.cycles.device = 'CPU'
        scene.cycles.use_denoising = False
        scene.render.resolution_x, scene.render.resolution_y = 960, 640
    scene.cycles.samples = samples
    scene.render.image_settings.file_format = 'PNG'
    previous = scene.camera
    scene.camera = camera
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    scene.camera = previous
    return time.perf_counter() - started


def build_room_demo(scene: bpy.types.Scene, out: Path, render_images: bool = True, samples: int = 16,
                    seed: int = ROOM_SEED, size=ROOM_SIZE, origin=ROOM_ORIGIN) -> dict:
    """Build the demo kit, assemble a two-storey room at ``origin`` and (optionally) render two views.

    Needs the extension registered (``strew.cli.ensure_registered``). Raises ``RuntimeError`` when the room
    cannot be assembled (the operator's report).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    kit = build_demo_kit(scene, location=(origin[0], origin[1] - 40.0, origin[2]))
    timings["room: build kit"] = time.perf_counter() - started

    started = time.perf_counter()
    result = bpy.ops.strew.assemble_room(kit=kit.name, size=tuple(size), seed=seed, origin=tuple(origin),
                                         connected=True, fixed=f"floor {ENTRANCE[0]} {ENTRANCE[1]} {ENTRANCE[2]}",
                                         output='OBJECTS')  # real objects: the ground-floor view hides some
    timings["room: assemble"] = time.perf_counter() - started
    if result != {'FINISHED'}:
        raise RuntimeError("the demo room could not be assembled")
    room = room_collection(scene, scene.strew.room.room_name)
    assert room is not None
    tiles = {obj["strew_tile"] for obj in room.objects}
    counts = {"kit tiles": len(kit.objects), "room cells": len(room.objects), "distinct tiles used": len(tiles),
              "stairs": sum(obj["strew_tile"] in ("stair", "spiral") for obj in room.objects)}

    _ensure_light(scene)
    o = Vector(origin)
    width, depth = size[0] * CELL, size[1] * CELL
    centre = o + Vector((width / 2 - CELL / 2, depth / 2 - CELL / 2, 0.0))
    overview = _camera(scene, "Room Overview", centre + Vector((-0.75 * width, -0.95 * depth, 1.1 * width)),
                       centre + Vector((0, 0, 1.0)), lens=30.0)
    eye = o + Vector((ENTRANCE[0] * CELL, ENTRANCE[1] * CELL, ENTRANCE[2] * HEIGHT + 1.6))
    inside = _camera(scene, "Room Inside", eye, eye + Vector((1.0, 1.0, -0.05)), lens=18.0)
    images = []
    if render_images:
        for camera, name in ((overview, "room_overview.png"), (inside, "room_inside.png")):
            timings[f"render {name}"] = _render(scene, camera, out / name, samples)
            images.append(out / name)
        # The ground floor: the same view with the upper storey left out of the render.
        upper = [obj for obj in room.objects if obj["strew_cell"][2] >= 1 and not obj.hide_render]
        for obj in upper:
            obj.hide_render = True
        try:
            timings["render room_ground_floor.png"] = _render(scene, overview, out / "room_ground_floor.png", samples)
        finally:
            for obj in upper:
                obj.hide_render = False
        images.append(out / "room_ground_floor.png")
    return {"timings": timings, "counts": counts, "images": images}
