"""GUI steps for the layer's look and reach: camera culling, the Paint brush, every face, targets, live update.

Each function takes the running :class:`session.Session` after the scatter steps (a "Trees" layer on the
terrain) and records its steps with screenshots. Sub-panels are opened and closed by clicking their headers:
with the ones above closed, a header sits 26 px under the one before, the first 32 px under the row above.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from window import StepFailed

if TYPE_CHECKING:
    from session import Session

# The layer sub-panels in the order they are drawn under Scatter.
ROOM_SUB_PANELS = ("Constraints", "Entrances", "Paths", "Regions", "Search", "Regenerate Box", "Active Tile")
SUB_PANELS = ("Objects", "Spacing", "Density", "Masks", "Placement", "Along Curves", "Paint Brush",
              "Keep Away per Layer", "Variety", "Proximity", "Camera", "Viewport Display", "Large Worlds")
HEADER_GAP, FIRST_HEADER = 26, 32
OPEN = {SUB_PANELS: {"Objects", "Spacing"}, ROOM_SUB_PANELS: {"Active Tile"}}
"""The sub-panels open now: their defaults at the start of a session, then what the steps click."""

COUNT_IN_VIEW = """
import numpy as np
from bpy_extras.object_utils import world_to_camera_view
scene = bpy.context.scene
obj = next(o for o in bpy.data.collections['Strew Output'].all_objects if o.name == {name!r})
mesh = obj.data
world = [obj.matrix_world @ v.co for v in mesh.vertices]
eye = scene.camera.matrix_world.translation
inside = near = 0
far = 0.0
for co in world:
    p = world_to_camera_view(scene, scene.camera, co)
    seen = 0 <= p.x <= 1 and 0 <= p.y <= 1 and p.z > 0
    distance = (co - eye).length
    inside += seen
    near += seen and distance <= 25.0
    far = max(far, distance)
painted = 0
if 'strew_painted' in mesh.attributes:
    flags = np.zeros(len(mesh.vertices), dtype=np.int32)
    mesh.attributes['strew_painted'].data.foreach_get('value', flags)
    painted = int(flags.sum())
zs = [co.z for co in world]
result = {{'count': len(world), 'in_view': int(inside), 'in_view_near': int(near), 'farthest': far,
           'painted': painted,
           'z_min': min(zs) if zs else None, 'z_max': max(zs) if zs else None}}
"""


def layer_points(session: Session, name: str) -> dict:
    """Count, count in the scene camera's view (and within 25 m of it), the farthest distance from the camera,
    the painted count and the height range of a layer's output."""
    return dict(session.window.run(COUNT_IN_VIEW.format(name=f"Strew {name}")))  # type: ignore[arg-type]


def open_sub_panel(session: Session, title: str, titles: tuple[str, ...] = SUB_PANELS,
                   anchor: str = "strew.live_update", hint: int = 280) -> None:
    """Leave ``title`` the only open sub-panel of those (``titles``) whose first header follows ``anchor``.

    The open ones are closed from the top down (each header then sits where a closed list puts it), then
    ``title``'s header is clicked (if it was open with others below it, it is closed on the way and opened
    again). Which are open is tracked from the panels' defaults and these clicks.
    """
    w = session.window
    is_open = OPEN[titles]
    sidebar = session.sidebar()
    w.move(sidebar["x"] + sidebar["width"] // 2, sidebar["y"] + sidebar["height"] // 2)
    w.key("Home", settle=0.8)
    _, row = session.button(anchor, column=0.7 if anchor.startswith("strew.") else 0.5, hint=hint)
    x = sidebar["x"] + int(0.4 * sidebar["width"])
    first = row + FIRST_HEADER
    if w.under_mouse(x, first):  # a button, not a header: the layout is not what it should be
        raise StepFailed(f"no sub-panel header under {anchor!r} at y={first}")
    for k, name in enumerate(titles):
        # ``title`` stays open only when no open one follows it (else the headers below are not where a
        # closed list puts them).
        if name in is_open and (name != title or is_open & set(titles[k + 1:])):
            w.click(x, first + HEADER_GAP * k, settle=1.2)
            is_open.discard(name)
    if title not in is_open:
        w.click(x, first + HEADER_GAP * titles.index(title), settle=2.0)
        is_open.add(title)
    session.places.clear()  # the layout moved


def step_enum(session: Session, what: str, value: str, hint: int) -> int:
    """Set the enum setting ``what`` (a data path under ``bpy.context.scene``) to ``value`` with Ctrl+Wheel over
    it, as a person steps through its items; returns the row it stands on."""
    w = session.window
    x, y = session.button(what, column=0.7, hint=hint)
    for wheel in (5, 4):
        w.move(x, y)
        w.xdotool("keydown", "ctrl")
        w.xdotool("click", wheel)
        w.xdotool("keyup", "ctrl")
        time.sleep(1.0)
        if w.run(f"result = bpy.context.scene.{what}") == value:
            return y
    raise StepFailed(f"{what} did not change to {value}")


def camera_steps(session: Session) -> None:
    """Cull the layer to the scene camera with a clip distance, Scatter, and compare with the full layer."""
    full = layer_points(session, "Trees")
    open_sub_panel(session, "Camera")
    session.press("strew.layers[0].camera_cull", column=0.6, hint=330, settle=1.0)
    session.edit("strew.layers[0].camera_max_distance", ["30"], hint=380, downward=True)
    session.rest_mouse()
    picture = session.picture("ui_camera", session.sidebar())
    session.press("bpy.ops.strew.scatter()", column=0.22, hint=258, settle=0.05)
    session.wait_idle(300, lambda state: bool(state["scatter_output"]))
    culled = layer_points(session, "Trees")
    session.record("camera_culled", full=full, culled=culled, pictures=[picture, session.picture(
        "ui_camera_view", session.viewport())])


def brush_steps(session: Session) -> None:
    """Paint a stroke outside the camera's view, erase part of it with Ctrl, finish with Enter; re-Scatter."""
    w = session.window
    open_sub_panel(session, "Paint Brush")
    session.press("bpy.ops.strew.paint(", column=0.5, hint=330, settle=1.0)
    if not any(name == "STREW_OT_paint" for name in w.state()["modal"]):
        raise StepFailed("the Paint brush did not start")
    view = session.viewport()
    # The terrain's near-left part, away from the camera (which looks from +x, -y at the origin).
    start = (view["x"] + int(0.30 * view["width"]), view["y"] + int(0.62 * view["height"]))
    w.move(*start)
    time.sleep(0.8)
    hover = session.picture("ui_brush", view)
    w.xdotool("mousedown", 1)
    for k in range(1, 13):
        w.xdotool("mousemove", start[0] + 14 * k, start[1] - 4 * k)
        time.sleep(0.25)
    w.xdotool("mouseup", 1)
    time.sleep(1.0)
    painted = layer_points(session, "Trees")
    # Ctrl+drag over the stroke's first half erases there.
    w.move(*start)
    w.xdotool("keydown", "ctrl")
    w.xdotool("mousedown", 1)
    for k in range(1, 5):
        w.xdotool("mousemove", start[0] + 14 * k, start[1] - 4 * k)
        time.sleep(0.25)
    w.xdotool("mouseup", 1)
    w.xdotool("keyup", "ctrl")
    time.sleep(1.0)
    w.key("Return", settle=1.0)
    erased = layer_points(session, "Trees")
    session.record("painted", painted=painted, erased=erased, pictures=[hover],
                   reports=session.reports("Painting changed"))
    session.press("bpy.ops.strew.scatter()", column=0.22, hint=258, settle=0.05)
    session.wait_idle(300, lambda state: bool(state["scatter_output"]))
    session.record("painted_kept", shot=False, after=layer_points(session, "Trees"))


FOOTPRINT_GAPS = """
import numpy as np
depsgraph = bpy.context.evaluated_depsgraph_get()
xy, radii = [], []
for inst in depsgraph.object_instances:
    if inst.is_instance and inst.parent is not None and inst.parent.original.name == 'Strew Trees':
        matrix = np.array(inst.matrix_world)
        corners = np.array(inst.object.bound_box) @ matrix[:3, :3].T
        xy.append(matrix[:2, 3])
        radii.append(float(np.sqrt((corners[:, :2] ** 2).sum(axis=1)).max()))
xy, radii = np.array(xy), np.array(radii)
gaps = [float('inf')]
for i in range(len(xy)):
    d = np.hypot(*(xy[i + 1:] - xy[i]).T) - radii[i + 1:] - radii[i]
    if d.size:
        gaps.append(float(d.min()))
layer = bpy.context.scene.strew.layers[0]
result = {'count': len(xy), 'closest_gap': min(gaps), 'gap': layer.min_radius, 'spacing': layer.spacing}
"""
"""Every drawn Trees instance's footprint (its prefab's bounding box under the instance's matrix, seen from above)
and the closest distance between two footprints' edges, every pair."""


def spacing_steps(session: Session) -> None:
    """Spacing: Object Size from the panel's menu (Ctrl+Wheel), Scatter, then Rescatter Circle around the cursor."""
    w = session.window
    open_sub_panel(session, "Spacing")
    step_enum(session, "strew.layers[0].spacing", "OBJECTS", hint=330)
    session.rest_mouse()
    picture = session.picture("ui_spacing", session.sidebar())
    session.press("bpy.ops.strew.scatter()", column=0.22, hint=258, settle=0.05)
    session.wait_idle(300, lambda state: bool(state["scatter_output"]))
    session.record("spacing_objects", footprints=w.run(FOOTPRINT_GAPS), pictures=[picture],
                   reports=session.reports("Trees"))
    open_sub_panel(session, "Paint Brush")
    w.run("bpy.context.scene.cursor.location = (0.0, 0.0, 0.0)")
    before = layer_points(session, "Trees")
    session.press("bpy.ops.strew.rescatter_region(shape='CIRCLE')", column=0.5, hint=380, settle=1.0)
    session.wait_idle(120)
    session.record("rescatter_circle", before=before, after=layer_points(session, "Trees"),
                   footprints=w.run(FOOTPRINT_GAPS), reports=session.reports("replaced"))


def anywhere_steps(session: Session) -> None:
    """A second layer on every face of a rock (Targets), then Live Update after the rock moves up."""
    w = session.window
    session.press("bpy.ops.strew.layer_add(", column=0.83, hint=132)
    w.run("bpy.context.scene.strew.layers[1].name = 'Moss'")
    open_sub_panel(session, "Objects")
    session.pick("strew.layers[1].collection", "Moss", hint=130,
                 check="result = bpy.context.scene.strew.layers[1].collection is not None")
    y = step_enum(session, "strew.layers[1].surface", "ALL", hint=60)
    session.pick("strew.layers[1].targets", "Rocks", hint=y - session.sidebar()["y"] + 20,
                 check="result = bpy.context.scene.strew.layers[1].targets is not None")
    session.rest_mouse()
    picture = session.picture("ui_surface", session.sidebar())
    session.press("bpy.ops.strew.scatter(", column=0.3, hint=283, settle=0.05)  # This Layer
    session.wait_idle(300, lambda state: "Strew Moss" in state["scatter_output"])
    before = layer_points(session, "Moss")
    session.record("every_face", moss=before, pictures=[picture])

    session.press("strew.live_update", column=0.7, hint=280, settle=0.8)
    w.run("bpy.ops.object.select_all(action='DESELECT'); rock = bpy.data.objects['Rock']; "
          "rock.select_set(True); bpy.context.view_layer.objects.active = rock")
    view = session.viewport()
    w.move(view["x"] + view["width"] // 2, view["y"] + view["height"] // 2)
    w.key("g", "z", settle=0.3)
    w.type("4")
    w.key("Return", settle=0.5)
    moved = float(w.run("result = bpy.data.objects['Rock'].location.z"))  # type: ignore[arg-type]
    deadline = time.monotonic() + 180
    after = before
    while time.monotonic() < deadline:
        time.sleep(1.0)
        after = layer_points(session, "Moss")
        if after["z_min"] is not None and after["z_min"] > before["z_min"] + 3.0:
            break
    session.record("live_update", moss=after, rock_z=moved)


BRUSH = """
window = bpy.context.window_manager.windows[0]
area = next(a for a in window.screen.areas if a.type == 'VIEW_3D')
region = next(r for r in area.regions if r.type == 'WINDOW')
with bpy.context.temp_override(window=window, area=area, region=region):
    bpy.ops.brush.asset_activate(asset_library_type='LOCAL', relative_asset_identifier='Brush/Weight')
brush = bpy.context.scene.tool_settings.weight_paint.brush
result = None if brush is None else brush.name
"""
"""Make the file's own weight brush the active one (this Blender package ships without Blender's brush assets)."""
MODE_MENU = (110, 40)  # the 3D View header's mode menu (Object Mode, Edit Mode, ..., Weight Paint, ...)
MODE_ITEM_Y = {"OBJECT": 65, "WEIGHT_PAINT": 157}


def switch_mode(session: Session, mode: str, tries: int = 3) -> None:
    """Pick ``mode`` for the active object from the 3D View header's mode menu; on a loaded machine the menu may
    open late, so a miss is closed with Escape and tried again with more time."""
    w = session.window
    found = None
    active = w.run("result = bpy.context.active_object.name")
    for attempt in range(1, tries + 1):
        if attempt > 1:  # a click that missed the menu landed in the viewport: select the object again
            w.run(f"obj = bpy.data.objects[{active!r}]\n"
                  "for other in bpy.context.view_layer.objects:\n    other.select_set(other == obj)\n"
                  "bpy.context.view_layer.objects.active = obj")
        w.click(*MODE_MENU, settle=1.2 * attempt)
        w.click(MODE_MENU[0], MODE_ITEM_Y[mode], settle=1.5 * attempt)
        found = w.run("result = bpy.context.active_object.mode")
        if found == mode:
            return
        w.key("Escape", settle=0.5)
    raise StepFailed(f"the mode menu left the terrain in {found}, not {mode} ({tries} tries)")


def weight_paint_steps(session: Session) -> None:
    """Live Update on, the Trees layer masked by the terrain's "Meadow" group (weight 0 everywhere: no trees but
    painted ones), then Weight Paint mode from the header and a stroke across the terrain: trees grow under it
    after the pause."""
    w = session.window
    w.run("bpy.context.scene.strew.active_layer_index = 0")
    if not w.run("result = bpy.context.scene.strew.live_update"):
        session.press("strew.live_update", column=0.7, hint=280, settle=0.8)
    open_sub_panel(session, "Masks")
    session.pick("strew.layers[0].mask_vertex_group", "Meadow", hint=200,
                 check="result = bpy.context.scene.strew.layers[0].mask_vertex_group == 'Meadow'")

    def unpainted() -> int:
        trees = layer_points(session, "Trees")
        return int(trees["count"]) - int(trees["painted"])

    w.wait_for(lambda: unpainted() == 0, 120, "the masked Trees layer to empty")
    before = unpainted()
    w.run("terrain = bpy.data.objects['Terrain']\n"
          "for obj in bpy.context.view_layer.objects:\n    obj.select_set(obj == terrain)\n"
          "bpy.context.view_layer.objects.active = terrain")  # as a click on it in the Outliner does
    switch_mode(session, "WEIGHT_PAINT")
    if w.run(BRUSH) != "Weight":
        raise StepFailed("no weight brush to paint with")
    view = session.viewport()
    start = (view["x"] + int(0.30 * view["width"]), view["y"] + int(0.58 * view["height"]))
    w.move(*start)
    w.xdotool("mousedown", 1)
    for k in range(1, 21):
        w.xdotool("mousemove", start[0] + int(0.018 * view["width"]) * k, start[1] - 3 * k)
        time.sleep(0.1)
    w.xdotool("mouseup", 1)
    after = w.wait_for(lambda: unpainted(), 120, "trees under the painted stroke")
    time.sleep(1.0)
    picture = session.picture("ui_weight_paint", view)
    switch_mode(session, "OBJECT")
    weights = w.run("g = bpy.data.objects['Terrain'].vertex_groups['Meadow']; "
                    "result = sum(1 for v in bpy.data.objects['Terrain'].data.vertices "
                    "for e in v.groups if e.group == g.index and e.weight > 0.5)")
    session.record("weight_paint", before=before, after=after, painted_vertices=weights, pictures=[picture])
