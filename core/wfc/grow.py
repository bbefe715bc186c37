"""Grow a solved room: a larger grid that holds the old one, its new cells solved around it (no ``bpy``).

The old grid's cells become fixed tiles of the larger grid (at ``offset``), so the solver decides the new cells and
every new tile fits the old ones across the seam. A side that faced the room's border (a closed room's wall) faces
the new cells after the grow, and its outward labels fit only the border: there the old *wall layer* (the old cells
next to the grown side, with the whole of any big tile reaching into it, less fixed tiles) is solved again with the
new cells, so the wall moves outwards (:func:`walls_to_resolve`). ``keep_walls`` keeps every old cell instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .big_tiles import whole_tiles
from .constraints import Constraint
from .layout import bordered_sides, fixed_array
from .room_input import RoomInputError
from .rules import Rules
from .solver import BorderSpec, FixedTiles, TileCounts, solve
from .vocab import DEFAULT_MAX_BACKTRACKS, DEFAULT_MAX_RESTARTS, DEFAULT_MEMORY_BUDGET, DEFAULT_TIME_LIMIT, Heuristic

GROW_SIDES = ("-X", "+X", "-Y", "+Y", "-Z", "+Z")
"""The sides a room grows on: along an axis, towards its lower or its upper end."""
GROW_SYNTAX = "SIDE:N"
GROW_EXAMPLE = "+X:4"


def grown_box(shape: Sequence[int], side: str, cells: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The grid that ``cells`` more cells on ``side`` make of a grid of ``shape``, and where the old grid lies in it.

    Parameters
    ----------
    shape : sequence of int
        The old grid's cells along x, y, z.
    side : str
        One of :data:`GROW_SIDES` (any case).
    cells : int
        How many cells to add (≥ 1).

    Returns
    -------
    (size, offset)
        The new grid's cells along x, y, z, and the new cell of the old cell (0, 0, 0): growing on a lower side
        (``-X``) shifts the old cells by ``cells`` along that axis.

    Raises
    ------
    RoomInputError
        For a side or a count that cannot be read.

    Examples
    --------
    >>> grown_box((6, 5, 1), "-x", 3)
    ((9, 5, 1), (3, 0, 0))
    >>> grown_box((6, 5, 1), "+Z", 1)
    ((6, 5, 2), (0, 0, 0))
    """
    key = str(side).strip().upper()
    if key not in GROW_SIDES:
        raise RoomInputError("grow: the side is one of {sides}, got {side!r}", sides=", ".join(GROW_SIDES), side=side)
    if isinstance(cells, bool) or not isinstance(cells, int | np.integer) or cells < 1:
        raise RoomInputError("grow: add a whole number of cells ≥ 1, got {cells!r}", cells=cells)
    axis = "XYZ".index(key[1])
    size = [int(s) for s in shape]
    offset = [0, 0, 0]
    size[axis] += int(cells)
    if key[0] == "-":
        offset[axis] = int(cells)
    return (size[0], size[1], size[2]), (offset[0], offset[1], offset[2])


def parse_grow(text: str) -> tuple[str, int]:
    """``"+X:4"`` -> ``("+X", 4)``: a side of :data:`GROW_SIDES` (any case) and a whole number of cells ≥ 1.

    Parameters
    ----------
    text : str
        ``SIDE:N``.

    Raises
    ------
    RoomInputError
        Saying what to write.

    Examples
    --------
    >>> parse_grow("-y:2")
    ('-Y', 2)
    """
    side, _, count = str(text).partition(":")
    try:
        cells = int(count)
    except ValueError:
        cells = 0
    key = side.strip().upper()
    if key not in GROW_SIDES or cells < 1:
        raise RoomInputError("grow: write {syntax} with SIDE one of {sides} and N ≥ 1, e.g. {example!r}; cannot read "
                             "{text!r}", syntax=GROW_SYNTAX, sides=", ".join(GROW_SIDES), example=GROW_EXAMPLE,
                             text=text)
    return key, cells


_AXIS_SIDES = (("w", "e"), ("s", "n"), ("down", "up"))
"""Per axis, the rules' direction towards its lower and its upper end."""


def _bordered(border: BorderSpec | None, border_sides: Sequence[str] | None, side: str) -> bool:
    """Whether the solver puts a border on ``side`` (of the rules' directions)."""
    if border is None:
        return False
    if isinstance(border, Mapping) and border.get(side) is None:
        return False
    return side in bordered_sides(border, border_sides)


def walls_to_resolve(rules: Rules, old: np.ndarray, size: Sequence[int], offset: Sequence[int], *,
                     border: BorderSpec | None = None, border_sides: Sequence[str] | None = None,
                     periodic: bool | Sequence[bool] = False, fixed: FixedTiles | None = None) -> np.ndarray:
    """The old cells :func:`grow` solves again: on each grown side that has a border, the old layer of cells next
    to it, with every cell of a big tile reaching into it, less every tile the caller fixed there.

    Parameters
    ----------
    rules : Rules
        The rules of the larger grid.
    old : numpy.ndarray
        The old grid (variant indices of ``rules``).
    size, offset
        The new grid's shape and where the old grid lies in it (as in :func:`grow`).
    border, border_sides, periodic
        As in :func:`~.solver.solve`: a side is walled when the border applies to it (a periodic axis has none).
    fixed : dict or numpy.ndarray, optional
        Fixed cells of the new grid: a tile there (the whole of a big one) is never solved again.

    Returns
    -------
    numpy.ndarray
        Bool mask of ``old``'s shape.

    Examples
    --------
    >>> from .sockets import SocketTile
    >>> from .tile_rules import rules_from_tiles
    >>> room = rules_from_tiles([SocketTile("floor", {"n": "w", "e": "w", "s": "w", "w": "w"})])
    >>> walls_to_resolve(room, np.zeros((3, 2), dtype=int), (5, 2), (0, 0), border="w").astype(int).tolist()
    [[0, 0], [0, 0], [1, 1]]
    """
    old = np.asarray(old)
    dims = old.ndim
    shape = tuple(int(s) for s in size)[:dims]
    start = tuple(int(o) for o in offset)[:dims]
    axes = (periodic,) * dims if isinstance(periodic, bool | np.bool_) else tuple(bool(p) for p in periodic)
    layer = np.zeros(old.shape, dtype=bool)
    for axis in range(dims):
        if axes[axis]:
            continue
        lower, upper = _AXIS_SIDES[axis]
        index: list[slice | int] = [slice(None)] * dims
        if start[axis] > 0 and _bordered(border, border_sides, lower):
            index[axis] = 0
            layer[tuple(index)] = True
        if start[axis] + old.shape[axis] < shape[axis] and _bordered(border, border_sides, upper):
            index[axis] = old.shape[axis] - 1
            layer[tuple(index)] = True
    if not layer.any():
        return layer
    layer = whole_tiles(rules, old, layer)
    if fixed is not None:
        given = np.asarray(fixed_array(rules, shape, fixed))
        given = given[tuple(slice(o, o + s) for o, s in zip(start, old.shape, strict=True))] >= 0
        layer &= ~whole_tiles(rules, old, given)
    return layer


def grow(rules: Rules, old: np.ndarray, size: Sequence[int], offset: Sequence[int], seed: int = 0, *,
         periodic: bool | Sequence[bool] = False, heuristic: Heuristic | str | None = Heuristic.AUTO,
         fixed: FixedTiles | None = None, border: BorderSpec | None = None,
         border_sides: Sequence[str] | None = None, connected: bool = False,
         entrances: Iterable[Sequence[int]] = (), counts: TileCounts | None = None,
         constraints: Sequence[Constraint] = (), keep_walls: bool = False,
         max_backtracks: int = DEFAULT_MAX_BACKTRACKS, max_restarts: int = DEFAULT_MAX_RESTARTS,
         time_limit: float = DEFAULT_TIME_LIMIT, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> np.ndarray:
    """Solve a grid of ``size`` that holds ``old`` at ``offset``: the new cells are decided, and on a grown side
    with a border the old wall layer there too (:func:`walls_to_resolve`); every other old cell is kept.

    Parameters
    ----------
    rules : Rules
        The rules of the larger grid; ``old`` holds variant indices of these rules (every part of a big tile).
    old : numpy.ndarray
        The old grid, one axis per dimension of the rules, every cell decided (≥ 0).
    size : sequence of int
        The new grid's shape (as many numbers as the rules have dimensions, or three for 2-D rules with a last 1).
    offset : sequence of int
        The new cell of the old cell (0, 0, 0), ≥ 0 along each axis.
    seed : int, default 0
        As in :func:`~.solver.solve`.
    periodic, heuristic, border, border_sides, connected, entrances, counts, constraints
        As in :func:`~.solver.solve`.
    fixed : dict or numpy.ndarray, optional
        Fixed cells of the caller's in the new grid (as in :func:`~.solver.solve`), added to the old ones; a
        fixed tile in the wall layer keeps the old tile there.
    keep_walls : bool, default False
        Keep every old cell, the wall layer too (then a closed room grows only where tiles fit its border labels).
    max_backtracks, max_restarts, time_limit, memory_budget
        As in :func:`~.solver.solve`.

    Returns
    -------
    numpy.ndarray
        The new grid; ``grid[offset : offset + old.shape] == old`` outside the wall layer.

    Raises
    ------
    ValueError
        When ``old`` does not lie inside the new grid or has undecided cells.
    Contradiction
        When no tiles fit around the old ones (the message names the cell).

    Examples
    --------
    >>> from .sockets import SocketTile
    >>> from .tile_rules import rules_from_tiles
    >>> road = SocketTile("road", {"n": "r", "e": "g", "s": "r", "w": "g"}, rotations=(0, 90))
    >>> grass = SocketTile("grass", {"n": "g", "e": "g", "s": "g", "w": "g"})
    >>> rules = rules_from_tiles([road, grass])
    >>> old = np.array([[rules.index("grass")] * 3])
    >>> new = grow(rules, old, (3, 3), (1, 0), seed=4)
    >>> bool((new[1:2, :] == old).all())
    True
    """
    old = np.asarray(old)
    dims = rules.dims
    shape = tuple(int(s) for s in size)[:dims]
    start = tuple(int(o) for o in offset)[:dims]
    if old.ndim != dims or old.dtype.kind not in "iu":
        raise ValueError(f"old: expected an int array with {dims} axes, got {old.dtype} {old.shape}")
    if len(shape) != dims or len(start) != dims or any(o < 0 or o + s > n for o, s, n in
                                                        zip(start, old.shape, shape, strict=True)):
        raise ValueError(f"old grid {old.shape} at {start} does not lie inside the grid {shape}")
    if (old < 0).any():
        raise ValueError("old: every cell must hold a tile (≥ 0)")
    pinned = np.asarray(fixed_array(rules, shape, fixed), dtype=np.int64).copy()
    keep = np.ones(old.shape, dtype=bool)
    if not keep_walls:
        keep = ~walls_to_resolve(rules, old, shape, start, border=border, border_sides=border_sides,
                                 periodic=periodic, fixed=pinned)
    inside = pinned[tuple(slice(o, o + s) for o, s in zip(start, old.shape, strict=True))]
    inside[keep] = old[keep]
    return solve(rules, shape, seed, periodic=periodic, heuristic=heuristic, fixed=pinned, border=border,
                 border_sides=border_sides, connected=connected, entrances=entrances, counts=counts,
                 constraints=constraints, max_backtracks=max_backtracks, max_restarts=max_restarts,
                 time_limit=time_limit, memory_budget=memory_budget)
