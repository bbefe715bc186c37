"""The walkable-connectivity constraint: all walkable cells form one region."""

from __future__ import annotations

import numpy as np

from .bitset import ChunkTables, flag_table, flags_of, pack
from .checks import connected_labels
from .constraints import Constraint, Violation
from .rules import Rules
from .vocab import OPPOSITE

FAILURE = "walkable cells could no longer all be connected"


class Connectivity(Constraint):
    """Can every certainly-walkable cell still join one region through cells that may still be walkable?

    Nodes: cells with a walkable variant left. Edges: neighbouring cells that may both be passable on the
    facing sides. Cells whose every remaining variant is walkable must all share one component. Once every
    cell is decided this is exactly "all walkable cells form one connected region".

    Per cell it keeps a small bit set of flags (may be walkable, may be not walkable, may be passable on
    each side), updated only for the cells whose domains change; the components are recomputed only when
    some flag changed since the last successful check. After a violation the search bans, together with the
    guilty variant, every variant with the same flags (they would most likely cut the region again): a
    heuristic, so a failed search is then not a proof that no grid exists.
    """

    name = "connectivity"
    MAY_WALK, MAY_NOT_WALK = 1, 2

    def __init__(self, rules: Rules, pairs: dict[str, tuple[np.ndarray, np.ndarray]], tables: ChunkTables) -> None:
        directions = rules.directions
        flag = np.where(rules.walkable_mask(), self.MAY_WALK, self.MAY_NOT_WALK).astype(np.uint16)
        for i, direction in enumerate(directions):
            flag |= np.where(rules.passable_mask(direction), 4 << i, 0).astype(np.uint16)
        self.tables = tables
        self.flag_table = flag_table(tables, flag)
        self.same_flags = pack(flag[:, None] == flag[None, :])
        bit = {d: np.uint16(4 << i) for i, d in enumerate(directions)}
        self.pairs = [(a, b, bit[d], bit[OPPOSITE[d]]) for d, (a, b) in pairs.items()]
        self.flags = np.zeros(0, dtype=np.uint16)
        self.dirty = True

    def init(self, dom: np.ndarray) -> None:
        self.flags = flags_of(self.tables, self.flag_table, dom)
        self.dirty = True

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        new = flags_of(self.tables, self.flag_table, rows)
        if not self.dirty:
            self.dirty = bool((new != self.flags[cells]).any())
        self.flags[cells] = new

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.flags[cells] = flags_of(self.tables, self.flag_table, rows)
        self.dirty = False

    def related(self, variant: int) -> np.ndarray:
        return self.same_flags[variant]

    def check(self) -> Violation | None:
        if not self.dirty:
            return None
        flags = self.flags
        sure = (flags & (self.MAY_WALK | self.MAY_NOT_WALK)) == self.MAY_WALK
        if np.count_nonzero(sure) <= 1:
            self.dirty = False
            return None
        a_all, b_all = [], []
        for a, b, bit_a, bit_b in self.pairs:
            keep = ((flags[a] & bit_a) != 0) & ((flags[b] & bit_b) != 0)
            a_all.append(a[keep])
            b_all.append(b[keep])
        label = connected_labels(flags.size, np.concatenate(a_all), np.concatenate(b_all))
        sure_labels = label[sure]
        if (sure_labels == sure_labels[0]).all():
            self.dirty = False
            return None
        cell = int(np.flatnonzero(sure)[np.argmax(sure_labels != sure_labels[0])])
        return Violation(cell, FAILURE)
