"""A tile room as a WFC problem: kit tiles and room settings in, rules and solver options out (no ``bpy``).

A room is ``size = (x, y, z)`` cells; the four outer walls face the ``border`` label(s), the bottom and top
layers ``border_bottom`` / ``border_top``; ``fixed`` tiles pin cells; ``counts`` bound how often a tile
appears; ``connected`` asks for one walkable region; ``entrances`` name cells that hold a walkable tile and
belong to that region (a door on the outer wall, the stair to the next level); ``regions`` restrict the tiles
allowed in a box of cells or change their weights there (a cellar storey, a garden wing). A one-storey room
(z = 1) is solved in 2-D: its tiles' up/down sockets only pick the turns that fit Below/Above.

Errors are :class:`RoomInputError` (a ``ValueError``) carrying an English ``template`` and its ``fields``, so
a user interface can translate the template before filling it in.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..steps import run_to_end
from .counts import count_groups, parse_counts
from .layout import Region
from .rules import Rules
from .sockets import MIRROR_SUFFIX, SocketTile, rules_from_tiles, sockets_fit, turn_label, turned
from .solver import SolveResult, Step, solve_steps
from .vocab import (
    DEFAULT_MAX_BACKTRACKS,
    DEFAULT_MAX_RESTARTS,
    DEFAULT_TIME_LIMIT,
    FORWARD,
    OFFSETS,
    OPPOSITE,
    ROOM_HEURISTICS,
    ROTATIONS,
    SIDES_2D,
    VERTICAL,
    Heuristic,
)

DEFAULT_BORDER: str | None = None
"""A room's border unless one is given: none, so any kit assembles whatever its labels. The job and the
Assemble Room operator start from it, and the Tile Rooms panel's *Closed Room* starts off because of it (a
new file's command line too, which takes the file's settings)."""
BORDER_LABEL = "wall"
"""The label outside the four walls that the panel's *Border* field starts with (used once *Closed Room* is
on)."""


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


def region_constraints(rules: Rules, regions: Iterable[RoomRegion]) -> list[Region]:
    """The solver's :class:`~.layout.Region` constraints of a room's regions (cells cut to the rules' axes).

    Parameters
    ----------
    rules : Rules
        The room's rules (``rules.tiles`` names the source tile of each variant).
    regions : iterable of RoomRegion
        The regions, already checked against the room's size.

    Raises
    ------
    RoomInputError
        A region names a tile the kit does not have.
    """
    names = np.array(rules.tiles if rules.tiles is not None else [rules.name(v) for v in range(rules.count)])
    out = []
    for region in regions:
        assert isinstance(region.tiles, Mapping)
        factors = np.ones(rules.count)
        for tile, factor in region.tiles.items():
            mask = names == tile
            if not mask.any():
                raise RoomInputError("Region {region!r}: no tile named {tile!r} in the kit (or it fits no "
                                     "Below/Above label)", region=region.name, tile=tile)
            factors[mask] = factor
        allowed = np.isin(names, list(region.tiles)) if region.only else None
        cells = np.array([cell[: rules.dims] for cell in region.cell_list()], dtype=np.int64).reshape(-1, rules.dims)
        out.append(Region(cells, allowed, factors, label=region.name))
    return out


def _labels(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


@dataclass(frozen=True, kw_only=True)
class RoomSpec:
    """Validated settings of one room (every value a user can set, the kit aside).

    Parameters
    ----------
    size : tuple of int
        Cells along x, y and z (floors), each ≥ 1; one floor is solved in 2-D.
    seed : int, default 0
        Same settings and seed, same room.
    periodic : bool, default False
        The room wraps around in x and y (then it has no border).
    border : str or None, default DEFAULT_BORDER
        Label(s) outside the four walls, comma separated (e.g. ``"wall, window"``); None: no border.
    border_bottom, border_top : str, default ""
        Label(s) below the lowest and above the top floor; empty: no constraint.
    connected : bool, default False
        Every walkable tile can be reached from every other.
    entrances : tuple of (int, int, int), default ()
        Cells that must hold a walkable tile and belong to the one walkable region (so any entrance implies
        ``connected``: the solver joins the entrances by joining every walkable cell). The same cell given twice
        counts once (kept in the order first given).
    fixed : tuple of FixedTile, default ()
        Tiles pinned to cells (:func:`parse_fixed` reads them from text).
    regions : tuple of RoomRegion, default ()
        Boxes of cells whose tiles are restricted or weighted; inside the room. Where regions overlap, both
        restrictions hold and the factors multiply.
    counts : dict or str, default {}
        ``{tile: (min, max)}``, or its text ``"entrance=1; stairs=0..4"`` (:func:`~.counts.parse_counts`).
    heuristic : Heuristic or str, default Heuristic.AUTO
        One of :data:`~.vocab.ROOM_HEURISTICS`, in any case; stored as a :class:`~.vocab.Heuristic`.
    max_backtracks, max_restarts : int, default DEFAULT_MAX_BACKTRACKS, DEFAULT_MAX_RESTARTS
        The search's budget per attempt and its fresh attempts.
    time_limit : float, default DEFAULT_TIME_LIMIT
        Seconds before giving up.

    Raises
    ------
    RoomInputError
        For a bad value (the message names the setting).
    """

    size: tuple[int, int, int]
    seed: int = 0
    periodic: bool = False
    border: str | None = DEFAULT_BORDER  # label(s) for the four outer sides, comma separated; None: no border
    border_bottom: str = ""
    border_top: str = ""
    connected: bool = False
    entrances: tuple[tuple[int, int, int], ...] = ()
    fixed: tuple[FixedTile, ...] = ()
    regions: tuple[RoomRegion, ...] = ()
    counts: Mapping[str, tuple[int, int | None]] | str = field(default_factory=dict)  # text: parse_counts
    heuristic: Heuristic | str = Heuristic.AUTO  # any case; stored as a Heuristic
    max_backtracks: int = DEFAULT_MAX_BACKTRACKS
    max_restarts: int = DEFAULT_MAX_RESTARTS
    time_limit: float = DEFAULT_TIME_LIMIT

    def __post_init__(self) -> None:
        size = tuple(self.size)
        if len(size) != 3 or any(isinstance(s, bool) or not isinstance(s, int | np.integer) for s in size):
            raise RoomInputError("size: give three whole cell counts (x, y, z), got {size}", size=self.size)
        if any(s < 1 for s in size):
            raise RoomInputError("size must be ≥ 1 along x, y and z, got {size}", size=size)
        object.__setattr__(self, "size", tuple(int(s) for s in size))
        try:
            heuristic = Heuristic(self.heuristic)
        except (ValueError, TypeError):
            heuristic = None
        if heuristic not in ROOM_HEURISTICS:
            raise RoomInputError("heuristic: use one of {options}, got {value!r}",
                                 options=" | ".join(ROOM_HEURISTICS), value=self.heuristic)
        object.__setattr__(self, "heuristic", heuristic)
        for name in ("seed", "max_backtracks", "max_restarts"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise RoomInputError("{name}: expected a whole number ≥ 0, got {value!r}", name=name, value=value)
        limit = self.time_limit
        if isinstance(limit, bool) or not isinstance(limit, int | float) or not limit > 0:
            raise RoomInputError("time limit: expected seconds > 0, got {value!r}", value=limit)
        entrances: dict[tuple[int, int, int], None] = {}  # ordered, the same cell once
        for given in self.entrances:
            try:
                cell = tuple(given)
            except TypeError:
                cell = ()
            if len(cell) != 3 or any(isinstance(c, bool) or not isinstance(c, int | np.integer) for c in cell):
                raise RoomInputError("entrance {cell}: give three whole numbers (x, y, z)", cell=given)
            if any(c < 0 or c >= s for c, s in zip(cell, self.size, strict=True)):
                raise RoomInputError("entrance {cell} is outside the room of {size} cells; cells run from (0, 0, 0) "
                                     "to {last}", cell=tuple(int(c) for c in cell), size=self.size,
                                     last=tuple(s - 1 for s in self.size))
            entrances[(int(cell[0]), int(cell[1]), int(cell[2]))] = None
        object.__setattr__(self, "entrances", tuple(entrances))
        for region in self.regions:
            if not isinstance(region, RoomRegion):
                raise RoomInputError("regions: expected RoomRegion objects, got {kind}", kind=type(region).__name__)
            if min(region.low) < 0 or any(c >= s for c, s in zip(region.high, self.size, strict=True)):
                raise RoomInputError("Region {region!r}: its box {low} – {high} reaches outside the room of {size} "
                                     "cells; cells run from (0, 0, 0) to {last}", region=region.name, low=region.low,
                                     high=region.high, size=self.size, last=tuple(s - 1 for s in self.size))
        object.__setattr__(self, "regions", tuple(self.regions))
        for fixed in self.fixed:
            if fixed.rotation not in ROTATIONS:
                raise RoomInputError("fixed tile {tile!r}: rotation must be 0, 90, 180 or 270", tile=fixed.tile)
            if any(c < 0 or c >= s for c, s in zip(fixed.cell, self.size, strict=True)):
                raise RoomInputError("fixed tile {tile!r}: cell {cell} is outside the grid {size}",
                                     tile=fixed.tile, cell=fixed.cell, size=self.size)
        if isinstance(self.counts, str):
            try:
                object.__setattr__(self, "counts", parse_counts(self.counts))
            except ValueError as error:
                raise RoomInputError("{error}", error=error) from None

    @property
    def one_storey(self) -> bool:
        return self.size[2] == 1


def one_storey_tiles(tiles: Iterable[SocketTile], compatible: Iterable[tuple[str, str]], below: str,
                     above: str) -> list[SocketTile]:
    """For a one-storey room: each tile with only the turns whose bottom fits ``below`` and top fits ``above``;
    tiles left with no turn are dropped.

    Parameters
    ----------
    tiles : iterable of SocketTile
        The kit's tiles.
    compatible : iterable of (str, str)
        Label pairs that fit each other besides equal labels.
    below, above : str
        Labels under and over the room, comma separated; empty: any.
    """
    compat = frozenset(frozenset(pair) for pair in compatible)
    out = []
    for tile in tiles:
        keep = []
        for degrees in tile.rotations:
            ok = True
            for side, text in zip(VERTICAL, (above, below), strict=True):
                if text.strip():
                    label = turn_label(tile.sockets.get(side) or "", degrees // 90)
                    ok &= any(sockets_fit(label, wanted, compat) for wanted in _labels(text))
            if ok:
                keep.append(degrees)
        if keep:
            out.append(dataclasses.replace(tile, rotations=tuple(keep)))
    return out


def _border_mask(rules: Rules, side: str, text: str) -> np.ndarray:
    assert rules.sockets is not None
    labels = _labels(text)
    return np.array([any(sockets_fit(s[side], label, rules.compatible) for label in labels)
                     for s in rules.sockets], dtype=bool)


def _border_labels(spec: RoomSpec) -> dict[str, list[str]]:
    """Per side, the labels that face the room's border: *Border* on the four walls (a closed, not periodic
    room), *Below* and *Above* under and over a room of several storeys."""
    out = {}
    if spec.border is not None and not spec.periodic:
        out = {side: _labels(spec.border) for side in SIDES_2D}
    if not spec.one_storey:
        for side, text in zip(VERTICAL, (spec.border_top, spec.border_bottom), strict=True):
            if text.strip():
                out[side] = _labels(text)
    return out


def _variant_of(rules: Rules, tiles: list[SocketTile], fixed: FixedTile) -> int:
    assert rules.sockets is not None and rules.tiles is not None and rules.reflected is not None
    name, mirrored = fixed.tile, False
    tile = next((t for t in tiles if t.name == name), None)
    if tile is None and name.endswith(MIRROR_SUFFIX):
        name, mirrored = name[: -len(MIRROR_SUFFIX)], True
        tile = next((t for t in tiles if t.name == name and t.mirror), None)
    if tile is None:
        raise RoomInputError("fixed tile {tile!r} is not in the kit (or fits no Below/Above label)", tile=fixed.tile)
    if fixed.rotation not in tile.rotations:
        raise RoomInputError("fixed tile {tile!r}: rotation {rotation} is not among its allowed rotations "
                             "{allowed}", tile=fixed.tile, rotation=fixed.rotation, allowed=list(tile.rotations))
    sockets, _ = turned(tile, fixed.rotation, tuple(rules.sockets[0]), mirrored, rules.compatible or frozenset())
    for v in range(rules.count):
        if rules.tiles[v] == tile.name and rules.reflected[v] == mirrored and dict(rules.sockets[v]) == sockets:
            return v
    raise AssertionError(f"no variant for {fixed}")  # rules_from_tiles makes one per distinct socket set


def _check_fixed_neighbours(rules: Rules, fixed: dict[tuple[int, ...], int], size: tuple[int, ...],
                            periodic: bool) -> None:
    """Two fixed tiles side by side that cannot touch: say which, where and which sockets clash."""
    assert rules.sockets is not None
    for cell, a in fixed.items():
        for direction in FORWARD[: rules.dims]:
            other = tuple(c + d for c, d in zip(cell, OFFSETS[direction], strict=False))
            if periodic and direction != "up":
                other = (other[0] % size[0], other[1] % size[1], *other[2:])
            b = fixed.get(other)
            if b is not None and not rules.matrix(direction)[a, b]:
                back = OPPOSITE[direction]
                raise RoomInputError(
                    "Fixed tiles {tile!r} at {cell} and {other_tile!r} at {other_cell} cannot touch: "
                    "side {side} {label!r} does not fit side {other_side} {other_label!r}; "
                    "move one or pick another tile or turn", tile=rules.name(a), cell=cell,
                    other_tile=rules.name(b), other_cell=other, side=direction,
                    label=rules.sockets[a].get(direction, ""), other_side=back,
                    other_label=rules.sockets[b].get(back, ""))


def _check_entrances(rules: Rules, spec: RoomSpec, fixed: dict[tuple[int, ...], int],
                     border: dict[str, np.ndarray]) -> None:
    """Each entrance can hold a walkable tile: the kit has one, a fixed tile there is one, and one fits the
    border where the entrance touches it (a side that fits no tile only faces the border)."""
    walk = rules.walkable_mask()
    if not walk.any() and spec.one_storey and (spec.border_bottom.strip() or spec.border_top.strip()):
        raise RoomInputError("Entrances need a walkable tile and the kit has none that fits Below and Above: tick "
                             "Walkable on the floor, door and stair tiles (Strew Tile) or clear the Entrances")
    if not walk.any():
        raise RoomInputError("Entrances need a walkable tile and the kit has none: tick Walkable on the floor, door "
                             "and stair tiles (Strew Tile) or clear the Entrances")
    inner = {side: rules.matrix(side).any(axis=1) for side in rules.directions}
    for entrance in spec.entrances:
        cell = entrance[: rules.dims]
        if cell in fixed and not walk[fixed[cell]]:
            raise RoomInputError("Entrance {cell} holds the fixed tile {tile!r}, which is not walkable; move the "
                                 "entrance or pin a walkable tile there", cell=entrance, tile=rules.name(fixed[cell]))
        fits = walk.copy()
        for side in rules.directions:
            axis, step = next((a, o) for a, o in enumerate(OFFSETS[side]) if o)
            wraps = spec.periodic and axis < 2
            outside = not wraps and not 0 <= entrance[axis] + step < spec.size[axis]
            if outside and side in border:
                fits &= border[side]
            elif not outside:
                fits &= inner[side]
        if not fits.any():
            raise RoomInputError("Entrance {cell}: no walkable tile fits the room's border there; move the entrance "
                                 "or give the kit a walkable tile (a door) whose outer side fits the border",
                                 cell=entrance)


@dataclass(frozen=True)
class RoomProblem:
    """Rules, grid shape and solver options of a room; :meth:`steps` solves it."""

    rules: Rules
    size: tuple[int, int, int]
    seed: int
    options: dict[str, Any]

    def steps(self) -> Generator[Step, None, SolveResult]:
        """:func:`~.solver.solve_steps` on the room; the result's grid has the room's 3-D shape."""
        result = yield from solve_steps(self.rules, self.size[: self.rules.dims], self.seed, **self.options)
        return dataclasses.replace(result, grid=result.grid.reshape(self.size))

    def run(self) -> SolveResult:
        """:meth:`steps` to the end."""
        return run_to_end(self.steps())


def room_problem(tiles: Iterable[SocketTile], compatible: Iterable[tuple[str, str]], spec: RoomSpec,
                 cell_size: tuple[float, float, float] | None = None) -> RoomProblem:
    """The room of ``spec`` built from ``tiles`` (``RoomInputError`` names what to change).

    Parameters
    ----------
    tiles : iterable of SocketTile
        The kit's tiles.
    compatible : iterable of (str, str)
        Label pairs that fit each other besides equal labels.
    spec : RoomSpec
        The room's settings.
    cell_size : tuple of float, optional
        The kit's cell (x, y, z); when given, turned tiles need x = y.

    Returns
    -------
    RoomProblem
        The rules, the grid's size and the solver's options; :meth:`RoomProblem.run` solves it.

    Examples
    --------
    >>> wall = SocketTile("wall", {"n": "wall", "e": "wall", "s": "wall", "w": "wall"})
    >>> floor = SocketTile("floor", {"n": "open", "e": "open", "s": "open", "w": "open"})
    >>> edge = SocketTile("edge", {"n": "wall", "e": "open", "s": "wall", "w": "open"}, rotations=(0, 90, 180, 270))
    >>> problem = room_problem([wall, floor, edge], [], RoomSpec(size=(6, 5, 1), seed=2))
    >>> result = problem.run()
    >>> result.grid.shape
    (6, 5, 1)
    """
    tiles = list(tiles)
    compatible = list(compatible)
    if spec.one_storey:
        tiles = one_storey_tiles(tiles, compatible, spec.border_bottom, spec.border_top)
        if not tiles:
            raise RoomInputError("no tile fits Below {below!r} and Above {above!r}; change those labels",
                                 below=spec.border_bottom, above=spec.border_top)
    rules = rules_from_tiles(tiles, compatible=compatible, dims=2 if spec.one_storey else 3,
                             border_labels=_border_labels(spec))  # ValueError: kit
    turning = any(set(t.rotations) - {0, 180} for t in tiles)
    if cell_size is not None and abs(cell_size[0] - cell_size[1]) > 1e-6 and turning:
        raise RoomInputError("Cell size {size}: turned tiles need square cells (x = y); set equal sizes or "
                             "allow only 0° and 180°", size=cell_size)
    border = {}
    if spec.border is not None and not spec.periodic:  # a periodic room has no outer wall
        border = {side: _border_mask(rules, side, spec.border) for side in SIDES_2D}
    for side, text in zip(VERTICAL, (spec.border_top, spec.border_bottom), strict=True):
        if text.strip() and not spec.one_storey:
            border[side] = _border_mask(rules, side, text)
    for side, mask in border.items():
        if not mask.any():
            which = {"down": spec.border_bottom, "up": spec.border_top}.get(side, spec.border)
            raise RoomInputError("Border {labels!r}: no tile has a {side} side that fits it; change the border "
                                 "label", labels=which, side=side)
    fixed: dict[tuple[int, ...], int] = {}
    entrances = []
    for item in spec.fixed:
        v = _variant_of(rules, tiles, item)
        cell = item.cell[: rules.dims]
        if cell in fixed and fixed[cell] != v:
            raise RoomInputError("fixed tiles: cell {cell} is given two different tiles ({tile!r} and "
                                 "{other_tile!r})", cell=item.cell, tile=rules.name(fixed[cell]),
                                 other_tile=rules.name(v))
        fixed[cell] = v
        if spec.connected and rules.walkable_mask()[v]:
            entrances.append(cell)
    _check_fixed_neighbours(rules, fixed, spec.size, spec.periodic)
    if spec.entrances:
        _check_entrances(rules, spec, fixed, border)
        given = [e[: rules.dims] for e in spec.entrances]
        entrances = [*given, *(c for c in entrances if c not in given)]
    counts = dict(spec.counts) if isinstance(spec.counts, Mapping) else parse_counts(spec.counts)
    regions = region_constraints(rules, spec.regions)
    options: dict[str, Any] = dict(periodic=(spec.periodic, spec.periodic, False)[: rules.dims],
                   heuristic=spec.heuristic, fixed=fixed or None,
                   border=border or None, connected=spec.connected or bool(spec.entrances),
                   entrances=entrances,
                   counts=counts or None, max_backtracks=spec.max_backtracks,
                   max_restarts=spec.max_restarts, time_limit=float(spec.time_limit))
    if regions:
        options["constraints"] = regions
    if counts:  # refuse impossible counts before any work
        try:
            count_groups(rules, counts, math.prod(spec.size))
        except ValueError as error:
            raise RoomInputError("{error}", error=error) from None
    return RoomProblem(rules, spec.size, int(spec.seed), options)
