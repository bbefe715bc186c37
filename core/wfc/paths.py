"""Paths between chosen cells: endpoints joined through walkable cells, optionally without loops or not too short.

A *path* is a tuple of two or more endpoint cells; each endpoint must hold a walkable tile and all endpoints of
one path must be joined through walkable cells, two neighbouring cells being joined when both tiles are passable
on the facing sides (as in :mod:`.connectivity`; stairs join floors through their ``up``/``down`` sides).
Cells away from the paths may stay sealed pockets.

Options over all paths:

- ``loops=False``: the walkable cells of every region that holds an endpoint form a tree. A *loop* is a cycle of
  passable adjacencies — cells c0, c1, …, ck = c0 (k ≥ 3, or k = 2 through two different sides, as in a periodic
  room two cells wide) where each step crosses a side both tiles can pass; a 2 × 2 block of open floor is one.
  Equivalently, in each such region the passable adjacencies number one fewer than the cells.
- ``min_length=N``: the shortest walk between any two endpoints of a path visits at least N cells, both
  endpoints counted (neighbouring endpoints: 2); 0 means no minimum.

Propagation, kept by the solver's search (see :mod:`.constraints`). The constraint watches the graph of cells
that *may* still be walkable (edges: neighbours that may both pass the facing sides) and keeps one *witness*
walk per pair of endpoints (the first endpoint of a path and each other one). While a witness stands the
endpoints are joined, so nothing is asked; when a cell or passage on it is lost the witness is repaired by a
search from both sides of the break (or found again over the whole grid when that grows large); none left is a
:class:`~.constraints.Violation`. After each repair the cells on *every* walk between the two endpoints — the
articulation points separating them — are forced walkable: they are the witness cells that no detour jumps
over, a detour being a component of the graph without the witness (labelled with numpy) or a direct edge
touching the witness at two places. Loops and the minimum length are kept on the graph of *sure* passages
(both cells' every variant passes the facing sides), which can only grow during the search: a union-find of it
tells a loop in a region holding an endpoint, and a breadth-first search over it a walk that is already too
short; both are violations.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .bitset import flag_table, flags_of, pack
from .checks import connected_labels
from .constraints import Constraint, Grid, Narrow, Violation
from .vocab import FORWARD, OPPOSITE

REPAIR_CAP = 2048
"""Nodes a repair's two searches may visit before the witness is found again over the whole grid."""

MAY_WALK, MAY_NOT_WALK = 1, 2
BITS = 63
"""Witnesses marked per cell by one bit each (a witness past them is checked after every loss instead)."""
_BITWISE_OR: np.ufunc = np.bitwise_or  # typed as a ufunc (numpy's stubs miss reduce()'s overload on 3.11)


def _may_pass(d: int) -> int:
    return 4 << d


def _may_block(d: int) -> int:
    return 256 << d


class Paths(Constraint):
    """Endpoints joined through walkable cells (see the module doc).

    Parameters
    ----------
    paths : iterable of sequences of cells
        Each path: two or more distinct cells of the grid (one index per axis).
    loops : bool, default True
        False: the walkable regions holding an endpoint have no loop (they form trees).
    min_length : int, default 0
        Each path's endpoints are at least this many cells apart along the shortest walk (both counted).
    """

    name = "paths"
    searching = True

    def __init__(self, paths: Iterable[Sequence[Any]], loops: bool = True, min_length: int = 0) -> None:
        self.given = [tuple(tuple(int(v) for v in cell) for cell in path) for path in paths]
        self.loops = bool(loops)
        if isinstance(min_length, bool) or int(min_length) != min_length or min_length < 0:
            raise ValueError(f"paths: min_length must be a whole number ≥ 0, got {min_length!r}")
        self.min_length = int(min_length)
        self.kinds: dict[str, str] = {}

    # ------------------------------------------------------------------ setup
    def setup(self, grid: Grid) -> None:
        rules, shape = grid.rules, grid.shape
        walk = rules.walkable_mask()
        if not walk.any():
            raise ValueError("paths: the rules have no walkable tile; mark walkable tiles or drop the paths")
        self.shape = shape
        cells = grid.cells
        self.cells = cells
        ends: list[list[int]] = []
        for number, path in enumerate(self.given, 1):
            flat: list[int] = []
            for cell in path:
                if len(cell) != len(shape) or any(not 0 <= c < s for c, s in zip(cell, shape, strict=True)):
                    raise ValueError(f"paths: path {number} has the cell {cell}, outside the grid of shape {shape}")
                index = int(np.ravel_multi_index(cell, shape))
                if index not in flat:
                    flat.append(index)
            if len(flat) < 2:
                raise ValueError(f"paths: path {number} needs two different endpoints, got {list(path)}")
            ends.append(flat)
        self.ends = ends
        # pairs the witnesses join: the first endpoint of a path and each other one
        self.pairs = [(number, path[0], other) for number, path in enumerate(ends) for other in path[1:]]
        self.end_pairs = [(number, a, b) for number, path in enumerate(ends)
                          for i, a in enumerate(path) for b in path[i + 1:]]
        endpoints = np.unique(np.array([c for path in ends for c in path], dtype=np.int64))
        grid.narrow(endpoints, pack(walk))
        for c in endpoints.tolist():
            if not grid.start[c].any():
                where = tuple(int(v) for v in np.unravel_index(c, shape))
                raise ValueError(f"paths: no walkable tile may stand at the endpoint {where}; move it")
        directions = rules.directions
        flag = np.where(walk, MAY_WALK, MAY_NOT_WALK).astype(np.uint16)
        for d, direction in enumerate(directions):
            passable = rules.passable_mask(direction)
            flag |= np.where(passable, _may_pass(d), _may_block(d)).astype(np.uint16)
        self.tables = grid.tables
        self.flag_table = flag_table(grid.tables, flag)
        self.walk_row = pack(walk)
        neighbours = grid.neighbours
        self.neighbours = neighbours
        self.opposite = [directions.index(OPPOSITE[d]) for d in directions]
        ea, eb, da = [], [], []
        for d, direction in enumerate(directions):
            if direction not in FORWARD:
                continue
            a = np.flatnonzero(neighbours[d, :cells] != cells)
            ea.append(a)
            eb.append(neighbours[d, a])
            da.append(np.full(a.size, d, dtype=np.int64))
        self.ea, self.eb = np.concatenate(ea), np.concatenate(eb)
        side_a = np.concatenate(da)
        side_b = np.array(self.opposite, dtype=np.int64)[side_a]
        self.pass_a = (4 << side_a).astype(np.uint16)
        self.pass_b = (4 << side_b).astype(np.uint16)
        self.block_a = (256 << side_a).astype(np.uint16)
        self.block_b = (256 << side_b).astype(np.uint16)
        edge_of = np.full((len(directions), cells), -1, dtype=np.int64)
        numbers = np.arange(self.ea.size, dtype=np.int64)
        edge_of[side_a, self.ea] = numbers
        edge_of[side_b, self.eb] = numbers
        self.edge_of = edge_of
        # adjacency[c]: (neighbour, bit of c's side towards it, bit of its side towards c, edge)
        table = neighbours[:, :cells].T.tolist()
        edges = edge_of.T.tolist()
        self.adjacency = [[(nb, 4 << d, 4 << self.opposite[d], edges[c][d]) for d, nb in enumerate(row)
                           if nb != cells and edges[c][d] >= 0] for c, row in enumerate(table)]
        self.is_end = np.zeros(cells, dtype=bool)
        self.is_end[endpoints] = True
        self.track_sure = not self.loops or self.min_length > 0

    # ------------------------------------------------------------------ state
    def init(self, dom: np.ndarray) -> None:
        self.flags = flags_of(self.tables, self.flag_table, dom)
        self.fl = self.flags.tolist()
        self.pending: Violation | None = None
        self.witness: list[list[int]] = []
        self.steps: list[list[int]] = []
        self.on_bits = np.zeros(self.cells, dtype=np.int64)  # bit i: the cell is on witness i
        self.dirty = [False] * len(self.pairs)
        self.fresh = [True] * len(self.pairs)  # witnesses whose forced cells are still to be found
        for i, (number, a, b) in enumerate(self.pairs):
            found = self._search_whole(a, b)
            if found is None:
                self.pending = self._cut(number, a, b)
                found = ([a], [])
            self._set_witness(i, *found)
        self.stale = True
        self.short_dirty = True

    def _set_witness(self, i: int, nodes: list[int], edges: list[int]) -> None:
        bit = np.int64(1 << i) if i < BITS else np.int64(0)
        if i < len(self.witness):
            self.on_bits[self.witness[i]] &= ~bit
            self.witness[i], self.steps[i] = nodes, edges
        else:
            self.witness.append(nodes)
            self.steps.append(edges)
        self.on_bits[nodes] |= bit

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        new = flags_of(self.tables, self.flag_table, rows)
        old = self.flags[cells]
        moved = np.flatnonzero(new != old)
        if moved.size == 0:
            return
        cells, old, new = cells[moved], old[moved], new[moved]
        self.flags[cells] = new
        fl = self.fl
        for c, f in zip(cells.tolist(), new.tolist(), strict=True):
            fl[c] = f
        lost = old & ~new
        touched = cells[(lost & np.uint16(0xFD)) != 0]  # lost a may-walk or may-pass bit
        if touched.size:
            hit = int(_BITWISE_OR.reduce(self.on_bits[touched]))
            for i in range(BITS, len(self.pairs)):  # witnesses past the bits: asked on every loss
                self.dirty[i] = True
            while hit:
                i = hit.bit_length() - 1
                self.dirty[i] = True
                hit &= ~(1 << i)
        if self.track_sure and not self.stale:
            gained = cells[(lost & np.uint16(0xFF02)) != 0]
            if gained.size:
                self._add_sure(gained)

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        new = flags_of(self.tables, self.flag_table, rows)
        self.flags[cells] = new
        fl = self.fl
        for c, f in zip(cells.tolist(), new.tolist(), strict=True):
            fl[c] = f
        # The may-graph only grew: every witness still stands. The sure graph shrank: built again when asked.
        self.stale = True
        self.short_dirty = True

    # ------------------------------------------------------------------ graphs
    def _may_edges(self) -> np.ndarray:
        fa, fb = self.flags[self.ea], self.flags[self.eb]
        return ((fa & self.pass_a) != 0) & ((fb & self.pass_b) != 0)

    def _sure_edges(self, index: np.ndarray | slice = slice(None)) -> np.ndarray:
        fa, fb = self.flags[self.ea[index]], self.flags[self.eb[index]]
        pa, pb = self.pass_a[index], self.pass_b[index]
        ba, bb = self.block_a[index], self.block_b[index]
        return ((fa & pa) != 0) & ((fa & ba) == 0) & ((fb & pb) != 0) & ((fb & bb) == 0)

    def _search_whole(self, a: int, b: int) -> tuple[list[int], list[int]] | None:
        """A walk from ``a`` to ``b`` in the may-graph (breadth first, vectorised): its nodes and edges."""
        may = self._may_edges()
        cells = self.cells
        parent_edge = np.full(cells + 1, -2, dtype=np.int64)
        parent_edge[a] = -1
        parent_edge[cells] = -1  # off the grid: never entered
        frontier = np.array([a], dtype=np.int64)
        while frontier.size and parent_edge[b] == -2:
            found, via = [], []
            for d in range(self.edge_of.shape[0]):
                e = self.edge_of[d, frontier]
                ok = e >= 0
                ok[ok] = may[e[ok]]
                nb = self.neighbours[d, frontier[ok]]
                fresh = parent_edge[nb] == -2
                found.append(nb[fresh])
                via.append(e[ok][fresh])
            nodes = np.concatenate(found)
            edges = np.concatenate(via)
            nodes, first = np.unique(nodes, return_index=True)
            parent_edge[nodes] = edges[first]
            frontier = nodes
        if parent_edge[b] == -2:
            return None
        out, steps = [b], []
        c = b
        while c != a:
            e = int(parent_edge[c])
            steps.append(e)
            c = int(self.ea[e]) if int(self.eb[e]) == c else int(self.eb[e])
            out.append(c)
        out.reverse()
        steps.reverse()
        return out, steps

    def _search_between(self, a: int, b: int) -> tuple[list[int], list[int]] | bool | None:
        """Both-sided search from ``a`` and ``b`` in the may-graph: the walk (nodes, edges), None when they are
        apart, or False when both searches grew past ``REPAIR_CAP``."""
        if a == b:
            return [a], []
        fl, adjacency = self.fl, self.adjacency
        seen: dict[int, tuple[int, int, int]] = {a: (0, -1, -1), b: (1, -1, -1)}  # node: (side, parent, edge)
        queues = (deque([a]), deque([b]))
        sizes = [1, 1]
        while True:
            side = 0 if sizes[0] <= sizes[1] else 1
            queue = queues[side]
            if not queue:
                return None
            c = queue.popleft()
            fc = fl[c]
            for nb, mine, theirs, e in adjacency[c]:
                if fc & mine and fl[nb] & theirs:
                    owner = seen.get(nb)
                    if owner is None:
                        seen[nb] = (side, c, e)
                        queue.append(nb)
                        sizes[side] += 1
                    elif owner[0] != side:
                        return self._joined(seen, c, nb, e, side)
            if sizes[0] + sizes[1] > REPAIR_CAP and queues[0] and queues[1]:
                return False

    @staticmethod
    def _joined(seen: dict[int, tuple[int, int, int]], c: int, nb: int, e: int,
                side: int) -> tuple[list[int], list[int]]:
        def back(x: int) -> tuple[list[int], list[int]]:
            nodes, edges = [x], []
            while seen[x][1] >= 0:
                edges.append(seen[x][2])
                x = seen[x][1]
                nodes.append(x)
            return nodes, edges

        here, here_edges = back(c)
        there, there_edges = back(nb)
        if side == 1:  # c grew from b's side
            here, here_edges, there, there_edges = there, there_edges, here, here_edges
        # here ends at a (reversed), there ends at b
        return here[::-1] + there, [*here_edges[::-1], e, *there_edges]

    def _repair(self, i: int, may: np.ndarray) -> tuple[list[int], list[int]] | None:
        """Witness ``i`` again after it lost cells or passages: the broken stretch bridged, or a new walk."""
        nodes, edges = self.witness[i], self.steps[i]
        broken = np.flatnonzero(~may[np.array(edges, dtype=np.int64)]) if edges else np.zeros(0, dtype=np.int64)
        if broken.size == 0:
            return nodes, edges
        first, last = int(broken[0]), int(broken[-1]) + 1
        if not self.fl[nodes[first]] & MAY_WALK or not self.fl[nodes[last]] & MAY_WALK:
            bridge: Any = False  # an end of the stretch left (only endpoints can: they are never bypassed)
        else:
            bridge = self._search_between(nodes[first], nodes[last])
        if bridge is False:
            _, a, b = self.pairs[i]
            return self._search_whole(a, b)
        if bridge is None:
            return None
        mid, mid_edges = bridge
        joined = nodes[:first] + mid + nodes[last + 1:]
        joined_edges = edges[:first] + mid_edges + edges[last:]
        return self._loop_erased(joined, joined_edges)

    @staticmethod
    def _loop_erased(nodes: list[int], edges: list[int]) -> tuple[list[int], list[int]]:
        """The walk with every return to a node already visited cut out (a simple path)."""
        out: list[int] = []
        out_edges: list[int] = []
        where: dict[int, int] = {}
        for k, c in enumerate(nodes):
            if c in where:
                cut = where[c]
                for gone in out[cut + 1:]:
                    del where[gone]
                del out[cut + 1:]
                del out_edges[cut:]
            else:
                where[c] = len(out)
                out.append(c)
            if k < len(edges):
                out_edges.append(edges[k])
        return out, out_edges[: len(out) - 1]

    def _forced(self, i: int, may: np.ndarray) -> np.ndarray:
        """The witness cells on every walk between its ends: those no detour jumps over."""
        nodes = np.array(self.witness[i], dtype=np.int64)
        length = nodes.size
        if length < 3:
            return np.zeros(0, dtype=np.int64)
        pos = np.full(self.cells, -1, dtype=np.int64)
        pos[nodes] = np.arange(length)
        ea, eb = self.ea[may], self.eb[may]
        pa, pb = pos[ea], pos[eb]
        free = (pa < 0) & (pb < 0)
        label = connected_labels(self.cells, ea[free], eb[free])
        lo = np.full(self.cells, length, dtype=np.int64)
        hi = np.full(self.cells, -1, dtype=np.int64)
        for p, other in ((pa, eb), (pb, ea)):
            touch = (p >= 0) & (pos[other] < 0)
            np.minimum.at(lo, label[other[touch]], p[touch])
            np.maximum.at(hi, label[other[touch]], p[touch])
        both = (pa >= 0) & (pb >= 0)
        starts = np.concatenate([lo[hi >= 0], np.minimum(pa[both], pb[both])])
        stops = np.concatenate([hi[hi >= 0], np.maximum(pa[both], pb[both])])
        jump = stops - starts >= 2
        cover = np.zeros(length + 1, dtype=np.int64)
        np.add.at(cover, starts[jump] + 1, 1)
        np.add.at(cover, stops[jump], -1)
        alone = np.cumsum(cover)[: length] == 0
        alone[0] = alone[-1] = False
        return nodes[alone]

    # ------------------------------------------------------------------ sure graph
    def _rebuild_sure(self) -> Violation | None:
        sure = self._sure_edges()
        self.sure_edge = sure
        a, b = self.ea[sure], self.eb[sure]
        label = connected_labels(self.cells, a, b)
        edges = np.bincount(label[a], minlength=self.cells)
        nodes = np.bincount(label, minlength=self.cells)
        self.parent = label.tolist()
        self.loop = (edges > np.maximum(nodes - 1, 0)).tolist()
        has_end = np.zeros(self.cells, dtype=bool)
        has_end[label[self.is_end]] = True
        self.has_end = has_end.tolist()
        self.stale = False
        self.looped: int | None = None
        if not self.loops:
            bad = np.flatnonzero(has_end & np.array(self.loop, dtype=bool))
            if bad.size:
                return self._loop_violation(int(bad[0]))
        return None

    def _find(self, c: int) -> int:
        parent = self.parent
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def _add_sure(self, cells: np.ndarray) -> None:
        candidates = self.edge_of[:, cells].reshape(-1)
        candidates = np.unique(candidates[candidates >= 0])
        candidates = candidates[~self.sure_edge[candidates]]
        if candidates.size == 0:
            return
        new = candidates[self._sure_edges(candidates)]
        if new.size == 0:
            return
        self.sure_edge[new] = True
        self.short_dirty = True
        for a, b in zip(self.ea[new].tolist(), self.eb[new].tolist(), strict=True):
            ra, rb = self._find(a), self._find(b)
            if ra == rb:
                self.loop[ra] = True
            else:
                self.parent[rb] = ra
                self.loop[ra] = self.loop[ra] or self.loop[rb]
                self.has_end[ra] = self.has_end[ra] or self.has_end[rb]
            if not self.loops and self.loop[ra] and self.has_end[ra] and self.looped is None:
                self.looped = a

    def _too_short(self) -> Violation | None:
        """A pair of endpoints already joined by sure passages over fewer than ``min_length`` cells."""
        limit = self.min_length - 2  # steps allowed to be too few
        for number, a, b in self.end_pairs:
            if self._find(a) != self._find(b):
                continue
            seen = np.zeros(self.cells + 1, dtype=bool)
            seen[a] = True
            frontier = np.array([a], dtype=np.int64)
            for _ in range(limit):
                found = []
                for d in range(self.edge_of.shape[0]):
                    e = self.edge_of[d, frontier]
                    ok = e >= 0
                    ok[ok] = self.sure_edge[e[ok]]
                    found.append(self.neighbours[d, frontier[ok]])
                frontier = np.unique(np.concatenate(found))
                frontier = frontier[~seen[frontier]]
                if frontier.size == 0:
                    break
                seen[frontier] = True
                if seen[b]:
                    reason = (f"path {number + 1}: {self._where(a)} and {self._where(b)} are joined by a walk of "
                              f"fewer than {self.min_length} cells")
                    self.kinds[reason] = "short"
                    return Violation(b, reason)
        return None

    # ------------------------------------------------------------------ check
    def check(self) -> Narrow | Violation | None:
        if self.pending is not None:
            pending, self.pending = self.pending, None
            return pending
        if any(self.dirty) or any(self.fresh):
            may = self._may_edges()
            for i, (number, a, b) in enumerate(self.pairs):
                if self.dirty[i]:
                    self.dirty[i] = False
                    found = self._repair(i, may)
                    if found is None:
                        self.dirty[i] = True  # still broken on the way back
                        return self._cut(number, a, b)
                    if found[0] != self.witness[i]:
                        self._set_witness(i, *found)
                        self.fresh[i] = True
                if self.fresh[i]:
                    self.fresh[i] = False
                    forced = self._forced(i, may)
                    forced = forced[(self.flags[forced] & MAY_NOT_WALK) != 0]
                    if forced.size:  # asked again once the narrowing has propagated: a fixpoint
                        self.fresh[i] = True
                        return Narrow(forced, np.broadcast_to(self.walk_row, (forced.size, self.walk_row.size)))
        if self.track_sure:
            if self.stale:
                found_loop = self._rebuild_sure()
                if found_loop is not None:
                    return found_loop
            if self.looped is not None:
                return self._loop_violation(self.looped)
            if self.min_length > 2 and self.short_dirty:
                self.short_dirty = False
                short = self._too_short()
                if short is not None:
                    return short
        return None

    def _where(self, cell: int) -> tuple[int, ...]:
        return tuple(int(v) for v in np.unravel_index(cell, self.shape))

    def _cut(self, number: int, a: int, b: int) -> Violation:
        reason = f"path {number + 1}: its endpoints {self._where(a)} and {self._where(b)} were cut apart"
        self.kinds[reason] = "cut"
        return Violation(b, reason)

    def _loop_violation(self, cell: int) -> Violation:
        reason = "a loop of walkable cells formed in a region joined to a path's endpoint"
        self.kinds[reason] = "loop"
        self.looped = None
        self.stale = True  # the union-find saw the loop: rebuilt after the backtrack
        return Violation(cell, reason)

    def explain(self, violation: Violation) -> str:
        kind = self.kinds.get(violation.reason, "cut")
        if kind == "loop":
            return "Try: allow loops, or mark fewer tiles passable on every side (open floor makes loops)."
        if kind == "short":
            return "Try: a smaller minimum path length, or endpoints farther apart."
        return ("Try: move the path's endpoints, mark more tiles walkable or passable, give doors, stairs and open "
                "floor more weight, or drop the path.")
