"""Regions on the command line (``python -m strew room --region …``, ``--no-regions``) and in the operator's
``regions`` text: they replace the file's list for the room (the list itself stays), the room is read back cell by
cell, and bad text is one line on stderr, exit code 2 and nothing written. Each command runs in its own process."""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from cli_process import refused, strew_run, succeeded
from rooms_check import placed_tiles, read_room, violations
from rooms_kits import hand_kit

SIZE = (10, 8, 1)
LAWN = ("lawn", (0, 0, 0), (9, 7, 0))  # the file's own region: grass only, the whole room


@pytest.fixture
def kit_file(tmp_path: Path) -> Path:
    """The road kit with the panel set for a closed 10 x 8 room and one region of its own: grass only everywhere."""
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.size = hand_kit(), True, "grass", SIZE
    region = settings.regions.add()
    region.name, region.box_min, region.box_max, region.tiles, region.only = *LAWN, "grass", True
    path = tmp_path / "kit.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _in_box(cell, low, high) -> bool:
    return all(a <= c <= b for a, c, b in zip(low, cell, high, strict=True))


def _room_of(path: Path) -> dict:
    bpy.ops.wm.open_mainfile(filepath=str(path))
    room = read_room()
    assert sorted(room) == sorted(
        (x, y, z) for x in range(SIZE[0]) for y in range(SIZE[1]) for z in range(SIZE[2]))
    assert violations(placed_tiles(room, bpy.data.collections["Roads"]), SIZE, set()) == []
    return room


def test_regions_given_replace_the_files_and_keep_their_tiles_out_cell_by_cell(kit_file: Path) -> None:
    out = kit_file.parent / "room.blend"
    succeeded(strew_run("room", kit_file, "--seed", "3", "--region", "calm:2,1,0:7,6,0:turn=0, cross=0",
               "--region", " park : 0 0 0 : 1,7,0 : grass : only ", "-o", out, cwd=kit_file.parent))
    room = _room_of(out)
    outside = set()
    for cell, (tile, _turn, _placed) in room.items():
        if _in_box(cell, (2, 1, 0), (7, 6, 0)):
            assert tile not in ("turn", "cross"), (cell, tile)
        elif _in_box(cell, (0, 0, 0), (1, 7, 0)):
            assert tile == "grass", (cell, tile)
        else:
            outside.add(tile)
    assert {tile for tile, _t, _p in room.values()} != {"grass"}  # the file's lawn is not used
    assert "turn" in outside or "cross" in outside  # kept out of the box only
    regions = bpy.context.scene.strew.room.regions  # the file's list itself is kept
    assert [(r.name, tuple(r.box_min), tuple(r.box_max), r.tiles, r.only) for r in regions] == [
        (*LAWN, "grass", True)]


def test_no_regions_drops_the_files_list_and_without_either_the_file_keeps_it(kit_file: Path) -> None:
    dropped, kept = kit_file.parent / "dropped.blend", kit_file.parent / "kept.blend"
    succeeded(strew_run("room", kit_file, "--seed", "3", "--no-regions", "-o", dropped, cwd=kit_file.parent))
    assert {tile for tile, _t, _p in _room_of(dropped).values()} != {"grass"}
    succeeded(strew_run("room", kit_file, "--seed", "3", "-o", kept, cwd=kit_file.parent))
    assert {tile for tile, _t, _p in _room_of(kept).values()} == {"grass"}


def test_the_operators_regions_text_replaces_the_panels_list(kit_file: Path) -> None:
    bpy.ops.wm.open_mainfile(filepath=str(kit_file))
    assert bpy.ops.strew.assemble_room(seed=2, regions="calm:2,1,0:7,6,0:turn=0, cross=0; x:0,0,0:0,0,0:grass:only"
                                       ) == {'FINISHED'}
    room = read_room()
    assert {tile for tile, _t, _p in room.values()} != {"grass"}
    assert not [cell for cell, (tile, _t, _p) in room.items()
                if _in_box(cell, (2, 1, 0), (7, 6, 0)) and tile in ("turn", "cross")]
    assert bpy.ops.strew.assemble_room(seed=2, regions="") == {'FINISHED'}
    assert {tile for tile, _t, _p in read_room().values()} != {"grass"}
    assert bpy.ops.strew.assemble_room(seed=2) == {'FINISHED'}
    assert {tile for tile, _t, _p in read_room().values()} == {"grass"}


BAD = [
    (["--region", "park:0,0,0:1,1,0"], "region 'park:0,0,0:1,1,0': write NAME:X,Y,Z:X,Y,Z:TILES[:only][:weight=W]"),
    (["--region", ":0,0,0:1,1,0:grass:only"], "write NAME:X,Y,Z:X,Y,Z:TILES"),
    (["--region", "park:0,0:1,1,0:grass:only"], "the corner '0,0' is not a cell; write X,Y,Z"),
    (["--region", "park:0,0,0:1,-1,0:grass:only"], "the corner '1,-1,0' is not a cell"),
    (["--region", "park:0,0,0:1,1,0:grass:onyl"], "'onyl' is neither 'only' nor 'weight=W'"),
    (["--region", "park:0,0,0:1,1,0:grass:weight=nan"], "'weight=nan' is neither 'only' nor 'weight=W'"),
    (["--region", "park:0,0,0:1,1,0:grass=lots"], "Region 'park': write its tiles as TILE or TILE=FACTOR"),
    (["--region", "park:0,0,0:1,1,0: , :only"], "Region 'park': list the tiles it allows or weighs"),
    (["--region", "park:0,0,0:1,1,0:grass"], "Region 'park' changes nothing"),
    (["--region", "park:0,0,0:12,1,0:grass:only"],
     "Region 'park': its box (0, 0, 0) – (12, 1, 0) reaches outside the room of (10, 8, 1) cells"),
    (["--region", "park:0,0,0:1,1,0:grass, lava:only"], "Region 'park': no tile named 'lava' in the kit"),
    (["--region", "park:0,0,0:1,1,0:grass:only", "--no-regions"], "not allowed with argument"),
]


@pytest.mark.parametrize(("given", "message"), BAD, ids=[" ".join(g) for g, _ in BAD])
def test_bad_regions_are_one_line_exit_two_and_nothing_written(kit_file: Path, given: list[str],
                                                                 message: str) -> None:
    out = kit_file.parent / "room.blend"
    refused(strew_run("room", kit_file, *given, "-o", out, cwd=kit_file.parent), message)
    assert not out.exists()
