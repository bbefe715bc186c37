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
import math
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..steps import run_to_end
from .counts import count_groups, parse_counts
from .room_fit import LeftOut, counts_in_one_storey, counts_without, fitting_tiles
from .room_input import FixedTile, RoomInputError, parse_cells, parse_fixed
from .room_paths import RoomPath, parse_path, path_constraint
from .room_regions import (
    REGION_EXAMPLE,
    REGION_SYNTAX,
    RoomRegion,
    parse_region,
    parse_region_tiles,
    parse_regions,
    region_constraints,
)
from .room_spec import BORDER_LABEL, DEFAULT_BORDER, RoomSpec, split_labels
from .room_spread import spread_constraints, symmetry_note
from .rules import Rules
from .sockets import MIRROR_SUFFIX, SocketTile, sockets_fit, turn_label, turned
from .solver import Contradiction, SolveResult, Step, solve_steps
from .tile_parts import turned_tile
from .tile_rules import rules_from_tiles
from .vocab import FORWARD, OFFSETS, OPPOSITE, SIDES_2D, VERTICAL

__all__ = ["BORDER_LABEL", "DEFAULT_BORDER", "REGION_EXAMPLE", "REGION_SYNTAX", "FixedTile", "LeftOut",
           "RoomInputError", "RoomPath", "RoomProblem", "RoomRegion", "RoomSpec", "one_storey_tiles", "parse_cells",
           "parse_fixed", "parse_path", "parse_region", "parse_region_tiles", "parse_regions", "region_constraints",
           "room_problem"]


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
                    for label in _vertical_labels(tile, side):
                        label = turn_label(label, degrees // 90)
                        ok &= any(sockets_fit(label, wanted, compat) for wanted in split_labels(text))
            if ok:
                keep.append(degrees)
        if keep:
            out.append(dataclasses.replace(tile, rotations=tuple(keep)))
    return out


def _border_mask(rules: Rules, side: str, text: str) -> np.ndarray:
    assert rules.sockets is not None
    labels = split_labels(text)
    return np.array([any(sockets_fit(s[side], label, rules.compatible) for label in labels)
                     for s in rules.sockets], dtype=bool)


def _border_labels(spec: RoomSpec) -> dict[str, list[str]]:
    """Per side, the labels that face the room's border: *Border* on the four walls (a closed, not periodic
    room), *Below* and *Above* under and over a room of several storeys."""
    out = {}
    if spec.border is not None and not spec.periodic:
        out = {side: split_labels(spec.border) for side in SIDES_2D}
    if not spec.one_storey:
        for side, text in zip(VERTICAL, (spec.border_top, spec.border_bottom), strict=True):
            if text.strip():
                out[side] = split_labels(text)
    return out


def _vertical_labels(tile: SocketTile, side: str) -> set[str]:
    """The labels of a tile's top (``up``) or bottom (``down``) sides, one per covered cell there."""
    sx, sy, sz = tile.size
    k = sz - 1 if side == "up" else 0
    return {tile.outer_label((i, j, k), side) for i in range(sx) for j in range(sy)}


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
    if tile.big:
        return _big_variant_of(rules, tile, fixed, mirrored)
    sockets, _ = turned(tile, fixed.rotation, tuple(rules.sockets[0]), mirrored, rules.compatible or frozenset())
    for v in range(rules.count):
        if rules.tiles[v] == tile.name and rules.reflected[v] == mirrored and dict(rules.sockets[v]) == sockets:
            return v
    raise AssertionError(f"no variant for {fixed}")  # rules_from_tiles makes one per distinct socket set


def _big_variant_of(rules: Rules, tile: SocketTile, fixed: FixedTile, mirrored: bool) -> int:
    """The anchor variant of a fixed big tile; ``RoomInputError`` when it would reach outside the room."""
    assert rules.sockets is not None and rules.tiles is not None and rules.reflected is not None
    assert rules.rotations is not None
    sides, compat = tuple(rules.sockets[0]), rules.compatible or frozenset()
    wanted = turned_tile(tile, fixed.rotation, mirrored, sides, compat)
    for v in np.flatnonzero(rules.anchor_mask()).tolist():
        if (rules.tiles[v] == tile.name and rules.reflected[v] == mirrored and turned_tile(
                tile, rules.rotations[v], mirrored, sides, compat).signature(sides) == wanted.signature(sides)):
            return v
    raise AssertionError(f"no variant for {fixed}")  # rules_from_tiles makes one per distinct turn


def _check_fixed_inside(rules: Rules, fixed: FixedTile, variant: int, size: tuple[int, int, int]) -> None:
    """A fixed big tile covers cells of the room only (its cell is its anchor, the lowest corner)."""
    if rules.footprints is None:
        return
    reach = [int(c) + int(s) for c, s in zip(fixed.cell, rules.footprints.size[variant], strict=True)]
    if any(r > s for r, s in zip(reach, size, strict=True)):
        raise RoomInputError("fixed tile {tile!r} at {cell} covers {cells} cells from there and reaches outside the "
                             "room of {size} cells; move it towards (0, 0, 0) or turn it", tile=fixed.tile,
                             cell=fixed.cell, cells=" × ".join(str(int(s)) for s in rules.footprints.size[variant]),
                             size=" × ".join(map(str, size)))


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
    """Rules, grid shape and solver options of a room; :meth:`steps` solves it. ``left_out``: the kit's tiles the
    room cannot hold in any turn and is solved without (:func:`~.room_fit.fitting_tiles`), for the report."""

    rules: Rules
    size: tuple[int, int, int]
    seed: int
    options: dict[str, Any]
    left_out: tuple[LeftOut, ...] = ()
    note: str = ""
    """A sentence a :class:`~.solver.Contradiction` of this room ends with (the tiles its symmetry keeps out)."""

    def steps(self) -> Generator[Step, None, SolveResult]:
        """:func:`~.solver.solve_steps` on the room; the result's grid has the room's 3-D shape."""
        try:
            result = yield from solve_steps(self.rules, self.size[: self.rules.dims], self.seed, **self.options)
        except Contradiction as error:
            if not self.note:
                raise
            raise Contradiction(f"{error} {self.note}") from None
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
    compatible = list(compatible)
    tiles = list(tiles)
    kit_names = [tile.name for tile in tiles]
    given_counts = dict(spec.counts) if isinstance(spec.counts, Mapping) else parse_counts(spec.counts)
    tiles, left_out = fitting_tiles(tiles, spec.size, spec.fixed, given_counts)
    if spec.one_storey:
        kit = [tile.name for tile in tiles]
        tiles = one_storey_tiles(tiles, compatible, spec.border_bottom, spec.border_top)
        given_counts = counts_in_one_storey(given_counts, kit, [tile.name for tile in tiles], spec.border_bottom,
                                            spec.border_top)
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
        _check_fixed_inside(rules, item, v, spec.size)
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
    counts = counts_without(given_counts, left_out)
    regions = region_constraints(rules, spec.regions, left_out)
    options: dict[str, Any] = dict(periodic=(spec.periodic, spec.periodic, False)[: rules.dims],
                   heuristic=spec.heuristic, fixed=fixed or None,
                   border=border or None, connected=spec.connected or bool(spec.entrances),
                   entrances=entrances,
                   counts=counts or None, max_backtracks=spec.max_backtracks,
                   max_restarts=spec.max_restarts, time_limit=float(spec.time_limit))
    spread = spread_constraints(rules, spec, kit_names, counts)
    if regions or spread:
        options["constraints"] = [*regions, *spread]
    if spec.paths:
        paths = path_constraint(rules, spec.paths, spec.loops, spec.min_path_length, fixed, spec.size,
                                spec.periodic, border)
        options["constraints"] = [*options.get("constraints", ()), paths]
    if counts:  # refuse impossible counts before any work
        try:
            count_groups(rules, counts, math.prod(spec.size))
        except ValueError as error:
            raise RoomInputError("{error}", error=error) from None
    return RoomProblem(rules, spec.size, int(spec.seed), options, left_out, symmetry_note(rules, spec))
