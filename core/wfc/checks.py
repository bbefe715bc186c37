"""Independent checks of a finished grid: adjacency violations and walkable regions (no solver code)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .rules import Rules
from .vocab import AXIS, FORWARD, OFFSETS, OPPOSITE


def periodic_axes(periodic: bool | Sequence[bool], dims: int) -> tuple[bool, ...]:
    """One bool per axis: which axes wrap around.

    Parameters
    ----------
    periodic : bool or sequence of bool
        One bool for x and y (z never wraps), or one bool per axis.
    dims : int
        The grid's axes (2 or 3).
    """
    if isinstance(periodic, bool | np.bool_):
        return (bool(periodic),) * 2 + ((False,) if dims == 3 else ())
    periodic = tuple(bool(p) for p in periodic)
    if len(periodic) != dims:
        raise ValueError(f"periodic: give a bool or one bool per axis ({dims} axes), got {periodic}")
    return periodic


def neighbour_pairs(shape: tuple[int, ...], direction: str,
                    periodic: bool | Sequence[bool]) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices ``(a, b)`` of every cell ``a`` (ascending) and its neighbour ``b`` in ``direction``.

    Parameters
    ----------
    shape : tuple of int
        The grid's shape.
    direction : str
        One of the directions (``e n w s up down``).
    periodic : bool or sequence of bool
        Which axes wrap around (as in :func:`periodic_axes`); a cell on an edge that does not wrap has no pair.
    """
    dims = len(shape)
    axes = periodic_axes(periodic, dims)
    axis = AXIS[direction]
    if axis >= dims:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    step = OFFSETS[direction][axis]
    index = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    if axes[axis]:
        return index.reshape(-1), np.roll(index, -step, axis=axis).reshape(-1)
    inner: list[slice] = [slice(None)] * dims
    outer: list[slice] = [slice(None)] * dims
    inner[axis] = slice(0, -1) if step > 0 else slice(1, None)
    outer[axis] = slice(1, None) if step > 0 else slice(0, -1)
    return index[tuple(inner)].reshape(-1), index[tuple(outer)].reshape(-1)


def find_violations(rules: Rules, grid: np.ndarray,
                    periodic: bool | Sequence[bool] = False) -> list[tuple[tuple[int, ...], str, str, str]]:
    """Every adjacency of ``grid`` that the rules forbid, as ``(cell, direction, tile, neighbour)``.

    Parameters
    ----------
    rules : Rules
        The rules to check against.
    grid : numpy.ndarray
        Int array of variant indices, one axis per dimension of the rules.
    periodic : bool or sequence of bool, default False
        Which axes wrap around (their opposite edges are neighbours too).

    Returns
    -------
    list of tuple
        At most 1,000 per direction; ``tile`` and ``neighbour`` are variant names.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[False, True], [True, False]])          # a checkerboard
    >>> rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A})
    >>> find_violations(rules, np.array([[0, 1], [1, 0]]))
    []
    """
    grid = np.asarray(grid)
    if grid.ndim != rules.dims:
        raise ValueError(f"grid: expected {rules.dims} axes for these rules, got shape {grid.shape}")
    flat = grid.reshape(-1)
    out = []
    for direction in FORWARD[: rules.dims]:
        a, b = neighbour_pairs(grid.shape, direction, periodic)
        bad = ~rules.matrix(direction)[flat[a], flat[b]]
        for i in np.flatnonzero(bad)[:1000]:
            cell = tuple(int(v) for v in np.unravel_index(a[i], grid.shape))
            out.append((cell, direction, rules.name(int(flat[a[i]])), rules.name(int(flat[b[i]]))))
    return out


def connected_labels(count: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Component label (smallest member index) of each of ``count`` nodes joined by edges ``a[i]-b[i]``.

    Parameters
    ----------
    count : int
        Nodes.
    a, b : numpy.ndarray
        (E,) int, the two ends of each edge.
    """
    label = np.arange(count, dtype=np.int64)
    if a.size == 0:
        return label
    while True:
        la, lb = label[a], label[b]
        low = np.minimum(la, lb)
        before = label.copy()
        np.minimum.at(label, la, low)
        np.minimum.at(label, lb, low)
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(before, label):
            return label


def walkable_components(rules: Rules, grid: np.ndarray, periodic: bool | Sequence[bool] = False) -> np.ndarray:
    """Label per cell of the regions of walkable tiles (-1 for cells that are not walkable).

    Two neighbouring walkable cells are joined when both tiles are passable on the facing sides
    (:meth:`Rules.passable_mask`).

    Parameters
    ----------
    rules : Rules
        The rules (which tiles are walkable, which sides passable).
    grid : numpy.ndarray
        Int array of variant indices, one axis per dimension of the rules.
    periodic : bool or sequence of bool, default False
        Which axes wrap around.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.ones((2, 2), dtype=bool)
    >>> rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A}, walkable=[True, False])
    >>> walkable_components(rules, np.array([[0, 1, 0]])).tolist()
    [[0, -1, 2]]
    """
    grid = np.asarray(grid)
    flat = grid.reshape(-1)
    walk = rules.walkable_mask()[flat]
    a_all, b_all = [], []
    for direction in FORWARD[: rules.dims]:
        a, b = neighbour_pairs(grid.shape, direction, periodic)
        keep = rules.passable_mask(direction)[flat[a]] & rules.passable_mask(OPPOSITE[direction])[flat[b]]
        a_all.append(a[keep])
        b_all.append(b[keep])
    label = connected_labels(flat.size, np.concatenate(a_all), np.concatenate(b_all))
    label[~walk] = -1
    return label.reshape(grid.shape)
