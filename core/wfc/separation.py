"""The separation constraint: two cells holding any of some tiles stand at least a distance apart.

``Separation("shrine", 8)``: the centres of any two cells that hold a shrine (any turn or mirror) are at least 8
cells apart, measured straight (Euclidean) over x, y and the floors, each cell one unit; on an axis whose edges
wrap (a periodic room) the shorter way round counts. ``Separation("shrine, altar", 8)`` keeps shrines and altars
apart from each other as well. Propagation: once a cell is sure to hold one of the tiles, they are removed from
every cell closer than the distance; two sure cells that close are a violation (DeBroglie's
SeparationConstraint, which also measures straight).
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
    """

    name = "separation"
    searching = True

    def __init__(self, tiles: str | Iterable[str], distance: int) -> None:
        self.tiles = group_names(tiles)
        if isinstance(distance, bool) or not isinstance(distance, int | np.integer) or distance < 1:
            raise ValueError(f"separation of {', '.join(self.tiles)}: the distance must be a whole number ≥ 1, "
                             f"got {distance!r}")
        self.distance = int(distance)
        self.label = ", ".join(self.tiles)

    def setup(self, grid: Grid) -> None:
        members = group_mask(grid.rules, self.tiles, "separation")
        self.row = pack(members)
        self.others = pack(~members)
        self.shape = grid.shape
        self.wrapped = wrapped_axes(grid)
        self.coords = coordinates(grid.shape)
        self.offsets = near_offsets(self.distance, grid.shape)

    def _sure(self, rows: np.ndarray) -> np.ndarray:
        return _any_rows(rows & self.row) & ~_any_rows(rows & self.others)

    def init(self, dom: np.ndarray) -> None:
        self.dom = dom.copy()
        self.sure = self._sure(dom)
        self.pending: list[np.ndarray] = [np.flatnonzero(self.sure)]

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        sure = self._sure(rows)
        self.pending.append(cells[sure & ~self.sure[cells]])
        self.sure[cells] = sure

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.sure[cells] = self._sure(rows)
        self.pending = []

    def near(self, cells: np.ndarray) -> np.ndarray:
        """(k, M) flat cells closer than the distance to each of ``cells`` (-1 off the grid)."""
        return flat_cells(self.coords[cells][:, None, :] + self.offsets[None], self.shape, self.wrapped)

    def check(self) -> Narrow | Violation | None:
        if not self.pending or self.offsets.size == 0:
            self.pending = []
            return None
        cells = np.unique(np.concatenate(self.pending))
        self.pending = []
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
    if not spread:
        return 1
    # Two cells of a box k cells wide are at most (k - 1) * sqrt(D) apart: below the distance, one per box.
    side = max(1, math.ceil(distance / math.sqrt(len(spread))))
    while side > 1 and (side - 1) * math.sqrt(len(spread)) >= distance:
        side -= 1
    return math.prod(math.ceil(s / side) for s in spread)
