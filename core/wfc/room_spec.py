"""The validated settings of one room (:class:`RoomSpec`): size, seed, border labels, entrances, fixed tiles,
regions, counts and the search's budget (no ``bpy``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .counts import parse_counts
from .room_input import FixedTile, RoomInputError
from .room_paths import RoomPath, check_paths
from .room_regions import RoomRegion
from .symmetry import SYMMETRIES
from .tile_groups import checked_numbers
from .vocab import (
    DEFAULT_MAX_BACKTRACKS,
    DEFAULT_MAX_RESTARTS,
    DEFAULT_TIME_LIMIT,
    ROOM_HEURISTICS,
    ROTATIONS,
    Heuristic,
)

DEFAULT_BORDER: str | None = None
"""A room's border unless one is given: none, so any kit assembles whatever its labels. The job and the
Assemble Room operator start from it, and the Tile Rooms panel's *Closed Room* starts off because of it (a
new file's command line too, which takes the file's settings)."""
BORDER_LABEL = "wall"
"""The label outside the four walls that the panel's *Border* field starts with (used once *Closed Room* is
on)."""


def split_labels(text: str) -> list[str]:
    """``"wall, window"`` -> ``["wall", "window"]``: the labels of a comma-separated field.

    Parameters
    ----------
    text : str
        The field, labels separated by commas.
    """
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
    separation : dict or str, default {}
        ``{tiles: distance}``, or its text ``"shrine=8; pillar, column=3"``: cells holding the tiles (names separated
        by commas count together) stand at least that many cells apart (Euclidean, :mod:`~.separation`).
    max_runs : dict or str, default {}
        ``{tiles: length}``, or its text ``"wall=6"``: at most that many of the tiles in a row along x and along y
        (:mod:`~.max_run`).
    symmetry : str, default ""
        ``"x"``, ``"y"`` or ``"xy"``: the room mirrors itself across its middle (:mod:`~.symmetry`); ``""``: no
        symmetry.
    heuristic : Heuristic or str, default Heuristic.AUTO
        One of :data:`~.vocab.ROOM_HEURISTICS`, in any case; stored as a :class:`~.vocab.Heuristic`.
    max_backtracks, max_restarts : int, default DEFAULT_MAX_BACKTRACKS, DEFAULT_MAX_RESTARTS
        The search's budget per attempt and its fresh attempts.
    time_limit : float, default DEFAULT_TIME_LIMIT
        Seconds before giving up.
    paths : tuple of RoomPath, default ()
        Each two or more endpoint cells (x, y, z) that must hold walkable tiles joined through walkable cells
        (:mod:`~.paths`); other walkable pockets may stay sealed unless ``connected``. A periodic room's paths may
        run across its wrapped edges.
    loops : bool, default True
        False: the walkable regions that hold a path's endpoint have no loop (they form trees).
    min_path_length : int, default 0
        The shortest walk between two endpoints of a path visits at least this many cells, both counted.

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
    separation: Mapping[str, int] | str = field(default_factory=dict)  # text: parse_tile_numbers
    max_runs: Mapping[str, int] | str = field(default_factory=dict)  # text: parse_tile_numbers
    symmetry: str = ""
    heuristic: Heuristic | str = Heuristic.AUTO  # any case; stored as a Heuristic
    max_backtracks: int = DEFAULT_MAX_BACKTRACKS
    max_restarts: int = DEFAULT_MAX_RESTARTS
    time_limit: float = DEFAULT_TIME_LIMIT
    paths: tuple[RoomPath, ...] = ()
    loops: bool = True
    min_path_length: int = 0

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
        object.__setattr__(self, "paths", check_paths(self.paths, self.size))
        length = self.min_path_length
        if isinstance(length, bool) or not isinstance(length, int | np.integer) or length < 0:
            raise RoomInputError("minimum path length: expected a whole number of cells ≥ 0, got {value!r}",
                                 value=length)
        if isinstance(self.counts, str):
            try:
                object.__setattr__(self, "counts", parse_counts(self.counts))
            except ValueError as error:
                raise RoomInputError("{error}", error=error) from None
        try:
            object.__setattr__(self, "separation", checked_numbers(self.separation, "separation", "distance"))
            object.__setattr__(self, "max_runs", checked_numbers(self.max_runs, "max run", "length"))
        except ValueError as error:
            raise RoomInputError("{error}", error=error) from None
        symmetry = self.symmetry.strip().lower() if isinstance(self.symmetry, str) else self.symmetry
        if symmetry not in ("", *SYMMETRIES):
            raise RoomInputError("symmetry: use {options} (or nothing), got {value!r}",
                                 options=" | ".join(SYMMETRIES), value=self.symmetry)
        object.__setattr__(self, "symmetry", symmetry)

    @property
    def one_storey(self) -> bool:
        return self.size[2] == 1
