"""A room's entrances without Blender: cells that hold a walkable tile and lie in one walkable region, checked by
brute force over the solved grid (the tiles' own walkable and passable sides, turned here, flood-filled here)."""

from __future__ import annotations

from collections import deque

import pytest
from wfc_kits import QUADRANT_PAIRS, TURN, quadrant_tiles, stair_tiles

from strew.core.wfc import SocketTile, solve
from strew.core.wfc.room import RoomInputError, RoomSpec, parse_cells, parse_fixed, room_problem

STEP = {"e": (1, 0, 0), "n": (0, 1, 0), "w": (-1, 0, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}
BACK = {"e": "w", "w": "e", "n": "s", "s": "n", "up": "down", "down": "up"}


def placed(problem, tiles) -> dict[tuple[int, int, int], tuple[bool, set[str]]]:
    """cell -> (walkable, passable sides) of the placed tile: its source tile's sides turned by its rotation."""
    rules, by_name = problem.rules, {t.name: t for t in tiles}
    grid = problem.run().grid
    out = {}
    for x in range(grid.shape[0]):
        for y in range(grid.shape[1]):
            for z in range(grid.shape[2]):
                v = int(grid[x, y, z])
                tile = by_name[rules.tiles[v]]
                assert not rules.reflected[v]
                passable = set(tile.passable if tile.passable is not None else ("n", "e", "s", "w"))
                for _ in range(rules.rotations[v] // 90):
                    passable = {TURN[side] for side in passable}
                out[(x, y, z)] = (tile.walkable, passable if tile.walkable else set())
    return out


def reached(cells: dict, start: tuple[int, int, int]) -> set:
    """Walkable cells reached from ``start`` through sides passable on both tiles (BFS)."""
    seen, queue = {start}, deque([start])
    while queue:
        cell = queue.popleft()
        for side in cells[cell][1]:
            other = tuple(c + d for c, d in zip(cell, STEP[side], strict=True))
            if other in cells and other not in seen and cells[other][0] and BACK[side] in cells[other][1]:
                seen.add(other)
                queue.append(other)
    return seen


def test_parse_cells():
    assert parse_cells("0 5 0; 11,5,1;  ; 2, 3 ,4") == ((0, 5, 0), (11, 5, 1), (2, 3, 4))
    assert parse_cells("") == ()
    for bad in ("1 2", "1 2 3 4", "a b c", "-1 0 0", "1.5 0 0"):
        with pytest.raises(RoomInputError, match="entrances: write each cell as X Y Z") as error:
            parse_cells(bad)
        assert "\n" not in str(error.value)


def test_entrances_outside_the_room_are_refused_and_the_same_cell_counts_once():
    with pytest.raises(RoomInputError, match=r"entrance \(6, 0, 0\) is outside the room of \(6, 5, 2\) cells; "
                                             r"cells run from \(0, 0, 0\) to \(5, 4, 1\)"):
        RoomSpec(size=(6, 5, 2), entrances=((0, 0, 0), (6, 0, 0)))
    for bad in ((1, 2), (1.5, 0, 0), (True, 0, 0), 3):
        with pytest.raises(RoomInputError, match="give three whole numbers"):
            RoomSpec(size=(6, 5, 2), entrances=(bad,))
    spec = RoomSpec(size=(6, 5, 2), entrances=((3, 1, 1), (0, 0, 0), (3, 1, 1)))
    assert spec.entrances == ((3, 1, 1), (0, 0, 0))


@pytest.mark.parametrize("seed", range(3))
def test_entrances_hold_walkable_tiles_joined_across_storeys(seed):
    """Connectivity left off: the entrances still get walkable tiles in one region (they imply it)."""
    tiles = stair_tiles()
    doors = ((0, 0, 0), (5, 4, 1), (2, 3, 1), (5, 0, 0))
    problem = room_problem(tiles, [], RoomSpec(size=(6, 5, 2), seed=seed, border="h", border_bottom="lvl",
                                               border_top="lvl", entrances=doors))
    assert problem.options["connected"] and problem.options["entrances"] == list(doors)
    cells = placed(problem, tiles)
    assert all(cells[door][0] for door in doors)
    region = reached(cells, doors[0])
    assert set(doors) <= region
    assert region == {cell for cell, (walkable, _) in cells.items() if walkable}  # every walkable cell joins


@pytest.mark.parametrize("seed", range(3))
def test_entrances_in_corners_of_a_closed_cave(seed):
    """The quadrant cave kit, walled all round: opposite corners become floor joined through the cave."""
    tiles = quadrant_tiles()
    doors = ((0, 0, 0), (11, 9, 0), (0, 9, 0))
    problem = room_problem(tiles, QUADRANT_PAIRS, RoomSpec(size=(12, 10, 1), seed=seed, border="xx",
                                                           entrances=doors))
    cells = placed(problem, tiles)
    assert all(cells[door][0] for door in doors)
    assert set(doors) <= reached(cells, doors[0])


def test_entrances_that_cannot_be_walkable_are_refused_in_one_line():
    tiles = stair_tiles()
    rock = [t for t in tiles if not t.walkable]
    with pytest.raises(RoomInputError, match="Entrances need a walkable tile and the kit has none: tick"):
        room_problem(rock, [], RoomSpec(size=(4, 4, 2), entrances=((1, 1, 0),)))
    with pytest.raises(RoomInputError, match="the kit has none that fits Below and Above: tick"):
        room_problem([*rock, tiles[2]], [], RoomSpec(size=(4, 4, 1), border_bottom="lvl", border_top="lvl",
                                                     entrances=((1, 1, 0),)))  # the stair's top fits no "lvl"
    with pytest.raises(RoomInputError, match=r"Entrance \(1, 1, 0\) holds the fixed tile 'rock', which is not "
                                             "walkable"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), entrances=((1, 1, 0),), fixed=parse_fixed("rock 1 1 0")))
    wall = SocketTile("wall", {"n": "wall", "e": "wall", "s": "wall", "w": "wall"})
    floor = SocketTile("floor", {"n": "open", "e": "open", "s": "open", "w": "open"}, walkable=True)
    edge = SocketTile("edge", {"n": "wall", "e": "open", "s": "wall", "w": "open"}, rotations=(0, 90, 180, 270))
    with pytest.raises(RoomInputError, match=r"Entrance \(0, 2, 0\): no walkable tile fits the room's border") as e:
        room_problem([wall, floor, edge], [], RoomSpec(size=(6, 5, 1), border="wall", entrances=((0, 2, 0),)))
    assert "\n" not in str(e.value)
    grid = room_problem([wall, floor, edge], [], RoomSpec(size=(6, 5, 1), seed=1,
                                                          entrances=((0, 2, 0),))).run().grid
    assert grid[0, 2, 0] == 1  # the floor, the one walkable tile (an open room: no border to fit)


def test_the_solver_names_an_entrance_no_walkable_variant_may_hold():
    wall = SocketTile("wall", {"n": "wall", "e": "wall", "s": "wall", "w": "wall"})
    floor = SocketTile("floor", {"n": "open", "e": "open", "s": "open", "w": "open"}, walkable=True)
    edge = SocketTile("edge", {"n": "wall", "e": "open", "s": "wall", "w": "open"}, rotations=(0, 90, 180, 270))
    from strew.core.wfc import rules_from_tiles

    rules = rules_from_tiles([wall, floor, edge])
    with pytest.raises(ValueError, match=r"entrances: no walkable variant may stand at cell \(0, 2\)"):
        solve(rules, (6, 5), border="wall", entrances=[(0, 2)])
