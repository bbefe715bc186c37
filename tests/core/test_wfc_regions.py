"""Regions of a room without Blender: a box of cells that allows only some tiles or weighs them otherwise, checked
by brute force over the solved grid; outside the region the rules are the kit's own."""

from __future__ import annotations

import numpy as np
import pytest
from wfc_check import adjacency_errors
from wfc_kits import QUADRANT_PAIRS, fits, quadrant_tiles, stair_tiles, turn_sockets

from strew.core.wfc import Contradiction, SocketTile, rules_from_tiles, solve
from strew.core.wfc.layout import Region
from strew.core.wfc.room import (
    RoomInputError,
    RoomRegion,
    RoomSpec,
    parse_region,
    parse_region_tiles,
    parse_regions,
    room_problem,
)

FACING = {"e": "w", "n": "s", "up": "down"}
GROUND = ("grass", "sand", "rock", "water")


def free_tiles() -> list[SocketTile]:
    """Four tiles that fit anywhere (every side "g"), equal weights."""
    return [SocketTile(name, {side: "g" for side in "nesw"}) for name in GROUND]


def names(problem, grid) -> np.ndarray:
    return np.vectorize(lambda v: problem.rules.tiles[int(v)])(grid)


def sockets_ok(problem, tiles, pairs=()):
    by_name = {t.name: t for t in tiles}
    rules = problem.rules

    def ok(d, a, b):
        return fits(turn_sockets(by_name[rules.tiles[a]], rules.rotations[a])[d],
                    turn_sockets(by_name[rules.tiles[b]], rules.rotations[b])[FACING[d]], pairs)
    return ok


def test_parse_region_tiles():
    assert parse_region_tiles("hedge=3, pond, , stair=0", 2.0) == {"hedge": 3.0, "pond": 2.0, "stair": 0.0}
    for bad in ("hedge=x", "=3", "hedge=-1", "hedge=nan"):
        with pytest.raises(RoomInputError, match="TILE=FACTOR") as error:
            parse_region_tiles(bad)
        assert "\n" not in str(error.value)


@pytest.mark.parametrize("kwargs, match", [
    ({"tiles": ""}, "list the tiles it allows or weighs"),
    ({"tiles": "rock"}, "changes nothing: tick Only These Tiles"),
    ({"tiles": "rock=0", "only": True}, "allows no tile"),
    ({"tiles": "rock", "weight": -1.0}, "Weight must be a number ≥ 0"),
    ({"tiles": "rock=x"}, r"Region 'cellar': write its tiles as TILE or TILE=FACTOR .* cannot read 'rock=x'"),
    ({"tiles": "rock", "only": True, "low": (0, 0), "high": (1, 1, 0)}, "three whole numbers"),
    ({"tiles": "rock", "only": True, "cells": ((5, 5, 0),)}, "its cells must lie in its box"),
])
def test_a_region_refuses_bad_settings_in_one_line(kwargs, match):
    with pytest.raises(RoomInputError, match=match) as error:
        RoomRegion(**{"name": "cellar", "low": (0, 0, 0), "high": (2, 2, 0), **kwargs})
    assert "\n" not in str(error.value)


def test_a_region_outside_the_room_or_with_an_unknown_tile_is_refused():
    region = RoomRegion(name="wing", low=(4, 0, 0), high=(6, 2, 0), tiles="rock", only=True)
    with pytest.raises(RoomInputError, match=r"Region 'wing': its box \(4, 0, 0\) – \(6, 2, 0\) reaches outside the "
                                             r"room of \(5, 5, 1\) cells"):
        RoomSpec(size=(5, 5, 1), regions=(region,))
    with pytest.raises(RoomInputError, match="Region 'lawn': no tile named 'lava' in the kit"):
        room_problem(free_tiles(), [], RoomSpec(size=(5, 5, 1), regions=(
            RoomRegion(name="lawn", low=(0, 0, 0), high=(1, 1, 0), tiles="grass, lava", only=True),)))
    assert RoomRegion(low=(3, 4, 1), high=(1, 0, 0), tiles="a", only=True).low == (1, 0, 0)  # corners any order


def test_a_region_read_from_its_text_is_the_region_of_its_fields():
    assert parse_region(" cellar : 0 0 0 : 11,11,0 : rock, vault=2 : ONLY ") == RoomRegion(
        name="cellar", low=(0, 0, 0), high=(11, 11, 0), tiles={"rock": 1.0, "vault": 2.0}, only=True)
    assert parse_region("wing:5,0,0:2,3,1:hedge, pond=0:weight=4") == RoomRegion(
        name="wing", low=(2, 0, 0), high=(5, 3, 1), tiles={"hedge": 4.0, "pond": 0.0}, weight=4.0)
    assert [r.name for r in parse_regions("a:0,0,0:1,1,0:x:only;; b:0,0,0:0,0,0:y=2 ;")] == ["a", "b"]
    assert parse_regions("  ") == ()


@pytest.mark.parametrize("text, match", [
    ("cellar:0,0,0:1,1,0", r"region 'cellar:0,0,0:1,1,0': write NAME:X,Y,Z:X,Y,Z:TILES\[:only\]\[:weight=W\]"),
    (":0,0,0:1,1,0:rock:only", "write NAME:X,Y,Z"),
    ("cellar:0,0:1,1,0:rock:only", "the corner '0,0' is not a cell; write X,Y,Z"),
    ("cellar:0,0,0:a,1,0:rock:only", "the corner 'a,1,0' is not a cell"),
    ("cellar:0,0,0:1,1,0:rock:onyl", "'onyl' is neither 'only' nor 'weight=W'"),
    ("cellar:0,0,0:1,1,0:rock:weight=-1", "'weight=-1' is neither"),
    ("cellar:0,0,0:1,1,0:rock:weight=inf", "'weight=inf' is neither"),
    ("cellar:0,0,0:1,1,0:rock=x", "Region 'cellar': write its tiles as TILE or TILE=FACTOR"),
    ("cellar:0,0,0:1,1,0:rock", "Region 'cellar' changes nothing"),
])
def test_a_regions_text_that_cannot_be_read_is_one_line_naming_what_to_fix(text, match):
    with pytest.raises(RoomInputError, match=match) as error:
        parse_regions(f"fine:0,0,0:0,0,0:rock:only; {text}")
    assert "\n" not in str(error.value) and error.value.template.format(**error.value.fields) == str(error.value)


@pytest.mark.parametrize("seed", range(4))
def test_every_cell_of_a_region_holds_only_its_tiles_and_outside_the_rules_stay(seed):
    tiles = free_tiles()
    lawn = RoomRegion(name="lawn", low=(2, 1, 0), high=(6, 4, 0), tiles="grass, sand", only=True)
    pond = RoomRegion(name="pond", low=(8, 6, 0), high=(9, 7, 0), tiles="water", only=True)
    problem = room_problem(tiles, [], RoomSpec(size=(12, 9, 1), seed=seed, regions=(lawn, pond)))
    grid = names(problem, problem.run().grid)
    for x in range(12):
        for y in range(9):
            if 2 <= x <= 6 and 1 <= y <= 4:
                assert grid[x, y, 0] in ("grass", "sand"), (x, y)
            elif 8 <= x <= 9 and 6 <= y <= 7:
                assert grid[x, y, 0] == "water", (x, y)
    outside = [grid[x, y, 0] for x in range(12) for y in range(9)
               if not (2 <= x <= 6 and 1 <= y <= 4) and not (8 <= x <= 9 and 6 <= y <= 7)]
    assert {"rock", "water"} <= set(outside)  # what the lawn keeps out still grows around it


@pytest.mark.parametrize("seed", range(3))
def test_a_cellar_storey_without_stairs_keeps_the_sockets(seed):
    """Three storeys of the stair kit; the cellar (z = 0) takes rooms and rock only, so stairs start upstairs."""
    tiles = stair_tiles()
    cellar = RoomRegion(name="cellar", low=(0, 0, 0), high=(5, 4, 0), tiles="room, rock=3", only=True)
    problem = room_problem(tiles, [], RoomSpec(size=(6, 5, 3), seed=seed, border="h", border_bottom="lvl",
                                               border_top="lvl", regions=(cellar,)))
    raw = problem.run().grid
    grid = names(problem, raw)
    assert set(grid[:, :, 0].ravel()) <= {"room", "rock"}
    assert "landing" not in set(grid[:, :, 1].ravel())  # no stair below the first floor to land from
    assert adjacency_errors(raw, sockets_ok(problem, tiles)) == []


def _share(grid, name, xs) -> float:
    cells = grid[xs[0]:xs[1]]
    return float(np.count_nonzero(cells == name)) / cells.size


@pytest.mark.parametrize("factor", [6.0, 0.15])
def test_weights_shift_the_counts_inside_and_leave_the_outside_alone(factor):
    """Left half weighs rock by ``factor``: over several seeds rock grows (or shrinks) there, the right half
    keeps the kit's own shares (a quarter each)."""
    tiles = free_tiles()
    wing = RoomRegion(name="wing", low=(0, 0, 0), high=(7, 15, 0), tiles={"rock": factor})
    inside, outside = [], []
    for seed in range(6):
        problem = room_problem(tiles, [], RoomSpec(size=(16, 16, 1), seed=seed, regions=(wing,)))
        grid = names(problem, problem.run().grid)
        inside.append(_share(grid, "rock", (0, 8)))
        outside.append(_share(grid, "rock", (8, 16)))
    expected = factor / (factor + 3)
    assert abs(np.mean(inside) - expected) < 0.06, (np.mean(inside), expected)
    assert abs(np.mean(outside) - 0.25) < 0.06, np.mean(outside)
    assert (np.mean(inside) > np.mean(outside)) == (factor > 1)


def test_a_region_that_changes_no_rule_gives_the_same_grid_and_factor_zero_keeps_a_tile_out():
    rules = rules_from_tiles(free_tiles())
    box = np.zeros((10, 8), dtype=bool)
    box[2:7, 1:5] = True
    for seed in range(3):
        plain = solve(rules, (10, 8), seed=seed)
        same = solve(rules, (10, 8), seed=seed, constraints=[Region(box, np.ones(4, bool), np.ones(4))])
        assert np.array_equal(plain, same)
        none = solve(rules, (10, 8), seed=seed, constraints=[Region(box, None, np.array([1.0, 1.0, 0.0, 1.0]))])
        assert not (none[box] == rules.tiles.index("rock")).any()


def test_overlapping_regions_both_hold():
    tiles = free_tiles()
    a = RoomRegion(name="a", low=(0, 0, 0), high=(5, 5, 0), tiles="grass, sand", only=True)
    b = RoomRegion(name="b", low=(3, 3, 0), high=(8, 8, 0), tiles="sand, water", only=True)
    problem = room_problem(tiles, [], RoomSpec(size=(9, 9, 1), seed=2, regions=(a, b)))
    grid = names(problem, problem.run().grid)
    assert set(grid[3:6, 3:6, 0].ravel()) == {"sand"}


def test_an_impossible_region_is_the_solvers_explained_failure_in_one_line():
    """The cave kit walled all round: a corner region of open floor cannot meet the wall."""
    lake = RoomRegion(name="lake", low=(0, 0, 0), high=(1, 1, 0), tiles="floor", only=True)
    problem = room_problem(quadrant_tiles(), QUADRANT_PAIRS, RoomSpec(size=(8, 8, 1), border="xx", regions=(lake,)))
    with pytest.raises(Contradiction) as error:
        problem.run()
    message = str(error.value)
    assert "\n" not in message
    assert "before any choice" in message and "region 'lake', which allows only 'floor'" in message, message
    assert "allow tiles there that fit their neighbours, or move the region" in message
