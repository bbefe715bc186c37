"""The Assemble Room job: read the kit → the room problem (``core.wfc.room``) → its solve steps → placed tiles.

Shared by the operator (stepped from its modal timer) and the command line (run to the end).

Everything is computed before the scene is touched; the new room is built into a fresh collection that replaces
the previous room of the same name only at the end, so an error or ESC leaves the scene exactly as it was.

Placement: cell ``(x, y, z)`` sits at ``origin + cell_size * (x, y, z)``; that point is the placed tile's
origin (the centre of the cell's bottom face). A copy is turned by its variant's rotation (counter-clockwise
about +Z seen from above) and keeps the source tile's scale, negated along x for a mirrored variant; the source's
own location and rotation are ignored.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator
from dataclasses import dataclass, field

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_
from mathutils import Matrix

from ..core.wfc import Contradiction, Rules, Step
from ..core.wfc.room import FixedTile, RoomInputError, RoomProblem, RoomSpec, parse_fixed, room_problem
from .ownership import OWNER_KEY, is_owned, mark, owned_collection
from .room_kit import Kit, KitError, read_kit

__all__ = ["FixedTile", "RoomError", "RoomParams", "assemble", "clear_room", "parse_room_text", "run_to_end"]

OWNER = "room"
ROOM_KEY = "strew_room"
CELL_KEY = "strew_cell"
TILE_KEY = "strew_tile"
ROTATION_KEY = "strew_rotation"
MIRROR_KEY = "strew_mirror"
BUILD_CHUNK = 250


class RoomError(Exception):
    """A problem with the kit or the settings, or no room found; the message says where, why and what to try."""


def _translated(error: RoomInputError) -> RoomError:
    return RoomError(rpt_(error.template).format(**error.fields))


@dataclass(frozen=True, kw_only=True)
class RoomParams(RoomSpec):
    """Settings of one Assemble Room call: the room (:class:`RoomSpec`) and where its kit and output are."""

    kit: str
    room_name: str = "Strew Room"
    cell_size: tuple[float, float, float] | None = None  # None: from the kit
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    compatible: str = ""

    def __post_init__(self) -> None:
        if not self.kit:
            raise RoomError(rpt_("kit: name the collection that holds the tiles"))
        if not self.room_name.strip():
            raise RoomError(rpt_("room name: give the output collection a name"))
        try:
            super().__post_init__()
        except RoomInputError as error:
            raise _translated(error) from None


def parse_room_text(fixed: str) -> tuple[FixedTile, ...]:
    """The fixed tiles of the text field (``"Door@90 0 5 0; Stair 3 3 0"``), errors translated."""
    try:
        return parse_fixed(fixed)
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

    def summary(self) -> str:
        return rpt_(
            "{name}: {placed:,} tiles placed ({kinds} kinds) in {seconds:.2f} s (solve {solve:.2f} s, "
            "build {build:.2f} s), {restarts} restart(s), {backtracks} backtrack(s)"
        ).format(name=self.name, placed=self.placed, kinds=self.tiles_used, seconds=sum(self.stages.values()),
                 solve=self.stages.get('solve', 0), build=self.stages.get('build', 0), restarts=self.restarts,
                 backtracks=self.backtracks)


@dataclass
class Plan:
    """What a solve decided: rules, grid and the kit, ready to be built."""

    kit: Kit
    rules: Rules
    grid: np.ndarray
    restarts: int
    backtracks: int


def prepare(params: RoomParams) -> tuple[Kit, RoomProblem]:
    """Read the kit and turn the settings into the room problem (``RoomError`` on bad input)."""
    collection = bpy.data.collections.get(params.kit)
    if collection is None:
        raise RoomError(rpt_('There is no collection named "{name}": pick the kit collection').format(
            name=params.kit))
    try:
        kit = read_kit(collection, params.compatible, params.cell_size)
        problem = room_problem(kit.tiles, kit.compatible, params, kit.cell_size)
    except RoomInputError as error:
        raise _translated(error) from error
    except (KitError, ValueError) as error:
        raise RoomError(rpt_('Kit "{name}": {error}').format(name=collection.name, error=error)) from error
    return kit, problem


def _step_text(step: Step) -> str:
    if step.phase == "setup":
        return rpt_("Preparing {cells:,} cells").format(cells=step.cells)
    return rpt_("Attempt {attempt}: {decided:,} of {cells:,} cells decided").format(
        attempt=step.attempt, decided=step.decided, cells=step.cells)


def clear_room(scene: bpy.types.Scene, name: str) -> int:
    """Remove the room ``name`` Strew built in ``scene`` (its objects and collection); returns the count.

    A room collection that still holds objects of the user's after that is left in place and handed over to the
    user (Strew's mark removed), so a later room never hides behind it.
    """
    removed = 0
    while (collection := owned_collection(scene, name, OWNER, create=False)) is not None:
        doomed = [obj for obj in collection.objects if is_owned(obj, OWNER)]
        if doomed:
            bpy.data.batch_remove(doomed)
        removed += len(doomed)
        if not len(collection.objects) and not len(collection.children):
            bpy.data.collections.remove(collection)
        else:
            for key in (OWNER_KEY, "strew_name", "strew_kit"):
                if key in collection:
                    del collection[key]
    return removed


def build_steps(scene: bpy.types.Scene, plan: Plan, params: RoomParams) -> Generator[float, None, None]:
    """Write the plan as linked duplicates into a new collection, then swap it in for the old room."""
    staging = bpy.data.collections.new(params.room_name)
    mark(staging, OWNER, strew_name=params.room_name, strew_kit=plan.kit.collection.name)
    created: list[bpy.types.ID] = [staging]
    try:
        rules, grid, kit = plan.rules, plan.grid, plan.kit
        cell = np.array(kit.cell_size)
        origin = np.array(params.origin, dtype=np.float64)
        rotations = {r: Matrix.Rotation(math.radians(r), 4, 'Z') for r in (0, 90, 180, 270)}
        cells = np.argwhere(np.ones(grid.shape, dtype=bool))
        for start in range(0, len(cells), BUILD_CHUNK):
            for x, y, z in cells[start:start + BUILD_CHUNK]:
                v = int(grid[x, y, z])
                source = kit.objects[rules.tiles[v]]
                rotation = int(rules.rotations[v])
                mirrored = bool(rules.reflected[v]) if rules.reflected else False
                obj = source.copy()
                obj.parent = None
                # A kit is often hidden with the monitor/camera toggles: the room must not inherit that.
                obj.hide_viewport = obj.hide_render = obj.hide_select = False
                if OWNER_KEY in obj:
                    del obj[OWNER_KEY]
                staging.objects.link(obj)
                created.append(obj)
                location = origin + cell * (x, y, z)
                scale = (-source.scale[0] if mirrored else source.scale[0], *source.scale[1:])
                obj.matrix_world = (Matrix.Translation(location) @ rotations[rotation]
                                    @ Matrix.Diagonal((*scale, 1.0)))
                mark(obj, OWNER, **{ROOM_KEY: params.room_name, CELL_KEY: (int(x), int(y), int(z)),
                                    TILE_KEY: source.name, ROTATION_KEY: rotation, MIRROR_KEY: mirrored})
            yield min(1.0, (start + BUILD_CHUNK) / len(cells))
    except BaseException:
        bpy.data.batch_remove(created)
        raise
    staging[CELL_KEY + "_size"] = tuple(float(c) for c in plan.kit.cell_size)
    staging["strew_grid_shape"] = tuple(int(s) for s in plan.grid.shape)
    clear_room(scene, params.room_name)
    scene.collection.children.link(staging)
    staging.name = params.room_name  # Blender adds .001 when a user's collection already has the name


def assemble(scene: bpy.types.Scene, params: RoomParams) -> Generator[tuple[float, str], None, RoomResult]:
    """The whole job as a generator of ``(fraction done, what is happening)``; returns a :class:`RoomResult`.

    It yields at least every ~10 ms (the solver's :func:`~strew.core.wfc.solve_steps`), so a modal caller
    steps it in time slices with no thread; closing it (ESC) leaves the scene unchanged.
    """
    stages: dict[str, float] = {}
    started = time.perf_counter()
    kit, problem = prepare(params)
    stages["read kit"] = time.perf_counter() - started
    started = time.perf_counter()
    steps = problem.steps()
    try:
        while True:
            step = next(steps)
            yield 0.02 + 0.48 * step.fraction, _step_text(step)
    except StopIteration as stop:
        result = stop.value
    except Contradiction as error:
        raise RoomError(rpt_("No room found: {error}").format(error=error)) from error
    except ValueError as error:
        raise RoomError(str(error)) from error
    finally:
        steps.close()
    plan = Plan(kit, problem.rules, result.grid, result.restarts, result.backtracks)
    stages["solve"] = time.perf_counter() - started
    started = time.perf_counter()
    total = int(plan.grid.size)
    for fraction in build_steps(scene, plan, params):
        yield 0.5 + 0.5 * fraction, rpt_("Placing tiles: {done:,} of {total:,}").format(
            done=min(total, math.ceil(fraction * total)), total=total)
    stages["build"] = time.perf_counter() - started
    used = len({plan.rules.tiles[v] for v in np.unique(plan.grid)}) if plan.rules.tiles else 0
    return RoomResult(params.room_name, total, used, plan.restarts, plan.backtracks, stages)


def run_to_end(scene: bpy.types.Scene, params: RoomParams) -> RoomResult:
    job = assemble(scene, params)
    while True:
        try:
            next(job)
        except StopIteration as stop:
            return stop.value
