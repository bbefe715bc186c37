"""What the spacing constraints ask of a grid: which axes wrap around and the cells' coordinates (no ``bpy``)."""

from __future__ import annotations

import numpy as np

from .constraints import Grid
from .vocab import FORWARD, OPPOSITE

AXIS_NAMES = "xyz"


def wrapped_axes(grid: Grid) -> tuple[bool, ...]:
    """Per axis of the grid, whether its edges are linked to each other (periodic edges, set up before).

    Parameters
    ----------
    grid : Grid
        The grid being set up (its ``neighbours`` after :class:`~.layout.Periodic` linked the edges).
    """
    directions = list(grid.rules.directions)
    out = []
    for axis in range(len(grid.shape)):
        back = directions.index(OPPOSITE[FORWARD[axis]])
        out.append(bool(grid.neighbours[back, 0] != grid.cells))  # cell 0 has a neighbour before it
    return tuple(out)


def coordinates(shape: tuple[int, ...]) -> np.ndarray:
    """(N, D) int64: the coordinates of each flat cell (the solver's C order).

    Parameters
    ----------
    shape : tuple of int
        The grid's shape.
    """
    return np.indices(shape).reshape(len(shape), -1).T.astype(np.int64)


def flat_cells(coords: np.ndarray, shape: tuple[int, ...], wrapped: tuple[bool, ...]) -> np.ndarray:
    """Flat indices of (..., D) coordinates; a coordinate off the grid along an axis that does not wrap is -1.

    Parameters
    ----------
    coords : numpy.ndarray
        (..., D) int coordinates, possibly off the grid.
    shape : tuple of int
        The grid's shape.
    wrapped : tuple of bool
        Per axis, whether it wraps around (then a coordinate off the grid comes back on the other side).
    """
    size = np.asarray(shape, dtype=np.int64)
    coords = np.where(np.asarray(wrapped), coords % size, coords)
    inside = ((coords >= 0) & (coords < size)).all(axis=-1)
    flat = np.ravel_multi_index(tuple(np.moveaxis(np.where(inside[..., None], coords, 0), -1, 0)), shape)
    return np.where(inside, flat, -1)


def axis_index(axis: str, dims: int, what: str) -> int:
    """``"x"`` -> 0 …, ``ValueError`` naming ``what`` for an axis the grid does not have.

    Parameters
    ----------
    axis : str
        ``"x"``, ``"y"`` or ``"z"``.
    dims : int
        The grid's axes (2 or 3).
    what : str
        The setting, for the message.
    """
    if axis not in AXIS_NAMES[:dims]:
        raise ValueError(f"{what}: axis {axis!r} is not one of the grid's axes ({', '.join(AXIS_NAMES[:dims])})")
    return AXIS_NAMES.index(axis)

