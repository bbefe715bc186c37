"""Separation, Max Run and Symmetry through the Assemble Room operator, the panel's fields and the command line:
each room read back from the scene and checked apart from the solver (every pair's distance, every row scanned,
every placed tile's world-space vertices mirrored onto its mirror cell's)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import bpy
import numpy as np
import pytest
from cli_process import refused, strew_run, succeeded
from rooms_check import read_room
from rooms_kits import check_room, plane, road_kit

CELL = (3.0, 3.0, 1.0)


def streets_with_dead_ends() -> bpy.types.Collection:
    """The flat road kit and a dead end that points east, mirrored for west (its asphalt mark follows its socket)."""
    kit = road_kit()
    dead_end = plane("dead end", kit, 3.0, marks=[(-0.5, 1.5, -0.5, 0.5)])
    dead_end["strew_sockets"] = {"n": "verge", "e": "asphalt", "s": "verge", "w": "verge"}
    dead_end["strew_rotations"] = [0]
    dead_end["strew_mirror"] = True
    dead_end["strew_weight"] = 2.0
    kit["strew_cell_size"] = CELL
    return kit


def cells_of(room: dict, tile: str) -> list[tuple[int, int, int]]:
    return [cell for cell, (name, _turn, _placed) in room.items() if name == tile]


def world_vertices(kit: bpy.types.Collection, tile: str, matrix: np.ndarray) -> np.ndarray:
    """The tile's mesh vertices where the placed copy puts them, rounded to a tenth of a millimetre, sorted."""
    mesh = kit.objects[tile].data
    local = np.array([(*v.co, 1.0) for v in mesh.vertices])
    world = (matrix @ local.T).T[:, :3]
    return np.array(sorted(map(tuple, np.round(world, 4))))


@pytest.mark.parametrize("size", [(8, 6, 1), (7, 5, 1)])
def test_a_symmetric_room_is_its_own_mirror_vertex_by_vertex(size: tuple[int, int, int]) -> None:
    kit = streets_with_dead_ends()
    origin = (1.0, -2.0, 0.0)
    mirrored_seen = False
    for seed in range(2):
        assert bpy.ops.strew.assemble_room(kit=kit.name, size=size, seed=seed, origin=origin,
                                           symmetry='XY') == {'FINISHED'}
        room = check_room(kit, size, origin, CELL, set())["room"]
        middle = [origin[axis] + CELL[axis] * (size[axis] - 1) / 2 for axis in range(2)]
        for (x, y, z), (tile, _turn, placed) in room.items():
            mine = world_vertices(kit, tile, placed.matrix_world)
            for axis, other in ((0, (size[0] - 1 - x, y, z)), (1, (x, size[1] - 1 - y, z))):
                twin, _t, twin_placed = room[other]
                flipped = world_vertices(kit, twin, twin_placed.matrix_world)
                flipped[:, axis] = 2 * middle[axis] - flipped[:, axis]
                assert np.array_equal(mine, np.array(sorted(map(tuple, np.round(flipped, 4))))), ((x, y), axis)
            mirrored_seen |= placed.mirrored
    assert mirrored_seen, "the dead end's mirror (pointing west) should stand opposite a dead end"


def test_separation_and_max_run_from_the_panels_fields() -> None:
    kit = streets_with_dead_ends()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.separation, settings.max_runs = kit, "junction=4", "verge=3"
    for seed in range(3):
        assert bpy.ops.strew.assemble_room(size=(10, 8, 1), seed=seed, counts="junction=2..*") == {'FINISHED'}
        room = check_room(kit, (10, 8, 1), (0, 0, 0), CELL, set())["room"]
        junctions = cells_of(room, "junction")
        assert len(junctions) >= 2
        assert min(math.dist(a, b) for a, b in itertools.combinations(junctions, 2)) >= 4
        verge = np.zeros((10, 8), dtype=bool)
        for x, y, _z in cells_of(room, "verge"):
            verge[x, y] = True
        for line in [*verge, *verge.T]:
            run = 0
            for value in line:
                run = run + 1 if value else 0
                assert run <= 3


@pytest.mark.parametrize(("options", "message"), [
    (dict(separation="junction"), "separation: write TILE=N"),
    (dict(max_runs="temple=3"), "max run: no tile named 'temple'; the kit has bend, dead end, junction, street"),
    (dict(separation="junction=9", counts="junction=4"), "Counts ask for 4 of 'junction' and at most 1"),
])
def test_bad_settings_report_one_line_and_leave_the_scene_unchanged(options: dict, message: str) -> None:
    kit = streets_with_dead_ends()
    before = {obj.name for obj in bpy.data.objects}
    with pytest.raises(RuntimeError, match=message) as error:
        bpy.ops.strew.assemble_room(kit=kit.name, size=(6, 6, 1), **options)
    assert "\n" not in str(error.value).strip()
    assert {obj.name for obj in bpy.data.objects} == before


def test_the_command_line_takes_separate_max_run_and_symmetry(tmp_path: Path) -> None:
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size = streets_with_dead_ends(), (9, 6, 1)
    source, out = tmp_path / "kit.blend", tmp_path / "room.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(source))
    succeeded(strew_run("room", source, "--seed", "4", "--separate", "junction:5", "--max-run", "verge:3",
                        "--symmetry", "x", "--counts", "junction=2..*", "-o", out, cwd=tmp_path))
    bpy.ops.wm.open_mainfile(filepath=str(out))
    room = read_room()
    names = np.empty((9, 6), dtype=object)
    for (x, y, _z), (tile, _turn, placed) in room.items():
        names[x, y] = tile + ("~" if placed.mirrored else "")
    junctions = cells_of(room, "junction")
    assert len(junctions) >= 2 and min(math.dist(a, b) for a, b in itertools.combinations(junctions, 2)) >= 5
    flipped = np.array([[name.removesuffix("~") if name.endswith("~") else name + "~" if name == "dead end" else name
                         for name in column] for column in names[::-1]])
    assert np.array_equal(names, flipped)
    refused(strew_run("room", source, "--separate", "junction", "-o", out, cwd=tmp_path),
            "--separate 'junction': separation: write TILE=N")
    refused(strew_run("room", source, "--max-run", "temple:3", "-o", out, cwd=tmp_path),
            "max run: no tile named 'temple'")


def test_an_mxgmn_tileset_refuses_them_in_one_line(tmp_path: Path) -> None:
    from test_rooms_tools import KNOTS

    path = tmp_path / "Knots.xml"
    path.write_text(KNOTS)
    assert bpy.ops.strew.import_mxgmn(filepath=str(path)) == {'FINISHED'}
    for options in (dict(symmetry='X'), dict(separation="line=3"), dict(max_runs="line=2")):
        with pytest.raises(RuntimeError, match="leave Separation and Max Run empty and Symmetry at None"):
            bpy.ops.strew.assemble_room(size=(9, 8, 1), seed=1, periodic=True, **options)
    assert bpy.ops.strew.assemble_room(size=(9, 8, 1), seed=1, periodic=True) == {'FINISHED'}
