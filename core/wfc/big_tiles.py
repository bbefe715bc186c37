"""Big tiles in a grid: the constraint that keeps every one inside the grid, and the tiles a solved grid holds.

A big tile is one variant per covered cell (its *parts*, :mod:`.tile_parts`; ``rules.footprints``). The parts
meet each other only through their own inner labels, so the search keeps a tile whole by propagation alone;
:class:`WholeTiles` bans, where a side faces off the grid, every part whose side there is inner (a hall is never
cut by the room's edge, with a border or without).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bitset import pack
from .constraints import Constraint, Grid
from .rules import Rules
from .vocab import OFFSETS


def inner_sides(rules: Rules, side: str) -> np.ndarray:
    """(T,) bool: the parts whose ``side`` meets another part of their own tile.

    Parameters
    ----------
    rules : Rules
        Rules with ``footprints`` (else no part has an inner side).
    side : str
        A direction of the rules.
    """
    if rules.footprints is None:
        return np.zeros(rules.count, dtype=bool)
    step = np.array(OFFSETS[side], dtype=np.int64)
    after = rules.footprints.offset + step
    return ((after >= 0) & (after < rules.footprints.size)).all(axis=1) & step.any()


class WholeTiles(Constraint):
    """No big tile reaches off the grid: where a side faces off it (no periodic link), parts whose side there is
    inner are banned."""

    name = "big tiles"

    def setup(self, grid: Grid) -> None:
        rules = grid.rules
        for d, side in enumerate(rules.directions):
            inner = inner_sides(rules, side)
            if inner.any():
                edge = np.flatnonzero(grid.neighbours[d, : grid.cells] == grid.cells)
                grid.narrow(edge, pack(~inner))


@dataclass(frozen=True)
class Placed:
    """The tiles a grid holds, one row per tile (a big tile once, at its anchor cell): ``cells`` (N, dims) the
    anchor cells, ``variants`` (N,) their anchor variants, ``sizes`` (N, 3) the cells each covers from its anchor
    along x, y, z, ``origins`` (N, 3) the cell of its origin less the anchor's."""

    cells: np.ndarray
    variants: np.ndarray
    sizes: np.ndarray
    origins: np.ndarray

    def covered(self, row: int) -> list[tuple[int, ...]]:
        """Every cell the tile of ``row`` covers."""
        dims = self.cells.shape[1]
        ranges = [range(int(c), int(c) + int(s)) for c, s in zip(self.cells[row], self.sizes[row][:dims], strict=True)]
        return [tuple(cell) for cell in np.stack(np.meshgrid(*ranges, indexing="ij"), -1).reshape(-1, dims).tolist()]


def placed_tiles(rules: Rules, grid: np.ndarray) -> Placed:
    """The tiles of a solved ``grid`` (cells in x-major order).

    Parameters
    ----------
    rules : Rules
        The rules it was solved with.
    grid : numpy.ndarray
        Int array of variant indices.

    Examples
    --------
    >>> from strew.core.wfc import SocketTile, rules_from_tiles
    >>> hall = SocketTile("hall", {"n": "x", "e": "x", "s": "x", "w": "x"}, size=(2, 1, 1))
    >>> rules = rules_from_tiles([hall])
    >>> placed = placed_tiles(rules, np.array([[0], [1]]))
    >>> placed.cells.tolist(), placed.sizes.tolist(), placed.covered(0)
    ([[0, 0]], [[2, 1, 1]], [(0, 0), (1, 0)])
    """
    grid = np.asarray(grid)
    flat = grid.reshape(-1)
    cells = np.argwhere(np.ones(grid.shape, dtype=bool))
    keep = rules.anchor_mask()[flat]
    variants = flat[keep]
    if rules.footprints is None:
        ones = np.ones((variants.size, 3), dtype=np.int64)
        return Placed(cells[keep], variants, ones, ones * 0)
    return Placed(cells[keep], variants, rules.footprints.size[variants], rules.footprints.origin[variants])


def anchor_cells(rules: Rules, grid: np.ndarray) -> np.ndarray:
    """(N, dims) int: the anchor cell of the tile each cell of ``grid`` belongs to (x-major order).

    Parameters
    ----------
    rules : Rules
        The rules ``grid`` was solved with.
    grid : numpy.ndarray
        Int array of variant indices.
    """
    grid = np.asarray(grid)
    cells = np.argwhere(np.ones(grid.shape, dtype=bool))
    if rules.footprints is None:
        return cells
    return cells - rules.footprints.offset[grid.reshape(-1)][:, : grid.ndim]


def whole_tiles(rules: Rules, grid: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The bool mask ``cells`` (of the grid's shape) grown by every cell of each tile it touches: a box to
    solve again never cuts a big tile.

    Parameters
    ----------
    rules : Rules
        The rules ``grid`` was solved with.
    grid : numpy.ndarray
        Int array of variant indices.
    cells : numpy.ndarray
        Bool mask of the grid's shape.
    """
    if rules.footprints is None:
        return cells
    grid = np.asarray(grid)
    anchors = np.ravel_multi_index(tuple(anchor_cells(rules, grid).T), grid.shape)
    return np.isin(anchors, anchors[cells.reshape(-1)]).reshape(grid.shape)


def fill_parts(rules: Rules, shape: tuple[int, ...], cells: np.ndarray, variants: np.ndarray) -> np.ndarray:
    """The grid of ``shape`` holding each tile's parts from its anchor ``cells`` ((N, dims)) and anchor
    ``variants`` ((N,)); -1 where no tile covers a cell. ``ValueError`` when a tile reaches off the grid or two
    tiles cover one cell.

    Parameters
    ----------
    rules : Rules
        The rules.
    shape : tuple of int
        The grid's shape.
    cells : numpy.ndarray
        (N, dims) int anchor cells.
    variants : numpy.ndarray
        (N,) int anchor variants.
    """
    grid = np.full(shape, -1, dtype=np.int64)
    dims = len(shape)
    for cell, variant in zip(np.asarray(cells).tolist(), np.asarray(variants).tolist(), strict=True):
        if rules.footprints is None:
            parts, offsets = np.array([variant]), np.zeros((1, dims), dtype=np.int64)
        else:
            parts = np.flatnonzero(rules.footprints.anchor == variant)
            offsets = rules.footprints.offset[parts][:, :dims]
        for part, offset in zip(parts.tolist(), offsets.tolist(), strict=True):
            at = tuple(c + o for c, o in zip(cell, offset, strict=True))
            if not all(0 <= a < s for a, s in zip(at, shape, strict=True)):
                raise ValueError(f"tile {rules.name(variant)!r} at {tuple(cell)} reaches off the grid at {at}")
            if grid[at] >= 0:
                raise ValueError(f"tiles {rules.name(int(grid[at]))!r} and {rules.name(part)!r} both cover cell {at}")
            grid[at] = part
    return grid
