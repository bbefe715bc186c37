"""Labels that face the border: a socket that fits no tile but matches the room's Border, Below or Above label
is valid, and its tile stands only where that side faces the border; a socket that fits nothing anywhere is
named in the error."""

from __future__ import annotations

import numpy as np
import pytest
from wfc_check import adjacency_errors
from wfc_kits import ALL_TURNS, fits, turn_sockets

from strew.core.wfc import Rules, SocketTile, rules_from_tiles, solve
from strew.core.wfc.room import RoomSpec, room_problem

SIDE = {"n": "h", "e": "h", "s": "h", "w": "h"}
PAIRS = [("ceil", "floor")]


def roof_kit(extra=()):
    return [SocketTile("room", {**SIDE, "up": "ceil", "down": "floor"}, weight=2.0, walkable=True),
            SocketTile("roof", {**SIDE, "up": "sky", "down": "floor"}, walkable=True),
            SocketTile("ground", {**SIDE, "up": "ceil", "down": "earth"}), *extra]


def socket_check(rules, tiles, pairs):
    by_name = {t.name: t for t in tiles}
    sockets = [turn_sockets(by_name[rules.tiles[v]], rules.rotations[v]) for v in range(rules.count)]
    facing = {"e": ("e", "w"), "n": ("n", "s"), "up": ("up", "down")}
    return lambda d, a, b: fits(sockets[a].get(facing[d][0], ""), sockets[b].get(facing[d][1], ""), pairs)


@pytest.mark.parametrize("seed", range(3))
def test_a_roof_whose_up_socket_is_sky_stands_only_under_the_sky(seed):
    tiles = roof_kit()
    spec = RoomSpec(size=(5, 4, 3), seed=seed, border="h", border_bottom="earth", border_top="sky",
                    connected=False)
    problem = room_problem(tiles, PAIRS, spec)
    grid = problem.run().grid
    names = np.array(problem.rules.tiles)[grid]
    assert (names[:, :, 2] == "roof").all()  # only the roof fits the sky
    assert not (names[:, :, :2] == "roof").any()  # and nothing fits a roof's up inside the room
    assert (names[:, :, 0] == "ground").all()
    assert adjacency_errors(grid, socket_check(problem.rules, tiles, PAIRS)) == []
    assert problem.rules.edge_only is not None and problem.rules.edge_only["up"][problem.rules.index("roof")]


def test_without_the_above_label_the_sky_socket_is_an_error_that_names_it():
    spec = RoomSpec(size=(4, 4, 2), border="h", border_bottom="earth", border_top="")
    with pytest.raises(ValueError, match=r"'roof' side up socket 'sky'"):
        room_problem(roof_kit(), PAIRS, spec)


def test_the_error_names_only_what_fits_nothing_anywhere():
    moon = SocketTile("tower", {**SIDE, "up": "moon", "down": "floor"})
    spec = RoomSpec(size=(4, 4, 3), border="h", border_bottom="earth", border_top="sky")
    with pytest.raises(ValueError) as error:
        room_problem(roof_kit([moon]), PAIRS, spec)
    message = str(error.value)
    assert "'tower' side up socket 'moon'" in message
    assert "'roof' side up" not in message and "border labels (" in message


STEPS = {"e": (1, 0), "n": (0, 1), "w": (-1, 0), "s": (0, -1)}


@pytest.mark.parametrize("seed", range(3))
def test_a_window_facing_out_stands_only_on_the_outer_walls(seed):
    """A horizontal case: the east window's ``out`` fits no tile (no tile has ``out`` on its west side), only
    the Border label, so windows stand only on the east wall."""
    open_ = {"n": "o", "e": "o", "s": "o", "w": "o"}
    tiles = [SocketTile("floor", open_, weight=3.0),
             SocketTile("wall", {**open_, "e": "x"}, rotations=ALL_TURNS),
             SocketTile("window", {**open_, "e": "out"}, weight=2.0),
             SocketTile("corner", {**open_, "e": "x", "n": "x"}, rotations=ALL_TURNS)]
    rules = rules_from_tiles(tiles, border_labels={side: ["x", "out"] for side in "nesw"})
    outside = {side: np.array([s[side] in ("x", "out") for s in rules.sockets]) for side in "nesw"}
    grid = solve(rules, (7, 6), seed=seed, border=outside)
    windows = 0
    for (x, y), v in np.ndenumerate(grid):
        for side, (dx, dy) in STEPS.items():
            if rules.sockets[v][side] == "out":  # the side that fits no tile faces the border
                assert not (0 <= x + dx < 7 and 0 <= y + dy < 6), (rules.name(v), (x, y), side)
        windows += rules.tiles[v] == "window"
    assert windows > 0 and rules.edge_only is not None and list(rules.edge_only) == ["e"]
    assert adjacency_errors(grid, socket_check(rules, tiles, ())) == []


def test_rules_made_by_hand_mark_sides_that_meet_only_the_border():
    up = np.array([[True, False], [False, False]])  # variant 1 has nothing above it
    allowed = {"e": np.ones((2, 2), dtype=bool), "n": np.ones((2, 2), dtype=bool), "up": up | up.T * 0}
    allowed["up"] = np.array([[True, True], [False, False]])
    with pytest.raises(ValueError, match=r"no possible neighbour on a side.*up: '1'"):
        Rules(weights=np.ones(2), allowed=allowed)
    rules = Rules(weights=np.ones(2), allowed=allowed, edge_only={"up": [False, True]})
    for seed in range(3):
        grid = solve(rules, (3, 3, 4), seed=seed)
        assert not (grid[:, :, :-1] == 1).any()
