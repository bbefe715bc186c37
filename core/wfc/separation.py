"""The separation constraint: two cells holding any of some tiles stand at least a distance apart.

``Separation("shrine", 8)``: the centres of any two cells that hold a shrine (any turn or mirror) are at least 8
cells apart, measured straight (Euclidean) over x, y and the floors, each cell one unit; on an axis whose edges
wrap (a periodic room) the shorter way round counts. ``Separation("shrine, altar", 8)`` keeps shrines and altars
apart from each other as well. Propagation: once a cell is sure to hold one of the tiles, they are removed from
every cell closer than the distance; two sure cells that close are a violation (DeBroglie's
SeparationConstraint, which also measures straight). Given ``least`` (a Counts minimum of the tiles), it also fails
as soon as fewer than that many could still stand the distance apart: the grid cut into boxes whose corners are
closer than the distance holds at most one per box that still may hold them (:func:`most_separated` before any
choice), so a count that cannot be spaced is found at the first choices, not by searching every placement.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from .bitset import pack
from .constraints import Constraint, Grid, Narrow, Violation
from .grid_axes import coordinates, flat_cells, wrapped_axes
from .search import _any_rows
from .tile_groups import group_mask, group_names


def near_offsets(distance: int, shape: tuple[int, ...]) -> np.ndarray:
    """(M, D) int64: every offset other than zero shorter than ``distance`` (Euclidean), within the grid's size.

    Parameters
    ----------
    distance : int
        The least distance between two cells (≥ 1).
    shape : tuple of int
        The grid's shape (no offset reaches further than its size - 1 along an axis).

    Examples
    --------
    >>> near_offsets(2, (5, 5)).tolist()
    [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]
    """
    reach = [min(distance - 1, s - 1) for s in shape]
    axes = np.meshgrid(*(np.arange(-r, r + 1) for r in reach), indexing="ij")
    offsets = np.stack([a.reshape(-1) for a in axes], axis=1).astype(np.int64)
    squared = (offsets ** 2).sum(axis=1)
    return offsets[(squared > 0) & (squared < distance * distance)]


class Separation(Constraint):
    """Cells holding ``tiles`` stand at least ``distance`` cells apart (see the module doc).

    Parameters
    ----------
    tiles : str or iterable of str
        Source tile names (all their turns and mirrors), one or several (``"shrine, altar"``).
    distance : int
        The least distance in cells between two of them, ≥ 1 (1 asks nothing: distinct cells are 1 apart).
    least : int, default 0
        How many of them the grid must hold (a Counts minimum): checked against how many can still be spaced.
    """

    name = "separation"
    searching = True

    def __init__(self, tiles: str | Iterable[str], distance: int, least: int = 0) -> None:
        self.tiles = group_names(tiles)
        self.label = ", ".join(self.tiles)
        for name, value, low in (("distance", distance, 1), ("least", least, 0)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
                raise ValueError(f"separation of {self.label}: {name} must be a whole number ≥ {low}, got {value!r}")
        self.distance = int(distance)
        self.least = int(least)

    def setup(self, grid: Grid) -> None:
        members = group_mask(grid.rules, self.tiles, "separation")
        self.row = pack(members)
        self.others = pack(~members)
        self.shape = grid.shape
        self.wrapped = wrapped_axes(grid)
        self.coords = coordinates(grid.shape)
        self.offsets = near_offsets(self.distance, grid.shape)
        side = box_side(grid.shape, self.distance)
        boxes = np.asarray(grid.shape) // side + 2  # a shifted box grid reaches one box further
        # (shifts, N): the box of each cell in each of the box grids shifted by 0 .. side - 1 cells on every axis
        self.boxes = np.stack([np.ravel_multi_index(tuple(((self.coords + shift) // side).T), tuple(boxes))
                               for shift in range(side)]) if self.least else np.zeros((0, grid.cells), dtype=np.int64)
        self.box_count = int(np.prod(boxes))
        self.shift_base = (np.arange(self.boxes.shape[0]) * self.box_count)[:, None]

    def _sure(self, rows: np.ndarray) -> np.ndarray:
        return _any_rows(rows & self.row) & ~_any_rows(rows & self.others)

    def init(self, dom: np.ndarray) -> None:
        self.dom = dom.copy()
        self.sure = self._sure(dom)
        self.pending: list[np.ndarray] = [np.flatnonzero(self.sure)]
        # Per shifted box grid, how many cells of each box may still hold the tiles.
        self.possible = _any_rows(dom & self.row)
        self.in_box = np.zeros((self.boxes.shape[0], self.box_count), dtype=np.int64)
        for shift, boxes in enumerate(self.boxes):
            np.add.at(self.in_box[shift], boxes[self.possible], 1)
        self.dirty = True  # some cell may have lost the tiles since the count was last bounded

    def _recount(self, cells: np.ndarray, rows: np.ndarray) -> None:
        """Move the cells whose rows gained or lost the tiles in or out of their boxes' counts."""
        if not self.least:
            return
        possible = _any_rows(rows & self.row)
        moved = possible != self.possible[cells]
        if moved.any():
            # a propagation step may list a cell twice (with the same row): count each once
            cells, first = np.unique(cells[moved], return_index=True)
            step = np.where(possible[moved][first], 1, -1)
            where = self.boxes[:, cells] + self.shift_base  # (shifts, k) into the flattened counts
            np.add.at(self.in_box.reshape(-1), where.reshape(-1), np.tile(step, self.boxes.shape[0]))
            self.possible[cells] = possible[moved][first]
            self.dirty = True

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        sure = self._sure(rows)
        self.pending.append(cells[sure & ~self.sure[cells]])
        self.sure[cells] = sure
        self._recount(cells, rows)

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.sure[cells] = self._sure(rows)
        self._recount(cells, rows)
        self.pending = []
        self.dirty = False

    def near(self, cells: np.ndarray) -> np.ndarray:
        """(k, M) flat cells closer than the distance to each of ``cells`` (-1 off the grid)."""
        return flat_cells(self.coords[cells][:, None, :] + self.offsets[None], self.shape, self.wrapped)

    def check(self) -> Narrow | Violation | None:
        found = self._spread() if self.pending and self.offsets.size else None
        self.pending = []
        if found is not None:
            return found
        if self.least and self.dirty:
            self.dirty = False
            return self._enough()
        return None

    def _enough(self) -> Violation | None:
        """A violation when fewer than ``least`` cells that may hold the tiles can stand the distance apart (the
        fewest boxes holding them over the shifts of the box grid)."""
        most = int(np.min(np.count_nonzero(self.in_box, axis=1)))
        if most >= self.least:
            return None
        possible = np.flatnonzero(self.possible)
        cell = int(possible[0]) if possible.size else 0
        return Violation(cell, f"at most {most} of {self.label!r} can still stand {self.distance} cells apart and "
                               f"{self.least} are asked")

    def _spread(self) -> Narrow | Violation | None:
        """The newly sure cells' neighbourhoods lose the tiles (a violation when one of them is sure)."""
        cells = np.unique(np.concatenate(self.pending))
        cells = cells[self.sure[cells]]
        if cells.size == 0:
            return None
        around = self.near(cells)
        hit = (around >= 0) & self.sure[np.maximum(around, 0)]
        hit &= around != cells[:, None]  # a wrapped offset may come back to the cell itself
        if hit.any():
            source, which = np.argwhere(hit)[0]
            return Violation(int(around[source, which]), f"two of {self.label!r} closer than {self.distance} cells")
        targets = np.unique(around[around >= 0])
        targets = targets[_any_rows(self.dom[targets] & self.row)]
        if targets.size == 0:
            return None
        return Narrow(targets, np.broadcast_to(self.others, (targets.size, self.others.size)))

    def explain(self, violation: Violation) -> str:
        return (f"Try: a smaller separation for {self.label!r}, fewer of them in the counts or fixed tiles, or a "
                "larger room.")


def most_separated(shape: tuple[int, ...], distance: int) -> int:
    """An upper bound on how many cells of a grid can stand pairwise ``distance`` apart: the grid cut into boxes
    whose corners are closer than the distance holds at most one such cell per box (a wrapped axis holds no
    more).

    Parameters
    ----------
    shape : tuple of int
        The grid's shape.
    distance : int
        The least distance (≥ 1).

    Examples
    --------
    >>> most_separated((12, 12), 8)
    4
    """
    spread = [s for s in shape if s > 1]
    side = box_side(shape, distance)
    return math.prod(math.ceil(s / side) for s in spread)


def box_side(shape: tuple[int, ...], distance: int) -> int:
    """The widest box (in cells along each axis longer than one cell) whose cells are all closer than
    ``distance`` to each other: two cells of a box k cells wide are at most (k - 1) * sqrt(D) apart.

    Parameters
    ----------
    shape : tuple of int
        The grid's shape (D: its axes longer than one cell).
    distance : int
        The least distance (≥ 1).

    Examples
    --------
    >>> box_side((12, 12), 8), box_side((12, 1), 8)
    (6, 8)
    """
    axes = max(1, sum(1 for s in shape if s > 1))
    side = max(1, math.ceil(distance / math.sqrt(axes)))
    while side > 1 and (side - 1) * math.sqrt(axes) >= distance:
        side -= 1
    return side
