"""The count constraint: how many cells may hold a tile (all its turns and mirrors together).

``counts={"entrance": (1, 1), "stairs": (0, 4)}``: exactly one entrance, at most four stairs. During the
search it keeps, per tile, the cells that certainly hold it and the cells that still may; when the certain
ones reach the maximum the tile is removed from every other cell, when the possible ones fall to the minimum
they are all given the tile, and it fails when the certain ones exceed the maximum or the possible ones
fall below the minimum (DeBroglie's CountConstraint works the same way).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from .bitset import flag_table, flags_of, pack
from .constraints import Constraint, Grid, Narrow, Violation
from .rules import Rules

MAX_COUNTED_TILES = 32
_ITEM = re.compile(r"^\s*(?P<name>.+?)\s*=\s*(?P<low>\d+)\s*(?:\.\.\s*(?P<high>\d+|\*)\s*)?$")


def parse_counts(text: str) -> dict[str, tuple[int, int | None]]:
    """``"entrance=1; stairs=0..4; pillar=2..*"`` -> ``{tile: (min, max)}`` (``None``: no maximum).

    Parameters
    ----------
    text : str
        ``TILE=N`` or ``TILE=MIN..MAX`` (``MAX`` ``*`` for no maximum) separated by ``;``.

    Raises
    ------
    ValueError
        Naming the item that cannot be read, a maximum below its minimum or a tile given twice.

    Examples
    --------
    >>> parse_counts("entrance=1; stairs=0..4; pillar = 2..*")
    {'entrance': (1, 1), 'stairs': (0, 4), 'pillar': (2, None)}
    """
    out: dict[str, tuple[int, int | None]] = {}
    for item in (part for part in text.split(";") if part.strip()):
        match = _ITEM.match(item)
        if match is None:
            raise ValueError(f"counts: write TILE=N or TILE=MIN..MAX separated by ';' (e.g. \"entrance=1; "
                             f"stairs=0..4\"); cannot read {item.strip()!r}")
        low = int(match["low"])
        high = low if match["high"] is None else None if match["high"] == "*" else int(match["high"])
        if high is not None and high < low:
            raise ValueError(f"counts: {item.strip()!r} has a maximum below its minimum; write MIN..MAX")
        if match["name"] in out:
            raise ValueError(f"counts: tile {match['name']!r} is given twice; keep one range")
        out[match["name"]] = (low, high)
    return out


def count_groups(rules: Rules, counts: Mapping[str, object], cells: int) -> list[tuple[str, np.ndarray, int, int]]:
    """Validated ``(tile, (T,) bool variants, min, max)`` per counted tile (``ValueError`` names the culprit).

    Parameters
    ----------
    rules : Rules
        The rules (``rules.tiles`` names each variant's source tile).
    counts : mapping
        ``{tile: n}`` or ``{tile: (min, max)}``, ``max`` None for no maximum.
    cells : int
        The grid's cells (no maximum means at most this many).
    """
    if not isinstance(counts, Mapping):
        raise ValueError(f"counts: expected a dict {{tile: (min, max)}}, got {counts!r}")
    if len(counts) > MAX_COUNTED_TILES:
        raise ValueError(f"counts: at most {MAX_COUNTED_TILES} tiles can be counted, got {len(counts)}")
    tiles = np.array(rules.tiles if rules.tiles is not None else [rules.name(v) for v in range(rules.count)])
    anchors = rules.anchor_mask()  # a big tile counts once, by its anchor part
    groups = []
    for tile, given in counts.items():
        members = (tiles == tile) & anchors
        if not members.any():
            known = ", ".join(sorted(set(tiles.tolist()))[:20])
            raise ValueError(f"counts: no tile named {tile!r}; known: {known}")
        pair: Any = (given, given) if isinstance(given, int) else given
        try:
            low, high = pair
        except (TypeError, ValueError):
            raise ValueError(f"counts[{tile!r}]: expected (min, max) or one int, got {given!r}") from None
        if not _count_like(low) or not (high is None or _count_like(high)):
            raise ValueError(f"counts[{tile!r}]: min and max must be ints >= 0 (max may be None), got {given!r}")
        if low > cells:
            raise ValueError(f"counts[{tile!r}]: min {low} is more than the {cells} cells of the grid")
        high = cells if high is None else int(high)
        if high < low:
            raise ValueError(f"counts[{tile!r}]: max {high} is below min {low}")
        groups.append((str(tile), members, int(low), high))
    return groups


def _count_like(value: object) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool) and int(value) >= 0


class Counts(Constraint):
    """Minimum and maximum numbers of cells per counted tile (see the module doc)."""

    name = "counts"
    searching = True

    def __init__(self, groups: list[tuple[str, np.ndarray, int, int]]) -> None:
        self.groups = groups
        self.names = [g[0] for g in groups]
        self.low = np.array([g[2] for g in groups], dtype=np.int64)
        self.high = np.array([g[3] for g in groups], dtype=np.int64)
        self.inside_bits = np.array([np.uint64(1) << np.uint64(2 * g) for g in range(len(groups))])
        self.outside_bits = self.inside_bits << np.uint64(1)
        self.members = pack(np.array([g[1] for g in groups]))
        self.flags = np.zeros(0, dtype=np.uint64)
        self.sure = np.zeros(len(groups), dtype=np.int64)
        self.possible = np.zeros(len(groups), dtype=np.int64)

    def setup(self, grid: Grid) -> None:
        flag = np.zeros(grid.tables.count, dtype=np.uint64)
        for g, (_, members, _, _) in enumerate(self.groups):
            flag |= np.where(members, np.uint64(1) << np.uint64(2 * g), np.uint64(1) << np.uint64(2 * g + 1))
        self.tables = grid.tables
        self.flag_table = flag_table(grid.tables, flag)

    def _tally(self, flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        inside = (flags[:, None] & self.inside_bits) != 0
        outside = (flags[:, None] & self.outside_bits) != 0
        return (inside & ~outside).sum(axis=0), inside.sum(axis=0)

    def init(self, dom: np.ndarray) -> None:
        self.flags = flags_of(self.tables, self.flag_table, dom)
        self.sure, self.possible = self._tally(self.flags)

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        cells, first = np.unique(cells, return_index=True)  # a propagation step may list a cell twice
        new = flags_of(self.tables, self.flag_table, rows[first])
        sure_old, possible_old = self._tally(self.flags[cells])
        sure_new, possible_new = self._tally(new)
        self.sure += sure_new - sure_old
        self.possible += possible_new - possible_old
        self.flags[cells] = new

    def check(self) -> Narrow | Violation | None:
        for g in range(len(self.names)):
            sure, possible = int(self.sure[g]), int(self.possible[g])
            if sure > self.high[g] or possible < self.low[g]:
                inside = (self.flags & self.inside_bits[g]) != 0
                cell = int(np.argmax(inside)) if inside.any() else 0
                return Violation(cell, f"tile {self.names[g]!r} could no longer appear "
                                       f"{self.low[g]}..{self.high[g]} times")
            if possible > sure and (sure == self.high[g] or possible == self.low[g]):
                bits = self.inside_bits[g] | self.outside_bits[g]
                open_cells = np.flatnonzero((self.flags & bits) == bits)
                keep = self.members[g] if possible == self.low[g] else ~self.members[g]
                return Narrow(open_cells, np.broadcast_to(keep, (open_cells.size, keep.size)))
        return None

    def explain(self, violation: Violation) -> str:
        return "Try: widen the counts, or check that the counted tiles fit the border and the fixed tiles."
