"""A room's paths: endpoint cells that must be joined through walkable cells (no ``bpy``).

A path is written ``X,Y,Z:X,Y,Z`` (two or more cells separated by ``:``); :func:`check_paths` validates what a
:class:`~.room_spec.RoomSpec` was given and :func:`path_constraint` turns it into the solver's
:class:`~.paths.Paths` constraint.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .paths import Paths
from .room_input import RoomInputError
from .rules import Rules
from .vocab import OFFSETS

RoomPath = tuple[tuple[int, int, int], ...]
"""The endpoint cells (x, y, z) of one path, two or more."""

PATH_SYNTAX = "X,Y,Z:X,Y,Z (more endpoints with more ':'), e.g. \"0,5,0:11,5,0\""


def parse_path(text: str) -> RoomPath:
    """``"0,5,0:11,5,0"`` -> ``((0, 5, 0), (11, 5, 0))``.

    Parameters
    ----------
    text : str
        Cells of three whole numbers (commas or spaces between them) separated by ``:``.

    Raises
    ------
    RoomInputError
        Naming the text that cannot be read.

    Examples
    --------
    >>> parse_path("0,5,0 : 11 5 0:3,3,1")
    ((0, 5, 0), (11, 5, 0), (3, 3, 1))
    """
    out = []
    for item in text.split(":"):
        try:
            cell = tuple(int(n) for n in item.replace(",", " ").split())
        except ValueError:
            cell = ()
        if len(cell) != 3 or min(cell) < 0:
            raise RoomInputError("path: write {syntax}; cannot read {item!r} in {text!r}", syntax=PATH_SYNTAX,
                                 item=item.strip(), text=text)
        out.append((cell[0], cell[1], cell[2]))
    if len(out) < 2:
        raise RoomInputError("path: give two endpoints or more, as {syntax}; {text!r} has one", syntax=PATH_SYNTAX,
                             text=text)
    return tuple(out)


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | np.integer)


def check_paths(paths: Iterable[Sequence[Any]], size: tuple[int, int, int]) -> tuple[RoomPath, ...]:
    """The paths of a room of ``size`` cells as tuples of distinct cells in the order given.

    Parameters
    ----------
    paths : iterable of sequences of cells
        Each path's endpoint cells (x, y, z).
    size : tuple of int
        The room's cells along x, y and z.

    Raises
    ------
    RoomInputError
        For a cell that is not three whole numbers or lies outside, or a path with fewer than two distinct
        endpoints.
    """
    out = []
    for number, path in enumerate(paths, 1):
        try:
            given = [tuple(cell) for cell in path]
        except TypeError:
            raise RoomInputError("path {number}: give its endpoints as cells (x, y, z), got {path!r}",
                                 number=number, path=path) from None
        cells: dict[tuple[int, int, int], None] = {}
        for cell in given:
            if len(cell) != 3 or not all(_whole(c) for c in cell):
                raise RoomInputError("path {number}: endpoint {cell} needs three whole numbers (x, y, z)",
                                     number=number, cell=cell)
            if any(c < 0 or c >= s for c, s in zip(cell, size, strict=True)):
                raise RoomInputError("path {number}: endpoint {cell} is outside the room of {size} cells; cells run "
                                     "from (0, 0, 0) to {last}", number=number, cell=tuple(int(c) for c in cell),
                                     size=size, last=tuple(s - 1 for s in size))
            cells[(int(cell[0]), int(cell[1]), int(cell[2]))] = None
        if len(cells) < 2:
            raise RoomInputError("path {number} needs two different endpoints, got {cells}; move one of them",
                                 number=number, cells=list(cells))
        out.append(tuple(cells))
    return tuple(out)


def _check_border(rules: Rules, paths: Sequence[RoomPath], size: tuple[int, int, int], periodic: bool,
                  border: Mapping[str, np.ndarray]) -> None:
    """Each endpoint can hold a walkable tile whose sides fit the border where it touches it."""
    walk = rules.walkable_mask()
    inner = {side: rules.matrix(side).any(axis=1) for side in rules.directions}
    for number, path in enumerate(paths, 1):
        for cell in path:
            fits = walk.copy()
            for side in rules.directions:
                axis, step = next((a, o) for a, o in enumerate(OFFSETS[side]) if o)
                outside = not (periodic and axis < 2) and not 0 <= cell[axis] + step < size[axis]
                if outside and side in border:
                    fits &= border[side]
                elif not outside:
                    fits &= inner[side]
            if not fits.any():
                raise RoomInputError("path {number}: no walkable tile fits the room's border at endpoint {cell}; "
                                     "move the endpoint inwards or give the kit a walkable tile whose outer side "
                                     "fits the border", number=number, cell=cell)


def path_constraint(rules: Rules, paths: Sequence[RoomPath], loops: bool, min_length: int,
                    fixed: Mapping[tuple[int, ...], int], size: tuple[int, int, int] = (1, 1, 1),
                    periodic: bool = False, border: Mapping[str, np.ndarray] | None = None) -> Paths:
    """The solver's constraint for a room's paths (cells cut to the rules' axes).

    Parameters
    ----------
    rules : Rules
        The room's rules (which tiles are walkable).
    paths : sequence of RoomPath
        The checked paths (:func:`check_paths`).
    loops : bool
        False: no loop where a path runs.
    min_length : int
        Cells the shortest walk between two endpoints of a path visits at least (0: no minimum).
    fixed : mapping
        ``{cell: variant}`` of the room's fixed tiles (cells cut to the rules' axes).
    size : tuple of int, default (1, 1, 1)
        The room's cells along x, y and z (where its border is).
    periodic : bool, default False
        The room wraps around in x and y (no border there).
    border : mapping, optional
        ``{side: (T,) bool}``: the variants whose side fits the border there.

    Raises
    ------
    RoomInputError
        When the kit has no walkable tile, a fixed tile at an endpoint is not walkable or no walkable tile fits
        the border at an endpoint.
    """
    walk = rules.walkable_mask()
    if not walk.any():
        raise RoomInputError("Paths need a walkable tile and the kit has none: tick Walkable on the floor, door and "
                             "stair tiles (Strew Tile) or clear the Paths")
    for number, path in enumerate(paths, 1):
        for cell in path:
            variant = fixed.get(cell[: rules.dims])
            if variant is not None and not walk[variant]:
                raise RoomInputError("path {number}: endpoint {cell} holds the fixed tile {tile!r}, which is not "
                                     "walkable; move the endpoint or pin a walkable tile there", number=number,
                                     cell=cell, tile=rules.name(variant))
    _check_border(rules, paths, size, periodic, border or {})
    return Paths([[cell[: rules.dims] for cell in path] for path in paths], loops=loops, min_length=min_length)
