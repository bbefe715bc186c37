"""mxgmn simple-tiled sets: import, orientation maths, and solved grids checked by brute force."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from wfc_check import adjacency_errors, rules_ok

from strew.core.wfc import Contradiction, Heuristic, load_mxgmn, solve

DATA = Path(__file__).resolve().parents[1] / "data" / "mxgmn"  # mxgmn's tilesets, MIT (see its README)
# name: (subset, periodic, heuristic) as in mxgmn's samples.xml (Summer: scanline, see docs)
SETS = {
    "Castle": (None, False, Heuristic.SCANLINE), "Circles": (None, False, Heuristic.ENTROPY),
    "Circuit": ("Turnless", True, Heuristic.ENTROPY), "FloorPlan": (None, False, Heuristic.ENTROPY),
    "Knots": ("Standard", True, Heuristic.ENTROPY), "Rooms": (None, False, Heuristic.ENTROPY),
    "Summer": (None, False, Heuristic.SCANLINE),
}

PERIOD = {1: 90, 2: 180, 4: 360}


def turned_variant(rules, v: int) -> int:
    """The variant showing the picture of ``v`` turned 90° counter-clockwise, found from the
    rotations/reflected metadata only (a mirrored-then-turned picture turned again stays mirrored)."""
    members = [i for i in range(rules.count) if rules.tiles[i] == rules.tiles[v]]
    rotation = (rules.rotations[v] + 90) % PERIOD.get(len(members), 360)
    for i in members:
        if rules.reflected[i] == rules.reflected[v] and rules.rotations[i] == rotation:
            return i
    return -1


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_set_solves_and_every_adjacency_holds(name):
    subset, periodic, heuristic = SETS[name]
    rules = load_mxgmn(DATA / f"{name}.xml", subset)
    for seed in (0, 1):
        grid = solve(rules, (14, 12), seed=seed, periodic=periodic, heuristic=heuristic)
        assert grid.shape == (14, 12)
        assert adjacency_errors(grid, rules_ok(rules), periodic) == []


@pytest.mark.parametrize("name", sorted(SETS))
def test_turning_a_solved_grid_keeps_it_valid(name):
    """mxgmn rules are closed under turns: a valid grid turned 90° (each tile turned too) is valid again,
    which checks our orientation maths against the names and rotations independently."""
    subset, periodic, heuristic = SETS[name]
    rules = load_mxgmn(DATA / f"{name}.xml", subset)
    grid = solve(rules, (10, 10), seed=3, periodic=periodic, heuristic=heuristic)
    turn = np.array([turned_variant(rules, v) for v in range(rules.count)])
    assert (turn >= 0).all()
    turned = np.empty_like(grid)
    size = grid.shape[0]
    for x in range(size):
        for y in range(size):
            turned[size - 1 - y, x] = turn[grid[x, y]]  # (x, y) -> (-y, x)
    assert adjacency_errors(turned, rules_ok(rules), periodic) == []


def test_f_tiles_have_eight_distinct_orientations():
    rules = load_mxgmn(DATA / "FloorPlan.xml")
    members = [i for i in range(rules.count) if rules.tiles[i] == "halfglass"]
    assert len(members) == 8
    assert len({(rules.rotations[i], rules.reflected[i]) for i in members}) == 8
    assert sum(rules.reflected[i] for i in members) == 4


def test_symmetry_cardinalities_and_names():
    rules = load_mxgmn(DATA / "Knots.xml")
    counts = {t: rules.tiles.count(t) for t in set(rules.tiles)}
    assert counts == {"corner": 4, "cross": 2, "empty": 1, "line": 2, "t": 4}
    assert rules.names[:4] == ("corner 0", "corner 1", "corner 2", "corner 3")
    assert rules.rotations[:4] == (0, 90, 180, 270)
    circuit = load_mxgmn(DATA / "Circuit.xml")
    assert circuit.tiles.count("dskew") == 2


def test_xml_text_and_bad_input():
    xml = ('<set><tiles><tile name="a" symmetry="L"/><tile name="b"/></tiles><neighbors>'
           '<neighbor left="a 1" right="b"/><neighbor left="b" right="b"/><neighbor left="a" right="a 1"/>'
           '</neighbors></set>')
    rules = load_mxgmn(xml)
    assert rules.count == 5
    # the declared pair and its images under the 8 symmetries of the square
    a1, b = rules.index("a 1"), rules.index("b 0")
    assert rules.allowed["e"][a1, b]
    with pytest.raises(ValueError, match="subset"):
        load_mxgmn(xml, subset="nope")
    with pytest.raises(ValueError, match="symmetry"):
        load_mxgmn('<set><tiles><tile name="a" symmetry="Q"/></tiles></set>')
    with pytest.raises(ValueError, match="unknown tile"):
        load_mxgmn('<set><tiles><tile name="a"/></tiles><neighbors><neighbor left="a" right="z"/>'
                   '</neighbors></set>')
    with pytest.raises(ValueError, match="no such file"):
        load_mxgmn("/nonexistent/file.xml")
    with pytest.raises(ValueError, match="no possible neighbour"):
        load_mxgmn('<set><tiles><tile name="a"/></tiles><neighbors></neighbors></set>')


def test_castle_without_scanline_still_valid_or_clean_contradiction():
    rules = load_mxgmn(DATA / "Castle.xml")
    try:
        grid = solve(rules, (16, 16), seed=2, heuristic=Heuristic.ENTROPY, max_restarts=3)
    except Contradiction as error:
        assert "Try:" in str(error)
    else:
        assert adjacency_errors(grid, rules_ok(rules)) == []


SUBSET = '<subsets><subset name="two"><tile name="a"/><tile name="b"/></subset></subsets>'


@pytest.mark.parametrize("neighbor", [
    'left="" right="a"', 'left="a" right=""', 'right="a"', 'left="   " right="a"', 'left="a b c" right="a"',
    'left="a x" right="a"', 'left="a 8" right="a"', 'left="a -1" right="a"', 'left="a ²" right="a"',
    'left="a 1.5" right="b"',
])
@pytest.mark.parametrize("subset", [None, "two"])
def test_a_neighbor_that_names_no_tile_and_orientation_is_named(neighbor: str, subset: str | None) -> None:
    xml = (f'<set><tiles><tile name="a" symmetry="L"/><tile name="b"/></tiles><neighbors>'
           f'<neighbor left="a" right="a 1"/><neighbor left="b" right="b"/><neighbor {neighbor}/>'
           f'</neighbors>{SUBSET}</set>')
    with pytest.raises(ValueError, match=r"^load_mxgmn: .*<neighbor left=.*right=.*0\.\.7") as failure:
        load_mxgmn(xml, subset)
    assert "\n" not in str(failure.value)


def _f_tiles(count: int) -> str:
    """``count`` F tiles (8 variants each), every one fitting every other in every orientation."""
    tiles = "".join(f'<tile name="t{i}" symmetry="F"/>' for i in range(count))
    pairs = "".join(f'<neighbor left="t0 {k}" right="t{i} {j}"/><neighbor left="t{i} {k}" right="t0 {j}"/>'
                    for i in range(count) for k in range(8) for j in range(8))
    return f"<set><tiles>{tiles}</tiles><neighbors>{pairs}</neighbors></set>"


def test_a_tileset_whose_adjacency_exceeds_the_memory_budget_is_refused_with_its_size() -> None:
    many = "<set><tiles>" + "".join(f'<tile name="t{i}" symmetry="F"/>' for i in range(8000)) + "</tiles></set>"
    with pytest.raises(ValueError, match=r"64,000 tile variants \(8,000 tiles\) needs about 19\.1 GiB.*subset"):
        load_mxgmn(many)
    xml = _f_tiles(5)  # 40 variants: 8,000 bytes at 5 per pair
    assert load_mxgmn(xml, memory_budget=8000).count == 40
    with pytest.raises(ValueError, match=r"needs about 7\.8 KiB, more than the memory budget \(7\.8 KiB\)"):
        load_mxgmn(xml, memory_budget=7999)
