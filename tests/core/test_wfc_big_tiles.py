"""Big tiles: a tile over several cells stands whole, at the right offsets, its outer sides fitting its
neighbours, its footprint turned with it; checked cell by cell from the source tiles (big_tiles_check)."""

from __future__ import annotations

import numpy as np
import pytest
from big_tiles_check import check_big_grid, footprint
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strew.core.wfc import Contradiction, SocketTile, regenerate, rules_from_tiles, solve, walkable_components
from strew.core.wfc.big_tiles import fill_parts, placed_tiles
from strew.core.wfc.room import FixedTile, RoomInputError, RoomRegion, RoomSpec, room_problem

ALL = (0, 90, 180, 270)
FLOOR = {"up": "f", "down": "f"}


def kit() -> list[SocketTile]:
    """Floors and walls, a 2 x 2 hall with a door on one side, a 1 x 1 x 2 stair and a 3 x 1 gallery."""
    open_ = {s: "o" for s in "nesw"}
    return [
        SocketTile("floor", {**open_, **FLOOR}, weight=2, walkable=True, rotations=ALL),
        SocketTile("wall", {"n": "w", "e": "o", "s": "w", "w": "o", **FLOOR}, rotations=ALL),
        SocketTile("hall", {**open_, **FLOOR}, size=(2, 2, 1), rotations=ALL, walkable=True,
                   cell_sockets={(1, 0, 0): {"e": "w", "s": "w"}, (0, 1, 0): {"n": "w"}}),
        SocketTile("stair", {**open_, **FLOOR}, size=(1, 1, 2), rotations=ALL, walkable=True,
                   cell_sockets={(0, 0, 0): {"w": "w"}}),
        SocketTile("gallery", {**open_, **FLOOR}, size=(3, 1, 1), rotations=(0, 90), mirror=True,
                   cell_sockets={(0, 0, 0): {"w": "w"}}),
    ]


@pytest.mark.parametrize("seed", range(6))
def test_every_cell_of_a_solved_room_belongs_to_exactly_one_whole_tile(seed: int) -> None:
    tiles = kit()
    rules = rules_from_tiles(tiles)
    grid = solve(rules, (7, 6, 3), seed=seed)
    assert check_big_grid(tiles, rules, grid) == []
    placed = placed_tiles(rules, grid)
    big = [rules.tiles[v] for v in placed.variants.tolist() if rules.tiles[v] in ("hall", "stair", "gallery")]
    assert big, "a room of 126 cells holds some big tiles"
    assert sum(len(placed.covered(row)) for row in range(len(placed.variants))) == grid.size


def test_footprints_turn_with_the_tile() -> None:
    tiles = kit()
    rules = rules_from_tiles(tiles)
    for v in np.flatnonzero(rules.anchor_mask()).tolist():
        tile = next(t for t in tiles if t.name == rules.tiles[v])
        cells, low = footprint(tile, rules.rotations[v], bool(rules.reflected[v]))
        size = tuple(max(c[a] for c in cells) + 1 for a in range(3))
        assert tuple(rules.footprints.size[v]) == size
        assert tuple(rules.footprints.origin[v]) == tuple(-c for c in low)
    gallery = {rules.names[v]: tuple(rules.footprints.size[v]) for v in np.flatnonzero(rules.anchor_mask())
               if rules.tiles[v] == "gallery"}
    assert gallery == {"gallery": (3, 1, 1), "gallery@90": (1, 3, 1), "gallery~": (3, 1, 1), "gallery~@90": (1, 3, 1)}


def test_a_big_tile_is_never_cut_by_the_room_edge_without_a_border() -> None:
    hall = SocketTile("hall", {s: "o" for s in "nesw"}, size=(2, 2, 1), weight=50)
    one = SocketTile("one", {s: "o" for s in "nesw"})
    rules = rules_from_tiles([hall, one])
    for seed in range(4):
        grid = solve(rules, (5, 5), seed=seed)
        assert check_big_grid([hall, one], rules, grid[..., None]) == []


def test_the_same_seed_gives_the_same_room_and_other_seeds_others() -> None:
    rules = rules_from_tiles(kit())
    first = solve(rules, (8, 8, 2), seed=5)
    assert np.array_equal(first, solve(rules, (8, 8, 2), seed=5))
    assert any(not np.array_equal(first, solve(rules, (8, 8, 2), seed=s)) for s in (6, 7))


def test_kits_without_big_tiles_give_the_rules_they_gave() -> None:
    tiles = [t for t in kit() if not t.big]
    rules = rules_from_tiles(tiles)
    assert rules.footprints is None and rules.anchor_mask().all()
    assert rules.names == ("floor", "wall", "wall@90")


def test_a_walkable_big_tile_joins_its_cells_and_counts_once() -> None:
    tiles = kit()
    rules = rules_from_tiles(tiles)
    grid = solve(rules, (6, 6, 2), seed=2, connected=True, counts={"hall": (2, 2), "stair": (1, 1)})
    assert check_big_grid(tiles, rules, grid) == []
    placed = placed_tiles(rules, grid)
    names = [rules.tiles[v] for v in placed.variants.tolist()]
    assert names.count("hall") == 2 and names.count("stair") == 1
    labels = walkable_components(rules, grid)
    assert len(set(labels[labels >= 0].tolist())) == 1


def test_regenerate_solves_a_big_tile_the_box_cuts_whole_again() -> None:
    tiles = kit()
    rules = rules_from_tiles(tiles)
    grid = solve(rules, (8, 8, 2), seed=1)
    placed = placed_tiles(rules, grid)
    row = next(r for r, v in enumerate(placed.variants.tolist()) if rules.tiles[v] == "hall")
    x, y, _ = placed.cells[row].tolist()
    new = regenerate(rules, grid, ((x, x + 1), (y, y + 1), (0, 2)), seed=9)  # the hall's anchor cell only
    assert check_big_grid(tiles, rules, new) == []
    kept = np.ones(grid.shape, dtype=bool)
    kept[x, y, :] = False
    for r in range(len(placed.variants)):
        cells = placed.covered(r)
        if any(not kept[c] for c in cells):
            for c in cells:
                kept[c] = False
    assert np.array_equal(new[kept], grid[kept])  # only the box and the big tiles it touched were solved again


def test_fill_parts_puts_back_every_part_from_the_anchors() -> None:
    rules = rules_from_tiles(kit())
    grid = solve(rules, (6, 6, 2), seed=3)
    placed = placed_tiles(rules, grid)
    assert np.array_equal(fill_parts(rules, grid.shape, placed.cells, placed.variants), grid)


def test_a_big_tile_the_room_cannot_hold_is_left_out_with_a_note() -> None:
    problem = room_problem(kit(), [], RoomSpec(size=(6, 6, 1), seed=0, counts="stair=0..3; hall=0..2"))
    assert [str(item) for item in problem.left_out] == ["stair (1 × 1 × 2) left out: taller than the room's 1 "
                                                        "storey(s)"]
    assert "stair" not in set(problem.rules.tiles) and {"floor", "hall", "gallery"} <= set(problem.rules.tiles)
    grid = problem.run().grid
    assert check_big_grid([t for t in kit() if t.name != "stair"], problem.rules, grid) == []
    narrow = room_problem(kit(), [], RoomSpec(size=(2, 6, 2), seed=0))  # the gallery (3 x 1) turned fits: kept
    assert [str(item) for item in narrow.left_out] == []
    narrower = room_problem(kit(), [], RoomSpec(size=(1, 6, 2), seed=0))
    assert [str(item) for item in narrower.left_out] == ["hall (2 × 2 × 1) left out: wider than the room of 1 × 6 × 2 "
                                                         "cells in every turn"]
    assert check_big_grid(kit(), narrower.rules, narrower.run().grid) == []


@pytest.mark.parametrize("spec, match", [
    (dict(fixed=(FixedTile("stair", 90, (1, 1, 0)),)),
     r"^Fixed tile 'stair' covers 1 × 1 × 2 cells and fits the room of 6 × 6 × 1 cells in none of its turns"),
    (dict(counts="stair=1..2"), r"^Counts ask for at least 1 of 'stair', which covers 1 × 1 × 2 cells"),
    (dict(regions=(RoomRegion(name="up", low=(0, 0, 0), high=(1, 1, 0), tiles="stair, floor=0", only=True),)),
     r"^Region 'up' allows only 'stair', which fit the room of 6 × 6 × 1 cells in none of their turns"),
])
def test_a_tile_the_room_cannot_hold_and_needs_is_refused_naming_it(spec, match) -> None:
    with pytest.raises(RoomInputError, match=match) as error:
        room_problem(kit(), [], RoomSpec(size=(6, 6, 1), seed=0, **spec))
    assert "\n" not in str(error.value) and error.value.template.format(**error.value.fields) == str(error.value)


def test_regions_may_name_a_tile_left_out_and_a_room_that_holds_no_tile_is_refused() -> None:
    region = RoomRegion(name="hall", low=(0, 0, 0), high=(2, 2, 0), tiles="stair=0, floor, wall", only=True)
    problem = room_problem(kit(), [], RoomSpec(size=(6, 6, 1), seed=1, regions=(region,)))
    names = np.vectorize(lambda v: problem.rules.tiles[int(v)])(problem.run().grid)
    assert set(names[:3, :3].ravel()) <= {"floor", "wall"}
    with pytest.raises(RoomInputError, match=r"^Tile 'stair' covers 1 × 1 × 2 cells and fits the room of 4 × 4 × 1"):
        room_problem([t for t in kit() if t.name == "stair"], [], RoomSpec(size=(4, 4, 1)))


def test_a_fixed_big_tile_stands_whole_from_its_anchor_and_outside_the_room_is_refused() -> None:
    tiles = kit()
    spec = RoomSpec(size=(6, 6, 2), seed=4, fixed=(FixedTile("hall", 90, (2, 3, 0)), FixedTile("stair", 0, (0, 0, 0))))
    problem = room_problem(tiles, [], spec)
    grid = problem.run().grid
    assert check_big_grid(tiles, problem.rules, grid) == []
    assert problem.rules.names[grid[2, 3, 0]] == "hall@90" and problem.rules.names[grid[0, 0, 1]] == "stair#0,0,1"
    with pytest.raises(RoomInputError, match="reaches outside the room"):
        room_problem(tiles, [], RoomSpec(size=(6, 6, 2), fixed=(FixedTile("hall", 0, (5, 0, 0)),)))


def test_bad_sizes_and_cell_sockets_are_refused_in_one_line() -> None:
    for bad in ((0, 1, 1), (1.5, 1, 1), (1, 1), "2x2", (True, 1, 1)):
        with pytest.raises(ValueError, match="size: give three whole numbers"):
            SocketTile("x", {s: "" for s in "nesw"}, size=bad)
    with pytest.raises(ValueError, match="inside the tile"):
        SocketTile("x", {s: "" for s in "nesw"}, size=(2, 1, 1), cell_sockets={(0, 0, 0): {"e": "a"}})
    with pytest.raises(ValueError, match="not one of its"):
        SocketTile("x", {s: "" for s in "nesw"}, size=(2, 1, 1), cell_sockets={(2, 0, 0): {"e": "a"}})


LABELS = st.sampled_from(("a", "b"))


@st.composite
def mixed_kits(draw) -> list[SocketTile]:
    """A filler, a few 1 x 1 tiles and one to three big tiles with random sizes, labels and turns."""
    tiles = [SocketTile("fill", {**{s: "a" for s in "nesw"}, **FLOOR}, rotations=ALL),
             SocketTile("bb", {**{s: "b" for s in "nesw"}, **FLOOR})]
    for n in range(draw(st.integers(0, 2))):
        tiles.append(SocketTile(f"small{n}", {**{s: draw(LABELS) for s in "nesw"}, **FLOOR}, rotations=ALL))
    for n in range(draw(st.integers(1, 3))):
        size = (draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 2)))
        if size == (1, 1, 1):
            size = (2, 1, 1)
        cells = {}
        for i, j, k in np.ndindex(*size):
            sides = [s for s, (di, dj) in {"e": (1, 0), "w": (-1, 0), "n": (0, 1), "s": (0, -1)}.items()
                     if not (0 <= i + di < size[0] and 0 <= j + dj < size[1])]
            cells[(i, j, k)] = {s: draw(LABELS) for s in sides}
        rotations = tuple(sorted(draw(st.sets(st.sampled_from(ALL), min_size=1))))
        tiles.append(SocketTile(f"big{n}", {**{s: "a" for s in "nesw"}, **FLOOR}, size=size, rotations=rotations,
                                cell_sockets=cells, mirror=draw(st.booleans()), weight=draw(st.sampled_from((1, 5)))))
    return tiles


def test_random_kits_of_small_and_big_tiles_solve_to_whole_fitting_tiles() -> None:
    solved = []

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(tiles=mixed_kits(), shape=st.tuples(st.integers(2, 6), st.integers(2, 6), st.integers(1, 3)),
           seed=st.integers(0, 2**16))
    def run(tiles, shape, seed) -> None:
        rules = rules_from_tiles(tiles)
        try:
            grid = solve(rules, shape, seed=seed, time_limit=20)
        except Contradiction:
            return
        assert check_big_grid(tiles, rules, grid) == []
        placed = placed_tiles(rules, grid)
        solved.append(sum(int(np.prod(placed.sizes[r])) > 1 for r in range(len(placed.variants))))

    run()
    assert len(solved) >= 30, f"only {len(solved)} of 40 random kits were solved"
    assert sum(solved) >= 20, "the solved rooms hold big tiles"
