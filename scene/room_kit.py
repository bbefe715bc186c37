"""Read a tile kit (a collection of tile objects) into WFC socket tiles; write detected sockets back.

Which value wins: a plain custom property on the object (``strew_sockets``, ``strew_weight``,
``strew_rotations``, ``strew_walkable``, ``strew_passable``) wins over the matching ``object.strew`` setting,
so kits made by scripts or other tools work and the panel shows when a custom property overrides it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core import fpmath
from ..core.wfc import SocketTile
from ..core.wfc.socket_detect import SIDES, cell_overflow, detect_sockets, mirror_pairs, parse_compatible
from ..core.wfc.vocab import OFFSETS
from . import custom_props as props
from .custom_props import SOCKETS_KEY, CustomPropertyError
from .ownership import is_owned
from .terrain import check_vertices

T = TypeVar("T")


class KitError(Exception):
    """A problem with the kit; the message names the tiles and says what to change."""


@dataclass
class Kit:
    """A kit read from the scene: socket tiles, their objects, label pairs and the cell size."""

    collection: bpy.types.Collection
    tiles: list[SocketTile]
    objects: dict[str, bpy.types.Object]
    compatible: list[tuple[str, str]]
    cell_size: tuple[float, float, float]


def tile_objects(collection: bpy.types.Collection) -> list[bpy.types.Object]:
    """The kit's tiles: every object in the collection (and its children) that is not parented to another one
    and was not created by Strew (a room is never read back as a kit)."""
    objects = [o for o in collection.all_objects if not is_owned(o)]
    members = set(objects)
    return sorted((o for o in objects if o.parent not in members), key=lambda o: o.name)


def _custom(block: bpy.types.ID, prop: props.CustomProperty[T]) -> T | None:
    """A custom property of a tile or kit (see ``custom_props``), its problems reported as :class:`KitError`."""
    try:
        return props.read(block, prop)
    except CustomPropertyError as error:
        raise KitError(str(error)) from error


def object_sockets(obj: bpy.types.Object) -> dict[str, str] | None:
    """The tile's sockets (custom property first), or None when it has none."""
    custom = _custom(obj, props.SOCKETS)
    if custom is not None:
        return custom
    settings = obj.strew
    sockets = {side: getattr(settings, f"socket_{side}") for side in SIDES}
    if not any(sockets.values()):
        return None
    return sockets


WHOLE = 0.1  # a tile's bounds within this share of a cell of a whole number of cells cover that many


def tile_size(obj: bpy.types.Object, cell_size) -> tuple[int, int, int]:
    """The cells a tile covers along x, y, z: its ``strew_size``, else its bounds over the cell size (a tile
    within a tenth of a cell of a whole number covers that many; geometry rising into the storey above counts
    as long as it stays below the next whole storey). ``KitError`` for a tile 1.5 cells across."""
    given = _custom(obj, props.SIZE)
    if given is not None:
        return given
    extents = _extents(obj)
    if extents is None:
        return (1, 1, 1)
    ratio = extents / np.asarray(cell_size, dtype=np.float64)
    size = []
    for axis, r in enumerate(ratio.tolist()):
        n = max(1, round(r)) if axis < 2 else max(1, math.floor(r + WHOLE))
        if axis < 2 and r > 1 + WHOLE and abs(r - n) > WHOLE:
            raise KitError(rpt_('Tile "{name}" spans {cells:.2f} cells along {axis} ({extent:.3g} m over cells of '
                                '{cell:.3g} m): make it a whole number of cells or give it the custom property '
                                '{key}, e.g. [2, 2, 1]').format(name=obj.name, cells=r, axis="xyz"[axis],
                                                                extent=extents[axis], cell=cell_size[axis],
                                                                key=props.SIZE_KEY))
        size.append(int(n))
    return (size[0], size[1], size[2])


def _extents(obj: bpy.types.Object) -> np.ndarray | None:
    """The tile's extent along its own x, y, z, scaled (what a copy shows); None without geometry."""
    if obj.type == 'MESH':
        corners = np.array([tuple(c) for c in obj.bound_box], dtype=np.float64) * np.abs(np.array(obj.scale))
        return None if not len(obj.data.vertices) else np.ptp(corners, axis=0)
    vertices = local_vertices(obj)
    return np.ptp(vertices, axis=0) if len(vertices) else None


def read_tile(obj: bpy.types.Object, cell_size=None, size: tuple[int, int, int] | None = None) -> SocketTile:
    """One tile of the kit as a :class:`SocketTile` (custom properties win over ``object.strew``); with
    ``cell_size``, a big tile covers the cells :func:`tile_size` finds (``size`` when given)."""
    sockets = object_sockets(obj)
    if sockets is None:
        raise KitError(rpt_(
            'Tile "{name}" has no sockets: set them in Object Properties › Strew Tile, run Detect Sockets, '
            "or give it a custom property {key}"
        ).format(name=obj.name, key=SOCKETS_KEY))
    settings = obj.strew
    try:
        weight = props.resolve(obj, props.WEIGHT, float(settings.weight))
        rotations = props.resolve(obj, props.ROTATIONS, tuple(sorted(int(r) for r in settings.rotations)))
        walkable = props.resolve(obj, props.WALKABLE, bool(settings.walkable))
        passable = props.resolve(obj, props.PASSABLE, tuple(side for side in SIDES if side in settings.passable))
        mirror = props.resolve(obj, props.MIRROR, False)
    except CustomPropertyError as error:
        raise KitError(str(error)) from error
    if not rotations:
        raise KitError(rpt_(
            'Tile "{name}": no rotation allowed; tick at least one in Object Properties › Strew Tile'
        ).format(name=obj.name))
    if size is None:
        size = (1, 1, 1) if cell_size is None else tile_size(obj, cell_size)
    cell_sockets = _custom(obj, props.CELL_SOCKETS)
    try:
        return SocketTile(obj.name, sockets, weight=weight, rotations=rotations, walkable=walkable,
                          passable=passable, mirror=mirror, size=size, cell_sockets=cell_sockets)
    except ValueError as error:
        raise KitError(str(error)) from error


def local_geometry(obj: bpy.types.Object) -> tuple[np.ndarray, np.ndarray]:
    """The tile's evaluated vertices (N, 3) in its local frame, scaled by the object's scale (what a copy
    shows), and its triangles (M, 3) as vertex indices; an empty instancing a collection gives its parts.
    A vertex at NaN, infinity or beyond 1e9 m is a :class:`KitError` naming the tile and the face."""
    scale = np.array(obj.scale, dtype=np.float64)
    if obj.type == 'EMPTY' and obj.instance_type == 'COLLECTION' and obj.instance_collection is not None:
        vertices, triangles, count = [], [], 0
        offset = np.array(obj.instance_collection.instance_offset)
        for child in obj.instance_collection.all_objects:
            v, t = local_geometry(child)
            v = v / np.array(child.scale)  # child's own local frame
            m = np.array(child.matrix_world)
            vertices.append(fpmath.transform(v, m) - offset)
            triangles.append(t + count)
            count += len(v)
        if not vertices:
            return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
        return np.concatenate(vertices) * scale, np.concatenate(triangles)
    if obj.type != 'MESH':
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        co = np.empty(len(mesh.vertices) * 3)
        mesh.vertices.foreach_get("co", co)
        try:
            check_vertices(rpt_('Tile "{name}"').format(name=obj.name), mesh, co.reshape(-1, 3) * scale)
        except ValueError as error:
            raise KitError(str(error)) from None
        mesh.calc_loop_triangles()
        tris = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int64)
        mesh.loop_triangles.foreach_get("vertices", tris)
    finally:
        evaluated.to_mesh_clear()
    return co.reshape(-1, 3) * scale, tris.reshape(-1, 3)


def local_vertices(obj: bpy.types.Object) -> np.ndarray:
    """The tile's evaluated vertices in its local frame, scaled by the object's scale (what a copy shows)."""
    return local_geometry(obj)[0]


FLAT = 0.01  # a kit no higher than this share of its cell width is flat


def bounds_cell_size(objects: list[bpy.types.Object]) -> tuple[float, float, float] | None:
    """The cell size the tiles' bounds suggest: the largest x/y extent (square cells) and z extent; a flat kit
    (no tile higher than FLAT of the width: 2-D road tiles as planes, with markings a millimetre up against
    z-fighting) gets cubic cells (height = width)."""
    extents = []
    for obj in objects:
        vertices = local_vertices(obj)
        if len(vertices):  # a tile with strew_size counts per cell
            extents.append(np.ptp(vertices, axis=0) / np.asarray(_custom(obj, props.SIZE) or (1, 1, 1)))
    if not extents:
        return None
    e = np.max(extents, axis=0)
    side = float(max(e[0], e[1]))
    if side <= 0:
        return None
    height = float(e[2]) if e[2] > FLAT * side else side
    return (round(side, 4), round(side, 4), round(height, 4))


def kit_cell_size(collection: bpy.types.Collection, objects: list[bpy.types.Object]) -> tuple[float, float, float]:
    custom = _custom(collection, props.CELL_SIZE)
    if custom is not None:
        return custom
    size = bounds_cell_size(objects)
    if size is None:
        raise KitError(rpt_(
            'Kit "{name}": cannot tell the cell size from the tiles (no geometry with a width); '
            "untick Cell Size from Kit and set it"
        ).format(name=collection.name))
    return size


def kit_compatible(collection: bpy.types.Collection, extra: str, tiles: list[SocketTile]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    try:
        value = props.read(collection, props.COMPATIBLE)
        if isinstance(value, str):
            pairs += parse_compatible(value)
        elif value is not None:
            pairs += value
    except ValueError as error:
        raise KitError(rpt_('Kit "{name}": {error}').format(name=collection.name, error=error)) from error
    try:
        pairs += parse_compatible(extra)
    except ValueError as error:
        raise KitError(str(error)) from error
    labels = {label for tile in tiles for label in tile.sockets.values()}
    pairs += mirror_pairs(labels)
    return pairs


def read_kit(collection: bpy.types.Collection | None, compatible: str = "",
             cell_size: tuple[float, float, float] | None = None,
             sizes: Mapping[str, tuple[int, int, int]] | None = None) -> Kit:
    """Read every tile of ``collection`` (``KitError`` names the tile and the fix on bad input); ``sizes``: the
    cells tiles cover when already known (a room's record), by name."""
    if collection is None:
        raise KitError(rpt_("No kit: pick the collection that holds the tiles"))
    objects = tile_objects(collection)
    if not objects:
        raise KitError(rpt_('Kit "{name}" is empty: add tile objects (or build the demo kit)').format(
            name=collection.name))
    size = tuple(cell_size) if cell_size is not None else kit_cell_size(collection, objects)
    if any(not (math.isfinite(c) and c > 0) for c in size):
        raise KitError(rpt_("Cell Size must be three sizes > 0, got {size!r}").format(size=size))
    tiles = [read_tile(obj, size, (sizes or {}).get(obj.name)) for obj in objects]
    return Kit(collection, tiles, {o.name: o for o in objects}, kit_compatible(collection, compatible, tiles),
               size)  # type: ignore[arg-type]


def detect_object_sockets(obj: bpy.types.Object, cell_size, quantum: float) -> dict[str, str]:
    """Detect a tile's sockets from its geometry (see :func:`strew.core.wfc.socket_detect.detect_sockets`); a big
    tile's sides take the label of their cell nearest its origin (:func:`detect_cell_sockets` reads every cell's,
    :func:`write_cell_sockets` stores them)."""
    cells = detect_cell_sockets(obj, cell_size, quantum)
    if cells:
        first = sorted(cells, key=lambda c: (c[2], c[1], c[0]))
        return {side: next(cells[c][side] for c in first if side in cells[c]) for side in SIDES}
    vertices, triangles = local_geometry(obj)
    return detect_sockets(vertices, cell_size, quantum=quantum, triangles=triangles)


def detect_cell_sockets(obj: bpy.types.Object, cell_size, quantum: float
                        ) -> dict[tuple[int, int, int], dict[str, str]]:
    """A big tile's labels per covered cell, its outer sides only (each cell read as a tile of its own from the
    same geometry); empty for a tile of one cell."""
    size = tile_size(obj, cell_size)
    if size == (1, 1, 1):
        return {}
    vertices, triangles = local_geometry(obj)
    step = np.asarray(cell_size, dtype=np.float64)
    cells: dict[tuple[int, int, int], dict[str, str]] = {}
    for cell in itertools.product(*(range(s) for s in size)):
        labels = detect_sockets(vertices - step * cell, cell_size, quantum=quantum, triangles=triangles)
        cells[(cell[0], cell[1], cell[2])] = {
            side: label for side, label in labels.items()
            if not all(0 <= c + d < s for c, d, s in zip(cell, OFFSETS[side], size, strict=True))}
    return cells


def tiles_off_cell(objects: list[bpy.types.Object], cell_size, tolerance: float,
                   vertical: bool = True) -> list[tuple[str, float]]:
    """Tiles whose geometry reaches more than ``tolerance`` outside their cell (origin or size off), worst first;
    ``vertical=False`` looks at x and y only."""
    step = np.asarray(cell_size, dtype=np.float64)
    out = []
    for obj in objects:  # a big tile's box: its cells from its first one, whose bottom face's centre is its origin
        size = np.asarray(tile_size(obj, cell_size), dtype=np.float64)
        shift = np.array([1.0, 1.0, 0.0]) * (size - 1) * step / 2
        out.append((obj.name, cell_overflow(local_vertices(obj) - shift, step * size, vertical)))
    return sorted(((name, d) for name, d in out if d > tolerance), key=lambda item: -item[1])


def write_cell_sockets(obj: bpy.types.Object, cells: Mapping[tuple[int, int, int], Mapping[str, str]]) -> None:
    """Store a big tile's labels per covered cell (``strew_cell_sockets``, the sides given; the others kept)."""
    old = _custom(obj, props.CELL_SOCKETS) or {}
    merged = {cell: {**old.get(cell, {}), **labels} for cell, labels in cells.items()}
    obj[props.CELL_SOCKETS_KEY] = {f"{i},{j},{k}": dict(labels) for (i, j, k), labels in merged.items()}


def write_sockets(obj: bpy.types.Object, sockets: Mapping[str, str]) -> None:
    """Store the given sides' sockets (the others stay as they are) in the object's settings, and in its custom
    property when it has one (it wins). A tile left with six empty sockets (an air or void tile: nothing on any
    side) gets the custom property too, since empty settings read as "no sockets set"."""
    for side in SIDES:
        if side in sockets:
            setattr(obj.strew, f"socket_{side}", sockets[side])
    if SOCKETS_KEY in obj:
        value = props.plain(obj[SOCKETS_KEY])
        old = value if isinstance(value, Mapping) else {}
        obj[SOCKETS_KEY] = {side: str(sockets.get(side, old.get(side, "")) or "") for side in SIDES}
    elif not any(getattr(obj.strew, f"socket_{side}") for side in SIDES):
        obj[SOCKETS_KEY] = {side: "" for side in SIDES}
