"""Constraints beyond adjacency: fixed tiles, a border around the grid, and walkable connectivity.

Fixed tiles, border and entrances narrow the starting domains (``initial_masks``); connectivity is checked
during the search after every propagation (:class:`ConnectivityCheck`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .bitset import ChunkTables, pack
from .checks import connected_labels
from .rules import OPPOSITE, Rules
from .sockets import sockets_fit

HORIZONTAL_SIDES = ("e", "n", "w", "s")


def _cell(rules: Rules, shape: tuple[int, ...], given: Iterable[Any], what: str) -> tuple[int, ...]:
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
            out[_cell(rules, shape, cell, "fixed")] = _variant(rules, value, f"fixed[{cell}]")
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


def initial_masks(rules: Rules, shape: tuple[int, ...], *, fixed: Any = None, border: Any = None,
                  border_sides: Sequence[str] | None = None, entrances: Iterable[Any] = ()) -> np.ndarray:
    """(N, W) uint64 starting domains after fixed tiles, border and entrances."""
    count = rules.count
    allowed = np.ones((*shape, count), dtype=bool)
    if border is not None:
        if border_sides is not None:
            sides = tuple(border_sides)
        elif isinstance(border, Mapping):
            sides = tuple(border)
        else:
            sides = HORIZONTAL_SIDES
        axis_of = {"e": 0, "w": 0, "n": 1, "s": 1, "up": 2, "down": 2}
        for side, mask in border_masks(rules, border, sides).items():
            axis = axis_of[side]
            index: list[slice | int] = [slice(None)] * len(shape)
            index[axis] = -1 if side in ("e", "n", "up") else 0
            allowed[tuple(index)] &= mask
    walk = rules.walkable_mask()
    for entrance in entrances:
        cell = _cell(rules, shape, entrance, "entrances")
        allowed[cell] &= walk
        if not walk.any():
            raise ValueError("entrances: the rules have no walkable tile (set walkable on some tiles)")
    fixed_grid = fixed_array(rules, shape, fixed)
    where = np.argwhere(fixed_grid >= 0)
    for cell in where:
        cell = tuple(cell)
        keep = allowed[cell][fixed_grid[cell]]
        if not keep:
            raise ValueError(f"fixed: {rules.name(int(fixed_grid[cell]))!r} at cell {cell} contradicts the "
                             "border or the entrance (walkable) requirement there")
    if where.size:
        onehot = np.zeros((len(where), count), dtype=bool)
        onehot[np.arange(len(where)), fixed_grid[tuple(where.T)]] = True
        allowed[tuple(where.T)] = onehot
    return pack(allowed.reshape(-1, count))


class ConnectivityCheck:
    """Can every certainly-walkable cell still join one region through cells that may still be walkable?

    Nodes: cells with a walkable variant left. Edges: neighbouring cells that may both be passable on the
    facing sides. Cells whose every remaining variant is walkable must all share one component. Once every
    cell is decided this is exactly "all walkable cells form one connected region".

    Per cell it keeps a small bit set of flags (may be walkable, may be not walkable, may be passable on
    each side), updated only for the cells whose domains change; the components are recomputed only when
    some flag changed since the last successful check.
    """

    MAY_WALK, MAY_NOT_WALK = 1, 2

    def __init__(self, rules: Rules, pairs: dict[str, tuple[np.ndarray, np.ndarray]], tables: ChunkTables) -> None:
        directions = rules.directions
        flag = np.where(rules.walkable_mask(), self.MAY_WALK, self.MAY_NOT_WALK).astype(np.uint16)
        for i, direction in enumerate(directions):
            flag |= np.where(rules.passable_mask(direction), 4 << i, 0).astype(np.uint16)
        self.variant_flags = flag
        self.tables = tables
        padded = np.zeros(tables.chunks * tables.bits, dtype=np.uint16)
        padded[: flag.size] = flag
        parts = []
        for c in range(tables.chunks):
            rows = padded[c * tables.bits:(c + 1) * tables.bits]
            table = np.zeros(1 << tables.bits, dtype=np.uint16)
            for j in range(tables.bits):
                table[1 << j: 2 << j] = table[: 1 << j] | rows[j]
            parts.append(table)
        self.flag_table = np.concatenate(parts)
        bit = {d: np.uint16(4 << i) for i, d in enumerate(directions)}
        self.pairs = [(a, b, bit[d], bit[OPPOSITE[d]]) for d, (a, b) in pairs.items()]
        self.flags = np.zeros(0, dtype=np.uint16)
        self.dirty = True
        self.failed_cells: np.ndarray = np.zeros(0, dtype=np.int64)

    def _flags_of(self, rows: np.ndarray) -> np.ndarray:
        tables = self.tables
        chunks: np.ndarray = np.ascontiguousarray(rows).view(tables.chunk_dtype)[:, : tables.chunks]
        chunks = chunks + tables.chunk_offsets
        return np.bitwise_or.reduce(self.flag_table[chunks], axis=1)

    def reset(self, dom: np.ndarray) -> None:
        self.flags = self._flags_of(dom)
        self.dirty = True

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        new = self._flags_of(rows)
        if not self.dirty:
            self.dirty = bool((new != self.flags[cells]).any())
        self.flags[cells] = new

    def restored(self, cells: np.ndarray, rows: np.ndarray) -> None:
        """After an undo: the state is one that already passed the check."""
        self.flags[cells] = self._flags_of(rows)
        self.dirty = False

    def ok(self) -> bool:
        if not self.dirty:
            return True
        flags = self.flags
        sure = (flags & (self.MAY_WALK | self.MAY_NOT_WALK)) == self.MAY_WALK
        if np.count_nonzero(sure) <= 1:
            self.dirty = False
            return True
        a_all, b_all = [], []
        for a, b, bit_a, bit_b in self.pairs:
            keep = ((flags[a] & bit_a) != 0) & ((flags[b] & bit_b) != 0)
            a_all.append(a[keep])
            b_all.append(b[keep])
        label = connected_labels(flags.size, np.concatenate(a_all), np.concatenate(b_all))
        sure_labels = label[sure]
        if (sure_labels == sure_labels[0]).all():
            self.dirty = False
            return True
        self.failed_cells = np.flatnonzero(sure)[sure_labels != sure_labels[0]][:4]
        return False
