"""Constraints beyond adjacency.

Fixed tiles, border and entrances narrow the starting domains once (:func:`initial_masks`). Rules over many
cells (walkable connectivity, tile counts) are :class:`Constraint` objects with one interface, as DeBroglie's
``ITileConstraint``: the search tells them when domains narrow (``update``) or come back after an undo
(``restore``) and asks them after every propagation (``check``), which may narrow domains further or fail.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .bitset import pack, unpack
from .rules import Rules
from .sockets import sockets_fit
from .vocab import AXIS, DIRECTIONS_2D, FORWARD


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
    """``fixed`` as an int array of the grid shape, -1 where the cell is free."""
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

    ``border`` is one value for every side in ``sides`` or a mapping ``{side: value}``; a value is a socket
    label (socket rules), a variant index or name standing outside, or a (T,) bool mask.
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
    """The sides a ``border`` applies to: ``border_sides`` when given, else a mapping's keys, else the four walls."""
    if border_sides is not None:
        return tuple(border_sides)
    return tuple(border) if isinstance(border, Mapping) else DIRECTIONS_2D


def initial_masks(rules: Rules, shape: tuple[int, ...], *, fixed: Any = None, border: Any = None,
                  border_sides: Sequence[str] | None = None, entrances: Iterable[Any] = ()) -> np.ndarray:
    """(N, W) uint64 starting domains after fixed tiles, border and entrances (bit rows, no (N, T) array)."""
    full = pack(np.ones(rules.count, dtype=bool))
    rows = np.empty((*shape, full.size), dtype=np.uint64)
    rows[...] = full
    if border is not None:
        for side, mask in border_masks(rules, border, bordered_sides(border, border_sides)).items():
            index: list[slice | int] = [slice(None)] * len(shape)
            index[AXIS[side]] = -1 if side in FORWARD else 0
            rows[tuple(index)] &= pack(mask)
    walk = rules.walkable_mask()
    for entrance in entrances:
        cell = _cell(shape, entrance, "entrances")
        if not walk.any():
            raise ValueError("entrances: the rules have no walkable tile (set walkable on some tiles)")
        rows[cell] &= pack(walk)
    fixed_grid = fixed_array(rules, shape, fixed) if fixed is not None else np.zeros((0,) * len(shape))
    for found in np.argwhere(fixed_grid >= 0):
        cell = tuple(int(c) for c in found)
        variant = int(fixed_grid[cell])
        if not unpack(rows[cell], rules.count)[variant]:
            raise ValueError(f"fixed: {rules.name(variant)!r} at cell {cell} contradicts the "
                             "border or the entrance (walkable) requirement there")
        rows[cell] = pack(np.arange(rules.count) == variant)
    return rows.reshape(-1, full.size)


@dataclass(frozen=True)
class Narrow:
    """A constraint's answer: keep only ``rows`` ((k, W) uint64, ANDed) in the domains of ``cells``."""

    cells: np.ndarray
    rows: np.ndarray


@dataclass(frozen=True)
class Violation:
    """A constraint's answer: the domains can no longer satisfy it (``cell`` shows where)."""

    cell: int
    reason: str


class Constraint:
    """A rule over many cells, kept in step with the search (subclasses override every method).

    ``init`` gets every domain at the start of an attempt, ``update`` the cells whose domains narrowed,
    ``restore`` the cells an undo brought back (the state then is one that passed ``check`` before);
    ``check`` returns None when the domains can still satisfy the rule, a :class:`Narrow` to apply first, or a
    :class:`Violation`. ``related(variant)`` is the (W,) row of variants to ban together with ``variant``
    when backtracking out of this constraint's violation (None: just the variant).
    """

    name = "constraint"

    def init(self, dom: np.ndarray) -> None:
        raise NotImplementedError

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        raise NotImplementedError

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.update(cells, rows)

    def check(self) -> Narrow | Violation | None:
        raise NotImplementedError

    def related(self, variant: int) -> np.ndarray | None:
        return None
