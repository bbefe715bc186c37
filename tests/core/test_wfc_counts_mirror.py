"""Count constraints and mirrored variants, checked by brute force on solved grids."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wfc_check import adjacency_errors, rules_ok
from wfc_kits import ALL_TURNS, QUADRANT_PAIRS, quadrant_rules

from strew.core.wfc import Contradiction, SocketTile, parse_counts, rules_from_tiles, solve
from strew.core.wfc.socket_detect import detect_sockets, mirror_pairs
from strew.core.wfc.sockets import mirror_label, sockets_fit, turned


def tile_counts(rules, grid) -> dict[str, int]:
    names, counts = np.unique(np.array(rules.tiles)[grid.reshape(-1)], return_counts=True)
    return dict(zip(names.tolist(), counts.tolist(), strict=True))


@pytest.mark.parametrize("seed", range(4))
def test_counts_hold_in_every_solved_grid(seed):
    rules = quadrant_rules()
    counts = {"diagonal": (2, 3), "inner": (0, 0), "solid": (5, None)}
    grid = solve(rules, (10, 10), seed=seed, counts=counts)
    assert adjacency_errors(grid, rules_ok(rules)) == []
    found = tile_counts(rules, grid)
    assert 2 <= found.get("diagonal", 0) <= 3
    assert found.get("inner", 0) == 0
    assert found.get("solid", 0) >= 5


def test_exact_count_with_border_and_connectivity():
    rules = quadrant_rules()
    for seed in range(3):
        grid = solve(rules, (9, 9), seed=seed, border="xx", connected=True, counts={"diagonal": 1})
        assert tile_counts(rules, grid).get("diagonal", 0) == 1
        assert adjacency_errors(grid, rules_ok(rules)) == []


def test_counts_that_cannot_hold_are_refused_or_contradict():
    rules = quadrant_rules()
    with pytest.raises(ValueError, match="more than the 16 cells"):
        solve(rules, (4, 4), counts={"floor": (17, None)})
    with pytest.raises(ValueError, match="no tile named 'door'"):
        solve(rules, (4, 4), counts={"door": 1})
    with pytest.raises(ValueError, match="below min"):
        solve(rules, (4, 4), counts={"floor": (3, 1)})
    with pytest.raises(ValueError, match="ints >= 0"):
        solve(rules, (4, 4), counts={"floor": (1.5, 2)})
    with pytest.raises(Contradiction):  # a closed room cannot be all floor
        solve(rules, (4, 4), border="xx", counts={"floor": (16, 16)}, max_restarts=2)


def test_parse_counts():
    assert parse_counts("entrance=1; stairs = 0..4 ;") == {"entrance": (1, 1), "stairs": (0, 4)}
    assert parse_counts("big pillar=2..*") == {"big pillar": (2, None)}
    assert parse_counts("") == {}
    for bad, match in (("entrance", "TILE=N"), ("a=x", "TILE=N"), ("a=3..1", "maximum below"),
                       ("a=1; a=2", "twice"), ("a=-1", "TILE=N")):
        with pytest.raises(ValueError, match=match):
            parse_counts(bad)


ASYMMETRIC = {"n": "m0000000a", "e": "door_l", "s": "wall", "w": "m0000000b~", "up": "stair:1", "down": "slab"}


def test_mirrored_variants_reflect_their_sockets():
    tile = SocketTile("corner", ASYMMETRIC, rotations=ALL_TURNS, mirror=True)
    compat = frozenset({frozenset(("door_l", "door_r"))})
    sockets, _ = turned(tile, 0, ("n", "e", "s", "w", "up", "down"), mirrored=True, compatible=compat)
    assert sockets == {"n": "m0000000a~", "w": "door_r", "s": "wall", "e": "m0000000b", "up": "stair~:3",
                       "down": "slab"}
    for label, vertical in (("door_l", False), ("m0000000a", False), ("wall", False), ("stair:1", True)):
        assert mirror_label(mirror_label(label, vertical, compat), vertical, compat) == label  # an involution


def test_mirror_label_refuses_an_ambiguous_twin():
    compat = frozenset({frozenset(("a", "b")), frozenset(("a", "c"))})
    with pytest.raises(ValueError, match="ambiguous"):
        mirror_label("a", False, compat)


def quadrant_mirror_kit() -> list[SocketTile]:
    """A chiral 'hook' (quadrants SW, SE, NE, NW = o x x x with a one-sided notch) and its free partners."""
    return [
        SocketTile("hook", {"e": "ox", "n": "xx", "w": "xx", "s": "oo"}, rotations=ALL_TURNS, mirror=True),
        SocketTile("floor", {"e": "oo", "n": "oo", "w": "oo", "s": "oo"}),
        SocketTile("solid", {"e": "xx", "n": "xx", "w": "xx", "s": "xx"}),
        SocketTile("edge", {"e": "ox", "n": "xx", "w": "xo", "s": "oo"}, rotations=ALL_TURNS),
    ]


def test_mirrored_variants_solve_and_every_adjacency_fits():
    rules = rules_from_tiles(quadrant_mirror_kit(), compatible=QUADRANT_PAIRS)
    mirrored = [v for v in range(rules.count) if rules.reflected[v]]
    assert mirrored and all(rules.tiles[v] == "hook" and rules.names[v].startswith("hook~") for v in mirrored)
    assert {rules.sockets[v]["w"] for v in mirrored if rules.rotations[v] == 0} == {"xo"}  # e "ox" -> w "xo"
    used = set()
    for seed in range(4):
        grid = solve(rules, (9, 8), seed=seed)
        for a, b, side in (((slice(0, -1), slice(None)), (slice(1, None), slice(None)), "e"),
                           ((slice(None), slice(0, -1)), (slice(None), slice(1, None)), "n")):
            opposite = {"e": "w", "n": "s"}[side]
            for va, vb in zip(grid[a].reshape(-1), grid[b].reshape(-1), strict=True):
                assert sockets_fit(rules.sockets[va][side], rules.sockets[vb][opposite], rules.compatible)
        used |= {bool(rules.reflected[v]) for v in grid.reshape(-1)}
    assert used == {False, True}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from([-0.5, -0.25, 0.0, 0.3, 0.5]),
                          st.sampled_from([-0.5, -0.1, 0.2, 0.5]), st.sampled_from([0.0, 0.4, 1.0])),
                min_size=1, max_size=8))
def test_mirror_labels_agree_with_detect_sockets_on_mirrored_geometry(extra):
    """Detect Sockets on a mirrored mesh (x -> -x) gives the labels the core derives by mirroring the labels."""
    slab = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (0.0, 1.0)]
    vertices = np.array(slab + list(extra), dtype=float)
    size = (1.0, 1.0, 1.0)
    labels = detect_sockets(vertices, size)
    mirrored = detect_sockets(vertices * np.array([-1.0, 1.0, 1.0]), size)
    compat = frozenset(frozenset(p) for p in mirror_pairs(labels.values()))
    tile = SocketTile("t", labels, mirror=True)
    derived, _ = turned(tile, 0, ("n", "e", "s", "w"), mirrored=True, compatible=compat)
    assert derived == {side: mirrored[side] for side in ("n", "e", "s", "w")}


def test_border_labels_follow_the_sides_they_named() -> None:
    from strew.core.wfc.socket_detect import follow_labels

    before = {"a": {"n": "wall", "e": "door"}, "b": {"n": "wall", "e": "wall"}, "c": {"n": "open"}}
    after = {"a": {"n": "h1", "e": "h2"}, "b": {"n": "h1", "e": "h3"}, "c": {"n": "h4"}}
    assert follow_labels("wall, window", before, after) == "h1, h3, window"  # window: no side had it
    assert follow_labels("", before, after) == ""
    assert follow_labels("door,wall", before, after) == "h2, h1, h3"
    assert follow_labels("wall", before, {"a": {"n": "h1"}, "b": {}}) == "h1"  # sides left unlabelled drop out
