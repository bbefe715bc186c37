"""A room's regions: boxes (or lists) of cells whose tiles are restricted or weighted, a cellar storey or a garden
wing; their text form and the solver's :class:`~.layout.Region` constraints made from them (no ``bpy``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .layout import Region
from .room_fit import LeftOut, cells_text
from .room_input import RoomInputError
from .rules import Rules


def parse_region_tiles(text: str, weight: float = 1.0) -> dict[str, float]:
    """``"hedge=3, pond, stair=0"`` -> ``{"hedge": 3.0, "pond": weight, "stair": 0.0}``: tile names separated by
    commas, each with an optional ``=FACTOR`` (else ``weight``); empty items are skipped.

    Parameters
    ----------
    text : str
        The tiles of a region (source names: all turns and mirrors of each).
    weight : float, default 1.0
        The factor of a name given without its own.

    Raises
    ------
    RoomInputError
        Naming the item that cannot be read.

    Examples
    --------
    >>> parse_region_tiles("hedge=3, pond, stair=0", weight=2)
    {'hedge': 3.0, 'pond': 2.0, 'stair': 0.0}
    """
    out: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, equals, value = (part.strip() for part in item.partition("="))
        try:
            factor = float(value) if equals else float(weight)
        except ValueError:
            factor = math.nan
        if not name or not math.isfinite(factor) or factor < 0:
            raise RoomInputError("region tiles: write TILE or TILE=FACTOR (a number ≥ 0) separated by commas, e.g. "
                                 "\"hedge=3, pond, stair=0\"; cannot read {item!r}", item=item)
        out[name] = factor
    return out


@dataclass(frozen=True, kw_only=True)
class RoomRegion:
    """Cells of a room whose tiles are restricted or weighted: a cellar storey, a garden wing.

    Parameters
    ----------
    low, high : tuple of int
        Corners (x, y, z) of the box of cells, inclusive, in any order.
    tiles : dict or str, default {}
        ``{tile: factor}`` by source tile name (all its turns and mirrors), or its text ``"hedge=3, pond"``
        (:func:`parse_region_tiles`; a name without ``=FACTOR`` gets ``weight``). Each tile's weight in the
        region is multiplied by its factor; 0 keeps it out.
    only : bool, default False
        Only the named tiles may stand in the region (their factors still weigh them against each other).
    weight : float, default 1.0
        The factor of a name given without one in the text.
    name : str, default "region"
        What messages call it.
    cells : tuple of (int, int, int), optional
        The region's cells when it is not the whole box (a mesh volume's cells); they lie in the box.

    Raises
    ------
    RoomInputError
        For a bad value (the message names the region).
    """

    low: tuple[int, int, int] = (0, 0, 0)
    high: tuple[int, int, int] = (0, 0, 0)
    tiles: Mapping[str, float] | str = field(default_factory=dict)
    only: bool = False
    weight: float = 1.0
    name: str = "region"
    cells: tuple[tuple[int, int, int], ...] | None = None

    def __post_init__(self) -> None:
        for corner in (self.low, self.high):
            if len(tuple(corner)) != 3 or any(isinstance(c, bool) or not isinstance(c, int | np.integer)
                                              for c in corner):
                raise RoomInputError("Region {region!r}: give its corners as three whole numbers (x, y, z)",
                                     region=self.name)
        low, high = (tuple(int(min(a, b)) for a, b in zip(self.low, self.high, strict=True)),
                     tuple(int(max(a, b)) for a, b in zip(self.low, self.high, strict=True)))
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        weight = self.weight
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not (math.isfinite(weight)
                                                                                   and weight >= 0):
            raise RoomInputError("Region {region!r}: Weight must be a number ≥ 0, got {value!r}", region=self.name,
                                 value=weight)
        if isinstance(self.tiles, str):
            try:
                tiles = parse_region_tiles(self.tiles, weight)
            except RoomInputError as error:
                raise RoomInputError("Region {region!r}: write its tiles as TILE or TILE=FACTOR (a number ≥ 0) "
                                     "separated by commas, e.g. \"hedge=3, pond, stair=0\"; cannot read {item!r}",
                                     region=self.name, item=error.fields["item"]) from None
        else:
            tiles = {str(k): float(v) for k, v in self.tiles.items()}
            if not all(math.isfinite(v) and v >= 0 for v in tiles.values()):
                raise RoomInputError("Region {region!r}: weight factors must be numbers ≥ 0", region=self.name)
        object.__setattr__(self, "tiles", tiles)
        if not tiles:
            raise RoomInputError("Region {region!r}: list the tiles it allows or weighs, e.g. \"hedge=3, pond\"",
                                 region=self.name)
        if self.only and not any(tiles.values()):
            raise RoomInputError("Region {region!r} allows no tile: every tile it lists has weight 0",
                                 region=self.name)
        if not self.only and all(v == 1.0 for v in tiles.values()):
            raise RoomInputError("Region {region!r} changes nothing: tick Only These Tiles, or give its tiles a "
                                 "Weight other than 1", region=self.name)
        if self.cells is not None:
            cells = tuple((int(c[0]), int(c[1]), int(c[2])) for c in self.cells)
            if any(not all(a <= c <= b for a, c, b in zip(low, cell, high, strict=True)) for cell in cells):
                raise RoomInputError("Region {region!r}: its cells must lie in its box", region=self.name)
            object.__setattr__(self, "cells", cells)

    def cell_list(self) -> list[tuple[int, int, int]]:
        """The region's cells: ``cells``, else every cell of the box."""
        if self.cells is not None:
            return list(self.cells)
        (x0, y0, z0), (x1, y1, z1) = self.low, self.high
        return list(itertools.product(range(x0, x1 + 1), range(y0, y1 + 1), range(z0, z1 + 1)))


REGION_SYNTAX = "NAME:X,Y,Z:X,Y,Z:TILES[:only][:weight=W]"
"""How one region is written as text (the command line's ``--region``, the operator's ``regions``): its name, the
first and last cell of its box (inclusive), its tiles as the panel's *Tiles*, then, if wanted, ``only`` (*Only These
Tiles*) and ``weight=W`` (*Weight*)."""
REGION_EXAMPLE = "cellar:0,0,0:11,11,0:rock, vault=2:only"


def _corner(text: str, item: str) -> tuple[int, int, int]:
    """``"0,5,1"`` (or ``"0 5 1"``) -> ``(0, 5, 1)``; ``RoomInputError`` naming the corner otherwise."""
    parts = text.replace(",", " ").split()
    if len(parts) != 3 or not all(part.isdecimal() for part in parts):
        raise RoomInputError("region {item!r}: the corner {corner!r} is not a cell; write X,Y,Z (three whole numbers "
                             "≥ 0), e.g. {example!r}", item=item, corner=text.strip(), example=REGION_EXAMPLE)
    return int(parts[0]), int(parts[1]), int(parts[2])


def parse_region(text: str) -> RoomRegion:
    """One region from its text (:data:`REGION_SYNTAX`): ``"cellar:0,0,0:11,11,0:rock, vault=2:only"``.

    Parameters
    ----------
    text : str
        Fields separated by ``:`` (so a name or tile holds no ``:`` or ``;``); spaces around them are ignored.

    Raises
    ------
    RoomInputError
        Naming the field to fix (the region's own checks, :class:`RoomRegion`, name the region).

    Examples
    --------
    >>> region = parse_region("cellar:0,0,0:11,11,0:rock, vault=2:only")
    >>> region.name, region.low, region.high, region.tiles, region.only, region.weight
    ('cellar', (0, 0, 0), (11, 11, 0), {'rock': 1.0, 'vault': 2.0}, True, 1.0)
    >>> parse_region("hall:2,2,0:9,9,1:stair:weight=0").tiles
    {'stair': 0.0}
    """
    item = text.strip()
    fields = [part.strip() for part in item.split(":")]
    if len(fields) < 4 or not fields[0]:
        raise RoomInputError("region {item!r}: write {syntax}, e.g. {example!r}", item=item, syntax=REGION_SYNTAX,
                             example=REGION_EXAMPLE)
    name, low, high, tiles, *flags = fields
    only, weight = False, 1.0
    for flag in flags:
        key, equals, value = (part.strip() for part in flag.partition("="))
        if flag.lower() == "only":
            only = True
            continue
        try:
            weight = float(value) if key.lower() == "weight" and equals else math.nan
        except ValueError:
            weight = math.nan
        if not math.isfinite(weight) or weight < 0:
            raise RoomInputError("region {item!r}: {flag!r} is neither 'only' nor 'weight=W' (a number ≥ 0); write "
                                 "{syntax}", item=item, flag=flag, syntax=REGION_SYNTAX)
    return RoomRegion(name=name, low=_corner(low, item), high=_corner(high, item), tiles=tiles, only=only,
                      weight=weight)


def parse_regions(text: str) -> tuple[RoomRegion, ...]:
    """Regions from their text, each as :func:`parse_region` reads it, separated by ``;`` (empty items skipped).

    Parameters
    ----------
    text : str
        The regions, e.g. the operator's ``regions`` or one ``--region`` of the command line.

    Raises
    ------
    RoomInputError
        Naming the region and the field to fix.

    Examples
    --------
    >>> [region.name for region in parse_regions("cellar:0,0,0:11,11,0:rock:only; hall:2,2,1:9,9,1:stair=0")]
    ['cellar', 'hall']
    """
    return tuple(parse_region(item) for item in text.split(";") if item.strip())


def region_constraints(rules: Rules, regions: Iterable[RoomRegion], left_out: Iterable[LeftOut] = ()) -> list[Region]:
    """The solver's :class:`~.layout.Region` constraints of a room's regions (cells cut to the rules' axes).

    Parameters
    ----------
    rules : Rules
        The room's rules (``rules.tiles`` names the source tile of each variant).
    regions : iterable of RoomRegion
        The regions, already checked against the room's size.
    left_out : iterable of LeftOut, default ()
        The tiles the room is assembled without (:func:`~.room_fit.fitting_tiles`): a region may name them, and
        one that allows only them is refused.

    Raises
    ------
    RoomInputError
        A region names a tile the kit does not have, or allows only tiles the room cannot hold.
    """
    names = np.array(rules.tiles if rules.tiles is not None else [rules.name(v) for v in range(rules.count)])
    gone = {item.tile: item for item in left_out}
    out = []
    for region in regions:
        assert isinstance(region.tiles, Mapping)
        allowed = [tile for tile, factor in region.tiles.items() if factor > 0]
        if region.only and allowed and all(tile in gone for tile in allowed):
            first = gone[allowed[0]]
            raise RoomInputError("Region {region!r} allows only {tiles}, which fit the room of {size} cells in none "
                                 "of their turns; make the room larger or allow other tiles in the region",
                                 region=region.name, tiles=", ".join(repr(tile) for tile in allowed),
                                 size=cells_text(first.room))
        factors = np.ones(rules.count)
        for tile, factor in region.tiles.items():
            if tile in gone:
                continue
            mask = names == tile
            if not mask.any():
                raise RoomInputError("Region {region!r}: no tile named {tile!r} in the kit (or it fits no "
                                     "Below/Above label)", region=region.name, tile=tile)
            factors[mask] = factor
        allowed_mask = np.isin(names, list(region.tiles)) if region.only else None
        cells = np.array([cell[: rules.dims] for cell in region.cell_list()], dtype=np.int64).reshape(-1, rules.dims)
        out.append(Region(cells, allowed_mask, factors, label=region.name))
    return out
