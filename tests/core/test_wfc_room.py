"""The room problem without Blender: settings validated, parsed and turned into a solve, checked by brute force."""

from __future__ import annotations

import numpy as np
import pytest
from wfc_check import adjacency_errors, walkable_regions
from wfc_kits import ALL_TURNS, fits, stair_tiles, turn_sockets

from strew.core.steps import run_to_end
from strew.core.wfc import SocketTile
from strew.core.wfc.room import (
    BORDER_LABEL,
    DEFAULT_BORDER,
    FixedTile,
    RoomInputError,
    RoomSpec,
    parse_fixed,
    room_problem,
)
from strew.core.wfc.vocab import ROOM_HEURISTICS, Heuristic

FACING = {"e": "w", "n": "s", "up": "down"}


def socket_errors(problem, tiles, pairs=()):
    """Adjacencies whose sockets do not fit, from the tiles' own sockets turned independently (and mirrored
    by hand for the variants marked reflected)."""
    rules = problem.rules
    by_name = {t.name: t for t in tiles}

    def sockets(v):
        tile = by_name[rules.tiles[v]]
        if rules.reflected[v]:
            raise AssertionError("these kits have no mirrored tiles")
        return turn_sockets(tile, rules.rotations[v])

    return lambda d, a, b: fits(sockets(a)[d], sockets(b)[FACING[d]], pairs)


@pytest.mark.parametrize("kwargs, match", [
    ({"size": (0, 0, 0)}, "size must be ≥ 1"),
    ({"size": (-3, 4, 1)}, "size must be ≥ 1"),
    ({"size": (2.5, 4, 1)}, "whole cell counts"),
    ({"size": (4, 4)}, "whole cell counts"),
    ({"seed": 1.5}, "seed"),
    ({"max_restarts": -1}, "max_restarts"),
    ({"time_limit": "1"}, "time limit"),
    ({"time_limit": 0}, "time limit"),
    ({"heuristic": "fast"}, "heuristic"),
    ({"heuristic": Heuristic.GROW}, "AUTO | ENTROPY | MRV | SCANLINE"),
    ({"heuristic": None}, "heuristic"),
    ({"counts": "entrance"}, "TILE=N"),
    ({"fixed": (FixedTile("room", 45, (0, 0, 0)),)}, "rotation must be"),
    ({"fixed": (FixedTile("room", 0, (9, 0, 0)),)}, "outside the grid"),
])
def test_room_spec_refuses_bad_settings_with_one_line(kwargs, match):
    with pytest.raises(RoomInputError, match=match) as error:
        RoomSpec(**{"size": (4, 4, 2), **kwargs})
    assert "\n" not in str(error.value) and error.value.template.format(**error.value.fields) == str(error.value)


def test_room_spec_defaults_are_the_declared_ones():
    """A room has no border unless one is given (the panel's Closed Room starts off); its heuristic is read in any
    case and kept as the one vocabulary."""
    spec = RoomSpec(size=(4, 4, 1))
    assert spec.border is DEFAULT_BORDER is None and spec.heuristic is Heuristic.AUTO
    for heuristic in ROOM_HEURISTICS:
        for given in (heuristic, str(heuristic), str(heuristic).lower(), str(heuristic).title()):
            assert RoomSpec(size=(4, 4, 1), heuristic=given).heuristic is heuristic
    tiles = stair_tiles()  # its sides are all "h": an open room assembles, one closed by "wall" cannot
    assert room_problem(tiles, [], RoomSpec(size=(4, 4, 2))).run().grid.shape == (4, 4, 2)
    with pytest.raises(RoomInputError, match=f"Border '{BORDER_LABEL}'"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border=BORDER_LABEL))


def test_parse_fixed():
    assert parse_fixed("door@90 0 5 0; big stair 3 3 1;") == (FixedTile("door", 90, (0, 5, 0)),
                                                             FixedTile("big stair", 0, (3, 3, 1)))
    for bad in ("door 1 2", "door@x 1 2 3", "@90 1 2 3", "door 1 2 z"):
        with pytest.raises(RoomInputError, match="TILE\\[@ROTATION\\] X Y Z"):
            parse_fixed(bad)


def test_two_storey_room_obeys_border_fixed_tiles_counts_and_connectivity():
    tiles = stair_tiles()
    for seed in range(3):
        spec = RoomSpec(size=(6, 5, 2), seed=seed, border="h", border_bottom="lvl", border_top="lvl",
                        connected=True, fixed=parse_fixed("room 0 0 0; stair@90 3 2 0"),
                        counts="stair=1..2")
        problem = room_problem(tiles, [], spec)
        grid = problem.run().grid
        rules = problem.rules
        assert grid.shape == (6, 5, 2)
        assert adjacency_errors(grid, socket_errors(problem, tiles)) == []
        assert rules.tiles[grid[0, 0, 0]] == "room"
        assert (rules.tiles[grid[3, 2, 0]], rules.rotations[grid[3, 2, 0]]) == ("stair", 90)
        assert 1 <= sum(rules.tiles[v] == "stair" for v in grid.reshape(-1)) <= 2
        walkable = rules.walkable_mask()
        assert walkable_regions(grid, walkable, lambda v, side, r=rules: bool(r.passable_mask(side)[v])) == 1


def test_one_storey_room_keeps_the_turns_that_fit_below_and_above():
    tiles = stair_tiles()
    problem = room_problem(tiles, [], RoomSpec(size=(5, 4, 1), border="h", border_bottom="lvl",
                                               border_top="lvl"))
    assert problem.rules.dims == 2 and set(problem.rules.tiles) == {"room", "rock"}
    seen: list = []
    assert run_to_end(problem.steps(), seen.append).grid.shape == (5, 4, 1)
    phases = [step.phase for step in seen]
    assert phases[0] == "setup" and phases[-1] == "done"
    with pytest.raises(RoomInputError, match="no tile fits Below"):
        room_problem(tiles, [], RoomSpec(size=(5, 4, 1), border_bottom="lava"))


def test_a_count_for_a_tile_a_one_storey_room_cannot_hold_says_why():
    tiles = stair_tiles()  # the stair's top and the landing's bottom fit no "lvl": one storey holds neither
    spec = dict(size=(5, 4, 1), border="h", border_bottom="lvl", border_top="lvl")
    with pytest.raises(RoomInputError, match=r"Counts ask for at least 3 of 'stair', but its bottom or top fits no "
                                             r"Below 'lvl' / Above 'lvl' label of a one-storey room; give the room "
                                             r"more storeys") as error:
        room_problem(tiles, [], RoomSpec(**spec, counts="stair=3"))
    assert "no tile named" not in str(error.value)
    problem = room_problem(tiles, [], RoomSpec(**spec, counts="stair=0..4; room=2..40"))  # no minimum: it holds
    assert set(problem.rules.tiles) == {"room", "rock"}
    with pytest.raises(RoomInputError, match="no tile named 'door'"):
        room_problem(tiles, [], RoomSpec(**spec, counts="door=1"))


def test_room_errors_name_what_to_change():
    tiles = stair_tiles()
    with pytest.raises(RoomInputError, match="Border 'wall': no tile has a n side"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border="wall"))
    with pytest.raises(RoomInputError, match="square cells"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border="h"), cell_size=(2.0, 3.0, 2.0))
    with pytest.raises(RoomInputError, match="'door' is not in the kit"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border="h", fixed=parse_fixed("door 0 0 0")))
    with pytest.raises(RoomInputError, match="cannot touch"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border="h", fixed=parse_fixed("stair 0 0 0; rock 0 0 1")))
    with pytest.raises(RoomInputError, match="two different tiles"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border="h", fixed=parse_fixed("room 1 1 0; rock 1 1 0")))
    with pytest.raises(RoomInputError, match="no tile named 'door'"):
        room_problem(tiles, [], RoomSpec(size=(4, 4, 2), border="h", counts="door=1"))


def test_a_mirrored_fixed_tile_pins_a_mirrored_variant():
    hook = SocketTile("hook", {"e": "a", "n": "b", "w": "b", "s": "b"}, rotations=ALL_TURNS, mirror=True)
    plain = SocketTile("plain", {"e": "b", "n": "b", "w": "b", "s": "b"})
    ends = SocketTile("end", {"e": "b", "n": "b", "w": "a", "s": "b"}, rotations=ALL_TURNS)
    problem = room_problem([hook, plain, ends], [], RoomSpec(size=(5, 5, 1), border="b",
                                                              fixed=parse_fixed("hook~@90 2 2 0")))
    grid = problem.run().grid
    v = int(grid[2, 2, 0])
    rules = problem.rules
    assert (rules.tiles[v], rules.rotations[v], rules.reflected[v]) == ("hook", 90, True)
    # mirrored then turned 90°: the "a" side that faced east faces west after the mirror, south after the turn
    assert rules.sockets[v]["s"] == "a"
    assert np.all([rules.matrix("e")[grid[x, y, 0], grid[x + 1, y, 0]] for x in range(4) for y in range(5)])
