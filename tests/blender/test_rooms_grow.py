"""Grow: a room gets more cells on one side; every old tile keeps its tile, turn, mirror and world place (a Real
Objects room its very objects), every neighbour pair fits across the seam (read back, sockets turned by the test),
a side that leaves no continuation is refused in one line with the scene unchanged, and the command line grows the
room of a file."""

from __future__ import annotations

from pathlib import Path

import bpy
import numpy as np
import pytest
from rooms_check import border_violations, placed_tiles, read_room, room_collection, violations
from rooms_kits import module, road_kit
from scenes import scene_snapshot

ORIGIN = (3.0, -2.0, 0.0)
SHAPE = (5, 4, 1)
OFFSETS = {"-X": (2, 0, 0), "+X": (0, 0, 0), "-Y": (0, 2, 0), "+Y": (0, 0, 0), "+Z": (0, 0, 0)}
GROWN = {"-X": (7, 4, 1), "+X": (7, 4, 1), "-Y": (5, 6, 1), "+Y": (5, 6, 1), "+Z": (5, 4, 3)}


def _assemble(output: str, seed: int, **more) -> bpy.types.Collection:
    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.seed, settings.output, settings.origin = kit, SHAPE, seed, output, ORIGIN
    assert bpy.ops.strew.assemble_room(**more) == {'FINISHED'}
    return kit


def _snapshot(room: dict) -> dict:
    bpy.context.view_layer.update()
    return {cell: (tile, rotation, placed.mirrored, np.array(placed.matrix_world), placed.obj)
            for cell, (tile, rotation, placed) in room.items()}


def _tiles(room: dict, kit) -> dict:
    """The placed tiles' sockets; the road kit leaves up and down unset (empty labels, which fit each other)."""
    tiles = placed_tiles(room, kit)
    for tile in tiles.values():
        tile["sockets"].setdefault("up", "")
        tile["sockets"].setdefault("down", "")
    return tiles


def _check_grown(kit, before: dict, side: str, output: str) -> dict:
    offset, shape = OFFSETS[side], GROWN[side]
    after = read_room()
    assert sorted(after) == sorted(np.ndindex(*shape))
    now = _snapshot(after)
    for cell, (tile, rotation, mirrored, matrix, obj) in before.items():
        moved = tuple(c + o for c, o in zip(cell, offset, strict=True))
        tile2, rotation2, mirrored2, matrix2, obj2 = now[moved]
        assert (tile2, rotation2, mirrored2) == (tile, rotation, mirrored), (cell, side)
        if output == 'OBJECTS':  # the very object, untouched but its cell number
            assert obj2 is obj and np.array_equal(matrix2, matrix), cell
        else:
            assert np.allclose(matrix2, matrix, rtol=0, atol=1e-6), cell
    assert violations(_tiles(after, kit), shape, set()) == []
    room = room_collection()
    assert tuple(room["strew_grid_shape"]) == shape
    origin = np.array(ORIGIN) - np.array(room["strew_cell_size"]) * np.array(offset)
    assert np.allclose(room["strew_origin"], origin)
    settings = bpy.context.scene.strew.room
    assert tuple(settings.size) == shape and np.allclose(settings.origin, origin)
    return after


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
@pytest.mark.parametrize("side", sorted(OFFSETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_grow_keeps_every_old_tile_and_fits_the_new_cells(output: str, side: str, seed: int) -> None:
    kit = _assemble(output, seed)
    before = _snapshot(read_room())
    assert bpy.ops.strew.grow_room(side=side, cells=2, seed=seed + 5) == {'FINISHED'}
    _check_grown(kit, before, side, output)
    # and Regenerate Box works on the grown room, over the seam
    assert bpy.ops.strew.regenerate_room_box(box_min=(1, 1, 0), box_max=(4, 3, 0), seed=seed) == {'FINISHED'}
    assert violations(_tiles(read_room(), kit), GROWN[side], set()) == []


def test_grow_twice_on_a_closed_room_with_keep_walls_keeps_the_border_and_the_first_room() -> None:
    kit = _assemble('INSTANCES', 3, border="verge")
    first = _snapshot(read_room())
    bpy.context.scene.strew.room.grow_side, bpy.context.scene.strew.room.grow_cells = '-Y', 2
    assert bpy.ops.strew.grow_room(border="verge", keep_walls=True) == {'FINISHED'}  # the panel's side and cells
    assert bpy.ops.strew.grow_room(side='-X', cells=3, border="verge", keep_walls=True) == {'FINISHED'}
    after = read_room()
    assert sorted(after) == sorted(np.ndindex(8, 6, 1))
    now = _snapshot(after)
    for cell, (tile, rotation, _m, matrix, _o) in first.items():
        moved = (cell[0] + 3, cell[1] + 2, cell[2])
        assert now[moved][:2] == (tile, rotation) and np.allclose(now[moved][3], matrix, atol=1e-6)
    tiles = _tiles(after, kit)
    assert violations(tiles, (8, 6, 1), set()) == []
    assert border_violations(tiles, (8, 6, 1), ["verge"], set()) == []


def _capped_kit() -> bpy.types.Collection:
    """The road kit and a tile whose east side is a dead end that fits only the border."""
    kit = road_kit()
    cap = kit.objects["verge"].copy()
    cap.name = "cap"
    kit.objects.link(cap)
    cap["strew_sockets"] = {"n": "verge", "e": "dead", "s": "verge", "w": "verge"}
    cap["strew_weight"] = 0.1
    return kit


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_grow_is_refused_in_one_line_when_the_old_tiles_leave_no_continuation(output: str) -> None:
    kit = _capped_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.output, settings.origin = kit, SHAPE, output, ORIGIN
    assert bpy.ops.strew.assemble_room(seed=1, border="verge, dead", fixed="cap 4 2 0") == {'FINISHED'}
    snapshot, panel = scene_snapshot(), (tuple(settings.size), tuple(settings.origin))
    for more in ({"keep_walls": True}, {"fixed": "cap 4 2 0"}):  # every old tile kept, or the cap (fixed) kept
        with pytest.raises(RuntimeError) as error:
            bpy.ops.strew.grow_room(side='+X', cells=2, border="verge, dead", **more)
        message = str(error.value).strip()
        assert "Cannot grow the room on +X" in message and len(message.splitlines()) == 1
        assert scene_snapshot() == snapshot and (tuple(settings.size), tuple(settings.origin)) == panel
    assert bpy.ops.strew.grow_room(side='-X', cells=1, border="verge, dead") == {'FINISHED'}  # the other side grows
    assert sorted(read_room()) == sorted(np.ndindex(6, 4, 1))


def test_grow_without_a_room_or_with_bad_cells_says_so() -> None:
    road_kit()
    assert not bpy.ops.strew.grow_room.poll()
    job = module("scene.room_grow")
    params = module("scene.room_job").RoomParams(kit="Streets", size=SHAPE)
    with pytest.raises(module("scene.room_job").RoomError, match="assemble it first"):
        job.grow_room(bpy.context.scene, params, "+X", 1)
    _assemble('INSTANCES', 1)
    with pytest.raises(module("scene.room_job").RoomError, match="the side is one of"):
        job.grow_room(bpy.context.scene, params, "+W", 1)


def test_command_line_grows_the_room_of_a_file(tmp_path: Path, capsys) -> None:
    cli = module("cli")
    path, out = tmp_path / "room.blend", tmp_path / "grown.blend"
    name = _assemble('OBJECTS', 2).name
    before = {cell: value[:2] for cell, value in read_room().items()}
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    capsys.readouterr()
    assert cli.main(["room", str(path), "--grow", "+x:2", "--grow=-Y:1", "--seed", "4", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "grown" in printed and "7 × 5 × 1" in printed
    bpy.ops.wm.open_mainfile(filepath=str(out))
    after = read_room()
    assert sorted(after) == sorted(np.ndindex(7, 5, 1))
    assert all(after[(x, y + 1, z)][:2] == value for (x, y, z), value in before.items())
    assert violations(_tiles(after, bpy.data.collections[name]), (7, 5, 1), set()) == []
    for bad, words in ((["--grow", "+X"], "SIDE:N"), (["--grow", "+W:2"], "SIDE:N"),
                       (["--grow", "+X:1", "--size", "4", "4", "1"], "--size")):
        assert cli.main(["room", str(path), *bad, "-o", str(tmp_path / "no.blend")]) == 2
        error = capsys.readouterr().err.strip()
        assert words in error and len(error.splitlines()) == 1
        assert not (tmp_path / "no.blend").exists()


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_a_room_moved_and_turned_by_hand_grows_where_it_stands(output: str) -> None:
    from mathutils import Matrix

    kit = _assemble(output, 4)
    world = Matrix.Translation((40.0, -12.0, 3.0)) @ Matrix.Rotation(0.6, 4, 'Z')
    for obj in room_collection().objects:  # the whole room, moved and turned together
        obj.matrix_world = world @ obj.matrix_world
    before = _snapshot(read_room())
    assert bpy.ops.strew.grow_room(side='-Y', cells=2, seed=9) == {'FINISHED'}
    after = _snapshot(read_room())
    assert sorted(after) == sorted(np.ndindex(5, 6, 1))
    for cell, (tile, rotation, _mirrored, matrix, _obj) in before.items():
        moved = (cell[0], cell[1] + 2, cell[2])
        assert after[moved][:2] == (tile, rotation) and np.allclose(after[moved][3], matrix, atol=1e-4), cell
    size = np.array(room_collection()["strew_cell_size"])
    for cell, (tile, _rotation, _mirrored, matrix, _obj) in after.items():  # every tile on the moved room's grid
        local = np.array(world.inverted()) @ matrix
        expected = np.array(ORIGIN) + size * (np.array(cell) - (0, 2, 0))
        assert np.allclose(local[:3, 3], expected, atol=1e-4), (cell, tile)
    assert violations(_tiles(read_room(), kit), (5, 6, 1), set()) == []
