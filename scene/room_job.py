"""The Assemble Room job: read the kit → the room problem (``core.wfc.room``) → its solve steps → the room
(written by ``room_output``).

Shared by the operator (stepped from its modal timer) and the command line (run to the end).

Everything is computed before the scene is touched; the new room is built into a fresh collection that replaces
the previous room of the same name only at the end, so an error or ESC leaves the scene exactly as it was.

Placement: cell ``(x, y, z)`` sits at ``origin + cell_size * (x, y, z)``; that point is the placed tile's
origin (the centre of the cell's bottom face). A copy is turned by its variant's rotation (counter-clockwise
about +Z seen from above) and keeps the source tile's scale, negated along x for a mirrored variant; the source's
own location and rotation are ignored.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.inputs import MAX_DISTANCE, bounded
from ..core.modes import RoomOutput
from ..core.pool import ProcessPool
from ..core.wfc import Contradiction, Step
from ..core.wfc.remote import solve_remote
from ..core.wfc.room import (
    FixedTile,
    RoomInputError,
    RoomPath,
    RoomProblem,
    RoomRegion,
    RoomSpec,
    parse_cells,
    parse_fixed,
    parse_path,
    parse_regions,
    region_constraints,
    room_problem,
)
from .room_kit import Kit, KitError, read_kit
from .room_mxgmn import MXGMN_KEY, prepare_mxgmn
from .room_output import (  # noqa: F401 (the output's names, re-exported for callers of the job)
    CELL_KEY,
    MIRROR_KEY,
    OWNER,
    ROOM_KEY,
    ROTATION_KEY,
    TILE_KEY,
    Destination,
    Plan,
    build_steps,
    clear_room,
    room_collection,
    room_objects,
)
from .room_pieces import PieceError, record, with_set_pieces
from .room_regions import RegionError, RegionSource, resolve_regions

__all__ = ["FixedTile", "RoomError", "RoomParams", "assemble", "clear_room", "parse_entrance_text", "parse_region_text",
           "parse_room_text", "run_to_end"]


class RoomError(Exception):
    """A problem with the kit or the settings, or no room found; the message says where, why and what to try."""


def _translated(error: RoomInputError) -> RoomError:
    return RoomError(rpt_(error.template).format(**error.fields))


@dataclass(frozen=True, kw_only=True)
class RoomParams(RoomSpec):
    """Settings of one Assemble Room call: the room (:class:`RoomSpec`, its defaults included: no border unless
    one is given, the heuristic in any case) and where its kit and output are."""

    kit: str
    room_name: str = "Strew Room"
    cell_size: tuple[float, float, float] | None = None  # None: from the kit
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    compatible: str = ""
    output: RoomOutput = RoomOutput.INSTANCES
    # the panel's regions (made core regions once the kit is read), or regions given as text (core regions already)
    region_sources: tuple[RegionSource | RoomRegion, ...] = ()
    use_set_pieces: bool = True  # copies of kit tiles standing in the room's box become fixed cells (room_pieces)

    def __post_init__(self) -> None:
        if not self.kit:
            raise RoomError(rpt_("kit: name the collection that holds the tiles"))
        if self.output not in set(RoomOutput):
            raise RoomError(rpt_("output: use {choices}, got {value!r}").format(
                choices=" | ".join(RoomOutput), value=self.output))
        object.__setattr__(self, "output", RoomOutput(self.output))
        if not self.room_name.strip():
            raise RoomError(rpt_("room name: give the output collection a name"))
        if len(self.origin) != 3:
            raise RoomError(rpt_("origin: give three numbers (x, y, z), got {origin}").format(
                origin=tuple(self.origin)))
        try:
            for coordinate in self.origin:
                bounded(coordinate, "origin", -MAX_DISTANCE, MAX_DISTANCE)
        except ValueError as error:
            raise RoomError(str(error)) from None
        try:
            super().__post_init__()
        except RoomInputError as error:
            raise _translated(error) from None

    @property
    def destination(self) -> Destination:
        """Where the room is written, for :func:`~.room_output.build_steps`."""
        return Destination(self.room_name, self.origin, self.output)


def parse_room_text(fixed: str) -> tuple[FixedTile, ...]:
    """The fixed tiles of the text field (``"Door@90 0 5 0; Stair 3 3 0"``), errors translated."""
    try:
        return parse_fixed(fixed)
    except RoomInputError as error:
        raise _translated(error) from None


def parse_entrance_text(entrances: str) -> tuple[tuple[int, int, int], ...]:
    """The entrances of the text field (``"0 5 0; 11 5 1"``), errors translated."""
    try:
        return parse_cells(entrances)
    except RoomInputError as error:
        raise _translated(error) from None


def parse_path_text(paths: str) -> tuple[RoomPath, ...]:
    """The paths of the text field (``"0,5,0:11,5,0; 1,1,0:3,3,1"``), errors translated."""
    try:
        return tuple(parse_path(item) for item in paths.split(";") if item.strip())
    except RoomInputError as error:
        raise _translated(error) from None


def parse_region_text(regions: str) -> tuple[RoomRegion, ...]:
    """The regions of the text field (``"cellar:0,0,0:11,11,0:rock, vault=2:only; …"``), errors translated."""
    try:
        return parse_regions(regions)
    except RoomInputError as error:
        raise _translated(error) from None


@dataclass
class RoomResult:
    name: str
    placed: int
    tiles_used: int
    restarts: int
    backtracks: int
    stages: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # what the report says besides the summary (the kit's tiles the room left out)
    pieces: tuple[str, ...] = ()  # the set pieces the room was built around, by object name

    def pieces_line(self) -> str:
        """How many set pieces the room was built around, and which (empty without)."""
        if not self.pieces:
            return ""
        return rpt_("{count} set piece(s) used: {names}").format(count=len(self.pieces), names=", ".join(self.pieces))

    def summary(self) -> str:
        return rpt_(
            "{name}: {placed:,} tiles placed ({kinds} kinds) in {seconds:.2f} s (solve {solve:.2f} s, "
            "build {build:.2f} s), {restarts} restart(s), {backtracks} backtrack(s)"
        ).format(name=self.name, placed=self.placed, kinds=self.tiles_used, seconds=sum(self.stages.values()),
                 solve=self.stages.get('solve', 0), build=self.stages.get('build', 0), restarts=self.restarts,
                 backtracks=self.backtracks)


def prepare(params: RoomParams, frame: tuple[np.ndarray, np.ndarray] | None = None,
            sizes: Mapping[str, tuple[int, int, int]] | None = None) -> tuple[Kit, RoomProblem]:
    """Read the kit and turn the settings into the room problem (``RoomError`` on bad input).

    ``frame`` is ``(matrix, cell size)`` of a room that stands already (cell ``c`` at ``matrix @ (size * c)``),
    where the regions' volumes are read; by default the room Assemble Room places at ``params.origin``. ``sizes``:
    the cells tiles cover as a room recorded them (a tile rescaled since keeps them), by tile name.
    """
    collection = bpy.data.collections.get(params.kit)
    if collection is None:
        raise RoomError(rpt_('There is no collection named "{name}": pick the kit collection').format(
            name=params.kit))
    if MXGMN_KEY in collection:  # an imported mxgmn tileset: its own adjacency, no sockets
        kit, problem = prepare_mxgmn(collection, params, RoomError)
    else:
        try:
            kit = read_kit(collection, params.compatible, params.cell_size, sizes)
            problem = room_problem(kit.tiles, kit.compatible, params, kit.cell_size)
        except RoomInputError as error:
            raise _translated(error) from error
        except (KitError, ValueError) as error:
            raise RoomError(rpt_('Kit "{name}": {error}').format(name=collection.name, error=error)) from error
    if params.region_sources:
        problem = _with_regions(params, kit, problem, frame)
    return kit, problem


def _with_regions(params: RoomParams, kit: Kit, problem: RoomProblem,
                  frame: tuple[np.ndarray, np.ndarray] | None) -> RoomProblem:
    """The problem with the panel's regions as constraints (a volume read where the room stands)."""
    if frame is None:
        matrix = np.eye(4)
        matrix[:3, 3] = params.origin
        frame = (matrix, np.asarray(kit.cell_size, dtype=np.float64))
    try:
        regions = resolve_regions(params.region_sources, frame[0], frame[1], params.size)
        checked = dataclasses.replace(params, regions=regions)  # inside the room, or its error
        constraints = region_constraints(problem.rules, checked.regions, problem.left_out)
    except RoomInputError as error:
        raise _translated(error) from error
    except RegionError as error:
        raise RoomError(str(error)) from error
    options = dict(problem.options)
    options["constraints"] = [*options.get("constraints", ()), *constraints]
    return dataclasses.replace(problem, options=options)


def _step_text(step: Step) -> str:
    if step.phase == "setup":
        return rpt_("Preparing {cells:,} cells").format(cells=step.cells)
    return rpt_("Attempt {attempt}: {decided:,} of {cells:,} cells decided").format(
        attempt=step.attempt, decided=step.decided, cells=step.cells)


def assemble(scene: bpy.types.Scene, params: RoomParams,
             pool: ProcessPool | None = None) -> Generator[tuple[float, str], None, RoomResult]:
    """The whole job as a generator of ``(fraction done, what is happening)``; returns a :class:`RoomResult`.

    It yields at least every ~10 ms (the solver's :func:`~strew.core.wfc.solve_steps`), so a modal caller
    steps it in time slices with no thread; closing it (ESC) leaves the scene unchanged. With ``pool`` the solve
    runs in one of its worker processes (:func:`~strew.core.wfc.remote.solve_remote`) and this process only
    waits and polls, so a window keeps drawing without slowing the solve; the room is the same.
    """
    stages: dict[str, float] = {}
    started = time.perf_counter()
    kit, problem = prepare(params)
    try:
        kit, problem, pieces = with_set_pieces(scene, params, kit, problem, prepare)
    except PieceError as error:
        raise RoomError(str(error)) from error
    stages["read kit"] = time.perf_counter() - started
    started = time.perf_counter()
    steps = problem.steps() if pool is None else solve_remote(problem, pool)
    try:
        while True:
            step = next(steps)
            if step is not None:
                yield 0.02 + 0.48 * step.fraction, _step_text(step)
            else:
                yield 0.02, rpt_("Starting the solver")
    except StopIteration as stop:
        result = stop.value
    except Contradiction as error:
        raise RoomError(rpt_("No room found: {error}").format(error=error)) from error
    except ValueError as error:
        raise RoomError(str(error)) from error
    finally:
        steps.close()
    plan = Plan(kit, problem.rules, result.grid, result.restarts, result.backtracks,
                frozenset(piece.cell for piece in pieces))
    stages["solve"] = time.perf_counter() - started
    started = time.perf_counter()
    total = int(plan.grid.size)
    for fraction in build_steps(scene, plan, params.destination):
        yield 0.5 + 0.5 * fraction, rpt_("Placing tiles: {done:,} of {total:,}").format(
            done=min(total, math.ceil(fraction * total)), total=total)
    collection = room_collection(scene, params.room_name)
    if collection is not None:
        record(collection, pieces)
    stages["build"] = time.perf_counter() - started
    used = len({plan.rules.tiles[v] for v in np.unique(plan.grid)}) if plan.rules.tiles else 0
    notes = tuple(rpt_(item.template).format(**item.fields) for item in problem.left_out)
    written = total - sum(len(piece.covered()) for piece in pieces)  # the set pieces' cells hold the user's
    return RoomResult(params.room_name, written, used, plan.restarts, plan.backtracks, stages, notes,
                      tuple(piece.name for piece in pieces))


def run_to_end(scene: bpy.types.Scene, params: RoomParams) -> RoomResult:
    job = assemble(scene, params)
    while True:
        try:
            next(job)
        except StopIteration as stop:
            return stop.value
