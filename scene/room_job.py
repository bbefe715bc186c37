"""The Assemble Room job: kit → WFC rules → ``core.wfc`` → the room (see room_output), for the operator and CLI.

Everything is computed before the scene is touched; the new room is built into a fresh collection that replaces
the previous room of the same name only at the end, so an error or ESC leaves the scene exactly as it was.

Placement: cell ``(x, y, z)`` sits at ``origin + cell_size * (x, y, z)``; that point is the placed tile's
origin (the centre of the cell's bottom face). A copy is turned by its variant's rotation (counter-clockwise
about +Z seen from above) and keeps the source tile's scale; the source's own location and rotation are ignored.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Generator
from dataclasses import dataclass, field

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.wfc import Contradiction, Rules, SocketTile, rules_from_tiles, solve_detailed
from ..core.wfc.sockets import sockets_fit, turn_label, turned
from .room_kit import Kit, KitError, read_kit
from .room_mxgmn import MXGMN_KEY, prepare_mxgmn
from .room_output import (  # noqa: F401 (the output's names, re-exported for callers of the job)
    CELL_KEY,
    OUTPUT_ITEMS,
    OWNER,
    ROOM_KEY,
    ROTATION_KEY,
    TILE_KEY,
    build_steps,
    clear_room,
    room_objects,
)

HEURISTICS = {'AUTO': None, 'ENTROPY': "entropy", 'MRV': "mrv", 'SCANLINE': "scanline"}


class RoomError(Exception):
    """A problem with the kit or the settings, or no room found; the message says where, why and what to try."""


@dataclass(frozen=True)
class FixedTile:
    tile: str
    rotation: int
    cell: tuple[int, int, int]


@dataclass(frozen=True)
class RoomParams:
    """Validated settings of one Assemble Room call."""

    kit: str
    size: tuple[int, int, int]
    seed: int = 0
    room_name: str = "Strew Room"
    cell_size: tuple[float, float, float] | None = None  # None: from the kit
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    periodic: bool = False
    border: str | None = None  # label(s) for the four outer sides, None: no border
    border_bottom: str = ""
    border_top: str = ""
    compatible: str = ""
    connected: bool = False
    fixed: tuple[FixedTile, ...] = ()
    heuristic: str = 'AUTO'
    max_backtracks: int = 2000
    max_restarts: int = 20
    time_limit: float = 60.0
    output: str = 'INSTANCES'  # or 'OBJECTS' (see room_output)

    def __post_init__(self) -> None:
        if not self.kit:
            raise RoomError(rpt_("kit: name the collection that holds the tiles"))
        if len(self.size) != 3 or any(int(s) < 1 for s in self.size):
            raise RoomError(rpt_("size: give three cell counts >= 1 (x, y, z), got {size}").format(
                size=tuple(self.size)))
        if self.output not in {item[0] for item in OUTPUT_ITEMS}:
            raise RoomError(rpt_("output: use INSTANCES or OBJECTS, got {value!r}").format(value=self.output))
        if not self.room_name.strip():
            raise RoomError(rpt_("room name: give the output collection a name"))
        if self.heuristic not in HEURISTICS:
            raise RoomError(rpt_("heuristic: use one of {options}, got {value!r}").format(
                options=sorted(HEURISTICS), value=self.heuristic))
        for fixed in self.fixed:
            if fixed.rotation not in (0, 90, 180, 270):
                raise RoomError(rpt_("fixed tile {tile!r}: rotation must be 0, 90, 180 or 270").format(
                    tile=fixed.tile))
            if any(c < 0 or c >= s for c, s in zip(fixed.cell, self.size, strict=True)):
                raise RoomError(rpt_("fixed tile {tile!r}: cell {cell} is outside the grid {size}").format(
                    tile=fixed.tile, cell=fixed.cell, size=self.size))


@dataclass
class RoomResult:
    name: str
    placed: int
    tiles_used: int
    restarts: int
    backtracks: int
    stages: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        return rpt_(
            "{name}: {placed:,} tiles placed ({kinds} kinds) in {seconds:.2f} s (solve {solve:.2f} s, "
            "build {build:.2f} s), {restarts} restart(s), {backtracks} backtrack(s)"
        ).format(name=self.name, placed=self.placed, kinds=self.tiles_used, seconds=sum(self.stages.values()),
                 solve=self.stages.get('solve', 0), build=self.stages.get('build', 0), restarts=self.restarts,
                 backtracks=self.backtracks)


def parse_fixed(text: str) -> tuple[FixedTile, ...]:
    """``"Door@90 0 5 0; Stair 3 3 0"`` → fixed tiles (tile name, optional @rotation, then the cell x y z)."""
    out = []
    for item in (part.strip() for part in text.split(";")):
        if not item:
            continue
        parts = item.split()
        try:
            *name_parts, x, y, z = parts
            name = " ".join(name_parts)
            rotation = 0
            if "@" in name:
                name, _, degrees = name.rpartition("@")
                rotation = int(degrees)
            out.append(FixedTile(name, rotation, (int(x), int(y), int(z))))
        except ValueError as error:
            raise RoomError(rpt_(
                "fixed: write TILE[@ROTATION] X Y Z separated by ';', e.g. \"Door@90 0 5 0\"; cannot read {item!r}"
            ).format(item=item)) from error
    return tuple(out)


def _border_mask(rules: Rules, side: str, labels: list[str]) -> np.ndarray:
    return np.array([any(sockets_fit(s[side], label, rules.compatible) for label in labels)
                     for s in rules.sockets], dtype=bool)


def _labels(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def _variant_of(rules: Rules, tiles: list[SocketTile], kit_name: str, fixed: FixedTile) -> int:
    tile = next((t for t in tiles if t.name == fixed.tile), None)
    if tile is None:
        raise RoomError(rpt_('fixed tile {tile!r} is not in kit "{kit}" (or fits no Below/Above label)').format(
            tile=fixed.tile, kit=kit_name))
    if fixed.rotation not in tile.rotations:
        raise RoomError(rpt_("fixed tile {tile!r}: rotation {rotation} is not among its allowed rotations "
                             "{allowed}").format(tile=fixed.tile, rotation=fixed.rotation,
                                                 allowed=list(tile.rotations)))
    sides = tuple(rules.sockets[0])
    sockets, _ = turned(tile, fixed.rotation, sides)
    for v in range(rules.count):
        if rules.tiles[v] == tile.name and dict(rules.sockets[v]) == sockets:
            return v
    raise RoomError(rpt_("fixed tile {tile!r}@{rotation}: no such variant").format(  # cannot happen
        tile=fixed.tile, rotation=fixed.rotation))


@dataclass
class Plan:
    """What a solve decided: rules, grid and the kit, ready to be built."""

    kit: Kit
    rules: Rules
    grid: np.ndarray
    restarts: int
    backtracks: int


def _check_fixed_neighbours(rules: Rules, fixed: dict, params: RoomParams) -> None:
    """Two fixed tiles side by side that cannot touch: say which, where and which sockets clash."""
    steps = {"e": (1, 0, 0), "n": (0, 1, 0), "up": (0, 0, 1)}
    facing = {"e": "w", "n": "s", "up": "down"}
    for cell, a in fixed.items():
        for direction in rules.directions:
            if direction not in steps:
                continue
            other = tuple(c + d for c, d in zip(cell, steps[direction], strict=False))
            if params.periodic and direction != "up":
                other = (other[0] % params.size[0], other[1] % params.size[1], *other[2:])
            b = fixed.get(other)
            if b is not None and not rules.matrix(direction)[a, b]:
                sa, sb = rules.sockets[a], rules.sockets[b]
                raise RoomError(rpt_(
                    "Fixed tiles {tile!r} at {cell} and {other_tile!r} at {other_cell} cannot touch: "
                    "side {side} {label!r} does not fit side {other_side} {other_label!r}; "
                    "move one or pick another tile or turn"
                ).format(tile=rules.name(a), cell=cell, other_tile=rules.name(b), other_cell=other, side=direction,
                         label=sa.get(direction, ''), other_side=facing[direction],
                         other_label=sb.get(facing[direction], '')))


def one_storey_tiles(tiles: list[SocketTile], compatible, below: str, above: str) -> list[SocketTile]:
    """For a one-storey room: each tile with only the turns whose bottom fits ``below`` and top fits ``above``
    (labels, comma separated; empty = any); tiles left with no turn are dropped. Up/down play no other part."""
    compat = frozenset(frozenset(pair) for pair in compatible)
    out = []
    for tile in tiles:
        keep = []
        for degrees in tile.rotations:
            quarter = degrees // 90
            ok = True
            for side, text in (("down", below), ("up", above)):
                if text.strip():
                    label = turn_label(tile.sockets.get(side, ""), quarter)
                    ok &= any(sockets_fit(label, wanted, compat) for wanted in _labels(text))
            if ok:
                keep.append(degrees)
        if keep:
            out.append(dataclasses.replace(tile, rotations=tuple(keep)))
    return out


def prepare(params: RoomParams) -> tuple[Kit, Rules, dict]:
    """Read the kit and turn the settings into solver arguments (``RoomError`` on bad input).

    A one-storey room (size z = 1) is solved in 2-D: up/down sockets only pick the tiles that fit Below/Above.
    """
    collection = bpy.data.collections.get(params.kit)
    if collection is None:
        raise RoomError(rpt_('There is no collection named "{name}": pick the kit collection').format(
            name=params.kit))
    if MXGMN_KEY in collection:  # an imported mxgmn tileset: its own adjacency, no sockets
        return prepare_mxgmn(collection, params, RoomError)
    flat = int(params.size[2]) == 1
    try:
        kit = read_kit(collection, params.compatible, params.cell_size)
        tiles = kit.tiles
        if flat:
            tiles = one_storey_tiles(tiles, kit.compatible, params.border_bottom, params.border_top)
            if not tiles:
                raise KitError(rpt_("no tile fits Below {below!r} and Above {above!r}; change those labels").format(
                    below=params.border_bottom, above=params.border_top))
        rules = rules_from_tiles(tiles, compatible=kit.compatible, dims=2 if flat else 3)
    except (KitError, ValueError) as error:
        raise RoomError(rpt_('Kit "{name}": {error}').format(name=collection.name, error=error)) from error
    if abs(kit.cell_size[0] - kit.cell_size[1]) > 1e-6 and any(set(t.rotations) - {0, 180} for t in kit.tiles):
        raise RoomError(rpt_("Cell size {size}: turned tiles need square cells (x = y); set equal sizes or "
                             "allow only 0° and 180°").format(size=kit.cell_size))
    border = {}
    if params.border is not None and not params.periodic:  # a periodic room has no outer wall
        labels = _labels(params.border)
        for side in ("n", "e", "s", "w"):
            border[side] = _border_mask(rules, side, labels)
    if params.border_bottom.strip() and not flat:
        border["down"] = _border_mask(rules, "down", _labels(params.border_bottom))
    if params.border_top.strip() and not flat:
        border["up"] = _border_mask(rules, "up", _labels(params.border_top))
    for side, mask in border.items():
        if not mask.any():
            which = {"down": params.border_bottom, "up": params.border_top}.get(side, params.border)
            raise RoomError(rpt_(
                "Border {labels!r}: no tile has a {side} side that fits it; change the border label"
            ).format(labels=which, side=side))
    fixed = {}
    entrances = []
    for item in params.fixed:
        v = _variant_of(rules, tiles, collection.name, item)
        key = item.cell[:2] if flat else item.cell
        if key in fixed and fixed[key] != v:
            raise RoomError(rpt_("fixed tiles: cell {cell} is given two different tiles ({tile!r} and "
                                 "{other_tile!r})").format(cell=item.cell, tile=rules.name(fixed[key]),
                                                           other_tile=rules.name(v)))
        cell = item.cell[:2] if flat else item.cell
        fixed[cell] = v
        if params.connected and rules.walkable_mask()[v]:
            entrances.append(cell)
    _check_fixed_neighbours(rules, fixed, params)
    periodic = (params.periodic, params.periodic) + (() if flat else (False,))
    options = dict(periodic=periodic, heuristic=HEURISTICS[params.heuristic],
                   fixed=fixed or None, border=border or None, connected=params.connected, entrances=entrances,
                   max_backtracks=params.max_backtracks, max_restarts=params.max_restarts,
                   time_limit=params.time_limit)
    return kit, rules, options


def solve_plan(params: RoomParams) -> Plan:
    kit, rules, options = prepare(params)
    return _solve(kit, rules, options, params)


def _solve(kit: Kit, rules: Rules, options: dict, params: RoomParams) -> Plan:
    try:
        return _solve_in_core(kit, rules, options, params)
    except (Contradiction, ValueError) as error:
        raise _solve_error(error) from error


def _solve_in_core(kit: Kit, rules: Rules, options: dict, params: RoomParams) -> Plan:
    """The solve alone (core only: safe in a worker thread); the solver's errors are raised as they are."""
    shape = tuple(int(s) for s in params.size)
    result = solve_detailed(rules, shape[:rules.dims], int(params.seed), **options)
    return Plan(kit, rules, result.grid.reshape(shape), result.restarts, result.backtracks)


def _solve_error(error: Contradiction | ValueError) -> RoomError:
    """The solver's error as a :class:`RoomError`. Call it in the main thread: Blender translates nowhere else."""
    if isinstance(error, Contradiction):
        return RoomError(rpt_("No room found: {error}").format(error=error))
    return RoomError(str(error))


def assemble(
    scene: bpy.types.Scene, params: RoomParams, threaded: bool = False
) -> Generator[float, None, RoomResult]:
    """The whole job as a generator of progress fractions (0..1); returns a :class:`RoomResult`.

    ``threaded``: solve in a worker thread (core only, no ``bpy``) so a modal caller stays responsive and sees the
    fraction of cells decided; closing the generator (ESC) stops the solve within 256 decisions and leaves the
    scene unchanged.
    """
    stages: dict[str, float] = {}
    started = time.perf_counter()
    kit, rules, options = prepare(params)
    stages["read kit"] = time.perf_counter() - started
    yield 0.05
    started = time.perf_counter()
    if threaded:
        box: dict[str, object] = {"fraction": 0.0}
        cancel = threading.Event()

        def progress(fraction: float) -> bool:  # called by the solver every 256 decisions
            box["fraction"] = fraction
            return not cancel.is_set()

        def work() -> None:
            try:
                box["plan"] = _solve_in_core(kit, rules, {**options, "progress": progress}, params)
            except BaseException as error:  # handed to the main thread
                box["error"] = error

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.01)
                yield 0.05 + 0.45 * float(box["fraction"])  # type: ignore[arg-type]
        finally:
            cancel.set()  # closing the generator (ESC) stops the solve within 256 decisions
        error = box.get("error")
        if isinstance(error, (Contradiction, ValueError)):
            raise _solve_error(error) from error  # worded here, in the main thread, so that it is translated
        if error is not None:
            raise error  # type: ignore[misc]
        plan = box["plan"]
    else:
        plan = _solve(kit, rules, options, params)
    stages["solve"] = time.perf_counter() - started
    yield 0.5
    started = time.perf_counter()
    for fraction in build_steps(scene, plan, params):  # type: ignore[arg-type]
        yield 0.5 + 0.5 * fraction
    stages["build"] = time.perf_counter() - started
    placed = int(plan.grid.size)  # type: ignore[union-attr]
    used = len({plan.rules.tiles[v] for v in np.unique(plan.grid)})  # type: ignore[union-attr]
    return RoomResult(params.room_name, placed, used, plan.restarts, plan.backtracks, stages)  # type: ignore[union-attr]


def run_to_end(scene: bpy.types.Scene, params: RoomParams) -> RoomResult:
    job = assemble(scene, params)
    while True:
        try:
            next(job)
        except StopIteration as stop:
            return stop.value
