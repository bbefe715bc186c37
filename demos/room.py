"""The Tile Rooms part of ``make demo``: build the 53-tile kit, assemble a two-storey room, render it.

Called by :func:`strew.demos.build.build_demo` after the scatter part (the room stands at x = +200, away from
the terrain)::

    built = room.build_room_demo(scene, out, render_images=render_images, samples=samples)
    timings.update(built["timings"])

It returns ``{"timings": {step: seconds}, "counts": {...}, "images": [paths]}``; the images are
``room_overview.png`` (upper storey from above, no roof), ``room_ground_floor.png`` (same view, upper storey
hidden) and ``room_inside.png`` (eye height on the upper floor). The cameras are "Room Overview" and
"Room Inside"; ``scene.camera`` is left as it was.
"""

from __future__ import annotations

import time
from pathlib import Path

import bpy
from mathutils import Vector

from ..core.modes import RoomOutput
from ..scene.room_output import room_collection
from .kit import CELL, HEIGHT, build_demo_kit
from .render import camera, render, setup_render

ROOM_ORIGIN = (200.0, 0.0, 0.0)
ROOM_SIZE = (12, 12, 2)
ROOM_SEED = 3
ENTRANCE = (1, 1, 1)  # a plain floor on the upper storey (open to the sky): the interior camera stands here
CLIP = (0.05, 1000.0)


def build_room_demo(scene: bpy.types.Scene, out: Path, render_images: bool = True, samples: int = 16,
                    seed: int = ROOM_SEED, size=ROOM_SIZE, origin=ROOM_ORIGIN) -> dict:
    """Build the demo kit, assemble a two-storey room at ``origin`` and (optionally) render two views.

    Needs the extension registered (:func:`strew.ensure_registered`). Raises ``RuntimeError`` when the room
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
                                         output=RoomOutput.OBJECTS)  # real objects: the ground-floor view hides some
    timings["room: assemble"] = time.perf_counter() - started
    if result != {'FINISHED'}:
        raise RuntimeError("the demo room could not be assembled")
    room = room_collection(scene, scene.strew.room.room_name)
    assert room is not None
    tiles = {obj["strew_tile"] for obj in room.objects}
    counts = {"kit tiles": len(kit.objects), "room cells": len(room.objects), "distinct tiles used": len(tiles),
              "stairs": sum(obj["strew_tile"] in ("stair", "spiral") for obj in room.objects)}

    setup_render(scene, samples)
    o = Vector(origin)
    width, depth = size[0] * CELL, size[1] * CELL
    centre = o + Vector((width / 2 - CELL / 2, depth / 2 - CELL / 2, 0.0))
    overview = camera(scene, "Room Overview", centre + Vector((-0.75 * width, -0.95 * depth, 1.1 * width)),
                      centre + Vector((0, 0, 1.0)), lens=30.0, clip=CLIP)
    eye = o + Vector((ENTRANCE[0] * CELL, ENTRANCE[1] * CELL, ENTRANCE[2] * HEIGHT + 1.6))
    inside = camera(scene, "Room Inside", eye, eye + Vector((1.0, 1.0, -0.05)), lens=18.0, clip=CLIP)
    images = []
    if render_images:
        for view, name in ((overview, "room_overview.png"), (inside, "room_inside.png")):
            timings[f"render {name}"] = render(scene, view, out / name)
            images.append(out / name)
        # The ground floor: the same view with the upper storey left out of the render.
        upper = [obj for obj in room.objects if obj["strew_cell"][2] >= 1 and not obj.hide_render]
        for obj in upper:
            obj.hide_render = True
        try:
            timings["render room_ground_floor.png"] = render(scene, overview, out / "room_ground_floor.png")
        finally:
            for obj in upper:
                obj.hide_render = False
        images.append(out / "room_ground_floor.png")
    return {"timings": timings, "counts": counts, "images": images}
