"""Which of a kit's tiles a room can hold: a big tile that fits the room in none of its turns (a stair two storeys
high in a room one storey high) is left out, with a note saying why, unless the room needs it — a fixed tile or a
Counts minimum names it (a region that allows only such tiles is :func:`~.room_regions.region_constraints`'
check) — and then the room is refused naming it (no ``bpy``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .room_input import FixedTile, RoomInputError
from .sockets import MIRROR_SUFFIX, SocketTile


def cells_text(size: Iterable[int]) -> str:
    """``(1, 1, 2)`` -> ``"1 × 1 × 2"``: a size in cells as messages write it.

    Parameters
    ----------
    size : iterable of int
        Cells along x, y and z.
    """
    return " × ".join(str(int(s)) for s in size)


def fits_room(tile: SocketTile, size: tuple[int, int, int]) -> bool:
    """Whether ``tile`` fits a room of ``size`` cells in one of its allowed turns.

    Parameters
    ----------
    tile : SocketTile
        The tile (``tile.size`` the cells it covers, unturned).
    size : tuple of int
        The room's cells along x, y and z.
    """
    sx, sy, sz = tile.size
    turns = {(sx, sy) if degrees in (0, 180) else (sy, sx) for degrees in tile.rotations}
    return sz <= size[2] and any(a <= size[0] and b <= size[1] for a, b in turns)


@dataclass(frozen=True)
class LeftOut:
    """A tile a room cannot hold and was assembled without: its name, the cells it covers and the room's size.

    ``template.format(**fields)`` (``str()``) is the note, an English template a user interface can translate."""

    tile: str
    size: tuple[int, int, int]
    room: tuple[int, int, int]

    @property
    def template(self) -> str:
        if self.size[2] > self.room[2]:
            return "{tile} ({cells}) left out: taller than the room's {storeys} storey(s)"
        return "{tile} ({cells}) left out: wider than the room of {room} cells in every turn"

    @property
    def fields(self) -> dict[str, Any]:
        return {"tile": self.tile, "cells": cells_text(self.size), "storeys": self.room[2],
                "room": cells_text(self.room)}

    def __str__(self) -> str:
        return self.template.format(**self.fields)


def _least(given: object) -> int:
    """The minimum of a Counts entry (``n`` or ``(min, max)``); 0 when it cannot be read (Counts' own check then
    names it)."""
    low = given[0] if isinstance(given, tuple | list) and given else given
    return low if isinstance(low, int) and not isinstance(low, bool) else 0


def fitting_tiles(tiles: Iterable[SocketTile], size: tuple[int, int, int], fixed: Iterable[FixedTile] = (),
                  counts: Mapping[str, object] | None = None) -> tuple[list[SocketTile], tuple[LeftOut, ...]]:
    """The tiles a room of ``size`` can hold, and the ones left out (each fits the room in none of its turns).

    Parameters
    ----------
    tiles : iterable of SocketTile
        The kit's tiles.
    size : tuple of int
        The room's cells along x, y and z.
    fixed : iterable of FixedTile, default ()
        The room's fixed tiles: one of a tile left out refuses the room.
    counts : mapping, optional
        ``{tile: n or (min, max)}``: a minimum above 0 for a tile left out refuses the room.

    Raises
    ------
    RoomInputError
        Naming the tile the room needs and cannot hold, or the first tile when the room can hold none.

    Examples
    --------
    >>> floor = SocketTile("floor", {s: "o" for s in "nesw"})
    >>> stair = SocketTile("stair", {s: "o" for s in "nesw"}, size=(1, 1, 2))
    >>> kept, left_out = fitting_tiles([floor, stair], (6, 6, 1))
    >>> [tile.name for tile in kept], [str(item) for item in left_out]
    (['floor'], ["stair (1 × 1 × 2) left out: taller than the room's 1 storey(s)"])
    """
    tiles = list(tiles)
    kept = [tile for tile in tiles if fits_room(tile, size)]
    left_out = tuple(LeftOut(tile.name, tile.size, size) for tile in tiles if not fits_room(tile, size))
    if tiles and not kept:
        raise RoomInputError("Tile {tile!r} covers {cells} cells and fits the room of {size} cells in none of its "
                             "turns; make the room larger or take the tile out of the kit", tile=tiles[0].name,
                             cells=cells_text(tiles[0].size), size=cells_text(size))
    for item in left_out:
        for pinned in fixed:
            if pinned.tile in (item.tile, item.tile + MIRROR_SUFFIX):
                raise RoomInputError("Fixed tile {tile!r} covers {cells} cells and fits the room of {size} cells in "
                                     "none of its turns; make the room larger or unpin the tile", tile=pinned.tile,
                                     cells=cells_text(item.size), size=cells_text(size))
        least = _least((counts or {}).get(item.tile, 0))
        if least > 0:
            raise RoomInputError("Counts ask for at least {minimum} of {tile!r}, which covers {cells} cells and fits "
                                 "the room of {size} cells in none of its turns; make the room larger or lower its "
                                 "count", minimum=least, tile=item.tile, cells=cells_text(item.size),
                                 size=cells_text(size))
    return kept, left_out


def counts_without(counts: Mapping[str, Any], left_out: Iterable[LeftOut]) -> dict[str, Any]:
    """``counts`` without the tiles left out (none of them stands in the room, so at most any number holds).

    Parameters
    ----------
    counts : mapping
        ``{tile: n or (min, max)}``.
    left_out : iterable of LeftOut
        The tiles the room was assembled without.
    """
    names = {item.tile for item in left_out}
    return {tile: given for tile, given in counts.items() if tile not in names}


def counts_in_one_storey(counts: Mapping[str, Any], kit: Iterable[str], kept: Iterable[str], below: str,
                         above: str) -> dict[str, Any]:
    """``counts`` for a one-storey room that holds only the ``kept`` tiles of the ``kit``: a tile of the kit
    that fits neither Below nor Above can stand in it none of its turns, so it is dropped from ``counts``, and
    a minimum above 0 for it refuses the room with what to change (not as a tile the kit lacks).

    Parameters
    ----------
    counts : mapping
        Tile name → the count asked for (a number or a ``(least, most)`` range).
    kit : iterable of str
        Every tile of the kit.
    kept : iterable of str
        The tiles a one-storey room can hold.
    below, above : str
        The room's Below and Above labels (named in the refusal).

    Raises
    ------
    RoomInputError
        Naming the counted tile the room asks for and cannot hold.
    """
    dropped = set(kit) - set(kept)
    for tile, given in counts.items():
        least = _least(given)
        if tile in dropped and least > 0:
            raise RoomInputError("Counts ask for at least {minimum} of {tile!r}, but its bottom or top fits no Below "
                                 "{below!r} / Above {above!r} label of a one-storey room; give the room more "
                                 "storeys, change those labels or lower its count", minimum=least, tile=tile,
                                 below=below, above=above)
    return {tile: given for tile, given in counts.items() if tile not in dropped}

