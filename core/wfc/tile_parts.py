"""Big tiles as parts: a tile that covers several cells (a 2 x 2 hall, a stair two storeys high) becomes, per
distinct turn, one *part* per covered cell (as Tessera's and DeBroglie's big tiles do).

The parts of one turned tile meet each other through **inner labels** unique to that turn and that pair of
cells, so only the right part can stand beside another: the search's own propagation then keeps a big tile
whole, and a part whose inner side would face off the grid never stands there (:mod:`.big_tiles`). The outer
sides carry the tile's labels per covered cell (``SocketTile.cell_sockets``, else its ``sockets``).

Cells: the tile's own cell ``(i, j, k)`` counts from its first cell (its origin's), towards +x, +y, +z. Mirrored
(``x -> -x``) then turned, the covered cells are a box again; its lowest corner is the **anchor** cell, and each
part's ``offset`` is its cell less the anchor's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .sockets import SocketTile, turned
from .vocab import FORWARD, OFFSETS, OPPOSITE

INNER = "\x00inner"
"""What an inner side carries until its turned tile is named (:func:`inner_label`)."""
INNER_PREFIX = "\x00"
"""Inner labels start with it; no label of a kit does (they fit only themselves)."""


@dataclass(frozen=True)
class Part:
    """One covered cell of a turned big tile: its offset from the anchor, its turned labels (inner sides
    :data:`INNER`) and the sides a visitor can leave it through."""

    offset: tuple[int, int, int]
    sockets: dict[str, str]
    passable: tuple[str, ...]


@dataclass(frozen=True)
class TurnedTile:
    """A big tile mirrored (or not) and turned: the cells it covers along x, y, z, where its origin's cell lies
    from the anchor, and its parts (the anchor's first, then x fastest, then y, then z)."""

    degrees: int
    mirrored: bool
    size: tuple[int, int, int]
    origin: tuple[int, int, int]
    parts: tuple[Part, ...]

    def signature(self, sides: Sequence[str]) -> tuple:
        """What tells two turns apart (equal signatures: the same variant)."""
        return (self.mirrored, self.size, tuple((p.offset, tuple(p.sockets[s] for s in sides), p.passable)
                                                for p in self.parts))


def _placed(cell: tuple[int, int, int], degrees: int, mirrored: bool) -> tuple[int, int, int]:
    """Where the tile's own cell lands, from its origin's cell, after the mirror and the turn."""
    x, y, z = cell
    if mirrored:
        x = -x
    for _ in range(degrees // 90):
        x, y = -y, x
    return x, y, z


def origin_cell(footprint: tuple[int, int, int], degrees: int, mirrored: bool) -> tuple[int, int, int]:
    """Where a placed tile's origin cell lies from its anchor, from the cells it covers (after the turn).

    Parameters
    ----------
    footprint : tuple of int
        The cells the placed tile covers along x, y, z.
    degrees : int
        Its turn.
    mirrored : bool
        Whether it is mirrored.

    Examples
    --------
    >>> origin_cell((1, 2, 1), 90, False), origin_cell((3, 1, 1), 0, True)
    ((0, 0, 0), (2, 0, 0))
    """
    fx, fy, fz = footprint
    own = (fy, fx, fz) if degrees in (90, 270) else (fx, fy, fz)
    corners = [_placed((i, j, 0), degrees, mirrored) for i in (0, own[0] - 1) for j in (0, own[1] - 1)]
    return (-min(c[0] for c in corners), -min(c[1] for c in corners), 0)


def turned_tile(tile: SocketTile, degrees: int, mirrored: bool, sides: Sequence[str],
                compatible: frozenset[frozenset[str]] = frozenset()) -> TurnedTile:
    """The parts of ``tile`` mirrored (if asked) and turned by ``degrees``.

    Parameters
    ----------
    tile : SocketTile
        A tile, usually big (``tile.size`` other than (1, 1, 1)).
    degrees : int
        0, 90, 180 or 270.
    mirrored : bool
        Mirror it first.
    sides : sequence of str
        The sides of the rules (``SIDES_2D`` or ``SIDES_3D``).
    compatible : frozenset of frozenset of str, default frozenset()
        Declared compatible label pairs (a mirrored side's twin).

    Examples
    --------
    >>> hall = SocketTile("hall", {"n": "wall", "e": "door", "s": "wall", "w": "wall"}, size=(2, 1, 1))
    >>> turn = turned_tile(hall, 90, False, ("n", "e", "s", "w"))
    >>> turn.size, turn.origin, [p.offset for p in turn.parts]
    ((1, 2, 1), (0, 0, 0), [(0, 0, 0), (0, 1, 0)])
    >>> turn.parts[1].sockets["n"], turn.parts[1].sockets["s"] == INNER
    ('door', True)
    """
    sx, sy, sz = tile.size
    own = [(i, j, k) for k in range(sz) for j in range(sy) for i in range(sx)]
    placed = {cell: _placed(cell, degrees, mirrored) for cell in own}
    low = tuple(min(p[a] for p in placed.values()) for a in range(3))
    size = tuple(max(p[a] for p in placed.values()) - low[a] + 1 for a in range(3))
    walkable_sides = set(tile.passable_sides())
    parts = []
    for cell in own:
        inner = {side for side in sides
                 if all(0 <= c + d < s for c, d, s in zip(cell, OFFSETS[side], tile.size, strict=True))}
        labels = {side: INNER if side in inner else tile.outer_label(cell, side) for side in sides}
        passable = tuple(side for side in sides if side in inner or side in walkable_sides)
        one = dataclasses.replace(tile, sockets=labels, passable=passable, size=(1, 1, 1), cell_sockets=None)
        sockets, passes = turned(one, degrees, sides, mirrored, compatible)
        offset = tuple(p - lo for p, lo in zip(placed[cell], low, strict=True))
        parts.append(Part((offset[0], offset[1], offset[2]), sockets, passes))
    parts.sort(key=lambda p: (p.offset[2], p.offset[1], p.offset[0]))
    return TurnedTile(degrees, mirrored, (size[0], size[1], size[2]), (-low[0], -low[1], -low[2]), tuple(parts))


def distinct_turns(tile: SocketTile, sides: Sequence[str],
                   compatible: frozenset[frozenset[str]] = frozenset()) -> list[TurnedTile]:
    """The tile's allowed turns (and mirrored turns) that differ, the first of each kind kept.

    Parameters
    ----------
    tile : SocketTile
        The tile.
    sides : sequence of str
        The sides of the rules.
    compatible : frozenset of frozenset of str, default frozenset()
        Declared compatible label pairs.
    """
    seen: dict[tuple, TurnedTile] = {}
    for mirrored in (False, True) if tile.mirror else (False,):
        for degrees in tile.rotations:
            turn = turned_tile(tile, degrees, mirrored, sides, compatible)
            seen.setdefault(turn.signature(sides), turn)
    return list(seen.values())


def part_name(base: str, offset: tuple[int, int, int]) -> str:
    """The anchor part carries the variant's name (``"hall@90"``), the others ``"hall@90#1,0,0"``.

    Parameters
    ----------
    base : str
        The variant's name.
    offset : tuple of int
        The part's cell less the anchor's.
    """
    return base if offset == (0, 0, 0) else f"{base}#{offset[0]},{offset[1]},{offset[2]}"


def inner_label(base: str, offset: tuple[int, int, int], side: str) -> str:
    """The label both parts carry where the part at ``offset`` of the variant ``base`` meets its next one towards
    ``side``: unique to that variant and that pair of cells.

    Parameters
    ----------
    base : str
        The variant's name.
    offset : tuple of int
        The part's cell less the anchor's.
    side : str
        The side the next part lies towards.
    """
    low: tuple[int, ...] = offset
    axis = side
    if side not in FORWARD:
        low, axis = tuple(o + d for o, d in zip(offset, OFFSETS[side], strict=True)), OPPOSITE[side]
    return f"{INNER_PREFIX}{base}:{low[0]},{low[1]},{low[2]}:{axis}"
