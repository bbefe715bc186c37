"""Solver guarantees: periodic, fixed, border, determinism, regeneration, budgets, contradictions, bad input.
"""

from __future__ import annotations

import numpy as np
import pytest
from wfc_check import adjacency_errors, rules_ok

from strew.core.steps import run_to_end
from strew.core.wfc import (
    Contradiction,
    Heuristic,
    Rules,
    find_violations,
    regenerate,
    solve,
    solve_detailed,
    solve_steps,
)


def checker_rules() -> Rules:
    a = np.array([[False, True], [True, False]])
    return Rules(weights=np.ones(2), allowed={"e": a, "n": a}, names=("black", "white"))


def pipes_rules() -> Rules:
    """4-bit pipe tiles (bit 0 e, 1 n, 2 w, 3 s): a pipe on a side must meet a pipe."""
    t = np.arange(16)
    e = ((t[:, None] & 1) > 0) == ((t[None, :] & 4) > 0)
    n = ((t[:, None] & 2) > 0) == ((t[None, :] & 8) > 0)
    return Rules(weights=np.linspace(1, 2, 16), allowed={"e": e, "n": n})


@pytest.mark.parametrize("heuristic", list(Heuristic))
@pytest.mark.parametrize("periodic", [False, True])
def test_every_heuristic_gives_valid_grids(heuristic, periodic):
    rules = pipes_rules()
    for seed in range(3):
        grid = solve(rules, (9, 7), seed=seed, periodic=periodic, heuristic=heuristic)
        assert grid.shape == (9, 7) and grid.dtype.kind == "i"
        assert adjacency_errors(grid, rules_ok(rules), periodic) == []
        assert find_violations(rules, grid, periodic) == []


def test_a_heuristic_is_read_in_any_case_and_none_is_auto():
    rules = pipes_rules()
    for heuristic in Heuristic:
        expected = solve_detailed(rules, (7, 6), seed=3, heuristic=heuristic)
        for given in (str(heuristic), str(heuristic).lower(), str(heuristic).capitalize()):
            result = solve_detailed(rules, (7, 6), seed=3, heuristic=given)
            assert np.array_equal(result.grid, expected.grid)
            assert (result.restarts, result.backtracks, result.decisions) == (
                expected.restarts, expected.backtracks, expected.decisions)
    assert np.array_equal(solve(rules, (7, 6), seed=3, heuristic=None), solve(rules, (7, 6), seed=3))


@pytest.mark.parametrize("call", [
    lambda rules: solve(rules, (4, 4), heurstic=Heuristic.MRV),
    lambda rules: solve_detailed(rules, (4, 4), heurstic=Heuristic.MRV),
    lambda rules: regenerate(rules, np.zeros((4, 4), dtype=int), ((0, 2), (0, 2)), heurstic=Heuristic.MRV),
    lambda rules: run_to_end(solve_steps(rules, (4, 4), heurstic=Heuristic.MRV)),
])
def test_a_misspelt_option_is_a_type_error_naming_it(call):
    with pytest.raises(TypeError, match="heurstic"):
        call(pipes_rules())


def test_options_are_keyword_only_and_regenerate_takes_no_fixed():
    rules = pipes_rules()
    with pytest.raises(TypeError):
        solve(rules, (4, 4), 0, False)  # type: ignore[misc]
    with pytest.raises(TypeError, match="fixed"):
        regenerate(rules, np.zeros((4, 4), dtype=int), ((0, 2), (0, 2)), fixed={(0, 0): 1})


def test_periodic_wraps_both_axes():
    grid = solve(pipes_rules(), (6, 5), seed=4, periodic=True)
    e = pipes_rules().allowed["e"]
    n = pipes_rules().allowed["n"]
    assert all(e[grid[-1, y], grid[0, y]] for y in range(5))
    assert all(n[grid[x, -1], grid[x, 0]] for x in range(6))


def test_checkerboard_parity_periodic_odd_is_impossible():
    with pytest.raises(Contradiction, match="no grid exists"):
        solve(checker_rules(), (3, 4), seed=0, periodic=True)


def test_determinism_and_seeds_differ():
    rules = pipes_rules()
    a = solve(rules, (12, 12), seed=7)
    assert np.array_equal(a, solve(rules, (12, 12), seed=7))
    assert not np.array_equal(a, solve(rules, (12, 12), seed=8))


def test_fixed_tiles_dict_names_and_array():
    rules = checker_rules()
    grid = solve(rules, (5, 5), seed=1, fixed={(2, 2): "white"})
    assert grid[2, 2] == 1 and grid[0, 0] == 1
    fixed = np.full((5, 5), -1)
    fixed[0, 1] = 1
    assert solve(rules, (5, 5), seed=1, fixed=fixed)[0, 1] == 1
    pipes = pipes_rules()
    fixed = {(1, 1): 15, (4, 3): 0, (6, 6): 5}
    grid = solve(pipes, (8, 8), seed=2, fixed=fixed)
    assert all(grid[c] == v for c, v in fixed.items())
    assert adjacency_errors(grid, rules_ok(pipes)) == []


def test_contradictory_fixed_tiles():
    with pytest.raises(Contradiction, match=r"contradict.*cell"):
        solve(checker_rules(), (4, 4), seed=0, fixed={(0, 0): 0, (1, 0): 0})
    with pytest.raises(ValueError, match="outside the grid"):
        solve(checker_rules(), (4, 4), fixed={(9, 0): 0})
    with pytest.raises(ValueError, match="variant"):
        solve(checker_rules(), (4, 4), fixed={(0, 0): 7})
    with pytest.raises(ValueError, match="no tile variant named"):
        solve(checker_rules(), (4, 4), fixed={(0, 0): "grey"})


def test_border_tile_all_around():
    rules = pipes_rules()
    grid = solve(rules, (7, 6), seed=3, border=0)  # pipe-free tile outside: no pipe leaves the grid
    assert not (grid[-1, :] & 1).any() and not (grid[:, -1] & 2).any()
    assert not (grid[0, :] & 4).any() and not (grid[:, 0] & 8).any()
    assert adjacency_errors(grid, rules_ok(rules)) == []
    with pytest.raises(ValueError, match="periodic"):
        solve(rules, (4, 4), border=0, periodic=True)
    with pytest.raises(ValueError, match="socket label"):
        solve(rules, (4, 4), border="wall")


def test_fixed_contradicting_border():
    with pytest.raises(ValueError, match="contradicts the border"):
        solve(pipes_rules(), (4, 4), border=0, fixed={(0, 0): 4})


def test_regenerate_keeps_outside_and_stays_valid():
    rules = pipes_rules()
    old = solve(rules, (10, 10), seed=1)
    new = regenerate(rules, old, ((2, 7), (3, 8)), seed=5)
    outside = np.ones((10, 10), dtype=bool)
    outside[2:7, 3:8] = False
    assert np.array_equal(new[outside], old[outside])
    assert adjacency_errors(new, rules_ok(rules)) == []
    with pytest.raises(ValueError, match="box"):
        regenerate(rules, old, ((0, 2),))
    with pytest.raises(ValueError, match="selects no cell"):
        regenerate(rules, old, ((3, 3), (0, 2)))


def test_budgets_never_hang():
    rules = pipes_rules()
    with pytest.raises(Contradiction, match="time_limit"):
        solve(rules, (300, 300), seed=0, time_limit=0.05)
    with pytest.raises(ValueError, match="memory_budget"):
        solve(rules, (100_000, 100_000), seed=0)
    with pytest.raises(ValueError, match="memory_budget"):
        solve(rules, (100, 100), memory_budget=1000)


def test_contradiction_after_budget_says_what_to_try():
    # a random sparse rule set that admits small grids only rarely
    rng = np.random.default_rng(11)
    e = rng.random((12, 12)) < 0.25
    n = rng.random((12, 12)) < 0.25
    np.fill_diagonal(e, True)
    np.fill_diagonal(n, True)
    rules = Rules(weights=np.ones(12), allowed={"e": e, "n": n})
    result = solve_detailed(rules, (8, 8), seed=0, max_backtracks=50, max_restarts=2)
    assert find_violations(rules, result.grid) == []
    assert result.decisions > 0
    tight = Rules(weights=np.ones(3), allowed={"e": np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=bool),
                                               "n": np.eye(3, dtype=bool)})
    with pytest.raises(Contradiction, match=r"Last failure at cell"):
        solve(tight, (4, 3), seed=0, periodic=True)  # x period 3 needs width divisible by 3


@pytest.mark.parametrize("bad, match", [
    ({"shape": (4,)}, "shape"),
    ({"shape": (0, 4)}, "shape"),
    ({"heuristic": "fast"}, "heuristic"),
    ({"max_backtracks": -1}, "max_backtracks"),
    ({"time_limit": 0}, "time_limit"),
    ({"periodic": (True,)}, "periodic"),
    ({"connected": True}, "walkable"),
])
def test_bad_input(bad, match):
    options = {"shape": (4, 4), **bad}
    shape = options.pop("shape")
    with pytest.raises(ValueError, match=match):
        solve(pipes_rules(), shape, **options)


def test_rules_validation():
    a = np.ones((2, 2), dtype=bool)
    with pytest.raises(ValueError, match="weights"):
        Rules(weights=np.array([1.0, 0.0]), allowed={"e": a, "n": a})
    with pytest.raises(ValueError, match="weights"):
        Rules(weights=np.array([1.0, np.nan]), allowed={"e": a, "n": a})
    with pytest.raises(ValueError, match="'e' and 'n'"):
        Rules(weights=np.ones(2), allowed={"e": a})
    with pytest.raises(ValueError, match="shape"):
        Rules(weights=np.ones(3), allowed={"e": a, "n": a})
    lonely = np.array([[True, False], [True, False]])
    with pytest.raises(ValueError, match=r"no possible neighbour.*e: '1'"):
        Rules(weights=np.ones(2), allowed={"e": lonely.T, "n": a})
    with pytest.raises(ValueError, match="expected a Rules"):
        solve("rules", (3, 3))
    rules = Rules(weights=np.ones(2), allowed={"e": a, "n": a})
    assert np.array_equal(rules.matrix("w"), rules.allowed["e"].T)
    assert rules.subset([1]).count == 1


def test_solve_steps_reports_progress_and_matches_solve():
    rules = pipes_rules()
    seen: list = []
    result = run_to_end(solve_steps(rules, (40, 40), seed=1, step_seconds=0), seen.append)
    assert seen[0].phase == "setup" and seen[-1].phase == "done" and seen[-1].fraction == 1.0
    search = [s for s in seen if s.phase == "search"]
    assert len(search) >= result.decisions  # step_seconds=0: a step before every decision
    fractions = [s.fraction for s in search]
    assert all(0 <= f <= 1 for f in fractions) and fractions == sorted(fractions)
    assert all(s.cells == 1600 and s.text for s in seen)
    assert np.array_equal(result.grid, solve(rules, (40, 40), seed=1))


def test_closing_solve_steps_stops_the_search():
    steps = solve_steps(pipes_rules(), (60, 60), seed=1, step_seconds=0)
    for _ in range(20):
        next(steps)
    steps.close()
    with pytest.raises(StopIteration):
        next(steps)
