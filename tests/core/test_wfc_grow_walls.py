"""Growing a closed grid: on a grown side with a border the old wall layer is solved again with the new cells (a
big tile reaching into it whole, a fixed tile never), every other old cell stays; ``keep_walls`` keeps them all and
refuses when the wall's outward labels fit nothing. Checked with the tiles' own labels turned by the test."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wfc_kits import turn_sockets

from strew.core.wfc import Contradiction, SocketTile, rules_from_tiles, solve
from strew.core.wfc.big_tiles import anchor_cells
from strew.core.wfc.grow import grow, grown_box, walls_to_resolve

STEP = {"e": (1, 0), "n": (0, 1)}
BACK = {"e": "w", "n": "s"}
SIDES = ("e", "n", "w", "s")


def closed_tiles() -> list[SocketTile]:
    """A room kit whose wall label ``wall`` fits only ``out``, the border's label: nothing may stand beyond a
    wall."""
    turns = (0, 90, 180, 270)
    return [SocketTile("floor", {"e": "open", "n": "open", "w": "open", "s": "open"}, weight=3.0),
            SocketTile("pillar", {"e": "solid", "n": "solid", "w": "solid", "s": "solid"}),
            SocketTile("edge", {"e": "solid", "n": "open", "w": "open", "s": "open"}, rotations=turns),
            SocketTile("wall", {"e": "wall", "n": "open", "w": "open", "s": "open"}, rotations=turns),
            SocketTile("corner", {"e": "wall", "n": "wall", "w": "open", "s": "open"}, rotations=turns),
            SocketTile("deep", {"e": "wall", "n": "open", "w": "open", "s": "open"}, rotations=turns,
                       size=(2, 1, 1), weight=0.5)]


def _rules():
    return rules_from_tiles(closed_tiles(), compatible=[("wall", "out")],
                            border_labels={side: ["out"] for side in SIDES})


def _labels(rules, variant: int) -> dict[str, str]:
    tile = next(t for t in closed_tiles() if t.name == rules.tiles[variant])
    return turn_sockets(tile, int(rules.rotations[variant]))


def bad_pairs(rules, grid) -> list:
    """Neighbours of different tiles whose facing labels differ or say ``wall`` (which fits only the border), and
    edge sides that do not say ``wall``."""
    anchors = anchor_cells(rules, grid).reshape(*grid.shape, 2)
    bad = []
    for x, y in itertools.product(range(grid.shape[0]), range(grid.shape[1])):
        labels = _labels(rules, int(grid[x, y]))
        for side, (dx, dy) in STEP.items():
            if x + dx < grid.shape[0] and y + dy < grid.shape[1]:
                if (anchors[x, y] == anchors[x + dx, y + dy]).all():
                    continue  # two parts of one big tile
                other = _labels(rules, int(grid[x + dx, y + dy]))[BACK[side]]
                if labels[side] != other or other == "wall":
                    bad.append(((x, y), side))
        edges = {"e": x == grid.shape[0] - 1, "w": x == 0, "n": y == grid.shape[1] - 1, "s": y == 0}
        bad += [((x, y), side, "border") for side, edge in edges.items() if edge and labels[side] != "wall"]
    return bad


def _layer(shape, side: str, cells: int) -> tuple[np.ndarray, tuple[slice, slice]]:
    """The old cells next to ``side`` (worked out here), and where the old grid lies in the grown one."""
    layer = np.zeros(shape, dtype=bool)
    axis = "XY".index(side[1])
    index: list = [slice(None), slice(None)]
    index[axis] = 0 if side[0] == "-" else shape[axis] - 1
    layer[tuple(index)] = True
    start = [0, 0]
    if side[0] == "-":
        start[axis] = cells
    return layer, (slice(start[0], start[0] + shape[0]), slice(start[1], start[1] + shape[1]))


@pytest.mark.parametrize("side", ["-X", "+X", "-Y", "+Y"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_closed_grid_grows_by_moving_its_wall_out(side: str, seed: int) -> None:
    rules = _rules()
    old = solve(rules, (6, 5), seed=seed, border="out")
    size, offset = grown_box((6, 5, 1), side, 2)
    with pytest.raises((Contradiction, ValueError)):
        grow(rules, old, size, offset, seed=seed, border="out", keep_walls=True)
    new = grow(rules, old, size, offset, seed=seed + 10, border="out")
    assert bad_pairs(rules, new) == []
    layer, where = _layer(old.shape, side, 2)
    mask = walls_to_resolve(rules, old, size, offset, border="out")
    assert (mask >= layer).all()
    beyond = mask & ~layer  # only big tiles that reach into the layer, whole
    assert all(rules.tiles[int(v)] == "deep" for v in old[beyond])
    anchors = anchor_cells(rules, old).reshape(*old.shape, 2)
    touching = {tuple(a) for a in anchors[layer]}
    assert all(tuple(anchors[c]) in touching for c in zip(*np.nonzero(beyond), strict=True))
    assert np.array_equal(new[where][~mask], old[~mask])


def test_only_bordered_grown_sides_are_solved_again_and_fixed_tiles_stay() -> None:
    rules = _rules()
    old = solve(rules, (5, 4), seed=7, border="out")
    size, offset = grown_box((5, 4, 1), "+X", 1)
    assert not walls_to_resolve(rules, old, size, offset).any()  # no border: nothing to move
    assert not walls_to_resolve(rules, old, size, offset, border="out", border_sides=["n", "w", "s"]).any()
    assert not walls_to_resolve(rules, old, size, offset, border="out", periodic=(True, False)).any()
    keep = {(4, 1): int(old[4, 1])}
    mask = walls_to_resolve(rules, old, size, offset, border="out", fixed=keep)
    assert not mask[4, 1]
    anchors = anchor_cells(rules, old).reshape(*old.shape, 2)
    assert not any((anchors[c] == anchors[4, 1]).all() for c in zip(*np.nonzero(mask), strict=True))
    with pytest.raises((Contradiction, ValueError)):  # its wall faces the new cells
        grow(rules, old, size, offset, seed=3, border="out", fixed=keep)


def test_a_big_tile_reaching_into_the_wall_is_solved_again_whole() -> None:
    rules = _rules()
    seen = 0
    for seed, side in ((1, "+X"), (2, "-X"), (2, "+Y")):
        old = solve(rules, (6, 5), seed=seed, border="out")
        size, offset = grown_box((6, 5, 1), side, 2)
        layer, _where = _layer(old.shape, side, 2)
        mask = walls_to_resolve(rules, old, size, offset, border="out")
        anchors = anchor_cells(rules, old).reshape(*old.shape, 2)
        for anchor in {tuple(a) for a in anchors[layer]}:
            cells = (anchors == anchor).all(axis=-1)  # every cell of the tile anchored there
            assert mask[cells].all()
            seen += int(cells.sum() > 1 and not layer[cells].all())
    assert seen  # a big tile reached past the layer in these rooms


@settings(max_examples=15, deadline=None)
@given(width=st.integers(3, 7), depth=st.integers(3, 7), side=st.sampled_from(["-X", "+X", "-Y", "+Y"]),
       cells=st.integers(1, 3), seed=st.integers(0, 10_000))
def test_any_closed_grid_grows_through_its_wall(width: int, depth: int, side: str, cells: int, seed: int) -> None:
    """Any closed grid, side and count: only the old cells of the mask change, every pair and the border fit."""
    rules = _rules()
    old = solve(rules, (width, depth), seed=seed, border="out")
    size, offset = grown_box((width, depth, 1), side, cells)
    new = grow(rules, old, size, offset, seed=seed + 1, border="out")
    layer, where = _layer(old.shape, side, cells)
    mask = walls_to_resolve(rules, old, size, offset, border="out")
    assert (mask >= layer).all() and np.array_equal(new[where][~mask], old[~mask])
    assert bad_pairs(rules, new) == []
