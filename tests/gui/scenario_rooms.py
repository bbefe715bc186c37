"""GUI steps for editing an assembled room: Pick Box on the room in the viewport, then Regenerate Box; an
entrance picked with Pick Cell and a region picked with Pick Box, then Assemble Room again.

Runs after the room steps (a 30×30×3 room from the demo kit). Where a cell is on the screen is asked from
Blender (``location_3d_to_region_2d``), as a user's eye finds it; the clicks themselves are the mouse's.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import scenario_look
from window import StepFailed

if TYPE_CHECKING:
    from session import Session

CELL_ON_SCREEN = """
from bpy_extras.view3d_utils import location_3d_to_region_2d
room = bpy.data.collections[bpy.context.scene.strew.room.room_name]
origin, size = room['strew_origin'], room['strew_cell_size']
area = next(a for a in bpy.context.window.screen.areas if a.type == 'VIEW_3D')
region = next(r for r in area.regions if r.type == 'WINDOW')
point = [origin[k] + size[k] * c for k, c in enumerate(({x}, {y}, 0.02))]
xy = location_3d_to_region_2d(region, area.spaces.active.region_3d, point)
window = bpy.context.window
result = None if xy is None else [window.x + region.x + int(xy.x), window.y + window.height - region.y - int(xy.y)]
"""

BOX = "room = bpy.context.scene.strew.room; result = [list(room.box_min), list(room.box_max)]"


def cell_on_screen(session: Session, x: int, y: int) -> tuple[int, int]:
    """Screen pixel of the floor centre of cell (x, y, 0)."""
    spot = session.window.run(CELL_ON_SCREEN.format(x=x, y=y))
    if not spot:
        raise StepFailed(f"cell ({x}, {y}, 0) is not in the viewport")
    return int(spot[0]), int(spot[1])  # type: ignore[index]


def pick_box_steps(session: Session) -> None:
    """In the top view, pick a box from the cell column (12, 12) to (15, 14) with two clicks, then
    Regenerate Box."""
    w = session.window
    view = session.viewport()
    w.move(view["x"] + view["width"] // 2, view["y"] + view["height"] // 2)
    w.key("KP_7", settle=1.0)  # top view: a click on a cell's spot hits that column's top tile
    w.key("Home", settle=1.5)
    top = w.run("area = next(a for a in bpy.context.window.screen.areas if a.type == 'VIEW_3D'); "
                "result = area.spaces.active.region_3d.view_perspective")
    if top != "ORTHO":
        raise StepFailed(f"Numpad 7 did not give the top view ({top})")
    scenario_look.open_sub_panel(session, "Regenerate Box", scenario_look.ROOM_SUB_PANELS,
                                 "bpy.ops.strew.detect_sockets(", hint=330)
    session.press("bpy.ops.strew.pick_room_box(", column=0.5, hint=380, settle=1.0)
    if "STREW_OT_pick_room_box" not in w.state()["modal"]:
        raise StepFailed("Pick Box did not start")
    first, last = cell_on_screen(session, 12, 12), cell_on_screen(session, 15, 14)
    w.click(*first, settle=0.8)
    w.move(*last)
    time.sleep(1.0)
    picture = session.picture("ui_pick_box", session.viewport())
    w.click(*last, settle=1.0)
    box = w.run(BOX)
    before = session.window.state()
    session.scroll_sidebar()
    session.press("bpy.ops.strew.regenerate_room_box(", column=0.5, hint=600, settle=0.5)
    session.wait_idle(300)
    session.record("box_regenerated", box=box, before_objects=len(before["objects"]), pictures=[picture],
                   reports=session.reports("regenerated"))


TILE_NAMES = """
room = bpy.data.collections[bpy.context.scene.strew.room.room_name]
names = set()
for obj in room.objects:
    if 'strew_tiles' in obj and obj.type == 'MESH':
        tiles = list(obj['strew_tiles'])
        index = [0] * len(obj.data.vertices)
        obj.data.attributes['strew_tile'].data.foreach_get('value', index)
        names |= {tiles[i] for i in index}
result = sorted(names)
"""


PLACED = """
room = bpy.data.collections[bpy.context.scene.strew.room.room_name]
kit = {o.name: o for o in bpy.context.scene.strew.room.kit.all_objects}
cells = {}
for obj in room.objects:
    if 'strew_tiles' in obj and obj.type == 'MESH':
        tiles = list(obj['strew_tiles'])
        count = len(obj.data.vertices)
        index, where = [0] * count, [0.0] * (3 * count)
        obj.data.attributes['strew_tile'].data.foreach_get('value', index)
        obj.data.attributes['strew_cell'].data.foreach_get('vector', where)
        for k in range(count):
            cells[tuple(int(round(c)) for c in where[3 * k: 3 * k + 3])] = tiles[index[k]]
def walkable(name):
    tile = kit.get(name)
    return tile is not None and bool(tile.get('strew_walkable', tile.strew.walkable))
settings = bpy.context.scene.strew.room
entrances = [tuple(e.cell) for e in settings.entrances]
regions = [dict(low=list(r.box_min), high=list(r.box_max), tiles=r.tiles, only=r.only) for r in settings.regions]
result = dict(entrances=entrances, regions=regions,
              at_entrances=[[cells.get(c), walkable(cells.get(c))] for c in entrances],
              cells=[[list(c), name, walkable(name)] for c, name in cells.items()])
"""
NO_STAIRS = "stair=0, stair_top=0, spiral=0, spiral_top=0"


def level_steps(session: Session) -> None:
    """Entrances: Pick Cell on cell (4, 4) in the top view; Regions: +, Pick Box from (16, 16) to (22, 20),
    no stairs typed into its tiles; Assemble Room; the panels pictured."""
    w = session.window
    scenario_look.open_sub_panel(session, "Entrances", scenario_look.ROOM_SUB_PANELS,
                                 "bpy.ops.strew.detect_sockets(", hint=330)
    session.scroll_sidebar()
    session.press("bpy.ops.strew.pick_room_cell(", column=0.5, hint=600, settle=1.0)
    if "STREW_OT_pick_room_cell" not in w.state()["modal"]:
        raise StepFailed("Pick Cell did not start")
    w.click(*cell_on_screen(session, 4, 4), settle=1.0)
    session.rest_mouse()
    entrances = [session.picture("ui_entrances", session.sidebar())]
    scenario_look.open_sub_panel(session, "Regions", scenario_look.ROOM_SUB_PANELS,
                                 "bpy.ops.strew.detect_sockets(", hint=330)
    session.press("bpy.ops.strew.region_add(", column=0.83, hint=400, settle=1.0)
    session.scroll_sidebar()
    session.press("bpy.ops.strew.pick_room_box(", column=0.5, hint=520, settle=1.0)
    if "STREW_OT_pick_room_box" not in w.state()["modal"]:
        raise StepFailed("Pick Box (region) did not start")
    w.click(*cell_on_screen(session, 16, 16), settle=0.8)
    w.click(*cell_on_screen(session, 22, 20), settle=1.0)
    session.edit("strew.room.regions[0].tiles", [NO_STAIRS], hint=560, downward=True)
    assemble(session)
    session.rest_mouse()
    session.record("levelled", placed=w.run(PLACED), reports=session.reports("tiles placed"),
                   entrance_reports=session.reports("Entrance"), region_reports=session.reports("Region"),
                   pictures=[*entrances, session.picture("ui_regions", session.sidebar())])


def assemble(session: Session, hint: int = 450) -> None:
    """Click Assemble Room and wait until it is done."""
    session.press("bpy.ops.strew.assemble_room(", column=0.4, hint=hint, settle=0.05)
    session.window.wait_for(lambda: not any(n.startswith("STREW_OT") for n in session.window.state()["modal"]),
                            300, "Assemble Room to finish", every=0.5)


def kit_steps(session: Session) -> None:
    """Counts "spiral=0" typed into Constraints, Assemble; then Detect Sockets on the demo kit and Assemble the
    same 30 × 30 × 3 room again, every walkable cell connected."""
    scenario_look.open_sub_panel(session, "Constraints", scenario_look.ROOM_SUB_PANELS,
                                 "bpy.ops.strew.detect_sockets(", hint=330)
    session.edit("strew.room.counts", ["spiral=0"], hint=520, downward=True)
    assemble(session)
    session.record("counted", tiles_used=session.window.run(TILE_NAMES), reports=session.reports("tiles placed"))
    session.press("bpy.ops.strew.detect_sockets(", column=0.5, hint=330, settle=2.0)
    assemble(session)
    session.record("detected", tiles_used=session.window.run(TILE_NAMES),
                   sockets=session.reports("socket"), reports=session.reports("tiles placed"))
