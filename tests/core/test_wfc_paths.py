"""Paths between chosen cells: every solved room checked by a flood fill over the placed tiles' own sides (written
here, apart from the solver), loops counted as E = V − C, shortest walks by BFS, pockets left sealed, the
forced cells of a corridor, refusals in one line, and random endpoints on small rooms (a valid room or a clean
failure)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wfc_kits import QUADRANT_PAIRS, TURN, quadrant_tiles, stair_tiles

from strew.core.wfc import Contradiction, Paths, rules_from_tiles, solve
from strew.core.wfc import search as search_module
from strew.core.wfc.bitset import unpack
from strew.core.wfc.room import RoomInputError, RoomSpec, parse_path, room_problem

STEP = {"e": (1, 0, 0), "n": (0, 1, 0), "w": (-1, 0, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}
BACK = {"e": "w", "w": "e", "n": "s", "s": "n", "up": "down", "down": "up"}


def sides_of(rules, tiles, v: int) -> set[str]:
    """The sides a placed variant lets a visitor through: its source tile's passable sides turned."""
    tile = {t.name: t for t in tiles}[rules.tiles[v]]
    if not tile.walkable:
        return set()
    sides = set(tile.passable if tile.passable is not None else ("n", "e", "s", "w"))
    for _ in range(rules.rotations[v] // 90):
        sides = {TURN[s] for s in sides}
    return sides


def links(grid: np.ndarray, rules, tiles, periodic: bool = False) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Walkable cell -> its neighbours through sides both tiles pass (``periodic``: x and y wrap around)."""
    grid = grid.reshape(grid.shape + (1,) * (3 - grid.ndim))
    open_sides = {c: sides_of(rules, tiles, int(grid[c])) for c in itertools.product(*map(range, grid.shape))}
    out: dict[tuple[int, ...], list[tuple[int, ...]]] = {c: [] for c, s in open_sides.items() if s}
    for cell, sides in open_sides.items():
        for side in sides:
            other = tuple(a + b for a, b in zip(cell, STEP[side], strict=True))
            if periodic:
                other = (other[0] % grid.shape[0], other[1] % grid.shape[1], other[2])
            if other in open_sides and BACK[side] in open_sides[other]:
                out[cell].append(other)
    return out


def distances(graph, start) -> dict:
    seen, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        for other in graph.get(cell, ()):
            if other not in seen:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen


def check_room(grid, rules, tiles, paths, loops=True, min_length=0, periodic=False) -> dict:
    """Assert the paths' guarantees on a finished grid; the graph of passable adjacencies."""
    graph = links(grid, rules, tiles, periodic)
    for path in paths:
        dist = distances(graph, path[0])
        for a, b in itertools.combinations(path, 2):
            dist_a = distances(graph, a)
            assert b in dist_a, f"{a} and {b} are not joined"
            assert dist_a[b] + 1 >= min_length
        assert all(end in dist for end in path)
    if not loops:
        region = set()
        for path in paths:
            region |= set(distances(graph, path[0]))
        edges = sum(len([o for o in graph[c] if o in region]) for c in region) // 2
        components, seen = 0, set()
        for c in region:
            if c not in seen:
                components += 1
                seen |= set(distances(graph, c))
        assert edges == len(region) - components, "a loop in a path's region"
    return graph


CAVE = quadrant_tiles()
CAVE_RULES = rules_from_tiles(CAVE, compatible=QUADRANT_PAIRS)
FLOOR = [dataclasses.replace(t, walkable=t.name == "floor", passable=None) for t in CAVE]
"""The same kit with only open floor walkable: a corridor one cell wide can turn, so trees exist (with every
corner piece walkable each patch of floor is a ring of four cells)."""


@pytest.mark.parametrize("seed", range(4))
def test_endpoints_are_joined_and_pockets_may_stay_sealed(seed):
    paths = [((1, 1, 0), (12, 10, 0)), ((1, 10, 0), (12, 1, 0), (6, 6, 0))]
    problem = room_problem(CAVE, QUADRANT_PAIRS, RoomSpec(size=(14, 12, 1), seed=seed, border="xx", paths=paths))
    grid = problem.run().grid
    graph = check_room(grid, problem.rules, CAVE, paths)
    joined = set(distances(graph, paths[0][0])) | set(distances(graph, paths[1][0]))
    test_endpoints_are_joined_and_pockets_may_stay_sealed.pockets.append(len(set(graph) - joined))


test_endpoints_are_joined_and_pockets_may_stay_sealed.pockets = []  # type: ignore[attr-defined]


def test_some_room_keeps_a_sealed_pocket():
    """Runs after the seeds above: with connected off, at least one room keeps walkable cells off the paths."""
    pockets = test_endpoints_are_joined_and_pockets_may_stay_sealed.pockets  # type: ignore[attr-defined]
    if not pockets:
        for seed in range(4):
            test_endpoints_are_joined_and_pockets_may_stay_sealed(seed)
    assert max(pockets) > 0


@pytest.mark.parametrize("seed", range(3))
def test_a_path_climbs_the_stairs_between_floors(seed):
    tiles = stair_tiles()
    paths = [((0, 0, 0), (5, 4, 1)), ((5, 0, 1), (0, 4, 0))]
    problem = room_problem(tiles, [], RoomSpec(size=(6, 5, 2), seed=seed, border="h", border_bottom="lvl",
                                               border_top="lvl", paths=paths))
    check_room(problem.run().grid, problem.rules, tiles, paths)


@pytest.mark.parametrize("seed", range(3))
def test_a_periodic_room_may_join_its_endpoints_across_the_wrapped_edge(seed):
    paths = [((0, 2, 0), (9, 5, 0)), ((4, 0, 0), (5, 7, 0))]
    problem = room_problem(CAVE, QUADRANT_PAIRS, RoomSpec(size=(10, 8, 1), seed=seed, periodic=True, paths=paths))
    check_room(problem.run().grid, problem.rules, CAVE, paths, periodic=True)


@pytest.mark.parametrize("seed", range(2))
def test_endpoints_stay_joined_through_may_be_walkable_cells_after_every_propagation(monkeypatch, seed):
    """After each settled propagation the endpoints can still meet through cells that may be walkable and
    sides that may pass (a BFS over the domains, written here); the corridor cells that cut them are walkable."""
    rules = rules_from_tiles(FLOOR, compatible=QUADRANT_PAIRS)
    shape = (10, 8)
    paths = [((1, 1), (8, 6)), ((1, 6), (8, 1))]
    walk = rules.walkable_mask()
    passable = {d: rules.passable_mask(d) for d in rules.directions}
    steps = {"e": (1, 0), "n": (0, 1), "w": (-1, 0), "s": (0, -1)}
    settled = []
    original = search_module.Search.settle

    def joined(bits, a, b) -> bool:
        index = {c: i for i, c in enumerate(itertools.product(range(shape[0]), range(shape[1])))}
        seen, todo = {a}, [a]
        while todo:
            cell = todo.pop()
            for d, (dx, dy) in steps.items():
                other = (cell[0] + dx, cell[1] + dy)
                if other in index and other not in seen and (bits[index[cell]] & passable[d]).any() \
                        and (bits[index[other]] & passable[BACK[d]]).any():
                    seen.add(other)
                    todo.append(other)
        return b in seen and all((bits[index[c]] & walk).any() for c in (a, b))

    def settle(self, frontier):
        ok = original(self, frontier)
        if ok:
            bits = unpack(self.dom[:-1], rules.count)
            settled.append(all(joined(bits, a, b) for a, b in paths))
        return ok

    monkeypatch.setattr(search_module.Search, "settle", settle)
    grid = solve(rules, shape, seed, border="xx", constraints=[Paths(paths)])
    check_room(grid, rules, FLOOR, [tuple((*c, 0) for c in p) for p in paths])
    assert len(settled) > 20 and all(settled)


@pytest.mark.parametrize("seed", range(3))
def test_no_loops_makes_the_paths_regions_trees(seed):
    paths = [((1, 1, 0), (10, 8, 0))]
    problem = room_problem(FLOOR, QUADRANT_PAIRS, RoomSpec(size=(12, 10, 1), seed=seed, border="xx", paths=paths,
                                                           loops=False))
    check_room(problem.run().grid, problem.rules, FLOOR, paths, loops=False)


def test_loops_allowed_do_form():
    """The same rooms with loops allowed have some: the check above can fail."""
    looped = 0
    for seed in range(3):
        problem = room_problem(FLOOR, QUADRANT_PAIRS, RoomSpec(size=(12, 10, 1), seed=seed, border="xx",
                                                               paths=[((1, 1, 0), (10, 8, 0))]))
        try:
            check_room(problem.run().grid, problem.rules, FLOOR, [((1, 1, 0), (10, 8, 0))], loops=False)
        except AssertionError:
            looped += 1
    assert looped


def test_no_loops_where_every_patch_is_a_ring_fails_cleanly():
    """With every corner piece walkable a path cannot avoid a loop: a complete search says so in one line."""
    problem = room_problem(CAVE, QUADRANT_PAIRS, RoomSpec(size=(5, 4, 1), border="xx", paths=[((1, 1, 0), (3, 2, 0))],
                                                          loops=False))
    with pytest.raises(Contradiction, match="a loop of walkable cells formed") as error:
        problem.run()
    assert "Try: allow loops" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("seed", range(3))
def test_minimum_length_makes_the_walk_detour(seed):
    paths = [((3, 2, 0), (3, 7, 0))]  # 6 cells apart in a straight line
    problem = room_problem(CAVE, QUADRANT_PAIRS, RoomSpec(size=(10, 10, 1), seed=seed, border="xx", paths=paths,
                                                          min_path_length=14))
    graph = check_room(problem.run().grid, problem.rules, CAVE, paths, min_length=14)
    assert distances(graph, paths[0][0])[paths[0][1]] >= 13


def test_a_corridor_cell_is_forced_walkable_before_any_choice(monkeypatch):
    """Fixed rock leaves a gap three cells wide between the two endpoints, where only its middle can hold open
    floor: after the first propagation every cell whose loss would part them (brute force: drop it, search
    again) holds walkable variants only."""
    rules = rules_from_tiles(FLOOR, compatible=QUADRANT_PAIRS)
    solid = rules.index("solid")
    shape = (9, 7)
    fixed = {(4, y): solid for y in range(7) if y not in (2, 3, 4)}
    seen = []
    original = search_module.Search.initial

    def initial(self):
        ok = original(self)
        bits = unpack(self.dom[:-1], rules.count)
        seen.append(bits)
        return ok

    monkeypatch.setattr(search_module.Search, "initial", initial)
    solve(rules, shape, 0, border="xx", fixed=fixed, constraints=[Paths([((1, 3), (7, 3))])])
    bits = seen[0]
    walk = rules.walkable_mask()
    index = {c: i for i, c in enumerate(itertools.product(range(9), range(7)))}
    may = {c for c, i in index.items() if (bits[i] & walk).any()}
    sure = {c for c, i in index.items() if not (bits[i] & ~walk).any()}

    def joined(without):
        nodes = may - {without}
        start, goal = (1, 3), (7, 3)
        todo, reach = [start], {start}
        while todo:
            x, y = todo.pop()
            for o in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if o in nodes and o not in reach:
                    reach.add(o)
                    todo.append(o)
        return goal in reach

    cut = [c for c in may if c not in ((1, 3), (7, 3)) and not joined(c)]
    assert (4, 3) in cut
    assert set(cut) <= sure


def test_cut_apart_endpoints_fail_with_the_path_named():
    rules = CAVE_RULES
    solid = rules.index("solid")
    fixed = {(4, y): solid for y in range(7)}
    with pytest.raises(Contradiction, match=r"path 1: its endpoints \(1, 3\) and \(7, 3\) were cut apart"):
        solve(rules, (9, 7), 0, border="xx", fixed=fixed, constraints=[Paths([((1, 3), (7, 3))])])


def test_parse_path_and_refusals_in_one_line():
    assert parse_path("0,5,0:11,5,0") == ((0, 5, 0), (11, 5, 0))
    assert parse_path(" 1 2 3 : 4,5,6 :7 8 9") == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    for bad in ("1,2:3,4,5", "a,b,c:1,1,1", "-1,0,0:1,1,0", "1,1,0:"):
        with pytest.raises(RoomInputError, match="path: write X,Y,Z:X,Y,Z"):
            parse_path(bad)
    with pytest.raises(RoomInputError, match="path: give two endpoints or more"):
        parse_path("1,1,0")
    cases = [
        (dict(paths=[((0, 0, 0), (6, 0, 0))]), r"path 1: endpoint \(6, 0, 0\) is outside the room"),
        (dict(paths=[((1, 1, 0), (1, 1, 0))]), "path 1 needs two different endpoints"),
        (dict(paths=[((1, 1, 0),)]), "path 1 needs two different endpoints"),
        (dict(paths=[((1, 1), (2, 2))]), "needs three whole numbers"),
        (dict(paths=[((0, 0, 0), (1, 1, 0))], min_path_length=-1), "minimum path length: expected a whole"),
    ]
    for settings_, message in cases:
        with pytest.raises(RoomInputError, match=message) as error:
            RoomSpec(size=(6, 5, 1), **settings_)
        assert "\n" not in str(error.value)
    rock = [t for t in CAVE if not t.walkable]
    with pytest.raises(RoomInputError, match="Paths need a walkable tile"):
        room_problem(rock, QUADRANT_PAIRS, RoomSpec(size=(4, 4, 1), paths=[((0, 0, 0), (3, 3, 0))]))
    with pytest.raises(RoomInputError, match=r"path 1: no walkable tile fits the room's border at endpoint "
                                             r"\(0, 0, 0\); move the endpoint inwards"):
        room_problem(FLOOR, QUADRANT_PAIRS, RoomSpec(size=(6, 5, 1), border="xx", paths=[((0, 0, 0), (3, 3, 0))]))
    room_problem(FLOOR, QUADRANT_PAIRS, RoomSpec(size=(6, 5, 1), periodic=True, paths=[((0, 0, 0), (3, 3, 0))]))
    from strew.core.wfc.room import FixedTile
    with pytest.raises(RoomInputError, match=r"path 1: endpoint \(0, 0, 0\) holds the fixed tile 'solid'"):
        room_problem(CAVE, QUADRANT_PAIRS, RoomSpec(size=(4, 4, 1), paths=[((0, 0, 0), (3, 3, 0))],
                                                    fixed=(FixedTile("solid", 0, (0, 0, 0)),)))


def test_rooms_without_paths_are_unchanged():
    """The defaults add no constraint: the same options as before paths existed."""
    problem = room_problem(CAVE, QUADRANT_PAIRS, RoomSpec(size=(6, 5, 1), seed=3, border="xx"))
    assert "constraints" not in problem.options


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.tuples(st.integers(0, 5), st.integers(0, 4)), min_size=2, max_size=4),
       st.booleans(), st.sampled_from([0, 4, 7]))
def test_random_endpoints_give_a_valid_room_or_a_clean_failure(seed, cells, loops, min_length):
    ends = tuple(dict.fromkeys((x, y, 0) for x, y in cells))
    if len(ends) < 2:
        return
    paths = [ends[:2]] + ([ends[2:]] if len(ends) == 4 else [])
    spec = RoomSpec(size=(6, 5, 1), seed=seed, border="xx", paths=paths, loops=loops, min_path_length=min_length,
                    max_restarts=3, max_backtracks=200, time_limit=5.0)
    problem = room_problem(CAVE, QUADRANT_PAIRS, spec)
    try:
        grid = problem.run().grid
    except Contradiction as error:
        assert "\n" not in str(error)
        return
    check_room(grid, problem.rules, CAVE, paths, loops=loops, min_length=min_length)
