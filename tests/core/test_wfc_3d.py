"""3-D socket kits: up/down sockets, stairs between floors, border on top/bottom, connectivity.
"""

from __future__ import annotations

import numpy as np
import pytest
from wfc_check import adjacency_errors, walkable_regions
from wfc_kits import fits, stair_rules, stair_tiles, turn_sockets

from strew.core.wfc import Contradiction, regenerate, solve, walkable_components

FACING = {"e": ("e", "w"), "n": ("n", "s"), "up": ("up", "down")}


def socket_ok(rules):
    by_name = {t.name: t for t in stair_tiles()}
    sockets = [turn_sockets(by_name[rules.tiles[v]], rules.rotations[v]) for v in range(rules.count)]

    def ok(direction, a, b):
        mine, theirs = FACING[direction]
        return fits(sockets[a].get(mine, ""), sockets[b].get(theirs, ""), ())

    return ok


def passable_fn(rules):
    return lambda v, side: bool(rules.passable_mask(side)[v])


def test_stair_kit_variants():
    rules = stair_rules()
    assert rules.dims == 3
    assert rules.tiles.count("stair") == 4 and rules.tiles.count("landing") == 4
    assert rules.tiles.count("room") == 1
    s90 = rules.index("stair@90")
    assert rules.passable["s"][s90] and not rules.passable["w"][s90]  # the entry turned with the tile


def test_two_floors_connected_by_stairs():
    rules = stair_rules()
    walkable = rules.walkable_mask()
    stair_variants = [i for i, t in enumerate(rules.tiles) if t == "stair"]
    for seed in range(3):
        grid = solve(rules, (6, 5, 2), seed=seed, border="lvl", border_sides=("up", "down"),
                     connected=True, fixed={(0, 0, 0): "room", (5, 4, 1): "room"})
        assert grid.shape == (6, 5, 2)
        assert adjacency_errors(grid, socket_ok(rules)) == []
        assert np.isin(grid[:, :, 0], stair_variants).any(), "the floors must be joined by a stair"
        assert not np.isin(grid[:, :, 1], stair_variants).any(), "no stair may leave the top floor"
        assert walkable_regions(grid, walkable, passable_fn(rules)) == 1
        labels = walkable_components(rules, grid)
        assert len(np.unique(labels[labels >= 0])) == 1


def test_three_floors_with_entrances_deterministic():
    rules = stair_rules()
    options = dict(border="lvl", border_sides=("up", "down"), entrances=[(0, 0, 0), (3, 3, 2)])
    a = solve(rules, (5, 5, 3), seed=9, **options)
    assert np.array_equal(a, solve(rules, (5, 5, 3), seed=9, **options))
    assert walkable_regions(a, rules.walkable_mask(), passable_fn(rules)) == 1
    assert rules.walkable_mask()[a[0, 0, 0]] and rules.walkable_mask()[a[3, 3, 2]]
    assert adjacency_errors(a, socket_ok(rules)) == []


def test_regenerate_a_box_in_3d():
    rules = stair_rules()
    old = solve(rules, (6, 6, 2), seed=1, border="lvl", border_sides=("up", "down"))
    new = regenerate(rules, old, ((1, 4), (1, 4), (0, 2)), seed=2, border="lvl", border_sides=("up", "down"))
    keep = np.ones(old.shape, dtype=bool)
    keep[1:4, 1:4, :] = False
    assert np.array_equal(new[keep], old[keep])
    assert adjacency_errors(new, socket_ok(rules)) == []


def test_impossible_connectivity_is_a_contradiction():
    rules = stair_rules()
    # two walkable cells on one floor walled apart by rock, and no room for a detour: 3 x 1 x 1
    with pytest.raises(Contradiction):
        solve(rules, (3, 1, 1), seed=0, connected=True, border="lvl", border_sides=("up", "down"),
              fixed={(0, 0, 0): "room", (1, 0, 0): "rock", (2, 0, 0): "room"})


def test_shape_must_match_dims():
    with pytest.raises(ValueError, match="3-D"):
        solve(stair_rules(), (4, 4))


def test_border_per_side_dict():
    rules = stair_rules()
    landing = np.array([t == "landing" for t in rules.tiles])
    border = {"up": "lvl", "down": "lvl", "e": ~landing}  # a mask: no landing along the east side
    grid = solve(rules, (5, 4, 2), seed=6, border=border)
    assert not landing[grid[-1, :, :]].any()
    assert not np.isin(grid[:, :, 1], [i for i, t in enumerate(rules.tiles) if t == "stair"]).any()
    assert adjacency_errors(grid, socket_ok(rules)) == []
    with pytest.raises(ValueError, match="no tile variant fits"):
        solve(rules, (3, 3, 2), border={"up": "nothing-fits"})
