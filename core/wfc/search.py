"""The WFC search state: domains as bit rows, propagation, constraints, decisions and undo.

Propagation is vectorised over the whole frontier: every cell next to a changed cell recomputes its domain as
its old domain AND, for each direction, the union of what the neighbour's remaining variants allow —
bit rows and per-chunk lookup tables (:mod:`.bitset`), no loop over variants or cells. After each
propagation every :class:`~.constraints.Constraint` is asked; its narrowing is propagated in turn.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence

import numpy as np

from .bitset import ChunkTables, pack, unpack
from .checks import neighbour_pairs
from .constraints import Constraint, Narrow, Violation
from .heuristics import cell_keys
from .rules import Rules
from .vocab import Heuristic

ALL_ONES = np.iinfo(np.uint64).max

# Typed as plain ufuncs: numpy 2.5's stubs mark the usual overload of ``reduce`` with ``typing.override``
# (Python 3.12+), so mypy checking for 3.11 sees none that takes neither ``out`` nor ``keepdims``.
_LOGICAL_OR: np.ufunc = np.logical_or
_BITWISE_OR: np.ufunc = np.bitwise_or
_BITWISE_AND: np.ufunc = np.bitwise_and


def _any_rows(rows: np.ndarray) -> np.ndarray:
    """Row-wise any of a (k, W) array (the ufunc directly: no Python wrapper per call)."""
    return _LOGICAL_OR.reduce(rows, axis=1) if rows.shape[1] > 1 else rows[:, 0].astype(bool)


class Exhausted(Exception):
    """Every choice of a complete search was tried."""


class Deadline(Exception):
    """The time limit ran out."""


def check_deadline(deadline: float) -> None:
    """Raise :class:`Deadline` once the clock has passed ``deadline``.

    Parameters
    ----------
    deadline : float
        A ``time.perf_counter()`` reading.
    """
    if time.perf_counter() > deadline:
        raise Deadline


class Search:
    """Domains ``dom`` ((N + 1, W) uint64; the last row is an all-ones sentinel for off-grid neighbours)."""

    def __init__(self, rules: Rules, shape: tuple[int, ...], neighbours: np.ndarray, tables: ChunkTables,
                 heuristic: Heuristic, start: np.ndarray, deadline: float) -> None:
        self.rules = rules
        self.shape = shape
        self.count = rules.count
        self.cells = int(neighbours.shape[1]) - 1
        self.neighbours = neighbours
        self.tables = tables
        self.width = tables.width
        self.heuristic = heuristic
        self.deadline = deadline
        self.start = np.vstack([start, np.full((1, self.width), ALL_ONES, dtype=np.uint64)])
        self.onehot = pack(np.eye(self.count, dtype=bool))
        self.weights = np.asarray(rules.weights, dtype=np.float64)
        self.zone: np.ndarray | None = None  # (N,) row of zone_weights per cell, when some cells draw otherwise
        self.zone_weights = self.weights[None, :]
        self.lonely = any(not rules.matrix(d).any(axis=1).all() for d in rules.directions)
        self.walk_row = pack(rules.walkable_mask())
        self.not_walk_row = pack(~rules.walkable_mask())
        self.growing = False
        self.near = np.zeros(self.cells + 1, dtype=np.int32)
        self.rank = self._scan_rank(shape)
        self.constraints: list[Constraint] = []
        self.inexact = False
        self.failure: tuple[int, np.ndarray, str] | None = None
        self.failed_by: Constraint | None = None
        self.hint = ""

    @staticmethod
    def _scan_rank(shape: tuple[int, ...]) -> np.ndarray:
        """Row order of each flat cell: x fastest, then y, then z (the flat order has x slowest)."""
        rank = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape[::-1]).T.reshape(-1)
        return np.append(rank, np.iinfo(np.int64).max)

    # ------------------------------------------------------------------ state
    def reset(self, rng: np.random.Generator | None) -> None:
        self.dom = self.start.copy()
        spread = 1e-6 if self.heuristic == Heuristic.ENTROPY else 0.5
        noise = 0.0 if rng is None else rng.random(self.cells) * spread
        self.noise = np.append(np.broadcast_to(noise, (self.cells,)), 0.0)
        self.keys = np.full(self.cells + 1, np.inf)
        self.growing = self.heuristic == Heuristic.GROW and bool(self.walk_row.any())
        self.near = np.zeros(self.cells + 1, dtype=np.int32)
        if self.growing:
            sure = np.append(self._sure_walk(self.dom[:-1]), False)
            np.add.at(self.near, self.neighbours[:, :-1][:, sure[:-1]].reshape(-1), 1)
            self.near[-1] = 0
        if rng is not None:
            check_deadline(self.deadline)
            all_cells = np.arange(self.cells)
            self.keys[all_cells] = self._keys(self.dom[:-1], all_cells)
            check_deadline(self.deadline)
        self.trail: list[tuple[np.ndarray, np.ndarray]] = []
        for constraint in self.constraints:
            constraint.init(self.dom[:-1])

    def _keys(self, rows: np.ndarray, cells: np.ndarray) -> np.ndarray:
        rows = np.ascontiguousarray(rows)
        return cell_keys(self.heuristic, self.tables, rows, cells, self.noise, self.rank, self.near)

    def _sure_walk(self, rows: np.ndarray) -> np.ndarray:
        """Rows that hold walkable variants only."""
        return ~_any_rows(rows & self.not_walk_row) & _any_rows(rows)

    def _near_changed(self, cells: np.ndarray, delta: int) -> np.ndarray:
        """Count ``delta`` more sure-walkable neighbours around ``cells``; the neighbours touched."""
        around = self.neighbours[:, cells].reshape(-1)
        around = around[around != self.cells]
        np.add.at(self.near, around, delta)
        return around

    def decided(self) -> int:
        return int(np.count_nonzero(self.keys[:-1] == np.inf))

    def undo(self, mark: int) -> None:
        restored = []
        while len(self.trail) > mark:
            cells, old = self.trail.pop()
            if self.growing:
                lost = self._sure_walk(self.dom[cells]) & ~self._sure_walk(old)
                if lost.any():
                    restored.append(self._near_changed(cells[lost], -1))
            self.dom[cells] = old
            restored.append(cells)
        if restored:
            cells = np.unique(np.concatenate(restored))
            self.keys[cells] = self._keys(self.dom[cells], cells)
            for constraint in self.constraints:
                constraint.restore(cells, self.dom[cells])

    def _write(self, cells: np.ndarray, old: np.ndarray, new: np.ndarray) -> None:
        self.trail.append((cells, old))
        self.dom[cells] = new
        for constraint in self.constraints:
            constraint.update(cells, new)
        self.keys[cells] = self._keys(new, cells)
        if self.growing:
            became = self._sure_walk(new) & ~self._sure_walk(old)
            if became.any():
                around = self._near_changed(cells[became], 1)
                self.keys[around] = self._keys(self.dom[around], around)

    # ------------------------------------------------------------------ propagation
    def propagate(self, frontier: np.ndarray) -> bool:
        tables = self.tables
        chunk_view: np.ndarray = self.dom.view(tables.chunk_dtype)
        chunks = tables.chunks
        sentinel = self.cells
        while frontier.size:
            around = self.neighbours[:, frontier].reshape(-1)
            # Duplicates are harmless (same old row, same support): dedupe only larger frontiers.
            around = np.unique(around) if around.size > 16 else around[around != sentinel]
            if around.size and around[-1] == sentinel:
                around = around[:-1]
            nbr = self.neighbours[:, around]
            index = chunk_view[nbr, :chunks] + tables.support_offsets
            support = tables.support[index]
            support = _BITWISE_OR.reduce(support, axis=2) if chunks > 1 else support[:, :, 0]
            if self.lonely:  # off the grid nothing is asked of a side, even one that fits no tile
                support[nbr == sentinel] = ALL_ONES
            support = _BITWISE_AND.reduce(support, axis=0)
            old = self.dom[around]
            new = old & support
            changed = _any_rows(new != old)
            if not changed.any():
                return True
            frontier = around[changed]
            new = new[changed]
            self._write(frontier, old[changed], new)
            empty = ~_any_rows(new)
            if empty.any():
                where = int(np.argmax(empty))
                self.failure = (int(frontier[where]), old[changed][where], "no variant fits its neighbours")
                return False
            if frontier.size > 4096:
                check_deadline(self.deadline)
        return True

    def narrow(self, cells: np.ndarray, keep: np.ndarray, reason: str) -> np.ndarray | None:
        """AND ``keep`` into the domains of ``cells``; the cells that changed, or None when one is emptied."""
        old = self.dom[cells]
        new = old & keep
        changed = _any_rows(new != old)
        cells, old, new = cells[changed], old[changed], new[changed]
        if cells.size:
            self._write(cells, old, new)
        empty = ~_any_rows(new)
        if empty.any():
            where = int(np.argmax(empty))
            self.failure = (int(cells[where]), old[where], reason)
            return None
        return cells

    def settle(self, frontier: np.ndarray) -> bool:
        """Propagate, then ask every constraint until nothing changes; False on a contradiction."""
        self.failed_by = None
        while True:
            if not self.propagate(frontier):
                return False
            for constraint in self.constraints:
                verdict = constraint.check()
                if isinstance(verdict, Violation):
                    self.failed_by = constraint
                    self.hint = constraint.explain(verdict)
                    self.failure = (verdict.cell, self.dom[verdict.cell].copy(), verdict.reason)
                    return False
                if isinstance(verdict, Narrow):
                    changed = self.narrow(verdict.cells, verdict.rows, f"the {constraint.name} constraint "
                                          "left no variant")
                    if changed is None:
                        self.failed_by = constraint
                        return False
                    frontier = changed
                    break
            else:
                return True

    def assign(self, cell: int, variant: int) -> bool:
        cells = np.array([cell])
        self._write(cells, self.dom[cells].copy(), self.onehot[variant:variant + 1])
        return self.settle(cells)

    def ban(self, cell: int, banned: np.ndarray) -> bool:
        cells = np.array([cell])
        old = self.dom[cells].copy()
        self._write(cells, old, old & ~banned)
        if not self.dom[cell].any():
            self.failed_by = None
            self.failure = (cell, old[0], "every variant was tried here")
            return False
        return self.settle(cells)

    def choose(self, cell: int, rng: np.random.Generator) -> int:
        """A variant of the cell's domain drawn with probability proportional to its weight."""
        bits = np.unpackbits(self.dom[cell].view(np.uint8), bitorder="little")[: self.count]
        weights = self.weights if self.zone is None else self.zone_weights[self.zone[cell]]
        cumulative = np.cumsum(weights * bits)
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        if pick >= self.count:  # rounding at the very top of the range
            pick = int(np.flatnonzero(bits)[-1])
        return pick

    # ------------------------------------------------------------------ search
    def initial(self) -> bool:
        """Propagate the starting domains once (independent of randomness); they become the new start."""
        self.reset(None)
        if not _any_rows(self.dom[:-1]).all():
            where = int(np.argmin(_any_rows(self.dom[:-1])))
            self.failure = (where, self.dom[where].copy(), "no variant is allowed here")
            return False
        # Full domains narrow nothing (every variant has a partner on every side): start from the others.
        full = pack(np.ones(self.count, dtype=bool))
        ok = self.settle(np.flatnonzero(_any_rows(self.dom[:-1] != full)))
        self.start = self.dom.copy()
        return ok

    def attempt(self, rng: np.random.Generator, max_backtracks: int,
                counters: dict[str, int]) -> Generator[None, None, bool]:
        """One attempt, yielding after every decision; returns True when every cell is decided."""
        self.reset(rng)
        self.inexact = False
        stack: list[tuple[int, int, int]] = []
        backtracks = 0
        while True:
            cell = int(np.argmin(self.keys))
            if self.keys[cell] == np.inf:
                return True
            check_deadline(self.deadline)
            yield
            variant = self.choose(cell, rng)
            stack.append((cell, variant, len(self.trail)))
            counters["decisions"] += 1
            ok = self.assign(cell, variant)
            while not ok:
                if not stack:
                    if self.inexact:
                        return False
                    raise Exhausted
                if backtracks >= max_backtracks:
                    return False
                backtracks += 1
                counters["backtracks"] += 1
                if backtracks & 255 == 0:
                    check_deadline(self.deadline)
                cell, variant, mark = stack.pop()
                related = None if self.failed_by is None else self.failed_by.related(variant)
                self.undo(mark)
                if related is not None:
                    self.inexact = True
                    ok = self.ban(cell, related)
                else:
                    ok = self.ban(cell, self.onehot[variant])

    def grid(self) -> np.ndarray:
        bits = unpack(self.dom[:-1], self.count)
        return np.argmax(bits, axis=1).reshape(self.shape)


def neighbour_table(shape: tuple[int, ...], directions: Sequence[str], deadline: float) -> np.ndarray:
    """(D, N + 1) neighbour of each cell per direction, N where it is off the grid (edges are not wrapped
    here: periodic edges are a constraint, :class:`~.layout.Periodic`).

    Parameters
    ----------
    shape : tuple of int
        The grid's shape (N cells).
    directions : sequence of str
        The rules' directions, in their order (the table's rows).
    deadline : float
        A ``time.perf_counter()`` reading; :class:`Deadline` between rows once it has passed.
    """
    cells = int(np.prod(shape))
    neighbours = np.empty((len(directions), cells + 1), dtype=np.int64)  # filled row by row: the deadline
    for d, direction in enumerate(directions):                            # is checked between rows
        check_deadline(deadline)
        a, b = neighbour_pairs(shape, direction, False)
        neighbours[d].fill(cells)
        neighbours[d, a] = b
    return neighbours
