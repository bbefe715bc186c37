"""Keeps the "Strew View" empty of the proxies (:mod:`.proxies`) at the eye of the 3D view the user moves.

A draw handler of the 3D views only notes where each view's eye is (cheap: every redraw); a timer moves the empty
there a few times a second at most, and only when it moved by more than a small share of the nearest Proxy
Beyond distance, since each move evaluates the layers' instancers again. Without a 3D view (``blender -b``, a
script) nothing draws: the empty stays where :func:`.proxies.show_proxies` put it, at the scene camera.
"""

from __future__ import annotations

import bpy
from mathutils import Vector

from .proxies import place_view, view_object

INTERVAL = 0.2  # seconds between two looks at the noted eye
STEP_SHARE = 0.02  # the empty follows the eye once it is this share of the smallest proxy distance away
MIN_STEP = 0.01  # … and at least this far (metres)

_eye: list[Vector] = []  # the eye of the 3D view that moved last (one item, or none yet)
_eyes: dict[int, Vector] = {}  # each 3D view's eye when it last drew, by its region's address
_handle: list[object] = []


def _note_eye() -> None:
    """Note the eye of the 3D view being drawn. Only a view whose eye moved becomes the one followed: with two
    3D views open the empty would otherwise jump between them at every redraw."""
    region = bpy.context.region_data
    if region is None:
        return
    eye = region.view_matrix.inverted().translation
    key = region.as_pointer()
    if _eyes.get(key) != eye:
        if len(_eyes) > 64:  # views closed long ago
            _eyes.clear()
        _eyes[key] = eye
        _eye[:] = [eye]


def step(scene: bpy.types.Scene) -> float | None:
    """How far the eye may move before the empty follows: a share of the smallest distance of the scene's layers
    with proxies (None: no layer has them)."""
    distances = [layer.proxy_distance for layer in scene.strew.layers if layer.proxy_beyond]
    return max(MIN_STEP, STEP_SHARE * min(distances)) if distances else None


def follow(scene: bpy.types.Scene, eye: Vector | None) -> bool:
    """Move the view empty (when there is one) to ``eye`` if it is a step away; whether it moved."""
    least = step(scene)
    if least is None or eye is None:
        return False
    view = view_object(create=False)
    if view is None or (view.location - eye).length < least:
        return False
    return place_view(view, eye)


def _tick() -> float:
    scene = getattr(bpy.context, "scene", None)
    if scene is not None and _eye and hasattr(scene, "strew"):
        follow(scene, _eye[0])  # cheap when nothing moved: the layers' settings and one lookup by name
    return INTERVAL


def register() -> None:
    if not _handle:
        _handle.append(bpy.types.SpaceView3D.draw_handler_add(_note_eye, (), 'WINDOW', 'POST_VIEW'))
    if not bpy.app.timers.is_registered(_tick):
        bpy.app.timers.register(_tick, first_interval=INTERVAL, persistent=True)


def unregister() -> None:
    if bpy.app.timers.is_registered(_tick):
        bpy.app.timers.unregister(_tick)
    while _handle:
        bpy.types.SpaceView3D.draw_handler_remove(_handle.pop(), 'WINDOW')
    _eye.clear()
    _eyes.clear()
