"""Growing a solved grid: the old cells stay exactly as they were, every new adjacency fits (checked with the
tiles' own labels turned by hand, not with the solver's matrices), the border holds on the grown grid."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wfc_kits import QUADRANT_PAIRS, fits, quadrant_tiles, turn_sockets

from strew.core.wfc import Contradiction, SocketTile, rules_from_tiles, solve
from strew.core.wfc.grow import GROW_SIDES, grow, grown_box, parse_grow
from strew.core.wfc.room_input import RoomInputError

STEP = {"e": (1, 0), "n": (0, 1)}
BACK = {"e": "w", "n": "s"}


def _labels(tiles, rules, variant: int) -> dict[str, str]:
    tile = next(t for t in tiles if t.name == rules.tiles[variant])
    return turn_sockets(tile, int(rules.rotations[variant]))


def _bad_pairs(tiles, rules, grid) -> list:
    bad = []
    for x, y in itertools.product(range(grid.shape[0]), range(grid.shape[1])):
        for side, (dx, dy) in STEP.items():
            if x + dx < grid.shape[0] and y + dy < grid.shape[1]:
                a = _labels(tiles, rules, int(grid[x, y]))[side]
                b = _labels(tiles, rules, int(grid[x + dx, y + dy]))[BACK[side]]
                if not fits(a, b, QUADRANT_PAIRS):
                    bad.append(((x, y), side, a, b))
    return bad


def _border_bad(tiles, rules, grid, label: str) -> list:
    sx, sy = grid.shape
    edges = {"w": [(0, y) for y in range(sy)], "e": [(sx - 1, y) for y in range(sy)],
             "s": [(x, 0) for x in range(sx)], "n": [(x, sy - 1) for x in range(sx)]}
    return [(cell, side) for side, cells in edges.items() for cell in cells
            if _labels(tiles, rules, int(grid[cell]))[side] != label]


@pytest.mark.parametrize("side", ["-X", "+X", "-Y", "+Y"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_grow_keeps_the_old_cells_and_fits_the_new_ones(side: str, seed: int) -> None:
    tiles = quadrant_tiles()
    rules = rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)
    old = solve(rules, (7, 6), seed=seed, border="xx")
    size, offset = grown_box((7, 6, 1), side, 3)
    new = grow(rules, old, size, offset, seed=seed + 10, border="xx", keep_walls=True)
    assert new.shape == size[:2]
    ox, oy = offset[:2]
    assert np.array_equal(new[ox:ox + 7, oy:oy + 6], old)
    assert _bad_pairs(tiles, rules, new) == []
    assert _border_bad(tiles, rules, new, "xx") == []


def test_grow_twice_and_on_a_closed_grid_keeps_every_earlier_cell() -> None:
    tiles = quadrant_tiles()
    rules = rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)
    first = solve(rules, (5, 5), seed=4, border="xx")
    size, offset = grown_box((5, 5, 1), "+Y", 4)
    second = grow(rules, first, size, offset, seed=1, border="xx", keep_walls=True)
    size2, offset2 = grown_box(size, "-X", 2)
    third = grow(rules, second, size2, offset2, seed=2, border="xx", keep_walls=True)
    assert np.array_equal(third[2:7, 0:5], first) and np.array_equal(third[2:, :], second)
    assert _bad_pairs(tiles, rules, third) == [] and _border_bad(tiles, rules, third, "xx") == []


def test_grow_refuses_when_the_old_edge_fits_nothing() -> None:
    cap = SocketTile("cap", {"n": "a", "e": "end", "s": "a", "w": "a"})
    fill = SocketTile("fill", {"n": "a", "e": "a", "s": "a", "w": "a"})
    rules = rules_from_tiles([cap, fill], border_labels={"e": ["end"]})  # "end" meets only the border
    old = np.full((3, 3), rules.index("fill"))
    old[2, :] = rules.index("cap")  # its east side says "end": no tile fits it
    with pytest.raises((Contradiction, ValueError)):
        grow(rules, old, (5, 3), (0, 0), seed=1)
    new = grow(rules, old, (5, 3), (2, 0), seed=1)  # the other side grows
    assert np.array_equal(new[2:], old)


def test_grow_box_and_its_text() -> None:
    assert grown_box((4, 3, 2), "-z", 1) == ((4, 3, 3), (0, 0, 1))
    assert grown_box((4, 3, 2), "+y", 5) == ((4, 8, 2), (0, 0, 0))
    assert parse_grow(" +x:3") == ("+X", 3) and set(GROW_SIDES) == {"-X", "+X", "-Y", "+Y", "-Z", "+Z"}
    for text in ("x:3", "+X", "+X:0", "+X:two", "up:1"):
        with pytest.raises(RoomInputError, match="SIDE:N"):
            parse_grow(text)
    with pytest.raises(RoomInputError):
        grown_box((4, 3, 2), "+W", 1)
    with pytest.raises(RoomInputError):
        grown_box((4, 3, 2), "+X", 0)
    rules = rules_from_tiles(quadrant_tiles(), compatible=QUADRANT_PAIRS)
    with pytest.raises(ValueError, match="inside"):
        grow(rules, np.zeros((3, 3), dtype=int), (4, 4), (2, 0))


@settings(max_examples=25, deadline=None)
@given(width=st.integers(2, 7), depth=st.integers(2, 7), side=st.sampled_from(["-X", "+X", "-Y", "+Y"]),
       cells=st.integers(1, 4), seed=st.integers(0, 10_000))
def test_grow_any_side_any_count(width: int, depth: int, side: str, cells: int, seed: int) -> None:
    """Any grid, side and count: the old cells sit unchanged at the offset and every pair fits by the labels."""
    tiles = quadrant_tiles()
    rules = rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)
    old = solve(rules, (width, depth), seed=seed)
    size, offset = grown_box((width, depth, 1), side, cells)
    new = grow(rules, old, size, offset, seed=seed + 1)
    added = cells * (depth if "X" in side else width)
    assert new.shape == size[:2] and int(np.prod(new.shape)) == width * depth + added
    assert np.array_equal(new[offset[0]:offset[0] + width, offset[1]:offset[1] + depth], old)
    assert _bad_pairs(tiles, rules, new) == []


def test_a_room_spec_grows_through_its_problem() -> None:
    """The core door: the larger room's problem (same kit, same settings) grows the old room's grid."""
    from strew.core.wfc.room import RoomSpec, room_problem

    tiles = quadrant_tiles()
    for seed in (1, 2, 3):
        small = room_problem(tiles, QUADRANT_PAIRS, RoomSpec(size=(6, 5, 1), seed=seed, border="xx"))
        old = small.run().grid
        size, offset = grown_box(old.shape, "+Y", 3)
        big = room_problem(tiles, QUADRANT_PAIRS, RoomSpec(size=size, seed=seed + 1, border="xx"))
        assert big.rules.names == small.rules.names
        new = grow(big.rules, old[:, :, 0], big.size, offset, big.seed, keep_walls=True, **big.options)
        assert np.array_equal(new[:, :5], old[:, :, 0])
        assert _bad_pairs(tiles, big.rules, new) == [] and _border_bad(tiles, big.rules, new, "xx") == []
