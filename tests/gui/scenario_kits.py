"""GUI steps with kits a user brings: a flat street kit, a hand-made garden kit with a mirrored tile, a courtyard
kit with a big tile, and an mxgmn XML tileset imported through the panel's import button and Blender's file
browser.

Runs with the Scatter panel folded, so Tile Rooms sits under it; every Strew action is a click or a key. The
room is read back inside Blender (the instancer's point attributes, the documented way) and each neighbour
pair is checked against the tiles' own ``strew_sockets``, turned and mirrored as docs/rooms.md says.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import scenario_look
import scenario_rooms
from window import StepFailed

if TYPE_CHECKING:
    from session import Session

READ_ROOM = """
settings = bpy.context.scene.strew.room
room = bpy.data.collections[settings.room_name]
points = next(o for o in room.objects if 'strew_tiles' in o and o.type == 'MESH')
names = list(points['strew_tiles'])
attributes = points.data.attributes
cells = [tuple(round(c) for c in d.vector) for d in attributes['strew_cell'].data]
sizes = [tuple(round(c) for c in d.vector) for d in attributes['strew_footprint'].data] \
    if 'strew_footprint' in attributes else [(1, 1, 1)] * len(cells)
covered = [(x + i, y + j, z + k) for (x, y, z), (a, b, c) in zip(cells, sizes)
           for i in range(a) for j in range(b) for k in range(c)]
big = sorted({(names[d.value], sizes[n]) for n, d in enumerate(attributes['strew_tile'].data) if sizes[n] != (1, 1, 1)})
tiles = [names[d.value] for d in attributes['strew_tile'].data]
turns = [d.value // 90 for d in attributes['strew_rotation'].data]
mirrored = [bool(d.value) for d in attributes['strew_mirror'].data]
ccw = {'e': 'n', 'n': 'w', 'w': 's', 's': 'e'}
placed = {}
for cell, tile, turn, mirror in zip(cells, tiles, turns, mirrored):
    obj = settings.kit.objects.get(tile)  # an mxgmn kit names its tiles by the tileset's names instead
    own = obj.get('strew_sockets') if obj else None
    sides = {}
    for side, label in (own.to_dict() if own else {}).items():
        if side in ccw:
            side = {'e': 'w', 'w': 'e'}.get(side, side) if mirror else side
            for _ in range(turn):
                side = ccw[side]
            sides[side] = label
    placed[cell] = sides
bad, checked = [], 0
for (x, y, z), sides in placed.items():
    for side, other, facing in (('e', (x + 1, y, z), 'w'), ('n', (x, y + 1, z), 's')):
        if other in placed and sides and placed[other]:
            checked += 1
            if sides[side] != placed[other][facing]:
                bad.append([[x, y, z], side, sides[side], placed[other][facing]])
result = {'kit': settings.kit.name, 'cells': len(cells), 'tiles': sorted(set(tiles)), 'mirrored': sum(mirrored),
          'covered': len(covered), 'covered_once': len(set(covered)), 'big': [[t, list(s)] for t, s in big],
          'checked': checked, 'bad': bad[:10], 'cell_size': list(room['strew_cell_size'])}
"""

FILE_BROWSER = "result = [a.type for a in bpy.context.window_manager.windows[0].screen.areas]"


def assemble_kit(session: Session, kit: str, size: list[str], record: str) -> None:
    """Pick ``kit`` in the Kit field, type the size, Assemble, and record the room read back."""
    session.pick("strew.room.kit", kit, hint=139, column=0.6,
                 check=f"result = getattr(bpy.context.scene.strew.room.kit, 'name', '') == {kit!r}")
    session.edit("strew.room.size", size, hint=190, downward=True)
    scenario_rooms.assemble(session, hint=450)
    frame_all(session)
    session.record(record, room=session.window.run(READ_ROOM), reports=session.reports("tiles placed"),
                   pictures=[session.picture(f"ui_kit_{kit.lower()}", session.viewport())])


def frame_all(session: Session) -> None:
    """View All (Home over the viewport), then park the mouse: the room and the terrain in the picture."""
    view = session.viewport()
    session.window.move(view["x"] + view["width"] // 2, view["y"] + view["height"] // 2)
    session.window.key("Home", settle=1.0)
    session.rest_mouse()
    time.sleep(0.5)


def import_mxgmn(session: Session) -> None:
    """The import button beside Kit, then Knots.xml typed into the file browser's file name field, Return."""
    w = session.window
    session.press("bpy.ops.strew.import_mxgmn(", column=0.83, hint=139, settle=2.0)
    w.wait_for(lambda: "FILE_BROWSER" in (w.run(FILE_BROWSER) or []), 30, "the file browser to open")
    browser = w.area("FILE_BROWSER")
    picture = session.picture("ui_import_mxgmn", browser["rect"])
    name_field = browser["regions"]["EXECUTE"]
    w.click(name_field["x"] + int(0.3 * name_field["width"]), name_field["y"] + name_field["height"] // 2,
            settle=0.8)
    w.key("ctrl+a", settle=0.2)
    w.type("Knots.xml")
    w.key("Return", settle=1.0)
    if "FILE_BROWSER" in (w.run(FILE_BROWSER) or []):  # the first Return confirms the name, the second imports
        w.key("Return", settle=1.0)
    w.wait_for(lambda: "FILE_BROWSER" not in (w.run(FILE_BROWSER) or []), 30, "the file browser to close")
    kit = w.run("kit = bpy.context.scene.strew.room.kit; "
                "result = kit and [kit.name, sorted(o.get('strew_mxgmn_tile', '') for o in kit.objects)]")
    time.sleep(0.5)
    session.record("mxgmn_imported", kit=kit, pictures=[picture, session.picture("ui_import_report",
                                                                                 session.status_bar())])


def user_kit_steps(session: Session) -> None:
    """Streets (flat), Garden (own labels, a mirrored tile), then Knots.xml imported and assembled."""
    session.click_header(80)  # fold the Scatter panel: Tile Rooms moves up under it
    scenario_look.open_sub_panel(session, "Constraints", scenario_look.ROOM_SUB_PANELS,
                                 "bpy.ops.strew.detect_sockets(", hint=330)
    closed = session.window.run("result = bpy.context.scene.strew.room.use_border")
    if closed:
        raise StepFailed("Closed Room is on before any kit was picked (its default is off)")
    session.edit("strew.room.origin", ["34", "0", "0"], hint=345)  # beside the terrain
    assemble_kit(session, "Streets", ["12", "10", "1"], "streets")
    assemble_kit(session, "Courtyard", ["10", "10", "1"], "courtyard")
    assemble_kit(session, "Garden", ["12", "12", "1"], "garden")  # its size is the mxgmn room's too
    import_mxgmn(session)
    scenario_rooms.assemble(session, hint=450)
    frame_all(session)
    session.record("mxgmn_assembled", room=session.window.run(READ_ROOM), reports=session.reports("tiles placed"),
                   pictures=[session.picture("ui_kit_knots", session.viewport())])
    session.edit("strew.room.origin", ["0", "0", "0"], hint=345)
    scenario_look.open_sub_panel(session, "Active Tile", scenario_look.ROOM_SUB_PANELS,
                                 "bpy.ops.strew.detect_sockets(", hint=330)
    session.click_header(80)  # unfold Scatter again, as the next part expects
