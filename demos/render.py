"""Cameras, light and Cycles rendering shared by the demo scenes."""

from __future__ import annotations

import math
import time
from pathlib import Path

import bpy
from mathutils import Vector


def camera(scene: bpy.types.Scene, name: str, location, target, lens: float | None = None,
           ortho: float | None = None, clip: tuple[float, float] | None = None) -> bpy.types.Object:
    """A camera at ``location`` looking at ``target`` (orthographic with side ``ortho`` when given)."""
    obj = bpy.data.objects.new(name, bpy.data.cameras.new(name))
    scene.collection.objects.link(obj)
    obj.location = location
    obj.rotation_euler = (Vector(target) - Vector(location)).to_track_quat('-Z', 'Y').to_euler()
    if lens is not None:
        obj.data.lens = lens
    if ortho is not None:
        obj.data.type = 'ORTHO'
        obj.data.ortho_scale = ortho
    if clip is not None:
        obj.data.clip_start, obj.data.clip_end = clip
    return obj


def setup_render(scene: bpy.types.Scene, samples: int, world_name: str = "Sky") -> None:
    """Cycles on the CPU at 960 × 640, a pale sky and one sun (the sky and sun are added only when missing)."""
    scene.render.engine = 'CYCLES'
    scene.cycles.device = 'CPU'
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False
    scene.render.resolution_x, scene.render.resolution_y = 960, 640
    scene.render.image_settings.file_format = 'PNG'
    if scene.world is None:
        world = bpy.data.worlds.new(world_name)
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


def render(scene: bpy.types.Scene, view: bpy.types.Object, path: Path) -> float:
    """Render ``view`` to the PNG ``path``; returns the seconds it took (``scene.camera`` is left as it was)."""
    started = time.perf_counter()
    previous = scene.camera
    scene.camera = view
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    scene.camera = previous
    return time.perf_counter() - started
