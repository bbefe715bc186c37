"""Tile Rooms in real Blender: the demo kit, a hand-made kit, read-back checks independent of the solver
(sockets of the placed, turned tiles; borders; walkable connectivity by BFS), Detect Sockets, bad input, undo."""

from __future__ import annotations

import importlib
import math
import threading
from pathlib import Path

import bpy
import numpy as np
import pytest
from conftest import ADDON_MODULE
from mathutils import Matrix
from rooms_check import (
    OPPOSITE,
    STEP,
    border_violations,
    check_positions,
    fits,
    placed_tiles,
    read_room,
    room_collection,
    source_tile,
    turn,
    violations,
    walkable_regions,
)
from scenes import scene_snapshot

DEMO_SIZE = (12, 12, 2)


def _module(name: str):
    return importlib.import_module(f"{ADDON_MODULE}.{name}")


def _pairs(text: str) -> set[frozenset]:
    out = set()
    for item in text.split(","):
        if item.strip():
            a, b = item.split("=")
            out.add(frozenset((a.strip(), b.strip())))
    return out


def _demo_kit() -> bpy.types.Collection:
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    return bpy.data.collections["Tiles"]


def _box(x0, x1, y0, y1, z0, z1) -> tuple[list, list]:
    v = [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
    f = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    return v, f


def _mesh_object(name: str, boxes: list[tuple], collection: bpy.types.Collection, turn_quarters: int = 0):
    vertices, faces = [], []
    a = turn_quarters * math.pi / 2
    for box in boxes:
        v, f = _box(*box)
        faces += [tuple(i + len(vertices) for i in face) for face in f]
        vertices += [(x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a), z) for x, y, z in v]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    return obj


def _hand_kit(name: str = "Roads") -> bpy.types.Collection:
    """Roads on grass, authored only with plain custom properties (the scripting contract)."""
    kit = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(kit)
    slab = (-1, 1, -1, 1, 0, 0.1)
    road = {"n": "road", "e": "grass", "s": "road", "w": "grass"}
    turn_ = {"n": "road", "e": "road", "s": "grass", "w": "grass"}
    cross = {"n": "road", "e": "road", "s": "road", "w": "road"}
    for tile, sockets, rotations, extra in (("straight", road, [0, 90], (-0.2, 0.2, -1, 1, 0.1, 0.2)),
                                            ("turn", turn_, [0, 90, 180, 270], (-0.2, 1, -0.2, 0.2, 0.1, 0.2)),
                                            ("cross", cross, [0], (-0.3, 0.3, -0.3, 0.3, 0.1, 0.3)),
                                            ("grass", {s: "grass" for s in "nesw"}, [0], (0.5, 0.7, 0.5, 0.7, 0, 1))):
        obj = _mesh_object(tile, [slab, extra], kit)
        obj.location = (len(kit.objects) * 3.0, 20.0, 0.0)
        obj["strew_sockets"] = sockets
        obj["strew_rotations"] = rotations
        obj["strew_walkable"] = tile != "grass"
        obj["strew_passable"] = [s for s, label in sockets.items() if label == "road"]
    kit.objects["grass"]["strew_weight"] = 3.0
    kit.objects["grass"].strew.socket_n = "bogus"  # the custom property wins, so this is never read
    kit["strew_cell_size"] = (2.0, 2.0, 1.0)
    return kit


def _check_room(kit: bpy.types.Collection, shape, origin, cell_size, pairs, border=None, periodic=False,
                bottom=None, top=None) -> dict:
    room = read_room()
    assert sorted(room) == sorted(np.ndindex(*shape))
    check_positions(room, origin, cell_size)
    tiles = placed_tiles(room, kit)
    assert violations(tiles, shape, pairs, periodic) == []
    if border is not None:
        assert border_violations(tiles, shape, border, pairs) == []
    if bottom is not None:
        assert border_violations(tiles, shape, [bottom], pairs, sides=("down",)) == []
    if top is not None:
        assert border_violations(tiles, shape, [top], pairs, sides=("up",)) == []
    return {"room": room, "tiles": tiles}


def test_demo_kit_has_50_plus_tiles_of_every_kind_with_sockets() -> None:
    kit = _demo_kit()
    names = {obj.name for obj in kit.objects}
    assert len(names) >= 50
    for needed in ("floor", "wall", "corner", "outer_corner", "wall_door", "wall_arch", "wall_window", "corridor",
                   "corridor_t", "corridor_x", "stair", "stair_top", "spiral", "spiral_top", "air"):
        assert needed in names
    for obj in kit.objects:
        tile = source_tile(obj)
        assert all(side in tile["sockets"] for side in ("n", "e", "s", "w", "up", "down"))
        assert obj.type == 'MESH' and (obj.name == "air" or len(obj.data.polygons) > 0)
    assert len({m.name for obj in kit.objects for m in obj.data.materials}) >= 5


def test_demo_kit_two_storey_room_obeys_sockets_border_fixed_tiles_and_connectivity() -> None:
    kit = _demo_kit()
    # The kit set the panel (border, below/above, connectivity); the operator's properties override the rest.
    result = bpy.ops.strew.assemble_room(kit="Tiles", size=DEMO_SIZE, seed=3, origin=(200.0, 5.0, 1.0),
                                         fixed="stair@90 4 4 0; floor 1 1 1")
    assert result == {'FINISHED'}
    checked = _check_room(kit, DEMO_SIZE, (200.0, 5.0, 1.0), (4.0, 4.0, 3.0), _pairs(kit["strew_compatible"]),
                          border=["wall", "window"], bottom="ground", top="sky")
    room, tiles = checked["room"], checked["tiles"]
    assert room[(4, 4, 0)][:2] == ("stair", 90) and room[(4, 4, 1)][:2] == ("stair_top", 90)
    assert room[(1, 1, 1)][:2] == ("floor", 0)
    regions = walkable_regions(tiles)
    assert len(regions) == 1 and (1, 1, 1) in regions[0]
    # 3-D: both storeys are walkable and joined through stairs; every stair has its top piece right above.
    assert {z for (_, _, z) in regions[0]} == {0, 1}
    for (x, y, z), (tile, rotation, _) in room.items():
        if tile in ("stair", "spiral"):
            assert room[(x, y, z + 1)][:2] == (f"{tile}_top", rotation)
    assert len({tile for tile, _, _ in room.values()}) >= 25
    assert bpy.ops.strew.assemble_room(kit="Tiles", size=(4, 4, 2), seed=3, output='OBJECTS') == {'FINISHED'}
    room = read_room()
    assert all(p.obj.data is kit.objects[p.obj["strew_tile"]].data for _, _, p in room.values())  # linked duplicates
    # A room is never read back as a kit (its objects are Strew's).
    with pytest.raises(RuntimeError, match="empty"):
        bpy.ops.strew.assemble_room(kit="Strew Room", size=(3, 3, 1))


def test_hand_made_kit_from_custom_properties_and_the_panel() -> None:
    kit = _hand_kit()
    for obj in kit.objects:  # a kit hidden with the monitor and camera toggles still gives a visible room
        obj.hide_viewport = obj.hide_render = True
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.connected, settings.seed = kit, True, "grass", True, 11
    settings.output = 'OBJECTS'
    assert bpy.ops.strew.assemble_room(size=(9, 7, 1)) == {'FINISHED'}
    checked = _check_room(kit, (9, 7, 1), (0, 0, 0), (2.0, 2.0, 1.0), set(), border=["grass"])
    assert len(walkable_regions(checked["tiles"])) == 1
    assert not any(p.obj.hide_viewport or p.obj.hide_render for _, _, p in checked["room"].values())
    kinds = [tile for tile, _, _ in checked["room"].values()]
    assert kinds.count("grass") > len(kinds) / 2  # weight 3 (custom property) vs 1
    # Periodic: the adjacency also holds across the wrapped edges.
    assert bpy.ops.strew.assemble_room(size=(8, 6, 1), periodic=True, connected=False, seed=2) == {'FINISHED'}
    _check_room(kit, (8, 6, 1), (0, 0, 0), (2.0, 2.0, 1.0), set(), periodic=True)


def test_rotation_convention_on_the_geometry() -> None:
    """At 90° the side that faced east faces north: the turn tile's road bump points where its sockets say."""
    kit = _hand_kit()
    del kit["strew_cell_size"]  # the cell size now comes from the tiles' bounds: 2 x 2 x 1
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(8, 8, 1), seed=5, border="grass",
                                       output='OBJECTS') == {'FINISHED'}
    room = read_room()
    check_positions(room, (0, 0, 0), (2.0, 2.0, 1.0))
    turns = [(cell, rotation, p.obj) for cell, (tile, rotation, p) in room.items() if tile == "turn"]
    assert {rotation for _, rotation, _ in turns} >= {0, 90} or len(turns) >= 2
    for cell, rotation, obj in turns:
        tile = turn(source_tile(kit.objects["turn"]), rotation)
        road_sides = {s for s in "nesw" if tile["sockets"][s] == "road"}
        world = np.array([obj.matrix_world @ v.co for v in obj.data.vertices])
        bump = world[world[:, 2] > 0.15].mean(axis=0)[:2] - np.array(obj.matrix_world.translation)[:2]
        expected = sum(np.array(STEP[s][:2], dtype=float) for s in road_sides)
        assert np.dot(bump, expected) > 0, (cell, rotation, road_sides)


def test_same_seed_same_room_and_reassembling_replaces_only_strews_room() -> None:
    _demo_kit()
    user = bpy.data.collections.new("Strew Room")  # the user's own collection with the same name
    bpy.context.scene.collection.children.link(user)
    user.objects.link(bpy.data.objects.new("mine", None))

    def layout() -> dict:
        assert len([c for c in bpy.data.collections if c.get("strew_owner") == "room" and "strew_name" in c]) == 1
        return {cell: (tile, rotation) for cell, (tile, rotation, _) in read_room().items()}

    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=7) == {'FINISHED'}
    first = layout()
    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=7) == {'FINISHED'}
    assert layout() == first
    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=8) == {'FINISHED'}
    assert layout() != first
    assert [o.name for o in user.objects] == ["mine"] and user.name == "Strew Room"
    # The user drops an object of theirs into Strew's room: re-assembling keeps it and never doubles the room.
    ours = room_collection()
    ours.objects.link(bpy.data.objects.new("also mine", None))
    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=8) == {'FINISHED'}
    assert [o.name for o in ours.objects] == ["also mine"] and "strew_owner" not in ours
    assert len(read_room()) == 8 * 8 * 2 and sum(1 for o in bpy.data.objects if o.get("strew_owner") == "room") == 1


def test_clear_after_save_and_reload(tmp_path: Path) -> None:
    kit = _demo_kit()
    kit_objects = sorted(o.name for o in kit.objects)
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=1) == {'FINISHED'}
    before = {cell: (tile, rotation) for cell, (tile, rotation, _) in read_room().items()}
    path = tmp_path / "room.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.wm.open_mainfile(filepath=str(path))
    assert len(read_room()) == 72
    assert bpy.ops.strew.clear_room() == {'FINISHED'}
    assert not [o for o in bpy.data.objects if o.get("strew_owner")]
    assert "Strew Room" not in bpy.data.collections
    assert sorted(o.name for o in bpy.data.collections["Tiles"].objects) == kit_objects
    # The tile settings and the panel's settings were saved: the same room comes back from the reloaded file.
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=1) == {'FINISHED'}
    assert {cell: (tile, rotation) for cell, (tile, rotation, _) in read_room().items()} == before


def test_undo_restores_the_scene() -> None:
    _demo_kit()
    before = scene_snapshot()
    bpy.ops.ed.undo_push(message="before room")
    assert bpy.ops.strew.assemble_room('EXEC_DEFAULT', True, size=(6, 6, 2), seed=2) == {'FINISHED'}
    assert "Strew Room" in bpy.data.collections
    bpy.ops.ed.undo()
    assert "Strew Room" not in bpy.data.collections
    assert scene_snapshot() == before


def test_modal_job_cancelled_midway_leaves_the_scene_unchanged() -> None:
    room_job = _module("scene.room_job")
    _demo_kit()
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=4) == {'FINISHED'}
    before = scene_snapshot()
    params = room_job.RoomParams(kit="Tiles", size=(30, 30, 2), seed=4, border="wall, window",
                                 border_bottom="ground", border_top="sky")
    for stop_at in (0.06, 0.6):  # ESC during the solve, then during the build
        job = room_job.assemble(bpy.context.scene, params)
        texts = []
        for fraction, text in job:
            texts.append(text)
            if fraction > stop_at:
                break
        job.close()
        assert scene_snapshot() == before
        assert all(texts) and threading.active_count() == 1  # progress text at every step; no worker thread
    # The stepped job run to the end gives the room the blocking path gives.
    job = room_job.assemble(bpy.context.scene, params)
    while True:
        try:
            next(job)
        except StopIteration as stop:
            assert stop.value.placed == 30 * 30 * 2
            break
    stepped = read_room()
    room_job.run_to_end(bpy.context.scene, params)
    assert {cell: value[:2] for cell, value in read_room().items()} == {c: v[:2] for c, v in stepped.items()}


# --- Detect Sockets on a kit whose true sockets are known -------------------------------------------------------

SIDE_TURNS = {"e": 0, "n": 1, "w": 2, "s": 3}
MIRROR = {"slab": "slab", "full": "full", "post_r": "post_l", "post_l": "post_r"}
# Side pieces stop short of the neighbouring sides' planes, so each side's profile is its own piece only.
KIND_BOXES = {"slab": None, "full": (0.8, 1, -0.9, 0.9, 0, 1.5), "post_r": (0.8, 1, 0.4, 0.9, 0, 1.5),
              "post_l": (0.8, 1, -0.9, -0.4, 0, 1.5)}
DETECT_KIT = {
    "open": {"n": "slab", "e": "slab", "s": "slab", "w": "slab"},
    "wall": {"n": "slab", "e": "full", "s": "slab", "w": "slab"},
    "post": {"n": "slab", "e": "post_r", "s": "slab", "w": "slab"},
    "post_l": {"n": "slab", "e": "post_l", "s": "slab", "w": "slab"},
    "corner": {"n": "full", "e": "full", "s": "slab", "w": "post_r"},
}


def _detect_kit() -> bpy.types.Collection:
    kit = bpy.data.collections.new("Detect")
    bpy.context.scene.collection.children.link(kit)
    for name, sides in DETECT_KIT.items():
        vertices, faces = [], []
        boxes = [((-1, 1, -1, 1, 0, 0.1), 0)] + [(KIND_BOXES[k], SIDE_TURNS[s]) for s, k in sides.items()
                                                  if KIND_BOXES[k]]
        for box, quarter in boxes:
            v, f = _box(*box)
            a = quarter * math.pi / 2
            faces += [tuple(i + len(vertices) for i in face) for face in f]
            vertices += [(round(x * math.cos(a) - y * math.sin(a), 6), round(x * math.sin(a) + y * math.cos(a), 6), z)
                         for x, y, z in v]
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata(vertices, [], faces)
        obj = bpy.data.objects.new(name, mesh)
        kit.objects.link(obj)
        obj.location = (len(kit.objects) * 4.0, -20.0, 0.0)
    # A shaft: a column in the north-east corner from bottom to top (its top profile changes under a turn).
    shaft = _mesh_object("shaft", [(0.5, 1, 0.5, 1, 0, 2)], kit)
    shaft.location = (0.0, -30.0, 0.0)
    return kit


def test_detect_sockets_labels_a_kit_whose_true_sockets_are_known() -> None:
    kit = _detect_kit()
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size, room.cell_size = kit, False, (2.0, 2.0, 2.0)
    assert bpy.ops.strew.detect_sockets(target='KIT', vertical=True) == {'FINISHED'}
    labels = {obj.name: {s: getattr(obj.strew, f"socket_{s}") for s in ("n", "e", "s", "w", "up", "down")}
              for obj in kit.objects}
    # Documented pairing: "m<hash>" (an asymmetric profile) always pairs with "m<hash>~" (its mirror).
    every = {label for sockets in labels.values() for label in sockets.values()}
    pairs = {frozenset((label.rstrip("~"), label.rstrip("~") + "~")) for label in every if label.startswith("m")}
    # Every side of every tile against every side of every other (any turn can make them face each other).
    for a, sides_a in DETECT_KIT.items():
        for b, sides_b in DETECT_KIT.items():
            for side_a, kind_a in sides_a.items():
                for side_b, kind_b in sides_b.items():
                    truth = kind_a == MIRROR[kind_b]
                    assert fits(labels[a][side_a], labels[b][side_b], pairs) == truth, (a, side_a, b, side_b)
    # Bottom faces: the bare slab looks the same after any turn, and hides the walls' feet.
    assert labels["open"]["up"] == "" and labels["open"]["down"] and ":" not in labels["open"]["down"]
    assert labels["wall"]["down"] == labels["post"]["down"] == labels["open"]["down"]  # from below: the slab
    # The shaft's top and bottom profiles are the same corner square: equal labels with an orientation suffix,
    # and the shaft turned by 90° no longer fits an unturned one above it.
    shaft = labels["shaft"]
    assert shaft["up"] == shaft["down"] and ":" in shaft["up"]
    turned = turn({"sockets": shaft, "walkable": False, "passable": set()}, 90)
    assert not fits(turned["sockets"]["up"], shaft["down"], pairs)
    # A single side re-detected on a copy moved off by 3 cm gets another label (the tolerance is 1 cm).
    moved = kit.objects["wall"].copy()
    moved.data = kit.objects["wall"].data.copy()
    moved.data.transform(Matrix.Translation((0.03, 0.0, 0.0)))
    kit.objects.link(moved)
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj is moved)
    assert bpy.ops.strew.detect_sockets(target='SELECTED') == {'FINISHED'}
    assert moved.strew.socket_e != labels["wall"]["e"]
    off = _module("scene.room_kit").tiles_off_cell(list(kit.objects), (2.0, 2.0, 2.0), 0.01)
    assert [name for name, _ in off] == [moved.name] and off[0][1] == pytest.approx(0.03, abs=1e-6)
    kit.objects.unlink(moved)


def test_a_room_from_detected_sockets_lines_up_the_geometry() -> None:
    kit = _detect_kit()
    kit.objects.unlink(kit.objects["shaft"])
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size, room.cell_size, room.use_border = kit, False, (2.0, 2.0, 2.0), False
    assert bpy.ops.strew.detect_sockets() == {'FINISHED'}
    for obj in kit.objects:  # reviewed by hand: one storey, nothing above or below
        obj.strew.socket_up = obj.strew.socket_down = ""
    assert bpy.ops.strew.assemble_room(size=(7, 7, 1), seed=9, output='OBJECTS') == {'FINISHED'}
    placed = read_room()
    # Geometry check: on every shared side plane the two tiles' vertices coincide (to 1 mm).
    def plane_points(obj, side):
        m = obj.matrix_world
        pts = np.array([m @ v.co for v in obj.data.vertices])
        centre = np.array(m.translation)
        axis, sign = {"e": (0, 1), "w": (0, -1), "n": (1, 1), "s": (1, -1)}[side]
        on = np.abs(pts[:, axis] - (centre[axis] + sign * 1.0)) < 1e-4
        return {tuple(p) for p in np.round(pts[on], 3)}

    bpy.context.view_layer.update()
    tiles = {name for name, _, _ in placed.values()}
    assert len(tiles) >= 3
    for (x, y, z), (_, _, p) in placed.items():
        for side in ("e", "n"):
            other = (x + STEP[side][0], y + STEP[side][1], z)
            if other in placed:
                assert plane_points(p.obj, side) == plane_points(placed[other][2].obj, OPPOSITE[side]), ((x, y), side)


# --- bad input ----------------------------------------------------------------------------------------------------


def _spoil_empty_kit() -> str:
    empty = bpy.data.collections.new("Empty Kit")
    bpy.context.scene.collection.children.link(empty)
    bpy.context.scene.strew.room.kit = empty
    return "empty"


def _spoil_tile_without_sockets() -> str:
    _mesh_object("bare tile", [(-1, 1, -1, 1, 0, 0.1)], bpy.data.collections["Roads"])
    return "bare tile"


def _spoil_socket_matching_nothing() -> str:
    obj = _mesh_object("odd", [(-1, 1, -1, 1, 0, 0.1)], bpy.data.collections["Roads"])
    obj["strew_sockets"] = {"n": "road", "e": "lava", "s": "road", "w": "grass"}
    obj["strew_rotations"] = [0]  # no turn brings a "lava" side to the west: nothing can stand east of it
    return "odd"


def _spoil_contradictory_fixed_tiles() -> str:
    bpy.context.scene.strew.room.connected = False
    for tile, cell in (("straight", (2, 2, 0)), ("straight", (3, 2, 0))):
        item = bpy.context.scene.strew.room.fixed.add()
        item.tile = bpy.data.objects[tile]
        item.cell = cell
        item.rotation = '90' if cell[0] == 3 else '0'  # a road end (n/s) next to a turned one's grass side
    return "fixed"


def _spoil_fixed_outside_grid() -> str:
    item = bpy.context.scene.strew.room.fixed.add()
    item.tile, item.cell = bpy.data.objects["grass"], (40, 0, 0)
    return "outside the grid"


@pytest.mark.parametrize("spoil", [_spoil_empty_kit, _spoil_tile_without_sockets, _spoil_socket_matching_nothing,
                                   _spoil_contradictory_fixed_tiles, _spoil_fixed_outside_grid])
def test_bad_input_reports_and_leaves_the_scene_unchanged(spoil) -> None:
    kit = _hand_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.size = kit, True, "grass", (6, 6, 1)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}  # an earlier room must survive a failed run
    message = spoil()
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.assemble_room()
    assert message.lower() in str(failure.value).lower()
    assert scene_snapshot() == before
    assert len(read_room()) == 36


def test_contradictory_border_names_the_side() -> None:
    _hand_kit()
    with pytest.raises(RuntimeError, match="Border 'lava'"):
        bpy.ops.strew.assemble_room(kit="Roads", border="lava", size=(4, 4, 1))
    with pytest.raises(RuntimeError, match="no collection named"):
        bpy.ops.strew.assemble_room(kit="Nope", size=(4, 4, 1))


def test_command_line_kit_and_room(tmp_path: Path) -> None:
    cli = _module("cli")
    kit_path, room_path = tmp_path / "kit.blend", tmp_path / "room.blend"
    assert cli.main(["kit", str(kit_path)]) == 0
    assert cli.main(["room", str(kit_path), "--kit", "Tiles", "--size", "6", "6", "2", "--seed", "3",
                     "-o", str(room_path)]) == 0
    bpy.ops.wm.open_mainfile(filepath=str(room_path))
    assert len(read_room()) == 72
    assert cli.main(["room", str(kit_path), "--kit", "Nope", "-o", str(room_path)]) == 2


def test_one_storey_room_with_the_issues_sockets() -> None:
    """The issue's example tile (up "" / down "floor") in a one-storey room: up/down only pick the tiles."""
    kit = bpy.data.collections.new("Tiles")
    bpy.context.scene.collection.children.link(kit)
    for name, sockets in (
        ("door_tile", {"n": "wall", "e": "door", "s": "wall", "w": "open", "up": "", "down": "floor"}),
        ("open_tile", {"n": "open", "e": "open", "s": "open", "w": "open", "up": "", "down": "floor"}),
        ("wall_tile", {"n": "wall", "e": "wall", "s": "open", "w": "open", "up": "", "down": "floor"}),
        ("hall_tile", {"n": "wall", "e": "open", "s": "wall", "w": "open", "up": "", "down": "floor"}),
        ("doorway", {"n": "wall", "e": "door", "s": "wall", "w": "door", "up": "", "down": "floor"}),
        ("sky_tile", {"n": "open", "e": "open", "s": "open", "w": "open", "up": "", "down": "cloud"}),
    ):
        obj = _mesh_object(name, [(-1, 1, -1, 1, 0, 0.1)], kit)
        obj["strew_sockets"] = sockets
    kit.objects["door_tile"]["strew_weight"] = 2.0
    kit["strew_cell_size"] = (2.0, 2.0, 2.0)
    assert bpy.ops.strew.assemble_room(kit="Tiles", size=(12, 12, 1), seed=3, border="wall", border_bottom="floor",
                                       fixed="door_tile@90 5 5 0") == {'FINISHED'}
    checked = _check_room(kit, (12, 12, 1), (0, 0, 0), (2.0, 2.0, 2.0), set(), border=["wall"])
    assert checked["room"][(5, 5, 0)][:2] == ("door_tile", 90)
    assert "sky_tile" not in {tile for tile, _, _ in checked["room"].values()}  # its bottom does not fit "floor"
    # Two storeys of the same kit: the empty tops fit no "floor" bottom, which the error names.
    with pytest.raises(RuntimeError, match="door_tile"):
        bpy.ops.strew.assemble_room(kit="Tiles", size=(4, 4, 2), seed=3, border="wall")


class _CheckingLayout:
    """Stands in for a UILayout: every prop and operator a panel draws must exist."""

    def __init__(self) -> None:
        self.props: list[str] = []
        self.operators: list[str] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self  # row, column, box, separator, label…

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, name, value)

    def prop(self, data, name: str, **kwargs):
        assert name in data.bl_rna.properties, f"{type(data).__name__} has no property {name!r}"
        self.props.append(name)

    def operator(self, idname: str, **kwargs):
        module, name = idname.split(".")
        assert name in dir(getattr(bpy.ops, module)), f"no operator {idname}"
        self.operators.append(idname)
        rna = getattr(getattr(bpy.ops, module), name).get_rna_type()

        class Properties:
            def __setattr__(self, key, value):
                assert key in rna.properties, f"{idname} has no property {key!r}"

        return Properties()

    def template_list(self, listtype, list_id, data, propname, active_data, active_propname, **kwargs):
        assert propname in data.bl_rna.properties and active_propname in active_data.bl_rna.properties


def test_panels_draw_existing_properties_and_operators() -> None:
    panels = _module("panels.rooms")
    kit = _demo_kit()
    room = bpy.context.scene.strew.room
    assert bpy.ops.strew.fixed_tile_add() == {'FINISHED'}
    room.fixed[0].tile = kit.objects["floor"]
    tile = kit.objects["wall_door"]
    tile["strew_weight"] = 3.0  # the panel then says the custom property wins
    context = type("Context", (), {"scene": bpy.context.scene, "object": tile, "active_object": tile})()
    drawn = _CheckingLayout()
    for panel in (panels.STREW_PT_rooms, panels.STREW_PT_rooms_rules, panels.STREW_PT_rooms_search,
                  panels.STREW_PT_tile, panels.STREW_PT_rooms_tile):
        fake = type("Panel", (), {"layout": drawn})()
        panel.draw(fake, context)
    assert {"kit", "size", "seed", "connected", "socket_n", "socket_down", "rotations", "walkable"} <= set(drawn.props)
    assert "weight" not in drawn.props
    assert {"strew.assemble_room", "strew.clear_room", "strew.detect_sockets"} <= set(drawn.operators)
    assert bpy.ops.strew.fixed_tile_remove() == {'FINISHED'} and len(room.fixed) == 0


# --- Counts and mirrored tiles --------------------------------------------------------------------------------


def test_counts_bound_how_often_a_tile_appears() -> None:
    kit = _hand_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border = kit, True, "grass"
    for seed in range(3):
        assert bpy.ops.strew.assemble_room(size=(9, 7, 1), seed=seed, counts="cross=2; turn=6..10") == {'FINISHED'}
        checked = _check_room(kit, (9, 7, 1), (0, 0, 0), (2.0, 2.0, 1.0), set(), border=["grass"])
        kinds = [tile for tile, _, _ in checked["room"].values()]
        assert kinds.count("cross") == 2 and 6 <= kinds.count("turn") <= 10
    # The panel's field is read when the caller leaves it unset.
    settings.counts = "straight=0"
    assert bpy.ops.strew.assemble_room(size=(6, 6, 1), seed=1) == {'FINISHED'}
    assert "straight" not in {tile for tile, _, _ in read_room().values()}


@pytest.mark.parametrize("counts, message", [("cross=lots", "TILE=N"), ("lava=1", "no tile named 'lava'"),
                                             ("cross=50", "more than the 36 cells")])
def test_bad_counts_report_and_leave_the_scene_unchanged(counts, message) -> None:
    kit = _hand_kit()
    assert bpy.ops.strew.assemble_room(kit=kit.name, border="grass", size=(6, 6, 1)) == {'FINISHED'}
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=message):
        bpy.ops.strew.assemble_room(kit=kit.name, border="grass", size=(6, 6, 1), counts=counts)
    assert scene_snapshot() == before


def test_mirrored_tiles_are_placed_with_a_negative_scale_and_still_fit() -> None:
    kit = _hand_kit()
    dead_end = _mesh_object("dead end", [(-1, 1, -1, 1, 0, 0.1), (-0.2, 0.6, -0.2, 0.2, 0.1, 0.2)], kit)
    dead_end["strew_sockets"] = {"n": "grass", "e": "road", "s": "grass", "w": "grass"}
    dead_end["strew_rotations"] = [0]  # only its mirror can point the road west
    dead_end["strew_mirror"] = True
    dead_end["strew_weight"] = 4.0
    assert bpy.ops.strew.assemble_room(kit=kit.name, border="grass", size=(10, 8, 1), seed=5) == {'FINISHED'}
    room = read_room()
    tiles = placed_tiles(room, kit)
    assert violations(tiles, (10, 8, 1), set()) == []
    check_positions(room, (0, 0, 0), (2.0, 2.0, 1.0))
    mirrored = [p for tile, _, p in room.values() if tile == "dead end" and p.mirrored]
    assert mirrored, "the mirrored dead end (road to the west) should appear"
    for p in mirrored:
        assert np.linalg.det(p.matrix_world[:3, :3]) < 0
    assert not any(p.mirrored for tile, _, p in room.values() if tile != "dead end")


@pytest.mark.parametrize("options, message", [({"size": (0, 0, 0)}, "size must be ≥ 1"),
                                              ({"size": (-3, 4, 1)}, "size must be ≥ 1"),
                                              ({"seed": -1}, "seed"), ({"time_limit": 0.0}, "time limit")])
def test_out_of_range_options_are_reported_not_clamped(options, message) -> None:
    kit = _hand_kit()
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=message):
        bpy.ops.strew.assemble_room(kit=kit.name, border="grass", **{"size": (4, 4, 1), **options})
    assert scene_snapshot() == before
