"""Big tiles in Blender: a 2 x 2 x 1 hall and a 1 x 1 x 2 stair sized by their bounds, a 1 x 2 x 1 gallery by
its strew_size; Assemble Room with both outputs draws each big tile once, over exactly the cells strew_cell and
strew_footprint record; Detect Sockets labels each covered cell's outer sides; bad sizes are refused in one line."""

from __future__ import annotations

import itertools

import bpy
import numpy as np
import pytest
from cli_process import refused, strew_run, succeeded
from rooms_check import room_collection
from rooms_kits import box, mesh_object, module
from scenes import scene_snapshot

CELL = 2.0
SIDES = {"n": "o", "e": "o", "s": "o", "w": "o", "up": "f", "down": "f"}


def block(name: str, kit: bpy.types.Collection, cells: tuple[int, int, int], scale: float = 1.0) -> bpy.types.Object:
    """A box over ``cells`` cells from the first cell (origin at the centre of its bottom face), modelled at
    1 / ``scale`` and scaled back (a primitive resized by its object scale)."""
    x, y, z = cells
    v, f = box(-1 / scale, (2 * x - 1) / scale, -1 / scale, (2 * y - 1) / scale, 0, 2 * z / scale)
    obj = mesh_object(name, v, f, kit)
    obj.scale = (scale, scale, scale)
    obj["strew_sockets"] = dict(SIDES)
    return obj


def big_kit() -> bpy.types.Collection:
    kit = bpy.data.collections.new("Big")
    bpy.context.scene.collection.children.link(kit)
    floor = block("floor", kit, (1, 1, 1))
    floor["strew_walkable"] = True
    floor["strew_weight"] = 3.0
    block("hall", kit, (2, 2, 1), scale=0.5)["strew_rotations"] = [0, 90, 180, 270]
    block("stair", kit, (1, 1, 2), scale=2.0)["strew_rotations"] = [0, 90]
    gallery = block("gallery", kit, (1, 2, 1))
    gallery["strew_size"] = [1, 2, 1]
    gallery["strew_rotations"] = [0, 90, 180, 270]
    kit["strew_cell_size"] = (CELL, CELL, CELL)
    bpy.context.scene.strew.room.kit = kit
    return kit


def world_box(obj: bpy.types.Object, matrix) -> tuple[tuple[float, ...], tuple[float, ...]]:
    corners = np.array([tuple(c) for c in obj.bound_box] + [[0, 0, 0]])[:8]
    world = (np.c_[corners, np.ones(8)] @ np.asarray(matrix).T)[:, :3]
    return tuple(np.round(world.min(axis=0), 4).tolist()), tuple(np.round(world.max(axis=0), 4).tolist())


def cells_box(cell, footprint) -> tuple[tuple[float, ...], tuple[float, ...]]:
    low = np.array(cell, dtype=float) * CELL - np.array([1, 1, 0]) * CELL / 2
    high = low + np.array(footprint, dtype=float) * CELL
    return tuple(np.round(low, 4).tolist()), tuple(np.round(high, 4).tolist())


def drawn_boxes(room: bpy.types.Collection) -> list[tuple[str, tuple]]:
    """(tile, world box) of every tile drawn: the instancer's evaluated instances, or the real objects."""
    bpy.context.view_layer.update()
    out = []
    for obj in room.objects:
        if "strew_tiles" in obj:
            depsgraph = bpy.context.evaluated_depsgraph_get()
            out += [(inst.instance_object.original.name, world_box(inst.instance_object.original, inst.matrix_world))
                    for inst in depsgraph.object_instances
                    if inst.is_instance and inst.parent is not None and inst.parent.original == obj]
        else:
            out.append((obj["strew_tile"], world_box(obj, obj.matrix_world)))
    return out


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_big_tiles_are_drawn_once_over_exactly_the_cells_strew_cell_records(output: str) -> None:
    big_kit()
    size = (6, 5, 3)
    assert bpy.ops.strew.assemble_room(size=size, seed=4, output=output) == {'FINISHED'}
    room = room_collection()
    placed = module("scene.room_output").read_placed(room)
    covered = placed.covered()
    every = [cell for cells in covered for cell in cells]
    assert sorted(every) == sorted(itertools.product(*(range(s) for s in size))), "each cell exactly once"
    footprints = {tile: set() for tile in ("floor", "hall", "stair", "gallery")}
    for tile, footprint, rotation in zip(placed.tiles, placed.footprints.tolist(), placed.rotations.tolist(),
                                         strict=True):
        footprints[tile].add((tuple(footprint), rotation))
    assert all(fp == (1, 1, 1) for fp, _ in footprints["floor"])
    assert all(fp == ((2, 2, 1)) for fp, _ in footprints["hall"]) and footprints["hall"]
    assert all(fp == (1, 1, 2) for fp, _ in footprints["stair"]) and footprints["stair"]
    assert all(fp == ((1, 2, 1) if r in (0, 180) else (2, 1, 1)) for fp, r in footprints["gallery"])
    assert footprints["gallery"]
    expected = sorted((tile, cells_box(cell, footprint)) for tile, cell, footprint in
                      zip(placed.tiles, placed.cells.tolist(), placed.footprints.tolist(), strict=True))
    assert sorted(drawn_boxes(room)) == expected  # one drawing per tile, its box exactly its cells: none overlap


def test_regenerate_box_keeps_big_tiles_whole() -> None:
    big_kit()
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=2, output='OBJECTS') == {'FINISHED'}
    for seed in (1, 2, 3):
        assert bpy.ops.strew.regenerate_room_box(box_min=(1, 1, 0), box_max=(2, 2, 0), seed=seed) == {'FINISHED'}
        room = room_collection()
        placed = module("scene.room_output").read_placed(room)
        every = sorted(cell for cells in placed.covered() for cell in cells)
        assert every == sorted(itertools.product(range(6), range(6), range(2)))
        expected = sorted((tile, cells_box(cell, footprint)) for tile, cell, footprint in
                          zip(placed.tiles, placed.cells.tolist(), placed.footprints.tolist(), strict=True))
        assert sorted(drawn_boxes(room)) == expected


def test_detect_sockets_labels_each_covered_cell_of_a_big_tile() -> None:
    kit = big_kit()
    hall = kit.objects["hall"]
    kit_module = module("scene.room_kit")
    cells = kit_module.detect_cell_sockets(hall, (CELL, CELL, CELL), 0.01)
    assert sorted(cells) == [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)]
    assert set(cells[(1, 0, 0)]) == {"e", "s", "up", "down"} and set(cells[(0, 1, 0)]) == {"w", "n", "up", "down"}
    wall = cells[(0, 0, 0)]["w"]
    assert wall and all(labels[s] == wall for labels in cells.values() for s in "nesw" if s in labels)
    assert kit_module.detect_object_sockets(hall, (CELL, CELL, CELL), 0.01) == {**cells[(0, 0, 0)], "e": wall,
                                                                                "n": wall}
    kit_module.write_cell_sockets(hall, cells)
    stored = hall["strew_cell_sockets"].to_dict()
    assert sorted(stored) == ["0,0,0", "0,1,0", "1,0,0", "1,1,0"] and stored["1,1,0"]["e"] == wall
    for obj in kit.objects:
        obj.pop("strew_sockets", None)
    assert bpy.ops.strew.detect_sockets(target='KIT', vertical=True) == {'FINISHED'}
    assert hall.strew.socket_e == wall and hall.strew.socket_n == wall
    del hall["strew_cell_sockets"]
    assert bpy.ops.strew.detect_sockets(target='KIT', vertical=True) == {'FINISHED'}
    assert sorted(hall["strew_cell_sockets"].to_dict()) == ["0,0,0", "0,1,0", "1,0,0", "1,1,0"]
    assert bpy.ops.strew.assemble_room(size=(5, 5, 2), seed=1) == {'FINISHED'}


@pytest.mark.parametrize("value", [[1.5, 1, 1], [0, 1, 1], [2, 2], "2x2"])
def test_a_bad_strew_size_is_one_line_and_leaves_the_scene_as_it_was(value) -> None:
    kit = big_kit()
    kit.objects["gallery"]["strew_size"] = value
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as error:
        bpy.ops.strew.assemble_room(size=(5, 5, 2), seed=1)
    message = str(error.value).strip().splitlines()[-1]
    assert "gallery" in message and "strew_size" in message
    assert scene_snapshot() == before


def test_a_tile_one_and_a_half_cells_wide_is_refused_naming_it() -> None:
    kit = big_kit()
    mesh_object("odd", *box(-1, 2, -1, 1, 0, 2), kit)["strew_sockets"] = dict(SIDES)  # 3 m across 2 m cells
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=r'"odd" spans 1\.50 cells along x'):
        bpy.ops.strew.assemble_room(size=(5, 5, 2), seed=1)
    assert scene_snapshot() == before


NOTE = "stair (1 × 1 × 2) left out: taller than the room's 1 storey(s)"


class _Reports:
    """Stands in for an operator: keeps what it reports."""

    def __init__(self) -> None:
        self.reports: list[tuple[str, str]] = []

    def report(self, kinds: set[str], text: str) -> None:
        self.reports.append((next(iter(kinds)), text))


def test_a_stair_taller_than_the_room_is_left_out_and_every_report_says_so(capfd) -> None:
    big_kit()
    capfd.readouterr()
    assert bpy.ops.strew.assemble_room(size=(5, 4, 1), seed=3) == {'FINISHED'}
    assert f"Warning: {NOTE}" in capfd.readouterr().out.splitlines()  # the operator's report
    placed = module("scene.room_output").read_placed(room_collection())
    assert sorted(cell for cells in placed.covered() for cell in cells) == sorted(
        itertools.product(range(5), range(4), range(1)))
    assert "stair" not in set(placed.tiles) and "hall" in set(placed.tiles)
    room_job, rooms = module("scene.room_job"), module("operators.rooms")
    result = room_job.run_to_end(bpy.context.scene, room_job.RoomParams(kit="Big", size=(5, 4, 1), seed=3))
    window = _Reports()
    rooms.STREW_OT_assemble_room.report_done(window, result)  # what the modal run reports when its job ends
    assert window.reports[-1] == ('WARNING', NOTE) and window.reports[0][0] == 'INFO'
    assert bpy.ops.strew.assemble_room(size=(5, 4, 2), seed=3) == {'FINISHED'}
    assert "left out" not in capfd.readouterr().out


@pytest.mark.parametrize(("given", "message"), [
    (dict(fixed="stair 1 1 0"), "Fixed tile 'stair' covers 1 × 1 × 2 cells and fits the room of 5 × 4 × 1 cells"),
    (dict(counts="stair=1..3"), "Counts ask for at least 1 of 'stair'"),
    (dict(regions="up:0,0,0:1,1,0:stair:only"), "Region 'up' allows only 'stair'"),
])
def test_a_tile_the_room_needs_and_cannot_hold_is_refused_naming_it(given: dict, message: str) -> None:
    big_kit()
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as error:
        bpy.ops.strew.assemble_room(size=(5, 4, 1), seed=3, **given)
    text = str(error.value).strip()
    assert message in text and len(text.splitlines()) == 1, text
    assert scene_snapshot() == before


def test_the_command_line_says_what_it_left_out_and_refuses_what_the_room_needs(tmp_path) -> None:
    big_kit()
    kit, out = tmp_path / "kit.blend", tmp_path / "room.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(kit))
    said = succeeded(strew_run("room", kit, "--size", "5", "4", "1", "-o", out, cwd=tmp_path)).splitlines()
    assert f"Warning: {NOTE}" in said and said[-1].startswith("Strew Room: ")
    out.unlink()
    refused(strew_run("room", kit, "--size", "5", "4", "1", "--counts", "stair=2", "-o", out, cwd=tmp_path),
            "Counts ask for at least 2 of 'stair'")
    assert not out.exists()
