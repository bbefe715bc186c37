"""Tile Rooms' entrances in real Blender: the panel's list reaches the solve (the placed tiles at the entrances are
walkable and, by a flood fill over the placed tiles' own walkable and passable sides, in one region), Pick Cell,
Regenerate Box, save and reload, the command line, and bad input in one line with the scene unchanged."""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from rooms_check import placed_tiles, read_room, walkable_regions
from rooms_kits import check_room, demo_kit, hand_kit, module, pairs
from scenes import scene_snapshot

ROADS = (9, 7, 1)
GATES = ((0, 0, 0), (8, 6, 0), (4, 3, 0), (8, 0, 0))


def _roads_panel(kit: bpy.types.Collection, cells=GATES) -> bpy.types.PropertyGroup:
    """The hand kit in the panel, closed by grass, connectivity off; the entrances added with the list's +."""
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.connected = kit, True, "grass", False
    settings.size = ROADS
    for cell in cells:
        assert bpy.ops.strew.entrance_add() == {'FINISHED'}
        settings.entrances[settings.active_entrance_index].cell = cell
    return settings


def _check_entrances(kit: bpy.types.Collection, shape, cells, **borders) -> dict:
    """Every entrance holds a walkable tile, and one walkable region (BFS over the placed tiles) holds them all."""
    tiles = check_room(kit, shape, borders.pop("origin", (0, 0, 0)), borders.pop("cell_size"), **borders)["tiles"]
    assert all(tiles[cell]["walkable"] for cell in cells), [tiles[cell] for cell in cells]
    regions = walkable_regions(tiles)
    assert any(set(cells) <= region for region in regions), regions
    return {"tiles": tiles, "regions": regions}


@pytest.mark.parametrize("seed", range(3))
def test_the_panels_entrances_are_walkable_and_joined(seed: int) -> None:
    kit = hand_kit()
    settings = _roads_panel(kit)
    settings.seed = seed
    assert [tuple(item.cell) for item in settings.entrances] == list(GATES)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    found = _check_entrances(kit, ROADS, GATES, cell_size=(2.0, 2.0, 1.0), pairs=set(), border=["grass"])
    assert len(found["regions"]) == 1  # entrances join every walkable cell, All Walkable Connected or not


def test_entrances_on_two_storeys_of_the_demo_kit_are_joined_through_stairs() -> None:
    kit = demo_kit()
    doors = ((1, 1, 0), (10, 10, 1), (6, 0, 0))
    text = "; ".join(" ".join(str(c) for c in cell) for cell in doors)
    assert bpy.ops.strew.assemble_room(size=(12, 12, 2), seed=2, connected=False, entrances=text) == {'FINISHED'}
    found = _check_entrances(kit, (12, 12, 2), doors, cell_size=(4.0, 4.0, 3.0),
                             pairs=pairs(kit["strew_compatible"]), border=["wall", "window"], bottom="ground",
                             top="sky")
    region = next(r for r in found["regions"] if set(doors) <= r)
    assert {z for _, _, z in region} == {0, 1}


def test_the_same_cell_twice_counts_once_and_the_list_is_kept_in_the_file(tmp_path: Path) -> None:
    kit = hand_kit()
    settings = _roads_panel(kit, cells=((2, 2, 0), (6, 4, 0), (2, 2, 0)))
    assert bpy.ops.strew.assemble_room(seed=4) == {'FINISHED'}
    first = {cell: value[:2] for cell, value in read_room().items()}
    path = tmp_path / "entrances.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.wm.open_mainfile(filepath=str(path))
    settings = bpy.context.scene.strew.room
    assert [tuple(item.cell) for item in settings.entrances] == [(2, 2, 0), (6, 4, 0), (2, 2, 0)]
    assert settings.active_entrance_index == 2
    assert bpy.ops.strew.assemble_room(seed=4) == {'FINISHED'}
    assert {cell: value[:2] for cell, value in read_room().items()} == first
    settings.entrances.remove(2)  # the duplicate counted once: the same room without it
    assert bpy.ops.strew.assemble_room(seed=4) == {'FINISHED'}
    assert {cell: value[:2] for cell, value in read_room().items()} == first
    _check_entrances(bpy.data.collections["Roads"], ROADS, ((2, 2, 0), (6, 4, 0)), cell_size=(2.0, 2.0, 1.0),
                     pairs=set(), border=["grass"])


def test_add_and_remove_follow_the_one_list_pattern() -> None:
    settings = bpy.context.scene.strew.room
    assert not bpy.ops.strew.entrance_remove.poll()
    for cell in ((1, 1, 0), (2, 2, 0), (3, 3, 0)):
        assert bpy.ops.strew.entrance_add() == {'FINISHED'}
        settings.entrances[settings.active_entrance_index].cell = cell
    settings.active_entrance_index = 0
    assert bpy.ops.strew.entrance_add() == {'FINISHED'}  # after the active one, and made active
    assert settings.active_entrance_index == 1 and tuple(settings.entrances[1].cell) == (0, 0, 0)
    assert bpy.ops.strew.entrance_remove() == {'FINISHED'}
    assert [tuple(e.cell) for e in settings.entrances] == [(1, 1, 0), (2, 2, 0), (3, 3, 0)]
    assert settings.active_entrance_index == 1


def test_pick_cell_sets_the_active_entrance_and_is_a_viewport_tool() -> None:
    room_pick = module("operators.room_pick")
    kit = hand_kit()
    settings = _roads_panel(kit, cells=())
    message = room_pick.set_entrance(settings, (3, 2, 0))  # what a click does: a new entrance when none is active
    assert [tuple(e.cell) for e in settings.entrances] == [(3, 2, 0)] and message == "Entrance 1: cell (3, 2, 0)"
    assert bpy.ops.strew.entrance_add() == {'FINISHED'}
    assert room_pick.set_entrance(settings, (5, 1, 0)) == "Entrance 2: cell (5, 1, 0)"
    settings.active_entrance_index = 0
    room_pick.set_entrance(settings, (4, 4, 0))
    assert [tuple(e.cell) for e in settings.entrances] == [(4, 4, 0), (5, 1, 0)]
    assert room_pick.set_box(settings, (5, 1, 0), (2, 3, 0)) == "Box (2, 1, 0) – (5, 3, 0): 12 cell(s)"
    assert not bpy.ops.strew.pick_room_cell.poll()  # no room to click on yet
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError, match="3D Viewport"):
        bpy.ops.strew.pick_room_cell()  # the background has no 3D Viewport to click in
    assert scene_snapshot() == snapshot


def test_regenerate_box_keeps_an_entrance_inside_the_box_walkable_and_joined() -> None:
    kit = hand_kit()
    settings = _roads_panel(kit, cells=((0, 0, 0), (4, 3, 0)))
    settings.seed = 1
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    before = read_room()
    for seed in (2, 3, 4):
        assert bpy.ops.strew.regenerate_room_box(box_min=(2, 1, 0), box_max=(6, 5, 0), seed=seed) == {'FINISHED'}
        after = read_room()
        assert all(after[c][:2] == before[c][:2] for c in after if not (2 <= c[0] <= 6 and 1 <= c[1] <= 5))
        tiles = placed_tiles(after, kit)
        assert tiles[(4, 3, 0)]["walkable"] and tiles[(0, 0, 0)]["walkable"]
        assert len(walkable_regions(tiles)) == 1


def _outside() -> str:
    settings = bpy.context.scene.strew.room
    settings.entrances.add().cell = (40, 0, 0)
    return "entrance (40, 0, 0) is outside the room of (6, 6, 1) cells"


def _no_walkable_tile() -> str:
    bpy.context.scene.strew.room.entrances.add().cell = (2, 2, 0)
    for obj in bpy.data.collections["Roads"].objects:
        obj["strew_walkable"] = False
    return "Entrances need a walkable tile and the kit has none"


def _fixed_grass() -> str:
    settings = bpy.context.scene.strew.room
    settings.entrances.add().cell = (2, 2, 0)
    item = settings.fixed.add()
    item.tile, item.cell = bpy.data.objects["grass"], (2, 2, 0)
    return "Entrance (2, 2, 0) holds the fixed tile 'grass', which is not walkable"


@pytest.mark.parametrize("spoil", [_outside, _no_walkable_tile, _fixed_grass])
def test_bad_entrances_are_one_line_and_leave_the_scene_unchanged(spoil) -> None:
    kit = hand_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.size = kit, True, "grass", (6, 6, 1)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}  # an earlier room must survive a failed run
    message = spoil()
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.assemble_room()
    assert message in str(failure.value) and len(str(failure.value).strip().splitlines()) == 1
    assert scene_snapshot() == before
    assert len(read_room()) == 36


def test_bad_entrance_text_of_a_script_is_one_line() -> None:
    kit = hand_kit()
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=r"entrances: write each cell as X Y Z .* cannot read '1 2'"):
        bpy.ops.strew.assemble_room(kit=kit.name, size=(4, 4, 1), entrances="0 0 0; 1 2")
    assert scene_snapshot() == before


def _kit_file(tmp_path: Path, cells=()) -> Path:
    kit = hand_kit("Tiles")
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.connected = kit, True, "grass", False
    for cell in cells:
        settings.entrances.add().cell = cell
    path = tmp_path / "kit.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _command_line_room(path: Path, shape, cells) -> None:
    bpy.ops.wm.open_mainfile(filepath=str(path))
    _check_entrances(bpy.data.collections["Tiles"], shape, cells, cell_size=(2.0, 2.0, 1.0), pairs=set(),
                     border=["grass"])


def test_command_line_entrances_and_the_files_own(tmp_path: Path, capsys) -> None:
    cli = module("cli")
    kit_path = _kit_file(tmp_path, cells=((1, 1, 0), (6, 5, 0)))
    out = tmp_path / "room.blend"
    capsys.readouterr()
    assert cli.main(["room", str(kit_path), "--size", "9", "7", "1", "--seed", "3", "--entrance", "0,0,0",
                     "--entrance", "8, 6, 0", "--entrance", "4 3 0", "--entrance", "0,0,0", "-o", str(out)]) == 0
    _command_line_room(out, (9, 7, 1), ((0, 0, 0), (8, 6, 0), (4, 3, 0)))
    assert cli.main(["room", str(kit_path), "--size", "9", "7", "1", "--seed", "3", "-o", str(out)]) == 0
    _command_line_room(out, (9, 7, 1), ((1, 1, 0), (6, 5, 0)))  # without --entrance: the file's list


@pytest.mark.parametrize("args, message", [
    (["--entrance", "1,2"], "--entrance '1,2': write X,Y,Z (three whole numbers from 0), e.g. --entrance 0,5,0"),
    (["--entrance", "1,-2,0"], "--entrance '1,-2,0': write X,Y,Z"),
    (["--entrance", "a,b,c"], "--entrance 'a,b,c': write X,Y,Z"),
    (["--entrance", "0,0,0", "--entrance", "9,0,0"], "entrance (9, 0, 0) is outside the room of (9, 7, 1) cells"),
])
def test_command_line_refuses_bad_entrances_with_one_line_and_exit_2(tmp_path: Path, capsys, args, message) -> None:
    cli = module("cli")
    kit_path = _kit_file(tmp_path)
    out = tmp_path / "room.blend"
    capsys.readouterr()
    assert cli.main(["room", str(kit_path), "--size", "9", "7", "1", *args, "-o", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and message in error and "Traceback" not in error, error
    assert not out.exists()


def test_command_line_help_names_the_entrance_option(capsys) -> None:
    with pytest.raises(SystemExit):
        module("cli").build_parser().parse_args(["room", "--help"])
    assert "--entrance X,Y,Z" in capsys.readouterr().out


class _RecordingLayout:
    """Stands in for a UILayout and keeps every label: ``(text, translate, icon)``."""

    def __init__(self) -> None:
        self.labels: list[tuple[str, bool, str]] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self

    def label(self, text: str = "", translate: bool = True, icon: str = 'NONE', **kwargs) -> None:
        self.labels.append((text, translate, icon))


def test_the_list_marks_an_entrance_outside_the_room_and_the_panel_says_what_entrances_imply() -> None:
    panels = module("panels.rooms")
    settings = bpy.context.scene.strew.room
    settings.size, settings.connected = (6, 5, 2), False
    inside, outside = settings.entrances.add(), settings.entrances.add()
    inside.cell, outside.cell = (5, 4, 1), (5, 5, 0)
    layout = _RecordingLayout()
    for item in (inside, outside):
        panels.STREW_UL_entrances.draw_item(None, None, layout, settings, item, 0, settings, "active_entrance_index")
    assert layout.labels == [("(5, 4, 1)", False, 'PIVOT_CURSOR'), ("(5, 5, 0) is outside the room", False, 'ERROR')]
    context = type("Context", (), {"scene": bpy.context.scene})()
    layout = _RecordingLayout()
    panels.STREW_PT_rooms_entrances.draw(type("Panel", (), {"layout": layout})(), context)
    assert ("Entrances join all walkable cells", True, 'INFO') in layout.labels
    settings.connected = True
    layout = _RecordingLayout()
    panels.STREW_PT_rooms_entrances.draw(type("Panel", (), {"layout": layout})(), context)
    assert not layout.labels
