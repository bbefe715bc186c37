"""Set pieces: tiles a designer placed by hand, read as fixed cells (no ``bpy``).

A set piece is a kit tile at a cell with a turn and a mirror flag. :func:`piece_variant` finds the variant of the
rules that stands for it, :func:`piece_clash` the first place where two pieces, or a piece and the room's border,
cannot meet, so a room is refused before it is solved, naming the piece.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .big_tiles import fill_parts
from .rules import Rules
from .sockets import SocketTile, turned
from .tile_parts import turned_tile
from .vocab import OFFSETS, OPPOSITE

POSITION_TOLERANCE = 0.02
"""How far (a share of the cell along each axis) a piece's origin may lie from its cell's origin."""
ANGLE_TOLERANCE = 0.5
"""How far (degrees) a piece's turn may lie from a multiple of 90°, and its up axis from +Z."""
SCALE_TOLERANCE = 1e-3
"""How far (relative) a piece's scale may differ from its tile's, along each axis."""


def piece_variant(rules: Rules, tile: SocketTile, rotation: int, mirrored: bool) -> int | None:
    """The variant of ``rules`` that is ``tile`` turned by ``rotation`` and mirrored if asked (a big tile's anchor
    part), or None when the rules have none (a turn the tile does not allow, a mirror it does not have).

    Parameters
    ----------
    rules : Rules
        Rules made from socket tiles.
    tile : SocketTile
        The kit tile.
    rotation : int
        Its turn in degrees (0, 90, 180, 270).
    mirrored : bool
        Whether it stands mirrored.

    Examples
    --------
    >>> from .tile_rules import rules_from_tiles
    >>> bend = SocketTile("bend", {"n": "r", "e": "r", "s": "g", "w": "g"}, rotations=(0, 90, 180, 270))
    >>> rules = rules_from_tiles([bend])
    >>> rules.name(piece_variant(rules, bend, 90, False)), piece_variant(rules, bend, 90, True)
    ('bend@90', None)
    """
    if rules.sockets is None or rules.tiles is None or int(rotation) not in tile.rotations:
        return None
    if mirrored and not tile.mirror:
        return None
    reflected = rules.reflected or (False,) * rules.count
    sides, compat = tuple(rules.sockets[0]), rules.compatible or frozenset()
    if tile.big:
        assert rules.rotations is not None
        wanted = turned_tile(tile, int(rotation), mirrored, sides, compat).signature(sides)
        for v in np.flatnonzero(rules.anchor_mask()).tolist():
            if (rules.tiles[v] == tile.name and bool(reflected[v]) == mirrored and turned_tile(
                    tile, int(rules.rotations[v]), mirrored, sides, compat).signature(sides) == wanted):
                return int(v)
        return None
    sockets, _ = turned(tile, int(rotation), sides, mirrored, compat)
    for v in range(rules.count):
        if rules.tiles[v] == tile.name and bool(reflected[v]) == mirrored and dict(rules.sockets[v]) == sockets:
            return v
    return None


@dataclass(frozen=True)
class Clash:
    """Where set pieces cannot stand: piece ``first`` at ``cell`` meets piece ``second`` (None: the room's border)
    on ``side``, labels ``label`` against ``other`` (the border's labels, for the border)."""

    first: int
    second: int | None
    cell: tuple[int, ...]
    side: str
    label: str
    other: str


def piece_clash(rules: Rules, shape: Sequence[int], pieces: Sequence[tuple[Sequence[int], int]],
                border: Mapping[str, np.ndarray] | None = None, periodic: bool = False,
                border_labels: Mapping[str, str] | None = None) -> Clash | None:
    """The first place where two of ``pieces`` side by side, or a piece and the border, cannot meet; None when
    every one fits.

    Parameters
    ----------
    rules : Rules
        The room's rules.
    shape : sequence of int
        The grid's shape (one number per dimension of the rules; more are ignored).
    pieces : sequence of (cell, variant)
        Each piece's anchor cell and anchor variant (:func:`piece_variant`).
    border : mapping, optional
        Per side, (T,) bool: the variants that may face the border there (the solver's ``border`` masks).
    periodic : bool, default False
        The grid wraps around in x and y (no border there).
    border_labels : mapping, optional
        Per side, the border's labels as text, for the message.

    Raises
    ------
    ValueError
        When two pieces cover one cell or one reaches off the grid.

    Examples
    --------
    >>> from .tile_rules import rules_from_tiles
    >>> road = SocketTile("road", {"n": "r", "e": "g", "s": "r", "w": "g"}, rotations=(0, 90))
    >>> grass = SocketTile("grass", {"n": "g", "e": "g", "s": "g", "w": "g"})
    >>> rules = rules_from_tiles([road, grass])
    >>> piece_clash(rules, (3, 3), [((0, 0), rules.index("road")), ((0, 1), rules.index("grass"))])
    Clash(first=0, second=1, cell=(0, 0), side='n', label='r', other='g')
    """
    dims = rules.dims
    grid_shape = tuple(int(s) for s in shape)[:dims]
    if not pieces:
        return None
    cells = np.array([tuple(int(c) for c in cell)[:dims] for cell, _ in pieces], dtype=np.int64)
    variants = np.array([int(v) for _, v in pieces], dtype=np.int64)
    parts = fill_parts(rules, grid_shape, cells, variants)  # ValueError: overlap or off the grid
    owner = np.full(grid_shape, -1, dtype=np.int64)
    for k in range(len(pieces)):
        owner[fill_parts(rules, grid_shape, cells[k:k + 1], variants[k:k + 1]) >= 0] = k
    sockets = rules.sockets or ()
    for found in np.argwhere(owner >= 0):
        cell = tuple(int(c) for c in found)
        a, k = int(parts[cell]), int(owner[cell])
        for side in rules.directions:
            step = OFFSETS[side][:dims]
            other = [c + d for c, d in zip(cell, step, strict=True)]
            if periodic:
                for axis in range(min(2, dims)):
                    other[axis] %= grid_shape[axis]
            if not all(0 <= c < n for c, n in zip(other, grid_shape, strict=True)):
                if border is not None and side in border and not border[side][a]:
                    return Clash(k, None, cell, side, str(sockets[a].get(side, "")) if sockets else "",
                                 (border_labels or {}).get(side, ""))
                continue
            j = int(owner[tuple(other)])
            if j < 0 or j == k:
                continue
            b = int(parts[tuple(other)])
            if not rules.matrix(side)[a, b]:
                back = OPPOSITE[side]
                return Clash(k, j, cell, side, str(sockets[a].get(side, "")) if sockets else "",
                             str(sockets[b].get(back, "")) if sockets else "")
    return None
