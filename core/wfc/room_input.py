"""What a room's settings are written in: its error (an English template and its fields, for translation), the
fixed tiles and the cells of its text fields (no ``bpy``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class RoomInputError(ValueError):
    """Bad room settings or kit; ``template.format(**fields)`` is the message."""

    def __init__(self, template: str, **fields: Any) -> None:
        super().__init__(template.format(**fields))
        self.template = template
        self.fields = fields


@dataclass(frozen=True)
class FixedTile:
    """A tile pinned to a cell: ``tile`` name (``"name~"`` for its mirror), turn in degrees, cell (x, y, z)."""

    tile: str
    rotation: int
    cell: tuple[int, int, int]


def parse_fixed(text: str) -> tuple[FixedTile, ...]:
    """``"Door@90 0 5 0; Stair 3 3 0"`` -> fixed tiles (tile name, optional @rotation, then the cell x y z).

    Parameters
    ----------
    text : str
        ``TILE[@ROTATION] X Y Z`` items separated by ``;`` (a name may hold spaces; empty items are skipped).

    Raises
    ------
    RoomInputError
        Naming the item that cannot be read.

    Examples
    --------
    >>> parse_fixed("Door@90 0 5 0; big stair 3 3 1")
    (FixedTile(tile='Door', rotation=90, cell=(0, 5, 0)), FixedTile(tile='big stair', rotation=0, cell=(3, 3, 1)))
    """
    out = []
    for item in (part.strip() for part in text.split(";")):
        if not item:
            continue
        try:
            *name_parts, x, y, z = item.split()
            name = " ".join(name_parts)
            rotation = 0
            if "@" in name:
                name, _, degrees = name.rpartition("@")
                rotation = int(degrees)
            if not name:
                raise ValueError(item)
            out.append(FixedTile(name, rotation, (int(x), int(y), int(z))))
        except ValueError:
            raise RoomInputError("fixed: write TILE[@ROTATION] X Y Z separated by ';', e.g. \"Door@90 0 5 0\"; "
                                 "cannot read {item!r}", item=item) from None
    return tuple(out)


def parse_cells(text: str) -> tuple[tuple[int, int, int], ...]:
    """``"0 5 0; 11,5,1"`` -> cells ``((0, 5, 0), (11, 5, 1))``: three whole numbers each (spaces or commas
    between them), cells separated by ``;``; empty items are skipped.

    Parameters
    ----------
    text : str
        The cells, e.g. the entrances of a room.

    Raises
    ------
    RoomInputError
        Naming the item that cannot be read.

    Examples
    --------
    >>> parse_cells("0 5 0; 11,5,1;")
    ((0, 5, 0), (11, 5, 1))
    """
    out = []
    for item in (part.strip() for part in text.split(";")):
        if not item:
            continue
        numbers = item.replace(",", " ").split()
        try:
            cell = tuple(int(n) for n in numbers)
        except ValueError:
            cell = ()
        if len(cell) != 3 or min(cell) < 0:
            raise RoomInputError("entrances: write each cell as X Y Z (whole numbers ≥ 0) separated by ';', e.g. "
                                 "\"0 5 0; 11 5 1\"; cannot read {item!r}", item=item)
        out.append((cell[0], cell[1], cell[2]))
    return tuple(out)
