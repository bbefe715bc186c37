"""The maximum-run constraint: no more than ``length`` cells in a row hold one of some tiles.

``MaxRun("wall", 6)``: along every row in x and every row in y (each floor on its own) at most 6 consecutive cells
hold a wall (any turn or mirror); ``axes="xyz"`` counts columns up the floors too. On an axis whose edges wrap (a
periodic room) a run goes on across the edge. Propagation: a cell that is not yet sure loses the tiles when the
sure runs on either side of it plus itself would be longer than ``length`` (so a run of ``length`` closes both its
ends, and a gap between two runs that would join too long stays open); a sure run longer than ``length`` is a
violation (DeBroglie's MaxConsecutiveConstraint).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .bitset import pack
from .constraints import Constraint, Grid, Narrow, Violation
from .grid_axes import AXIS_NAMES, axis_index, wrapped_axes
from .search import _any_rows
from .tile_groups import group_mask, group_names


def run_lengths(sure: np.ndarray, wrapped: bool) -> tuple[np.ndarray, np.ndarray]:
    """For (k, L) bool lines: per cell, the sure cells in a row just before it and just after it (not counting
    itself; a wrapped line goes round, a line sure all round counts L).

    Parameters
    ----------
    sure : numpy.ndarray
        (k, L) bool.
    wrapped : bool
        The lines' ends meet.

    Examples
    --------
    >>> before, after = run_lengths(np.array([[True, True, False, True]]), False)
    >>> before.tolist(), after.tolist()
    ([[0, 1, 2, 0]], [[1, 0, 1, 0]])
    """
    length = sure.shape[1]
    line = np.concatenate([sure, sure, sure], axis=1) if wrapped else sure
    before = _ending_runs(line)
    after = _ending_runs(line[:, ::-1])[:, ::-1]
    if wrapped:
        middle = slice(length, 2 * length)
        before, after = np.minimum(before[:, middle], length), np.minimum(after[:, middle], length)
    return before, after


def _ending_runs(line: np.ndarray) -> np.ndarray:
    """(k, L) int: the True cells in a row just before each cell (the run ending at the cell before it)."""
    place = np.arange(line.shape[1])
    last_false = np.maximum.accumulate(np.where(line, -1, place), axis=1)  # -1 before the first False
    through = place - last_false  # the run ending at each cell, itself included (0 where it is False)
    out = np.zeros(line.shape, dtype=np.int64)
    out[:, 1:] = through[:, :-1]
    return out


class MaxRun(Constraint):
    """At most ``length`` consecutive cells along the ``axes`` hold ``tiles`` (see the module doc).

    Parameters
    ----------
    tiles : str or iterable of str
        Source tile names (all their turns and mirrors), one or several (``"wall, pillar"`` count together).
    length : int
        The longest run allowed, ≥ 1.
    axes : str, default "xy"
        The axes counted: any of ``x``, ``y``, ``z`` (z: up the floors).
    """

    name = "max run"
    searching = True

    def __init__(self, tiles: str | Iterable[str], length: int, axes: str = "xy") -> None:
        self.tiles = group_names(tiles)
        self.label = ", ".join(self.tiles)
        if isinstance(length, bool) or not isinstance(length, int | np.integer) or length < 1:
            raise ValueError(f"max run of {self.label}: the length must be a whole number ≥ 1, got {length!r}")
        if not isinstance(axes, str) or not axes or set(axes) - set(AXIS_NAMES) or len(set(axes)) != len(axes):
            raise ValueError(f"max run of {self.label}: axes are letters of 'xyz', each once, got {axes!r}")
        self.length = int(length)
        self.axes = axes

    def setup(self, grid: Grid) -> None:
        members = group_mask(grid.rules, self.tiles, "max run")
        self.row = pack(members)
        self.others = pack(~members)
        wrapped = wrapped_axes(grid)
        index = np.arange(grid.cells).reshape(grid.shape)
        self.lines: list[tuple[np.ndarray, np.ndarray, bool]] = []
        for letter in self.axes:
            if letter == "z" and len(grid.shape) < 3:
                continue  # a flat grid has one floor: nothing runs up
            axis = axis_index(letter, len(grid.shape), "max run")
            cells = np.moveaxis(index, axis, -1).reshape(-1, grid.shape[axis])  # (lines, L) flat cells
            line_of = np.empty(grid.cells, dtype=np.int64)
            line_of[cells] = np.arange(cells.shape[0])[:, None]
            self.lines.append((cells, line_of, wrapped[axis]))

    def _sure(self, rows: np.ndarray) -> np.ndarray:
        return _any_rows(rows & self.row) & ~_any_rows(rows & self.others)

    def init(self, dom: np.ndarray) -> None:
        self.dom = dom.copy()
        self.sure = self._sure(dom)
        self.pending: list[np.ndarray] = [np.arange(dom.shape[0])]

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.sure[cells] = self._sure(rows)
        self.pending.append(cells)

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.sure[cells] = self._sure(rows)
        self.pending = []

    def check(self) -> Narrow | Violation | None:
        if not self.pending:
            return None
        changed = np.unique(np.concatenate(self.pending))
        self.pending = []
        banned = []
        for cells, line_of, wrapped in self.lines:
            lines = cells[np.unique(line_of[changed])]
            sure = self.sure[lines]
            before, after = run_lengths(sure, wrapped)
            through = before + 1 + after
            if wrapped:  # round a ring the runs before and after may be the same cells
                through = np.minimum(through, sure.shape[1])
            too_long = sure & (through > self.length)
            if too_long.any():
                line, at = np.argwhere(too_long)[0]
                return Violation(int(lines[line, at]), f"more than {self.length} of {self.label!r} in a row")
            open_cells = lines[~sure & (through > self.length)]
            banned.append(open_cells[_any_rows(self.dom[open_cells] & self.row)])
        targets = np.unique(np.concatenate(banned)) if banned else np.zeros(0, dtype=np.int64)
        if targets.size == 0:
            return None
        return Narrow(targets, np.broadcast_to(self.others, (targets.size, self.others.size)))

    def explain(self, violation: Violation) -> str:
        return f"Try: a longer max run for {self.label!r}, or fewer of them in the counts, fixed tiles or regions."
