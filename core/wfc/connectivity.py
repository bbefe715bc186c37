"""The walkable-connectivity constraint: all walkable cells form one region, kept by propagation.

The constraint watches a graph: its nodes are the cells that may still be walkable, its edges join
neighbouring nodes that may both be passable on the facing sides. *Sure* cells (every variant left walkable)
must all lie in one component; once every cell is decided that is exactly "one walkable region".

While some cell is sure the graph is kept connected (the invariant): during the search it only loses nodes
and edges, so after each narrowing it is enough to ask whether the ends of the lost edges still meet. A node
that leaves takes its edges with it; lost edges that share an end form one cluster whose surviving ends must
all meet (an end that left the graph too passes the question on). A search from both ends at once answers in
a few steps when they do; when they do not, the side that runs out first is a whole piece cut off, found at
the cost of its size: a piece without sure cells can never join the region, so its walkable variants are
banned (propagation); a piece holding sure cells while sure cells remain outside is a violation. Only when
both searches grow large (or no cell is sure yet) are the components labelled over the whole grid.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from .bitset import flag_table, flags_of, pack
from .checks import connected_labels
from .constraints import Constraint, Grid, Narrow, Violation
from .vocab import OPPOSITE

FAILURE = "walkable cells could no longer all be connected"
SEARCH_CAP = 4096
"""Nodes both searches may visit before the components are labelled over the whole grid instead."""


class Connectivity(Constraint):
    """All cells with a walkable tile form one region (see the module doc for how it is kept)."""

    name = "connectivity"
    searching = True
    MAY_WALK, MAY_NOT_WALK = 1, 2

    def __init__(self) -> None:
        self.flags = np.zeros(0, dtype=np.uint16)
        self.fl: list[int] = []
        self.pending: list[int] = []
        self.resolved: list[list[int]] = []
        self.lost: dict[int, list[int]] = {}
        self.whole = True

    def setup(self, grid: Grid) -> None:
        rules, tables, neighbours = grid.rules, grid.tables, grid.neighbours
        directions = rules.directions
        if not rules.walkable_mask().any():
            raise ValueError("connected: the rules have no walkable tile; mark walkable tiles or drop connected")
        walk = rules.walkable_mask()
        flag = np.where(walk, self.MAY_WALK, self.MAY_NOT_WALK).astype(np.uint16)
        self.side_bits = [4 << i for i in range(len(directions))]
        for i, direction in enumerate(directions):
            flag |= np.where(rules.passable_mask(direction), 4 << i, 0).astype(np.uint16)
        self.tables = tables
        self.flag_table = flag_table(tables, flag)
        self.same_flags = pack(flag[:, None] == flag[None, :])
        self.not_walkable = pack(~walk)
        cells = grid.cells
        bits = [(self.side_bits[d], self.side_bits[directions.index(OPPOSITE[direction])])
                for d, direction in enumerate(directions)]
        table = neighbours[:, :cells].T.tolist()
        # adjacency[c]: (neighbour, bit of c's side towards it, bit of its side towards c)
        self.adjacency = [[(nb, *bits[d]) for d, nb in enumerate(row) if nb != cells] for row in table]
        self.neighbours = neighbours
        self.directions = directions

    # ------------------------------------------------------------------ state
    def init(self, dom: np.ndarray) -> None:
        self.flags = flags_of(self.tables, self.flag_table, dom)
        self.fl = self.flags.tolist()
        self._clear()
        self.whole = True

    def _clear(self) -> None:
        self.pending = []  # cells that lost edges since the last check
        self.resolved = []  # groups of surviving nodes that must still meet
        self.lost = {}  # the edges lost since the graph was last known connected, both ways

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        new = flags_of(self.tables, self.flag_table, rows)
        old = self.flags[cells]
        self.flags[cells] = new
        touched = np.flatnonzero(old & ~new & ~np.uint16(self.MAY_NOT_WALK))
        fl = self.fl
        if touched.size == 0:
            for c, f in zip(cells.tolist(), new.tolist(), strict=True):
                fl[c] = f
            return
        changed = set(touched.tolist())
        lost = self.lost
        for i, (c, f) in enumerate(zip(cells.tolist(), new.tolist(), strict=True)):
            before = fl[c]
            fl[c] = f
            if i not in changed or before == f:
                continue
            ends = [nb for nb, mine, theirs in self.adjacency[c] if before & mine and not f & mine and fl[nb] & theirs]
            if ends:
                lost.setdefault(c, []).extend(ends)
                for nb in ends:
                    lost.setdefault(nb, []).append(c)
                self.pending.append(c)

    def _resolve(self) -> None:
        """The cells that lost edges as groups of surviving nodes that must still meet: the survivors of each
        cluster of lost edges (a node that left the graph joins the clusters of all its edges)."""
        fl, lost = self.fl, self.lost
        visited: set[int] = set()
        for seed in self.pending:
            if seed in visited:
                continue
            visited.add(seed)
            out, stack = [], [seed]
            while stack:
                c = stack.pop()
                if fl[c] & self.MAY_WALK:
                    out.append(c)
                for nb in lost.get(c, ()):
                    if nb not in visited:
                        visited.add(nb)
                        stack.append(nb)
            if len(out) > 1:
                self.resolved.append(out)
        self.pending = []

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        new = flags_of(self.tables, self.flag_table, rows)
        self.flags[cells] = new
        fl = self.fl
        for c, f in zip(cells.tolist(), new.tolist(), strict=True):
            fl[c] = f
        self._clear()
        # A restored state passed the check; with a sure cell the graph was connected then.
        self.whole = not self._sure().any()

    def related(self, variant: int) -> np.ndarray:
        return self.same_flags[variant]

    def explain(self, violation: Violation) -> str:
        return ("Try: mark more tiles walkable or passable, give doors, stairs and open floor more weight, or "
                "turn off All Walkable Connected.")

    # ------------------------------------------------------------------ check
    def _sure(self) -> np.ndarray:
        return (self.flags & (self.MAY_WALK | self.MAY_NOT_WALK)) == self.MAY_WALK

    def check(self) -> Narrow | Violation | None:
        if self.whole:
            return self._whole_grid()
        fl = self.fl
        self._resolve()
        while self.resolved:
            group = [c for c in self.resolved[-1] if fl[c] & self.MAY_WALK]
            for other in group[1:]:
                piece = self._cut_off(group[0], other)
                if piece is None:
                    continue
                if piece is self._TOO_FAR:
                    return self._whole_grid()
                return self._split(piece)
            self.resolved.pop()
        self.lost.clear()
        return None

    _TOO_FAR: list[int] = []

    def _cut_off(self, a: int, b: int) -> list[int] | None:
        """None when ``a`` and ``b`` still meet; else the nodes of the smaller side (a whole component), or
        ``_TOO_FAR`` when both searches grew past ``SEARCH_CAP``."""
        fl, adjacency = self.fl, self.adjacency
        seen = {a: 0, b: 1}
        queues = (deque([a]), deque([b]))
        sizes = [1, 1]
        while True:
            side = 0 if sizes[0] <= sizes[1] else 1
            queue = queues[side]
            if not queue:
                return [c for c, s in seen.items() if s == side]
            c = queue.popleft()
            fc = fl[c]
            for nb, mine, theirs in adjacency[c]:
                if fc & mine and fl[nb] & theirs:
                    owner = seen.get(nb)
                    if owner is None:
                        seen[nb] = side
                        queue.append(nb)
                        sizes[side] += 1
                    elif owner != side:
                        return None
            if sizes[0] + sizes[1] > SEARCH_CAP and queues[0] and queues[1]:
                return self._TOO_FAR

    def _split(self, piece: list[int]) -> Narrow | Violation | None:
        """The graph fell apart and ``piece`` is a whole component: ban walking there or fail."""
        cells = np.array(piece, dtype=np.int64)
        sure = self._sure()
        total = int(np.count_nonzero(sure))
        inside = int(np.count_nonzero(sure[cells]))
        if total == 0:  # no region yet: which piece it will be is open
            self.whole = True
            return self._whole_grid()
        if inside and inside < total:
            return Violation(int(cells[np.argmax(sure[cells])]), FAILURE)
        if inside == 0:
            return Narrow(cells, np.broadcast_to(self.not_walkable, (cells.size, self.not_walkable.size)))
        rest = np.flatnonzero((self.flags & self.MAY_WALK) != 0)
        rest = rest[~np.isin(rest, cells)]
        return Narrow(rest, np.broadcast_to(self.not_walkable, (rest.size, self.not_walkable.size)))

    def _whole_grid(self) -> Narrow | Violation | None:
        """Components labelled over the whole grid: sure cells in two is a violation, pieces without sure cells
        lose their walkable variants, and one component left restores the invariant."""
        flags = self.flags
        nodes = (flags & self.MAY_WALK) != 0
        sure = self._sure()
        if not sure.any():
            self.whole = True
            return None
        a_all, b_all = [], []
        cells = flags.size
        for d, bit in enumerate(self.side_bits):
            opposite = self.side_bits[self.directions.index(OPPOSITE[self.directions[d]])]
            b = self.neighbours[d, :cells]
            valid = b != cells
            a = np.flatnonzero(valid)
            b = b[valid]
            keep = ((flags[a] & bit) != 0) & ((flags[b] & opposite) != 0)
            a_all.append(a[keep])
            b_all.append(b[keep])
        label = connected_labels(cells, np.concatenate(a_all), np.concatenate(b_all))
        sure_labels = label[sure]
        main = sure_labels[0]
        if (sure_labels != main).any():
            cell = int(np.flatnonzero(sure)[np.argmax(sure_labels != main)])
            return Violation(cell, FAILURE)
        others = np.flatnonzero(nodes & (label != main))
        if others.size:
            return Narrow(others, np.broadcast_to(self.not_walkable, (others.size, self.not_walkable.size)))
        self.whole = False
        self._clear()
        return None
