"""Separation, maximum runs and symmetry: every solved grid checked by brute force written apart from the
constraints (every pair's distance, every row scanned, every cell's quadrants mirrored), several seeds."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wfc_check import adjacency_errors, rules_ok
from wfc_kits import QUADRANT_PAIRS, quadrant_rules, quadrant_tiles

from strew.core.wfc import Contradiction, SocketTile, rules_from_tiles, solve
from strew.core.wfc.max_run import MaxRun
from strew.core.wfc.room import FixedTile, RoomInputError, RoomSpec, room_problem
from strew.core.wfc.separation import Separation, most_separated
from strew.core.wfc.symmetry import Symmetry, mirror_twins
from strew.core.wfc.tile_groups import parse_tile_numbers

OPEN = {"n": "open", "e": "open", "s": "open", "w": "open"}
WALL = {"n": "wall", "e": "wall", "s": "wall", "w": "wall"}


def hall_tiles() -> list[SocketTile]:
    """Floor, shrines and altars on open floor, walls, and edges between (every tile fits a closed room)."""
    return [SocketTile("floor", OPEN, weight=2.0), SocketTile("shrine", OPEN, weight=2.0),
            SocketTile("altar", OPEN), SocketTile("wall", WALL, weight=2.0),
            SocketTile("edge", {"n": "wall", "e": "open", "s": "wall", "w": "open"}, rotations=(0, 90, 180, 270))]


def tiles_of(rules, grid) -> np.ndarray:
    return np.array(rules.tiles)[grid]


def closest_pair(cells: list[tuple[int, ...]], shape: tuple[int, ...], periodic: bool = False) -> float:
    """The least straight distance between two of ``cells`` (every pair; a periodic axis the shorter way)."""
    best = math.inf
    for a, b in itertools.combinations(cells, 2):
        steps = [abs(p - q) for p, q in zip(a, b, strict=True)]
        if periodic:
            steps = [min(s, n - s) for s, n in zip(steps, shape, strict=True)]
        best = min(best, math.sqrt(sum(s * s for s in steps)))
    return best


def longest_run(mask: np.ndarray, periodic: bool = False) -> int:
    """The longest row of True along x or y, scanned cell by cell (a periodic row scanned twice round)."""
    best = 0
    for line in [*mask, *mask.T]:
        cells = list(line) * (2 if periodic else 1)
        run = 0
        for value in cells:
            run = run + 1 if value else 0
            best = max(best, min(run, len(line)))
    return best


# ---------------------------------------------------------------------------------------------------- separation
@pytest.mark.parametrize("seed", range(4))
def test_separated_tiles_stand_the_distance_apart_every_pair(seed: int) -> None:
    rules = rules_from_tiles(hall_tiles())
    grid = solve(rules, (14, 12), seed=seed, counts={"shrine": (3, None)},
                 constraints=[Separation("shrine", 5)])
    names = tiles_of(rules, grid)
    shrines = [tuple(c) for c in np.argwhere(names == "shrine")]
    assert len(shrines) >= 3 and closest_pair(shrines, grid.shape) >= 5
    assert adjacency_errors(grid, rules_ok(rules)) == []
    plain = tiles_of(rules, solve(rules, (14, 12), seed=seed))
    assert closest_pair([tuple(c) for c in np.argwhere(plain == "shrine")], grid.shape) < 5  # it does bind


@pytest.mark.parametrize("seed", range(3))
def test_a_group_keeps_each_of_its_tiles_apart_from_the_others_across_a_periodic_edge(seed: int) -> None:
    rules = rules_from_tiles(hall_tiles())
    grid = solve(rules, (12, 10), seed=seed, periodic=True, constraints=[Separation(["shrine", "altar"], 4)])
    names = tiles_of(rules, grid)
    cells = [tuple(c) for c in np.argwhere((names == "shrine") | (names == "altar"))]
    assert len(cells) >= 2 and closest_pair(cells, grid.shape, periodic=True) >= 4


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 9), st.integers(4, 9), st.integers(1, 6), st.integers(0, 10_000))
def test_separation_holds_for_any_size_and_distance(width: int, depth: int, distance: int, seed: int) -> None:
    rules = rules_from_tiles(hall_tiles())
    grid = solve(rules, (width, depth), seed=seed, constraints=[Separation("shrine", distance)], time_limit=20)
    shrines = [tuple(c) for c in np.argwhere(tiles_of(rules, grid) == "shrine")]
    assert closest_pair(shrines, grid.shape) >= distance


def test_the_packing_bound_never_undercounts_a_greedy_spread() -> None:
    """The bound the room refuses counts with is an upper bound: a greedy packing never beats it."""
    for shape, distance in itertools.product([(5, 5), (12, 10), (7, 3), (9, 9, 2)], range(1, 9)):
        placed: list[tuple[int, ...]] = []
        for cell in itertools.product(*(range(s) for s in shape)):
            if all(math.dist(cell, other) >= distance for other in placed):
                placed.append(cell)
        assert len(placed) <= most_separated(shape, distance), (shape, distance)


def greedy_spread(shape: tuple[int, ...], distance: int) -> list[tuple[int, ...]]:
    """Cells taken in order when at least ``distance`` from every cell taken before (a packing that exists)."""
    placed: list[tuple[int, ...]] = []
    for cell in itertools.product(*(range(s) for s in shape)):
        if all(math.dist(cell, other) >= distance for other in placed):
            placed.append(cell)
    return placed


@pytest.mark.parametrize(("shape", "distance"), [((6, 6), 3), ((9, 5), 4), ((8, 8), 5), ((7, 7), 6)])
def test_a_count_that_can_be_spaced_is_never_refused_by_the_bound(shape: tuple[int, int], distance: int) -> None:
    """Asking as many as a greedy packing holds: the bound kept during the search lets a spacing through."""
    rules = rules_from_tiles([SocketTile("floor", OPEN), SocketTile("shrine", OPEN, weight=0.2)])
    least = len(greedy_spread(shape, distance))
    for seed in range(2):
        grid = solve(rules, shape, seed=seed, counts={"shrine": (least, None)},
                     constraints=[Separation("shrine", distance, least)], time_limit=30)
        shrines = [tuple(c) for c in np.argwhere(tiles_of(rules, grid) == "shrine")]
        assert len(shrines) >= least and closest_pair(shrines, shape) >= distance


def test_too_many_to_separate_is_a_contradiction_that_says_what_to_change() -> None:
    """Three shrines 5 apart in 5 x 5 cells pass the packing bound (4) but exist nowhere: the complete search says
    so, never a wrong grid."""
    rules = rules_from_tiles([SocketTile("floor", OPEN), SocketTile("shrine", OPEN)])
    assert most_separated((5, 5), 5) >= 3
    with pytest.raises(Contradiction, match=r"no grid exists.*'shrine'.*Try:"):
        solve(rules, (5, 5), counts={"shrine": (3, None)}, constraints=[Separation("shrine", 5)], time_limit=20)
    with pytest.raises(Contradiction, match="smaller separation for 'shrine'"):
        solve(rules, (5, 5), fixed={(1, 1): rules.index("shrine"), (4, 3): rules.index("shrine")},
              constraints=[Separation("shrine", 5)])
    # Told the count, the separation bounds how many still fit and fails fast on a kit with more tiles too.
    hall = rules_from_tiles(hall_tiles())
    with pytest.raises(Contradiction, match="at most 2 of 'shrine' can still stand 5 cells apart and 3 are asked"):
        solve(hall, (5, 5), counts={"shrine": (3, None)}, constraints=[Separation("shrine", 5, 3)], time_limit=20)


# ---------------------------------------------------------------------------------------------------- max run
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("length", [1, 2, 4])
def test_no_row_holds_more_than_the_longest_run(seed: int, length: int) -> None:
    rules = rules_from_tiles(hall_tiles())
    grid = solve(rules, (13, 11), seed=seed, constraints=[MaxRun("wall", length)])
    walls = tiles_of(rules, grid) == "wall"
    assert walls.any() and longest_run(walls) <= length
    assert adjacency_errors(grid, rules_ok(rules)) == []


def test_the_runs_bind_and_wrap_round_a_periodic_room() -> None:
    rules = rules_from_tiles(hall_tiles())
    plain = [longest_run(tiles_of(rules, solve(rules, (10, 10), seed=seed, periodic=True)) == "wall", True)
             for seed in range(3)]
    assert max(plain) > 2
    for seed in range(3):
        grid = solve(rules, (10, 10), seed=seed, periodic=True, constraints=[MaxRun("wall, edge", 2)])
        names = tiles_of(rules, grid)
        assert longest_run((names == "wall") | (names == "edge"), periodic=True) <= 2


def test_fixed_tiles_in_a_row_too_long_contradict_before_any_choice() -> None:
    rules = rules_from_tiles(hall_tiles())
    wall = rules.index("wall")
    with pytest.raises(Contradiction, match="longer max run for 'wall'"):
        solve(rules, (6, 4), fixed={(1, 1): wall, (2, 1): wall, (3, 1): wall}, constraints=[MaxRun("wall", 2)])


def test_a_run_up_the_floors_is_counted_only_when_asked() -> None:
    stack = [SocketTile(name, {**OPEN, "up": "u", "down": "u"}) for name in ("crate", "floor")]
    rules = rules_from_tiles(stack)
    for seed in range(3):
        grid = solve(rules, (3, 3, 6), seed=seed, constraints=[MaxRun("crate", 1, "xyz")])
        crates = tiles_of(rules, grid) == "crate"
        pairs = crates[1:] & crates[:-1], crates[:, 1:] & crates[:, :-1], crates[:, :, 1:] & crates[:, :, :-1]
        assert not any(p.any() for p in pairs)


# ---------------------------------------------------------------------------------------------------- symmetry
def quadrant_image(rules, grid: np.ndarray) -> np.ndarray:
    """(2W, 2H) bool: floor in each quadrant of each cell, read from the turned side labels."""
    image = np.zeros((2 * grid.shape[0], 2 * grid.shape[1]), dtype=bool)
    for (x, y), v in np.ndenumerate(grid):
        s = rules.sockets[v]
        sw, se, ne, nw = s["s"][0], s["s"][1], s["n"][0], s["n"][1]
        image[2 * x, 2 * y], image[2 * x + 1, 2 * y] = sw == "o", se == "o"
        image[2 * x + 1, 2 * y + 1], image[2 * x, 2 * y + 1] = ne == "o", nw == "o"
    return image


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 10), st.integers(3, 10), st.sampled_from(["x", "y", "xy"]), st.integers(0, 10_000))
def test_a_symmetric_cave_is_its_own_mirror_image_quadrant_by_quadrant(width: int, depth: int, axes: str,
                                                                          seed: int) -> None:
    rules = quadrant_rules()
    grid = solve(rules, (width, depth), seed=seed, border="xx", constraints=[Symmetry(axes)], time_limit=30)
    image = quadrant_image(rules, grid)
    if "x" in axes:
        assert np.array_equal(image, image[::-1])
    if "y" in axes:
        assert np.array_equal(image, image[:, ::-1])
    assert adjacency_errors(grid, rules_ok(rules)) == []


def test_without_the_constraint_caves_are_not_symmetric() -> None:
    rules = quadrant_rules()
    images = [quadrant_image(rules, solve(rules, (9, 8), seed=seed, border="xx")) for seed in range(3)]
    assert not all(np.array_equal(image, image[::-1]) for image in images)


def mirror_by_hand(sockets: dict[str, str]) -> dict[str, str]:
    """The x mirror of a variant's sockets written apart: east and west swap, a hashed profile gains or loses ~."""
    def twin(label: str) -> str:
        return label[:-1] if label.endswith("~") else (label + "~" if label.startswith("m") else label)
    return {"e" if side == "w" else "w" if side == "e" else side: twin(label) for side, label in sockets.items()}


ARROW = {"n": "m1a2b3c4d", "e": "flat", "s": "m1a2b3c4d", "w": "flat"}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("width", [6, 7])
def test_mirrored_tiles_pair_name_with_name_tilde_and_the_middle_column_is_symmetric(seed: int, width: int) -> None:
    tiles = [SocketTile("arrow", ARROW, rotations=(0, 180), mirror=True),
             SocketTile("floor", {"n": "flat", "e": "flat", "s": "flat", "w": "flat"})]
    rules = rules_from_tiles(tiles)
    twins = mirror_twins(rules, "x")
    for v, u in enumerate(twins):
        assert dict(rules.sockets[u]) == mirror_by_hand(dict(rules.sockets[v]))
        assert rules.tiles[u] == rules.tiles[v]
    assert {rules.names[v]: rules.names[u] for v, u in enumerate(twins)}["arrow"] in ("arrow~", "arrow~@180")
    grid = solve(rules, (width, 5), seed=seed, constraints=[Symmetry("x")])
    for x, y in itertools.product(range(width), range(5)):
        mirrored = mirror_by_hand(dict(rules.sockets[grid[x, y]]))
        assert dict(rules.sockets[grid[width - 1 - x, y]]) == mirrored
    if width % 2:
        assert set(tiles_of(rules, grid)[width // 2]) == {"floor"}


def test_tiles_without_twins_are_kept_out_and_a_kit_without_any_is_refused_naming_them() -> None:
    lonely = SocketTile("arrow", ARROW)  # not mirrored: its mirror image is in no tile
    floor = SocketTile("floor", {"n": "flat", "e": "flat", "s": "flat", "w": "flat"})
    rules = rules_from_tiles([lonely, floor])
    assert mirror_twins(rules, "x").tolist() == [-1, rules.index("floor")]
    grid = solve(rules, (6, 4), seed=1, constraints=[Symmetry("x")])
    assert set(tiles_of(rules, grid).ravel()) == {"floor"}
    with pytest.raises(RoomInputError, match="no tile of the kit has a mirror twin \\(arrow\\)"):
        room_problem([lonely], [], RoomSpec(size=(6, 4, 1), symmetry="x"))
    with pytest.raises(RoomInputError, match="7 cells across"):
        room_problem([dataclasses.replace(lonely, mirror=True)], [], RoomSpec(size=(7, 4, 1), symmetry="x"))


def test_a_fixed_tile_whose_twin_cannot_stand_opposite_fails_with_a_hint() -> None:
    rules = quadrant_rules()
    corner = rules.index("corner")
    with pytest.raises(Contradiction, match="drop the symmetry"):
        solve(rules, (6, 6), border="xx", fixed={(2, 2): corner, (3, 2): rules.index("solid")},
              constraints=[Symmetry("x")])


# ---------------------------------------------------------------------------------------------------- the room
def test_room_settings_read_text_and_refuse_bad_values_in_one_line() -> None:
    spec = RoomSpec(size=(8, 8, 1), separation="shrine=5; altar, shrine : 3", max_runs={"wall": 4}, symmetry=" XY ")
    assert spec.separation == {"shrine": 5, "altar, shrine": 3} and spec.max_runs == {"wall": 4}
    assert spec.symmetry == "xy"
    assert parse_tile_numbers("", "separation", "distance") == {}
    with pytest.raises(ValueError, match="least must be a whole number ≥ 0"):
        Separation("shrine", 3, -1)
    for bad, message in [(dict(separation="shrine"), "write TILE=N"), (dict(separation="shrine=0"), "1 or more"),
                         (dict(max_runs={"wall": 0}), "whole number ≥ 1"), (dict(symmetry="z"), "x | y | xy"),
                         (dict(separation="a=2; a=3"), "given twice")]:
        with pytest.raises(RoomInputError, match=message) as error:
            RoomSpec(size=(8, 8, 1), **bad)
        assert "\n" not in str(error.value)


def test_room_refuses_unknown_tiles_counts_it_cannot_space_and_fixed_tiles_too_close() -> None:
    tiles = hall_tiles()
    with pytest.raises(RoomInputError, match="no tile named 'temple'; the kit has altar, edge, floor, shrine, wall"):
        room_problem(tiles, [], RoomSpec(size=(8, 8, 1), separation="temple=3"))
    with pytest.raises(RoomInputError, match="max run: no tile named 'fence'"):
        room_problem(tiles, [], RoomSpec(size=(8, 8, 1), max_runs="fence=3"))
    with pytest.raises(RoomInputError, match="Counts ask for 5 of 'shrine' and at most 4"):
        room_problem(tiles, [], RoomSpec(size=(12, 10, 1), separation="shrine=9", counts="shrine=5"))
    with pytest.raises(RoomInputError, match="fixed tiles 'shrine' at \\(1, 1, 0\\) and 'shrine' at \\(3, 2, 0\\)"):
        room_problem(tiles, [], RoomSpec(size=(8, 8, 1), separation="shrine=3",
                                         fixed=(FixedTile("shrine", 0, (1, 1, 0)), FixedTile("shrine", 0, (3, 2, 0)))))


@pytest.mark.parametrize("seed", range(3))
def test_a_room_with_all_three_is_separated_short_and_symmetric(seed: int) -> None:
    spec = RoomSpec(size=(12, 9, 1), seed=seed, separation="shrine=6", max_runs="wall=3",
                    symmetry="x", counts="shrine=2..*")
    problem = room_problem(hall_tiles(), [], spec)
    grid = problem.run().grid[:, :, 0]
    names = tiles_of(problem.rules, grid)
    shrines = [tuple(c) for c in np.argwhere(names == "shrine")]
    assert len(shrines) >= 2 and closest_pair(shrines, grid.shape) >= 6
    assert longest_run(names == "wall") <= 3
    assert np.array_equal(names, names[::-1])


def test_default_settings_add_no_constraint() -> None:
    problem = room_problem(hall_tiles(), [], RoomSpec(size=(6, 6, 1)))
    assert "constraints" not in problem.options


def test_the_quadrant_kit_twins_are_mutual() -> None:
    rules = rules_from_tiles(quadrant_tiles(), compatible=QUADRANT_PAIRS)
    for axis in "xy":
        twins = mirror_twins(rules, axis)
        assert (twins >= 0).all() and (twins[twins] == np.arange(rules.count)).all()


def test_a_symmetric_room_that_fails_names_the_tiles_its_symmetry_keeps_out() -> None:
    lonely = SocketTile("arrow", ARROW)
    floor = SocketTile("floor", {"n": "flat", "e": "flat", "s": "flat", "w": "flat"})
    spec = RoomSpec(size=(6, 4, 1), symmetry="x", fixed=(FixedTile("arrow", 0, (1, 1, 0)),))
    with pytest.raises(Contradiction, match=r"keeps out the tiles without a mirror twin \(arrow\)"):
        room_problem([lonely, floor], [], spec).run()
    assert room_problem([lonely, floor], [], RoomSpec(size=(6, 4, 1))).note == ""


def test_a_periodic_cave_can_be_symmetric_across_its_wrap() -> None:
    rules = quadrant_rules()
    for seed in range(2):
        grid = solve(rules, (8, 6), seed=seed, periodic=True, constraints=[Symmetry("xy")])
        image = quadrant_image(rules, grid)
        assert np.array_equal(image, image[::-1]) and np.array_equal(image, image[:, ::-1])
        assert adjacency_errors(grid, rules_ok(rules), periodic=True) == []


def test_storeys_mirror_with_their_stairs_when_the_stairs_have_twins() -> None:
    """Two storeys joined by stairs whose top faces a turn (``st:k``); mirrored stairs (``mirror=True``) stand
    opposite, their oriented labels the mirrored profile turned the other way."""
    flat = {"n": "f", "e": "f", "s": "f", "w": "f"}
    tiles = [SocketTile("floor", {**flat, "up": "g", "down": "g"}, weight=4.0),
             SocketTile("stair", {**flat, "up": "st:0", "down": "g"}, rotations=(0, 90, 180, 270), mirror=True),
             SocketTile("landing", {**flat, "up": "g", "down": "st:0"}, rotations=(0, 90, 180, 270), mirror=True)]
    rules = rules_from_tiles(tiles)
    for seed in range(3):
        grid = solve(rules, (6, 4, 2), seed=seed, counts={"stair": (2, None)}, constraints=[Symmetry("x")])
        names = tiles_of(rules, grid)
        assert (names == "stair").sum() >= 2
        for (x, y, z), v in np.ndenumerate(grid):
            mine, theirs = rules.sockets[v], rules.sockets[grid[5 - x, y, z]]
            assert names[x, y, z] == names[5 - x, y, z]
            for side in ("up", "down"):
                label = mine[side]
                if ":" in label:  # an oriented label: the mirrored profile, turned the other way
                    name, turn = label.split(":")
                    twin = name[:-1] if name.endswith("~") else name + "~"
                    assert theirs[side] == f"{twin}:{(-int(turn)) % 4}"
                else:
                    assert theirs[side] == label


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=12), st.booleans())
def test_run_lengths_count_the_sure_cells_next_to_each_cell(line: list[bool], wrapped: bool) -> None:
    from strew.core.wfc.max_run import run_lengths

    before, after = run_lengths(np.array([line]), wrapped)
    size = len(line)
    for i in range(size):
        steps = range(1, size + 1)
        back = next((k - 1 for k in steps if (i - k < 0 and not wrapped) or not line[(i - k) % size]), size)
        ahead = next((k - 1 for k in steps if (i + k >= size and not wrapped) or not line[(i + k) % size]), size)
        assert (before[0, i], after[0, i]) == (min(back, size), min(ahead, size)), (line, i)
