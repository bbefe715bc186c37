"""Walkable connectivity kept by propagation: one region in every solved grid (BFS, written apart from the
solver), after every propagation too, on caves that need a count minimum, levels with stairs, periodic rooms."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wfc_check import adjacency_errors, rules_ok, walkable_regions
from wfc_kits import QUADRANT_PAIRS, fits, quadrant_tiles, turn_sockets
from wfc_level_kits import LEVEL_BORDER, cave_rules, domain_regions_ok, level_rules, level_tiles

from strew.core.steps import run_to_end
from strew.core.wfc import Contradiction, Heuristic, Rules, rules_from_tiles, solve, solve_detailed, solve_steps
from strew.core.wfc import search as search_module


def passable_fn(rules):
    return lambda v, side: bool(rules.passable_mask(side)[v])


def socket_ok(rules, tiles, pairs):
    """Every adjacency from the tiles' own sockets turned independently of the solver."""
    by_name = {t.name: t for t in tiles}
    sockets = [turn_sockets(by_name[rules.tiles[v]], rules.rotations[v]) for v in range(rules.count)]
    facing = {"e": ("e", "w"), "n": ("n", "s"), "up": ("up", "down")}

    def ok(direction, a, b):
        mine, theirs = facing[direction]
        return fits(sockets[a].get(mine, ""), sockets[b].get(theirs, ""), pairs)

    return ok


@pytest.mark.parametrize("border", ["xx", None])
@pytest.mark.parametrize("seed", range(3))
def test_cave_with_a_quarter_open_floor_is_one_region(seed, border):
    rules = cave_rules()
    tiles = [dataclasses.replace(t, walkable=t.name == "floor", passable=None) for t in quadrant_tiles()]
    n = 24
    grid = solve(rules, (n, n), seed=seed, border=border, connected=True, counts={"floor": (n * n // 4, None)})
    floor = np.array([t == "floor" for t in rules.tiles])[grid]
    assert floor.sum() >= n * n // 4
    assert adjacency_errors(grid, socket_ok(rules, tiles, QUADRANT_PAIRS)) == []
    assert walkable_regions(grid, rules.walkable_mask(), passable_fn(rules)) == 1
    if border is not None:  # only tiles with an all-wall side face the border
        for edge in (floor[0, :], floor[-1, :], floor[:, 0], floor[:, -1]):
            assert not edge.any()


def test_cave_without_connectivity_falls_apart():
    """The same cave unconnected has several floor regions: the test above can fail."""
    rules = cave_rules()
    regions = [walkable_regions(solve(rules, (24, 24), seed=s, border="xx", counts={"floor": (144, None)}),
                                rules.walkable_mask(), passable_fn(rules)) for s in range(3)]
    assert max(regions) > 1


@pytest.mark.parametrize("heuristic", [Heuristic.AUTO, Heuristic.GROW, Heuristic.SCANLINE, Heuristic.MRV])
def test_every_walkable_cell_stays_reachable_after_every_propagation(monkeypatch, heuristic):
    """After each settled propagation the surely walkable cells can still all meet (BFS over the domains)."""
    rules = level_rules(1)
    shape = (8, 7, 2)
    settled = []
    original = search_module.Search.settle

    def settle(self, frontier):
        ok = original(self, frontier)
        if ok:
            settled.append(domain_regions_ok(rules, self.dom, shape, (False, False, False)))
        return ok

    monkeypatch.setattr(search_module.Search, "settle", settle)
    for seed in range(2):
        grid = solve(rules, shape, seed=seed, border=LEVEL_BORDER, connected=True, heuristic=heuristic)
        assert walkable_regions(grid, rules.walkable_mask(), passable_fn(rules)) == 1
    assert len(settled) > 50 and all(settled)


@pytest.mark.parametrize("seed", range(4))
def test_levels_with_stairs_are_one_region(seed):
    rules = level_rules(2)
    grid = solve(rules, (14, 12, 3), seed=seed, border=LEVEL_BORDER, connected=True)
    assert adjacency_errors(grid, socket_ok(rules, level_tiles(2), [("ox", "xo")])) == []
    assert walkable_regions(grid, rules.walkable_mask(), passable_fn(rules)) == 1
    unconnected = solve(rules, (14, 12, 3), seed=seed, border=LEVEL_BORDER)
    assert walkable_regions(unconnected, rules.walkable_mask(), passable_fn(rules)) > 1  # the check can fail


@pytest.mark.parametrize("seed", range(3))
def test_periodic_level_is_one_region_across_the_seams(seed):
    rules = level_rules(1)
    grid = solve(rules, (10, 9, 2), seed=seed, periodic=(True, True, False), border="lvl",
                 border_sides=("up", "down"), connected=True)
    assert adjacency_errors(grid, rules_ok(rules), periodic=(True, True, False)) == []
    assert walkable_regions(grid, rules.walkable_mask(), passable_fn(rules), periodic=(True, True, False)) == 1


@pytest.mark.parametrize("heuristic", [Heuristic.AUTO, Heuristic.GROW, Heuristic.SCANLINE])
def test_connected_solves_are_deterministic(heuristic):
    rules = level_rules(1)
    options = dict(border=LEVEL_BORDER, connected=True, heuristic=heuristic)
    a = solve(rules, (12, 10, 2), seed=5, **options)
    b = run_to_end(solve_steps(rules, (12, 10, 2), 5, step_seconds=0.0, **options))
    c = solve(rules, (12, 10, 2), seed=6, **options)
    assert np.array_equal(a, b.grid)
    assert not np.array_equal(a, c)


def test_a_path_is_kept_open_between_two_fixed_floors():
    A = np.ones((2, 2), dtype=bool)
    rules = Rules(weights=np.array([1.0, 6.0]), allowed={"e": A, "n": A}, walkable=[True, False],
                  names=("floor", "wall"))
    for seed in range(5):
        grid = solve(rules, (9, 9), seed=seed, connected=True, fixed={(0, 0): "floor", (8, 8): "floor"})
        assert walkable_regions(grid, rules.walkable_mask(), passable_fn(rules)) == 1
        assert grid[0, 0] == 0 and grid[8, 8] == 0


def test_floors_walled_apart_contradict_before_any_choice():
    A = np.ones((2, 2), dtype=bool)
    rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A}, walkable=[True, False], names=("floor", "wall"))
    fixed = {(2, y): "wall" for y in range(5)} | {(0, 0): "floor", (4, 4): "floor"}
    with pytest.raises(Contradiction, match=r"before any choice.*connected"):
        solve(rules, (5, 5), connected=True, fixed=fixed)


def test_a_piece_cut_off_loses_its_walkable_tiles():
    """A floor closed in by walls can only be wall: the cells behind a fixed wall ring get no floor."""
    A = np.ones((2, 2), dtype=bool)
    rules = Rules(weights=np.array([5.0, 1.0]), allowed={"e": A, "n": A}, walkable=[True, False],
                  names=("floor", "wall"))
    ring = {(x, y): "wall" for x in range(1, 5) for y in range(1, 5) if x in (1, 4) or y in (1, 4)}
    for seed in range(3):
        grid = solve(rules, (8, 8), seed=seed, connected=True, fixed=ring | {(6, 6): "floor"})
        assert (grid[2:4, 2:4] == 1).all()  # inside the ring: never floor
        assert walkable_regions(grid, rules.walkable_mask(), passable_fn(rules)) == 1


@settings(max_examples=25)
@given(walk=st.lists(st.booleans(), min_size=6, max_size=6), seed=st.integers(0, 10_000),
       periodic=st.booleans())
def test_random_walkable_sets_give_one_region_or_a_clean_contradiction(walk, seed, periodic):
    tiles = [dataclasses.replace(t, walkable=w, passable=None) for t, w in zip(quadrant_tiles(), walk, strict=True)]
    rules = rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)
    if not rules.walkable_mask().any():
        return
    try:
        result = solve_detailed(rules, (7, 6), seed, periodic=periodic, connected=True, max_backtracks=200,
                                max_restarts=2, time_limit=20)
    except Contradiction as error:
        assert "Try:" in str(error)
        return
    assert adjacency_errors(result.grid, rules_ok(rules), periodic=periodic) == []
    assert walkable_regions(result.grid, rules.walkable_mask(), passable_fn(rules), periodic=periodic) <= 1
