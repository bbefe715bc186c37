"""Grow on a closed room: the wall layer on the grown side is solved again with the new cells (the wall moves out),
every other old tile keeps its tile, turn, mirror and world place (a Real Objects room its very objects); every pair
fits by the kit's own labels turned by the test, the new border holds, the walkable cells stay joined (BFS) and the
entrances walkable; Keep Walls refuses in one line with the scene unchanged, as does a fixed tile in the wall."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import bpy
import numpy as np
import pytest
from rooms_check import border_violations, placed_tiles, read_room, room_collection, violations, walkable_regions
from rooms_kits import demo_kit, module, pairs
from scenes import scene_snapshot

SHAPE = (8, 8, 2)
ORIGIN = (10.0, -4.0, 0.0)
ENTRANCES = ((0, 3, 0), (4, 4, 1))
AXIS = {"X": 0, "Y": 1, "Z": 2}


def _closed_room(seed: int, output: str = 'INSTANCES') -> bpy.types.Collection:
    kit = demo_kit()  # Closed Room on: border "wall, window", ground below, sky above
    settings = bpy.context.scene.strew.room
    settings.size, settings.seed, settings.output, settings.origin = SHAPE, seed, output, ORIGIN
    settings.connected = True
    settings.entrances.clear()
    for cell in ENTRANCES:
        settings.entrances.add().cell = cell
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    return kit


def _grown(side: str, cells: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    axis = AXIS[side[1]]
    size, offset = list(SHAPE), [0, 0, 0]
    size[axis] += cells
    if side[0] == "-":
        offset[axis] = cells
    return (size[0], size[1], size[2]), (offset[0], offset[1], offset[2])


def _in_wall(cell, side: str) -> bool:
    """The old cell lies in the layer next to ``side`` (worked out here from the room's shape)."""
    axis = AXIS[side[1]]
    return cell[axis] == (0 if side[0] == "-" else SHAPE[axis] - 1)


def _snapshot() -> dict:
    bpy.context.view_layer.update()
    return {cell: (tile, rotation, placed.mirrored, np.array(placed.matrix_world), placed.obj)
            for cell, (tile, rotation, placed) in read_room().items()}


def _check(kit, before: dict, side: str, cells: int, output: str) -> dict:
    size, offset = _grown(side, cells)
    after = _snapshot()
    assert sorted(after) == sorted(np.ndindex(*size))
    for cell, (tile, rotation, mirrored, matrix, obj) in before.items():
        if _in_wall(cell, side):
            continue
        now = after[tuple(c + o for c, o in zip(cell, offset, strict=True))]
        assert now[:3] == (tile, rotation, mirrored), (cell, side)
        assert np.allclose(now[3], matrix, rtol=0, atol=1e-5), (cell, side)
        if output == 'OBJECTS':
            assert now[4] is obj, (cell, side)
    room = read_room()
    tiles = placed_tiles(room, kit)
    compatible = pairs(kit["strew_compatible"])
    assert violations(tiles, size, compatible) == []
    assert border_violations(tiles, size, ["wall", "window"], compatible) == []
    assert border_violations(tiles, size, ["ground"], compatible, sides=("down",)) == []
    assert border_violations(tiles, size, ["sky"], compatible, sides=("up",)) == []
    regions = walkable_regions(tiles)
    assert len(regions) == 1, [len(r) for r in regions]
    for entrance in ENTRANCES:
        assert tuple(c + o for c, o in zip(entrance, offset, strict=True)) in regions[0]
    assert tuple(bpy.context.scene.strew.room.size) == size
    assert {tuple(e.cell) for e in bpy.context.scene.strew.room.entrances} == {
        tuple(c + o for c, o in zip(e, offset, strict=True)) for e in ENTRANCES}
    return after


@pytest.mark.parametrize("side", ["-X", "+X", "-Y", "+Y", "+Z", "-Z"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_closed_room_grows_by_moving_its_wall_out(side: str, seed: int) -> None:
    output = 'OBJECTS' if seed == 2 else 'INSTANCES'
    kit = _closed_room(seed, output)
    before = _snapshot()
    assert bpy.ops.strew.grow_room(side=side, cells=1, seed=seed + 7) == {'FINISHED'}
    _check(kit, before, side, 1, output)


def test_the_count_of_wall_cells_solved_again_and_keep_walls() -> None:
    _closed_room(1)
    job, params = module("scene.room_grow"), module("scene.room_job").RoomParams(
        kit="Tiles", size=SHAPE, seed=4, border="wall, window", border_bottom="ground", border_top="sky",
        connected=True, entrances=ENTRANCES)
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError) as error:  # the panel's Keep Walls: nothing fits beyond the wall
        settings = bpy.context.scene.strew.room
        settings.grow_keep_walls, settings.grow_side, settings.grow_cells = True, '+X', 2
        bpy.ops.strew.grow_room()
    message = str(error.value).strip()
    assert "Keep Walls" in message and "+X" in message and len(message.splitlines()) == 1
    assert scene_snapshot() == snapshot and tuple(bpy.context.scene.strew.room.size) == SHAPE
    grown = job.grow_room(bpy.context.scene, params, "-Y", 2)
    assert grown.walls == SHAPE[0] * SHAPE[2]  # the old row y = 0 on both storeys
    assert grown.size == (8, 10, 2) and grown.offset == (0, 2, 0)
    grown = job.grow_room(bpy.context.scene, dataclasses.replace(params, size=grown.size), "+Z", 1)
    assert grown.walls == 8 * 10  # the old top storey, under the sky


def test_a_fixed_tile_in_the_wall_stays(capsys) -> None:
    kit = _closed_room(3)
    tile, rotation, _placed = read_room()[(7, 2, 0)]
    settings = bpy.context.scene.strew.room
    item = settings.fixed.add()
    item.tile, item.rotation, item.cell = kit.objects[tile], str(rotation), (7, 2, 0)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    before = _snapshot()
    capsys.readouterr()
    assert bpy.ops.strew.grow_room(side='+X', cells=1, seed=5) == {'FINISHED'}
    assert "15 wall cell(s) on +X re-solved" in capsys.readouterr().out  # the wall on both storeys, less the fixed
    after = _check(kit, before, "+X", 1, 'INSTANCES')
    assert after[(7, 2, 0)][:3] == before[(7, 2, 0)][:3]
    assert np.allclose(after[(7, 2, 0)][3], before[(7, 2, 0)][3], atol=1e-5)
    assert tuple(settings.fixed[0].cell) == (7, 2, 0)


def test_command_line_grows_a_closed_room_of_a_file(tmp_path: Path, capsys) -> None:
    cli = module("cli")
    path, out = tmp_path / "room.blend", tmp_path / "grown.blend"
    kit_name = _closed_room(2, 'OBJECTS').name
    before = {cell: value[:3] for cell, value in _snapshot().items()}
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    capsys.readouterr()
    assert cli.main(["room", str(path), "--grow", "+y:2", "--seed", "4", "-o", str(out)]) == 0
    assert "8 × 10 × 2" in capsys.readouterr().out
    bpy.ops.wm.open_mainfile(filepath=str(out))
    after = _snapshot()
    assert sorted(after) == sorted(np.ndindex(8, 10, 2))
    assert all(after[cell][:3] == value for cell, value in before.items() if cell[1] != SHAPE[1] - 1)
    kit = bpy.data.collections[kit_name]
    tiles = placed_tiles(read_room(), kit)
    assert violations(tiles, (8, 10, 2), pairs(kit["strew_compatible"])) == []
    assert border_violations(tiles, (8, 10, 2), ["wall", "window"], pairs(kit["strew_compatible"])) == []
    for bad, words in ((["--grow", "+X:1", "--grow-keep-walls"], "Keep Walls"), (["--grow-keep-walls"], "--grow")):
        assert cli.main(["room", str(path), *bad, "-o", str(tmp_path / "no.blend")]) == 2
        error = capsys.readouterr().err.strip()
        assert words in error and len(error.splitlines()) == 1
        assert not (tmp_path / "no.blend").exists()


def test_a_set_piece_in_the_wall_stays_and_a_path_still_joins_its_cells() -> None:
    from rooms_pieces import linked_copy

    kit = _closed_room(1, 'OBJECTS')
    settings = bpy.context.scene.strew.room
    tile, _rotation, placed = read_room()[(0, 3, 1)]  # in the -X wall, upstairs
    linked_copy(kit.objects[tile], "piece").matrix_world = placed.obj.matrix_world.copy()
    bpy.ops.strew.clear_room()
    settings.connected = False
    settings.entrances.clear()  # only the path asks for joined cells
    path = settings.paths.add()
    path.start, path.end = (2, 2, 0), (5, 6, 0)
    bpy.context.view_layer.update()
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    assert bpy.ops.strew.grow_room(side='-X', cells=1, seed=6) == {'FINISHED'}
    assert (tuple(path.start), tuple(path.end)) == ((3, 2, 0), (6, 6, 0))  # the panel's path, renumbered
    recorded = module("scene.room_pieces").recorded(room_collection())
    assert [(p.name, p.cell) for p in recorded] == [("piece", (1, 3, 1))]
    room = read_room()
    assert set(room) == set(np.ndindex(9, 8, 2)) - {(1, 3, 1)}
    tiles = placed_tiles(room, kit)
    compatible = pairs(kit["strew_compatible"])
    tiles[(1, 3, 1)] = placed_tiles({(1, 3, 1): (tile, _rotation, placed)}, kit)[(1, 3, 1)]
    assert violations(tiles, (9, 8, 2), compatible) == []
    assert border_violations(tiles, (9, 8, 2), ["wall", "window"], compatible) == []
    joined = next(region for region in walkable_regions(tiles) if (3, 2, 0) in region)  # the path, moved by 1
    assert (6, 6, 0) in joined
