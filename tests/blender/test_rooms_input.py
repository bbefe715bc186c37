"""Tile Rooms' bad input in real Blender: every problem is one report and the scene stays as it was."""

from __future__ import annotations

import math
from pathlib import Path

import bpy
import pytest
from rooms_check import read_room
from rooms_kits import boxes_object, hand_kit, module
from scenes import scene_snapshot


def _spoil_empty_kit() -> str:
    empty = bpy.data.collections.new("Empty Kit")
    bpy.context.scene.collection.children.link(empty)
    bpy.context.scene.strew.room.kit = empty
    return "empty"


def _spoil_tile_without_sockets() -> str:
    boxes_object("bare tile", [(-1, 1, -1, 1, 0, 0.1)], bpy.data.collections["Roads"])
    return "bare tile"


def _spoil_socket_matching_nothing() -> str:
    obj = boxes_object("odd", [(-1, 1, -1, 1, 0, 0.1)], bpy.data.collections["Roads"])
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
    kit = hand_kit()
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
    hand_kit()
    with pytest.raises(RuntimeError, match="Border 'lava'"):
        bpy.ops.strew.assemble_room(kit="Roads", border="lava", size=(4, 4, 1))
    with pytest.raises(RuntimeError, match="no collection named"):
        bpy.ops.strew.assemble_room(kit="Nope", size=(4, 4, 1))


def test_command_line_kit_and_room(tmp_path: Path) -> None:
    cli = module("cli")
    kit_path, room_path = tmp_path / "kit.blend", tmp_path / "room.blend"
    assert cli.main(["kit", str(kit_path)]) == 0
    assert cli.main(["room", str(kit_path), "--kit", "Tiles", "--size", "6", "6", "2", "--seed", "3",
                     "-o", str(room_path)]) == 0
    bpy.ops.wm.open_mainfile(filepath=str(room_path))
    assert len(read_room()) == 72
    assert cli.main(["room", str(kit_path), "--kit", "Nope", "-o", str(room_path)]) == 2


@pytest.mark.parametrize("counts, message", [("cross=lots", "TILE=N"), ("lava=1", "no tile named 'lava'"),
                                             ("cross=50", "more than the 36 cells")])
def test_bad_counts_report_and_leave_the_scene_unchanged(counts, message) -> None:
    kit = hand_kit()
    assert bpy.ops.strew.assemble_room(kit=kit.name, border="grass", size=(6, 6, 1)) == {'FINISHED'}
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=message):
        bpy.ops.strew.assemble_room(kit=kit.name, border="grass", size=(6, 6, 1), counts=counts)
    assert scene_snapshot() == before


@pytest.mark.parametrize("options, message", [({"size": (0, 0, 0)}, "size must be ≥ 1"),
                                              ({"size": (-3, 4, 1)}, "size must be ≥ 1"),
                                              ({"seed": -1}, "seed"), ({"time_limit": 0.0}, "time limit"),
                                              ({"origin": (math.nan, 0.0, 0.0)}, "origin"),
                                              ({"origin": (0.0, 0.0, 1e12)}, "origin is 1e\\+12"),
                                              ({"origin": (-3e9, 5.0, 0.0)}, "origin is -3e\\+09"),
                                              ({"origin": (0.0, -math.inf, 0.0)}, "origin is -3.40282e\\+38")])
def test_out_of_range_options_are_reported_not_clamped(options, message) -> None:
    kit = hand_kit()
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=message):
        bpy.ops.strew.assemble_room(kit=kit.name, border="grass", **{"size": (4, 4, 1), **options})
    assert scene_snapshot() == before

