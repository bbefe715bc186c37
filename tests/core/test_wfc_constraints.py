"""Constraints as objects: one interface (setup, propagate a change, check, explain); a caller's own constraint
plugs in through ``solve(..., constraints=[...])`` without touching the solver loop."""

from __future__ import annotations

import numpy as np
import pytest
from wfc_check import adjacency_errors, rules_ok

from strew.core.wfc import Contradiction, Rules, solve
from strew.core.wfc.bitset import pack
from strew.core.wfc.constraints import Constraint, Grid, Narrow, Violation
from strew.core.wfc.symmetry import Symmetry

ANY = np.ones((3, 3), dtype=bool)


def free_rules():
    return Rules(weights=np.array([1.0, 2.0, 3.0]), allowed={"e": ANY, "n": ANY}, names=("a", "b", "c"))


class Diagonal(Constraint):
    """Set up only: variant ``a`` on the main diagonal."""

    name = "diagonal"

    def setup(self, grid: Grid) -> None:
        n = min(grid.shape)
        cells = np.ravel_multi_index((np.arange(n), np.arange(n)), grid.shape)
        grid.narrow(cells, pack(np.arange(grid.rules.count) == 0))


class SameFirstRows(Constraint):
    """Kept during the search: ``grid[x, 0] == grid[x, 1]`` (a narrowed cell narrows its partner in the other row;
    a caller's own constraint, not one the solver ships)."""

    name = "same rows"
    searching = True

    def setup(self, grid: Grid) -> None:
        index = np.arange(grid.cells).reshape(grid.shape)
        partner = index.copy()
        partner[:, 0], partner[:, 1] = index[:, 1], index[:, 0]
        self.mirror = partner.reshape(-1)

    def init(self, dom: np.ndarray) -> None:
        self.dom = dom.copy()
        self.changed: list[np.ndarray] = []

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.changed.append(cells)

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.changed = []

    def check(self) -> Narrow | Violation | None:
        if not self.changed:
            return None
        cells = np.unique(np.concatenate(self.changed))
        self.changed = []
        other = self.mirror[cells]
        need = self.dom[cells] & self.dom[other]
        if (need != self.dom[other]).any(axis=1).any():
            return Narrow(other, need)
        return None


class Never(Constraint):
    """Fails at the first check, with a hint."""

    name = "never"
    searching = True

    def check(self) -> Violation:
        return Violation(0, "the never constraint never holds")

    def explain(self, violation: Violation) -> str:
        return "Try: remove the never constraint."


@pytest.mark.parametrize("seed", range(4))
def test_a_setup_constraint_and_a_searching_constraint_plug_in(seed):
    rules = free_rules()
    grid = solve(rules, (7, 5), seed=seed, constraints=[Diagonal(), SameFirstRows()])
    assert (np.diagonal(grid) == 0).all()
    assert np.array_equal(grid[:, 0], grid[:, 1])
    assert adjacency_errors(grid, rules_ok(rules)) == []
    plain = solve(rules, (7, 5), seed=seed)
    assert not np.array_equal(plain[:, 0], plain[:, 1])  # without the constraint the rows differ


def test_a_mirror_constraint_with_a_checkerboard_on_an_even_grid_contradicts():
    """On a 4-wide checkerboard the mirror cells x and 3 - x always differ: a clean Contradiction (the built-in
    symmetry, each variant its own twin: rules without sockets give the twins)."""
    A = np.array([[False, True], [True, False]])
    rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A})
    itself = {"x": np.arange(2)}
    with pytest.raises(Contradiction):
        solve(rules, (4, 3), constraints=[Symmetry("x", twins=itself)], max_restarts=1, time_limit=10)
    assert np.array_equal(*(lambda g: (g, g[::-1]))(solve(rules, (5, 3), constraints=[Symmetry("x", twins=itself)])))


def test_a_failing_constraint_explains_itself():
    with pytest.raises(Contradiction, match=r"never constraint never holds.*Try: remove the never constraint"):
        solve(free_rules(), (3, 3), constraints=[Never()])


def test_constraints_must_be_constraint_objects():
    with pytest.raises(ValueError, match="constraints: expected Constraint objects"):
        solve(free_rules(), (3, 3), constraints=["mirror"])


def test_the_built_in_rules_are_constraints_too():
    """Border, fixed tiles, entrances, periodic edges, counts and connectivity are Constraint subclasses."""
    from strew.core.wfc.connectivity import Connectivity
    from strew.core.wfc.counts import Counts
    from strew.core.wfc.layout import Border, EdgeOnly, Entrances, Fixed, Periodic

    for kind in (Border, EdgeOnly, Entrances, Fixed, Periodic, Counts, Connectivity):
        assert issubclass(kind, Constraint)
    assert Counts.searching and Connectivity.searching and not Border.searching
