"""Runs inside a windowed Blender (``blender --python driver.py``): answers the GUI session's requests.

The session (``session.py``, outside Blender) writes ``request.json`` into the exchange folder named by
``STREW_GUI_DIR``; a ``bpy.app.timers`` poll reads it in Blender's main thread, runs it and writes
``response.json``. Requests only read the scene (``state``) or prepare what a user would already have in
their file (``exec`` of a setup snippet); every Strew action in a session is done with the mouse and keyboard.
"""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path

import bpy

EXCHANGE = Path(os.environ.get("STREW_GUI_DIR", "/tmp/strew-gui"))
REQUEST = EXCHANGE / "request.json"
RESPONSE = EXCHANGE / "response.json"


def _screen_rect(window: bpy.types.Window, x: int, y: int, width: int, height: int) -> dict[str, int]:
    """A rectangle in screen pixels (origin top left, as xdotool counts) from Blender's bottom-left one."""
    return {"x": window.x + x, "y": window.y + window.height - (y + height), "width": width, "height": height}


def _areas(window: bpy.types.Window) -> list[dict[str, object]]:
    areas = []
    for area in window.screen.areas:
        regions = {region.type: _screen_rect(window, region.x, region.y, region.width, region.height)
                   for region in area.regions if region.width > 1 and region.height > 1}
        areas.append({"type": area.type, "rect": _screen_rect(window, area.x, area.y, area.width, area.height),
                      "regions": regions})
    return areas


def _owned_counts(collection_name: str) -> dict[str, int]:
    collection = bpy.data.collections.get(collection_name)
    if collection is None:
        return {}
    counts = {}
    for obj in collection.all_objects:
        counts[obj.name] = len(obj.data.vertices) if obj.type == 'MESH' else 1
    return counts


def state() -> dict[str, object]:
    """What a session asserts on: the scene, Strew's settings and where the window's areas are."""
    window = bpy.context.window_manager.windows[0]
    scene = window.scene
    settings = getattr(scene, "strew", None)
    prefs = bpy.context.preferences
    result: dict[str, object] = {
        "window": {"x": window.x, "y": window.y, "width": window.width, "height": window.height},
        "areas": _areas(window),
        "objects": sorted(obj.name for obj in scene.objects),
        "clipboard": bpy.context.window_manager.clipboard,
        "language": prefs.view.language,
        "translate_interface": prefs.view.use_translate_interface,
        "ui_scale": prefs.view.ui_scale,
        "strew_enabled": settings is not None,
        "modal": [op.bl_idname for op in getattr(window, "modal_operators", [])],
        # Only the 3D views' sidebars: reading it on the file browser's UI region crashes Blender 4.3.
        "categories": {area.type: [region.active_panel_category for region in area.regions
                                   if region.type == 'UI' and hasattr(region, "active_panel_category")]
                       for area in window.screen.areas if area.type == 'VIEW_3D'},
    }
    if settings is not None:
        result["terrain"] = settings.terrain.name if settings.terrain else None
        result["layers"] = [{"name": layer.name, "enabled": layer.enabled,
                             "collection": layer.collection.name if layer.collection else None,
                             "min_radius": layer.min_radius, "max_radius": layer.max_radius}
                            for layer in settings.layers]
        result["active_layer_index"] = settings.active_layer_index
        result["show_preview"] = settings.show_preview
        result["scatter_output"] = _owned_counts("Strew Output")
        room = settings.room
        result["room"] = {"kit": room.kit.name if room.kit else None, "name": room.room_name,
                          "size": list(room.size), "tiles": len(_owned_counts(room.room_name)),
                          "connected": room.connected}
    return result


def _run(request: dict[str, object]) -> dict[str, object]:
    kind = request.get("kind")
    if kind == "state":
        return {"ok": True, "state": state()}
    if kind == "exec":
        namespace: dict[str, object] = {"bpy": bpy, "result": None}
        exec(compile(str(request["code"]), "<gui-session>", "exec"), namespace)
        return {"ok": True, "result": namespace["result"]}
    if kind == "quit":
        bpy.ops.wm.quit_blender()
        return {"ok": True}
    return {"ok": False, "error": f"unknown request kind {kind!r}"}


def _poll() -> float:
    ready = EXCHANGE / "ready"
    if not ready.exists():  # the first tick: the window is up and the event loop runs
        ready.write_text("1")
    if REQUEST.is_file():
        try:
            request = json.loads(REQUEST.read_text())
            REQUEST.unlink()
        except (OSError, ValueError):
            return 0.05  # half written: read it on the next tick
        try:
            response = _run(request)
        except Exception:  # the session prints it and fails the step
            response = {"ok": False, "error": traceback.format_exc()}
        response["id"] = request.get("id")
        partial = RESPONSE.with_suffix(".part")
        partial.write_text(json.dumps(response))
        partial.replace(RESPONSE)
    return 0.05


EXCHANGE.mkdir(parents=True, exist_ok=True)
# Every session starts in English and leaves the user's saved preferences as they were.
bpy.context.preferences.use_preferences_save = False
bpy.context.preferences.view.language = 'en_US'
# Preferences › Interface › Editors › File Browser: Maximized Area (a virtual screen without a window manager
# cannot place a second window).
bpy.context.preferences.view.filebrowser_display_type = 'SCREEN'
bpy.app.timers.register(_poll, first_interval=1.0, persistent=True)
