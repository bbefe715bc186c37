"""Constraints that shape the grid before the search: periodic edges, sides that meet only the border, the
border, entrances, regions and fixed tiles. Each narrows the starting domains (a region may also reweigh its
cells) once in ``setup`` (see :mod:`.constraints`); the search then never asks them again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .bitset import pack, unpack
from .checks import neighbour_pairs
from .constraints import Constraint, Grid, Violation
from .rules import Rules
from .sockets import sockets_fit
from .vocab import AXIS, DIRECTIONS_2D


def _cell(shape: tuple[int, ...], given: Iterable[Any], what: str) -> tuple[int, ...]:
    cell = tuple(int(v) for v in given)
    if len(cell) != len(shape) or any(not 0 <= c < s for c, s in zip(cell, shape, strict=True)):
        raise ValueError(f"{what}: cell {cell} is outside the grid of shape {shape}")
    return cell


def _variant(rules: Rules, value: Any, what: str) -> int:
    if isinstance(value, str):
        return rules.index(value)
    value = int(value)
    if not 0 <= value < rules.count:
        raise ValueError(f"{what}: variant {value} is not in 0..{rules.count - 1}")
    return value


def fixed_array(rules: Rules, shape: tuple[int, ...], fixed: Any) -> np.ndarray:
    """``fixed`` as an int array of the grid shape, -1 where the cell is free.

    Parameters
    ----------
    rules : Rules
        The rules (variant names and count).
    shape : tuple of int
        The grid's shape.
    fixed : dict, numpy.ndarray or None
        ``{cell: variant index or name}``, an int array of ``shape`` with -1 for free cells, or None.
    """
    out = np.full(shape, -1, dtype=np.int64)
    if fixed is None:
        return out
    if isinstance(fixed, Mapping):
        for cell, value in fixed.items():
            out[_cell(shape, cell, "fixed")] = _variant(rules, value, f"fixed[{cell}]")
        return out
    array = np.asarray(fixed)
    if array.shape != shape:
        raise ValueError(f"fixed: expected a dict {{cell: variant}} or an int array of shape {shape}, "
                         f"got shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise ValueError("fixed: the array must hold variant indices (ints), -1 for free cells")
    if ((array < -1) | (array >= rules.count)).any():
        raise ValueError(f"fixed: values must be -1 (free) or a variant index in 0..{rules.count - 1}")
    return array.astype(np.int64)


def border_masks(rules: Rules, border: Any, sides: Sequence[str]) -> dict[str, np.ndarray]:
    """Per side of the grid, the (T,) bool mask of variants allowed in the cells along that side.

    Parameters
    ----------
    rules : Rules
        The rules (sockets for a label, adjacency for a variant standing outside).
    border : str, int, array or dict
        One value for every side in ``sides`` or a mapping ``{side: value}``; a value is a socket label
        (socket rules), a variant index or name standing outside, or a (T,) bool mask.
    sides : sequence of str
        The bordered sides (:func:`bordered_sides`).
    """
    masks = {}
    for side in sides:
        if side not in rules.directions:
            raise ValueError(f"border_sides: unknown side {side!r}; use {rules.directions}")
        value = border.get(side) if isinstance(border, Mapping) else border
        if value is None:
            continue
        if isinstance(value, str) and (rules.sockets is not None or not isinstance(border, Mapping)):
            if rules.sockets is None:
                raise ValueError("border: a socket label needs rules built from socket tiles "
                                 "(rules_from_tiles); give a variant index or name instead")
            mask = np.array([sockets_fit(s.get(side, ""), value, rules.compatible) for s in rules.sockets])
        elif isinstance(value, np.ndarray | list | tuple):
            mask = np.asarray(value, dtype=bool)
            if mask.shape != (rules.count,):
                raise ValueError(f"border[{side!r}]: expected a ({rules.count},) bool mask")
        else:
            outside = _variant(rules, value, "border")
            mask = rules.matrix(side)[:, outside].copy()
        if not mask.any():
            raise ValueError(f"border: no tile variant fits the border {value!r} on side {side!r}; "
                             "check the border socket/tile or drop that side from border_sides")
        masks[side] = mask
    return masks


def bordered_sides(border: Any, border_sides: Sequence[str] | None) -> tuple[str, ...]:
    """The sides a ``border`` applies to: ``border_sides`` when given, else a mapping's keys, else the four walls.

    Parameters
    ----------
    border : object
        The solver's ``border`` (a mapping gives its sides).
    border_sides : sequence of str or None
        The sides asked for, if any.
    """
    if border_sides is not None:
        return tuple(border_sides)
    return tuple(border) if isinstance(border, Mapping) else DIRECTIONS_2D


def _edge_cells(grid: Grid, side: str, facing: bool) -> np.ndarray:
    """Cells whose neighbour towards ``side`` is off the grid (``facing``) or on it."""
    d = grid.rules.directions.index(side)
    row = grid.neighbours[d, : grid.cells]
    return np.flatnonzero(row == grid.cells if facing else row != grid.cells)


class Periodic(Constraint):
    """Opposite sides of the grid meet along the periodic axes (``axes``: one bool per axis)."""

    name = "periodic edges"

    def __init__(self, axes: Sequence[bool]) -> None:
        self.axes = tuple(bool(a) for a in axes)

    def setup(self, grid: Grid) -> None:
        for d, direction in enumerate(grid.rules.directions):
            if self.axes[AXIS[direction]]:
                a, b = neighbour_pairs(grid.shape, direction, self.axes)
                grid.neighbours[d, a] = b


class EdgeOnly(Constraint):
    """A variant whose side fits no tile (a roof's ``sky``, accepted because it matches the border there) may
    stand only where that side faces the border, off the grid."""

    name = "sides that meet only the border"

    def setup(self, grid: Grid) -> None:
        for side in grid.rules.directions:
            lonely = ~grid.rules.matrix(side).any(axis=1)
            if lonely.any():
                grid.narrow(_edge_cells(grid, side, facing=False), pack(~lonely))


class Border(Constraint):
    """The cells along a bordered side hold only variants that fit what stands outside (see
    :func:`border_masks`)."""

    name = "border"

    def __init__(self, border: Any, sides: Sequence[str]) -> None:
        self.border, self.sides = border, tuple(sides)

    def setup(self, grid: Grid) -> None:
        for side, mask in border_masks(grid.rules, self.border, self.sides).items():
            grid.narrow(_edge_cells(grid, side, facing=True), pack(mask))


class Entrances(Constraint):
    """Cells that must hold a walkable tile (and, with connectivity, join the one walkable region)."""

    name = "entrances"

    def __init__(self, cells: Iterable[Any]) -> None:
        self.given = list(cells)

    def setup(self, grid: Grid) -> None:
        walk = grid.rules.walkable_mask()
        for entrance in self.given:
            cell = _cell(grid.shape, entrance, "entrances")
            if not walk.any():
                raise ValueError("entrances: the rules have no walkable tile (set walkable on some tiles)")
            flat = int(np.ravel_multi_index(cell, grid.shape))
            grid.narrow(np.array([flat]), pack(walk))
            if not grid.start[flat].any():
                raise ValueError(f"entrances: no walkable variant may stand at cell {cell} (the border or a side "
                                 "that meets only the border leaves none there); move the entrance")


class Fixed(Constraint):
    """Cells pinned to one variant (``fixed``: ``{cell: variant or name}`` or an int array, -1 free)."""

    name = "fixed tiles"

    def __init__(self, fixed: Any) -> None:
        self.fixed = fixed

    def setup(self, grid: Grid) -> None:
        rules = grid.rules
        fixed_grid = fixed_array(rules, grid.shape, self.fixed)
        for found in np.argwhere(fixed_grid >= 0):
            cell = tuple(int(c) for c in found)
            variant = int(fixed_grid[cell])
            flat = int(np.ravel_multi_index(cell, grid.shape))
            if not unpack(grid.start[flat], rules.count)[variant]:
                raise ValueError(f"fixed: {rules.name(variant)!r} at cell {cell} contradicts the border, the "
                                 "entrance (walkable) requirement or a side that meets only the border there")
            grid.start[flat] = pack(np.arange(rules.count) == variant)


class Region(Constraint):
    """A set of cells whose variants are restricted (``allowed``) or drawn with other weights (``factors``).

    Parameters
    ----------
    cells : numpy.ndarray
        A bool mask of the grid's shape, or (k, dims) int cell coordinates.
    allowed : numpy.ndarray, optional
        (T,) bool: the only variants that may stand in the cells (None: any).
    factors : numpy.ndarray, optional
        (T,) float ≥ 0: each variant's weight there is multiplied by its factor; 0 keeps it out.
    label : str, default "region"
        What the failure's message calls it.
    """

    name = "region"

    def __init__(self, cells: np.ndarray, allowed: np.ndarray | None = None, factors: np.ndarray | None = None,
                 label: str = "region") -> None:
        self.given = np.asarray(cells)
        self.allowed = None if allowed is None else np.asarray(allowed, dtype=bool)
        self.factors = None if factors is None else np.asarray(factors, dtype=np.float64)
        self.label = label
        self.flat = np.zeros(0, dtype=np.int64)
        self.near = np.zeros(0, dtype=np.int64)
        self.names = ""

    def setup(self, grid: Grid) -> None:
        rules, shape = grid.rules, grid.shape
        if self.given.dtype == bool:
            if self.given.shape != shape:
                raise ValueError(f"region {self.label!r}: a cell mask must have the grid's shape {shape}, got "
                                 f"{self.given.shape}")
            flat = np.flatnonzero(self.given.reshape(-1))
        else:
            cells = self.given.reshape(-1, len(shape)).astype(np.int64)
            if ((cells < 0) | (cells >= np.array(shape))).any():
                raise ValueError(f"region {self.label!r}: a cell lies outside the grid of shape {shape}")
            flat = np.asarray(np.ravel_multi_index(tuple(cells.T), shape), dtype=np.int64).reshape(-1)
        for what, mask in (("allowed", self.allowed), ("factors", self.factors)):
            if mask is not None and mask.shape != (rules.count,):
                raise ValueError(f"region {self.label!r}: {what} must have one value per variant ({rules.count})")
        keep = np.ones(rules.count, dtype=bool) if self.allowed is None else self.allowed.copy()
        factors = self.factors
        if factors is not None:
            if not (np.isfinite(factors).all() and (factors >= 0).all()):
                raise ValueError(f"region {self.label!r}: weight factors must be finite and ≥ 0")
            keep &= factors > 0
        self.flat = np.unique(flat)
        around = grid.neighbours[:, self.flat].reshape(-1)
        # a failure may come from the region where and next to where it bans variants
        self.near = np.zeros(0, dtype=np.int64) if keep.all() else np.union1d(self.flat, around[around < grid.cells])
        left = np.flatnonzero(keep)
        self.names = ", ".join(repr(rules.name(int(v))) for v in left[:6]) + (" …" if left.size > 6 else "")
        if not self.flat.size:
            return
        grid.narrow(self.flat, pack(keep))
        if factors is not None and not np.all(factors[keep] == 1.0):
            grid.reweigh(self.flat, np.where(keep, factors, 1.0))

    def touches(self, cell: int) -> bool:
        return bool(np.isin(cell, self.near))

    def explain(self, violation: Violation) -> str:
        inside = bool(np.isin(violation.cell, self.flat))
        return (f"The cell is {'in' if inside else 'next to'} region {self.label!r}, which allows only "
                f"{self.names or 'no variant'}: allow tiles there that fit their neighbours, or move the region.")
