"""Viewport preview: scatter points and half-radius circles (touching, never overlapping when correct).

Drawn with the ``gpu`` module from the layers' point outputs (each through its object's matrix); nothing is
drawn in background mode.
"""

from __future__ import annotations

import bpy
import numpy as np

from ..scene import layer_ids

MAX_CIRCLES = 20_000
SEGMENTS = 16

_handle = None
_cache: dict[tuple, object] = {}


def _circle_lines(points: np.ndarray, radii: np.ndarray) -> np.ndarray:
    angles = np.linspace(0.0, 2.0 * np.pi, SEGMENTS + 1)
    ring = np.stack([np.cos(angles), np.sin(angles), np.zeros_like(angles)], axis=1)
    starts = points[:, None, :] + 0.5 * radii[:, None, None] * ring[None, :-1, :]
    ends = points[:, None, :] + 0.5 * radii[:, None, None] * ring[None, 1:, :]
    return np.stack([starts, ends], axis=2).reshape(-1, 3).astype(np.float32)


def drawn(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The point outputs the preview draws: each layer's own (the user's copies are theirs)."""
    return [obj for obj in layer_ids.outputs(scene) if isinstance(obj, bpy.types.Object) and obj.type == 'MESH'
            and "strew_radius" in obj.data.attributes]


def world_points(obj: bpy.types.Object) -> tuple[np.ndarray, np.ndarray]:
    """A point output's positions in world space (float64, through the object's matrix) and spacing radii."""
    mesh = obj.data
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    matrix = np.array(obj.matrix_world, dtype=np.float64)
    radii = np.empty(len(mesh.vertices), dtype=np.float32)
    mesh.attributes["strew_radius"].data.foreach_get("value", radii)
    return co.reshape(-1, 3) @ matrix[:3, :3].T + matrix[:3, 3], radii.astype(np.float64)


def _batches(obj: bpy.types.Object):
    import gpu
    from gpu_extras.batch import batch_for_shader

    mesh = obj.data
    key = (obj.name, mesh.as_pointer(), len(mesh.vertices), tuple(np.array(obj.matrix_world).ravel()))
    if key in _cache:
        return _cache[key]
    points, radii = world_points(obj)
    shader = gpu.shader.from_builtin('UNIFORM_COLOR')
    dots = batch_for_shader(shader, 'POINTS', {"pos": points.astype(np.float32)})  # type: ignore[dict-item]
    shown = slice(0, min(len(points), MAX_CIRCLES))
    lines = _circle_lines(points[shown], radii[shown])
    circles = batch_for_shader(shader, 'LINES', {"pos": lines})  # type: ignore[dict-item]
    if len(_cache) > 32:
        _cache.clear()
    _cache[key] = (shader, dots, circles)
    return _cache[key]


def _draw() -> None:
    import gpu

    scene = bpy.context.scene
    settings = getattr(scene, "strew", None)
    if settings is None or not settings.show_preview:
        return
    gpu.state.blend_set('ALPHA')
    gpu.state.point_size_set(4.0)
    for obj in drawn(scene):
        shader, dots, circles = _batches(obj)
        shader.uniform_float("color", (1.0, 1.0, 1.0, 0.9))
        dots.draw(shader)
        shader.uniform_float("color", (1.0, 1.0, 1.0, 0.25))
        circles.draw(shader)
    gpu.state.blend_set('NONE')


def register() -> None:
    global _handle
    if bpy.app.background or _handle is not None:
        return
    _handle = bpy.types.SpaceView3D.draw_handler_add(_draw, (), 'WINDOW', 'POST_VIEW')


def unregister() -> None:
    global _handle
    if _handle is not None:
        bpy.types.SpaceView3D.draw_handler_remove(_handle, 'WINDOW')
        _handle = None
    _cache.clear()
