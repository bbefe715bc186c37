"""Write an assembled room into the scene: one Geometry Nodes instancer object (default) or real objects.

Both outputs live in a Strew-owned collection (``strew_owner = "room"``, ``strew_name`` = the room name) and
carry the same three values per placed tile:

- **Instances** — one object (named like the room) whose mesh has one point per cell, with the point
  attributes ``strew_cell`` (FLOAT_VECTOR of whole numbers: Blender has no 3-int attribute type),
  ``strew_tile`` (INT: index into the object's custom property ``strew_tiles``, the list of tile names),
  ``strew_rotation`` (INT degrees, counter-clockwise about +Z), ``strew_mirror`` (BOOLEAN) and ``strew_scale``
  (FLOAT_VECTOR: the tile's scale, x negated when mirrored), ``strew_footprint`` (FLOAT_VECTOR: the cells the
  tile covers along x, y, z from ``strew_cell``, (1, 1, 1) but for a big tile). The object sits at the room
  origin, the points at ``cell_size * cell``; its "Strew Instancer" modifier instances the tiles through a
  Strew-owned collection holding them in ``strew_tiles`` order (Pick Instance order).

- **Real Objects** — one linked duplicate per cell with the custom properties ``strew_cell``, ``strew_tile``
  (the name), ``strew_rotation``, ``strew_mirror`` and ``strew_scale`` (the kit tile's scale when placed), for
  editing by hand, and ``strew_footprint``.

A big tile (one over several cells) is one point or object at its **anchor** cell (the covered cell lowest in x,
y and z; ``strew_cell``), drawn from its origin's cell so that its geometry covers exactly its cells; every cell
it covers is ``strew_cell + (0 … strew_footprint - 1)`` along each axis (:meth:`PlacedTiles.covered`).

The new room is built into a fresh collection that replaces the previous room of the same name only at the
end, so an error or ESC leaves the scene as it was.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Container, Generator, Mapping
from dataclasses import dataclass

import bpy
import numpy as np
from mathutils import Matrix

from ..core.modes import RoomOutput
from ..core.wfc import Rules
from ..core.wfc.big_tiles import placed_tiles
from ..core.wfc.vocab import ROTATIONS
from .instancer import build_instancer_group, set_instancer_modifier
from .naming import natural_name_key
from .ownership import OWNER_KEY, is_owned, mark, owned_collection, rename
from .room_kit import Kit

OWNER = "room"
ROOM_KEY = "strew_room"
CELL_KEY = "strew_cell"
TILE_KEY = "strew_tile"
ROTATION_KEY = "strew_rotation"
MIRROR_KEY = "strew_mirror"
SCALE_KEY = "strew_scale"
TILES_KEY = "strew_tiles"
TILE_SET_KEY = "strew_tile_set"
FOOTPRINT_KEY = "strew_footprint"
NODE_GROUP_NAME = "Strew Room Instancer"
NODE_GROUP_VERSION = 1
BUILD_BATCH = 250  # objects created per step of a Real Objects room (ESC and progress between steps)


@dataclass
class Plan:
    """What a solve decided: rules, grid and the kit, ready to be built."""

    kit: Kit
    rules: Rules
    grid: np.ndarray
    restarts: int
    backtracks: int
    omit: frozenset[tuple[int, int, int]] = frozenset()  # anchor cells not written: set pieces stand there



@dataclass(frozen=True)
class Destination:
    """Where and how a room is written: the output collection's name, the room's origin, the kind of output, and
    the room's world matrix (16 numbers, row by row) when it stands elsewhere, moved or turned by hand."""

    room_name: str
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    output: RoomOutput = RoomOutput.INSTANCES
    matrix: tuple[float, ...] | None = None
    parent: bpy.types.Object | None = None  # what the room's objects follow, where they stand

    def frame(self) -> Matrix | None:
        """The room's world matrix when it was moved (else the room stands at ``origin``, unturned)."""
        return None if self.matrix is None else Matrix(np.reshape(self.matrix, (4, 4)).tolist())

    def follow(self, obj: bpy.types.Object) -> None:
        """Parent ``obj`` to the room's parent, if any, where it stands (as Ctrl P keeps the transform)."""
        if self.parent is not None:
            obj.parent = self.parent
            obj.matrix_parent_inverse = self.parent.matrix_world.inverted_safe()


@dataclass(frozen=True)
class PlacedTiles:
    """The placed tiles of a room read back: one row per cell."""

    cells: np.ndarray  # (N, 3) int
    tiles: list[str]  # (N,) source tile names
    rotations: np.ndarray  # (N,) int degrees
    mirrored: np.ndarray  # (N,) bool
    footprints: np.ndarray  # (N, 3) int: the cells each covers from its cell (its anchor) along x, y, z

    def covered(self) -> list[list[tuple[int, int, int]]]:
        """Per placed tile, every cell it covers (a big tile's cells from its anchor, ``strew_cell``)."""
        return [[(int(x), int(y), int(z)) for x, y, z in itertools.product(
            *(range(int(c), int(c) + int(n)) for c, n in zip(cell, size, strict=True)))]
            for cell, size in zip(self.cells.tolist(), self.footprints.tolist(), strict=True)]


def _wire_room(nodes: bpy.types.Nodes, named, on_points: bpy.types.Node) -> None:
    links = on_points.id_data.links
    radians = nodes.new('ShaderNodeMath')
    radians.operation = 'MULTIPLY'
    radians.inputs[1].default_value = math.pi / 180.0
    turn = nodes.new('ShaderNodeCombineXYZ')
    links.new(named(ROTATION_KEY, 'INT'), radians.inputs[0])
    links.new(radians.outputs[0], turn.inputs['Z'])
    links.new(turn.outputs[0], on_points.inputs['Rotation'])
    links.new(named(TILE_KEY, 'INT'), on_points.inputs['Instance Index'])
    links.new(named(SCALE_KEY, 'FLOAT_VECTOR'), on_points.inputs['Scale'])


def room_node_group() -> bpy.types.NodeTree:
    """The shared "Strew Room Instancer" node group (degrees → Euler Z, per-point vector scale)."""
    return build_instancer_group(NODE_GROUP_NAME, OWNER, NODE_GROUP_VERSION, _wire_room)


@dataclass(frozen=True)
class _Tiles:
    """Per placed tile (x-major order of their anchor cells): cell, tile name, rotation, mirror flag, the cells it
    covers from there and where its origin's cell lies from there (a big tile once, at its anchor)."""

    cells: np.ndarray
    names: list[str]
    rotations: np.ndarray
    mirrored: np.ndarray
    footprints: np.ndarray
    origins: np.ndarray


def _variant_arrays(plan: Plan) -> _Tiles:
    """The plan's placed tiles (:func:`~strew.core.wfc.big_tiles.placed_tiles`)."""
    rules = plan.rules
    placed = placed_tiles(rules, plan.grid)
    if plan.omit:  # the set pieces' cells: the designer's own objects stand there
        keep = np.array([tuple(int(c) for c in cell) not in plan.omit for cell in placed.cells.tolist()], dtype=bool)
        placed = dataclasses.replace(placed, cells=placed.cells[keep], variants=placed.variants[keep],
                                     sizes=placed.sizes[keep], origins=placed.origins[keep])
    variants = placed.variants
    tiles = rules.tiles or rules.names or tuple(str(v) for v in range(rules.count))
    rotations = np.asarray(rules.rotations or (0,) * rules.count, dtype=np.int32)[variants]
    mirrored = np.asarray(rules.reflected or (False,) * rules.count, dtype=bool)[variants]
    return _Tiles(placed.cells, [tiles[v] for v in variants.tolist()], rotations, mirrored, placed.sizes,
                  placed.origins)


def tile_set_name(room_name: str) -> str:
    return f"{room_name} Tiles"


def _tile_set(plan: Plan, room_name: str) -> tuple[bpy.types.Collection, list[str]]:
    """A Strew-owned collection (not in the scene) holding the kit's tiles, and their tile names in the order
    Pick Instance counts its children (the objects' names in Blender's order)."""
    tile_set = bpy.data.collections.new(tile_set_name(room_name))
    mark(tile_set, OWNER, **{ROOM_KEY: room_name})
    for obj in plan.kit.objects.values():
        tile_set.objects.link(obj)
    names = sorted(plan.kit.objects, key=lambda name: natural_name_key(plan.kit.objects[name].name))
    return tile_set, names


def _set_attribute(mesh: bpy.types.Mesh, name: str, kind: str, field: str, values: np.ndarray) -> None:
    attribute = mesh.attributes.new(name, kind, 'POINT')  # type: ignore[arg-type]
    attribute.data.foreach_set(field, np.ascontiguousarray(values).ravel())


def write_instances(staging: bpy.types.Collection, plan: Plan, params: Destination) -> list[bpy.types.ID]:
    """The room as one point object with the room instancer modifier; returns the data-blocks created."""
    placed = _variant_arrays(plan)
    cells, tiles, rotations, mirrored = placed.cells, placed.names, placed.rotations, placed.mirrored
    tile_set, names = _tile_set(plan, params.room_name)
    index = {name: i for i, name in enumerate(names)}
    tile_index = np.array([index[name] for name in tiles], dtype=np.int32)
    tile_scales = np.array([plan.kit.objects[name].scale.to_tuple() for name in names], dtype=np.float32)
    scales = tile_scales[tile_index] if len(tile_index) else np.zeros((0, 3), np.float32)
    scales[:, 0] *= np.where(mirrored, -1.0, 1.0).astype(np.float32)
    mesh = bpy.data.meshes.new(params.room_name)
    mark(mesh, OWNER, **{ROOM_KEY: params.room_name})
    mesh.vertices.add(len(cells))
    cell_size = np.asarray(plan.kit.cell_size, dtype=np.float64)
    mesh.vertices.foreach_set("co", ((cells + placed.origins) * cell_size).astype(np.float32).ravel())
    _set_attribute(mesh, CELL_KEY, 'FLOAT_VECTOR', "vector", cells.astype(np.float32))
    _set_attribute(mesh, TILE_KEY, 'INT', "value", tile_index)
    _set_attribute(mesh, ROTATION_KEY, 'INT', "value", rotations.astype(np.int32))
    _set_attribute(mesh, MIRROR_KEY, 'BOOLEAN', "value", mirrored)
    _set_attribute(mesh, SCALE_KEY, 'FLOAT_VECTOR', "vector", scales)
    _set_attribute(mesh, FOOTPRINT_KEY, 'FLOAT_VECTOR', "vector", placed.footprints.astype(np.float32))
    mesh.update()
    obj = bpy.data.objects.new(params.room_name, mesh)
    mark(obj, OWNER, **{ROOM_KEY: params.room_name, TILES_KEY: names})
    frame = params.frame()
    if frame is None:
        obj.location = params.origin
    else:
        obj.matrix_world = frame
    params.follow(obj)
    set_instancer_modifier(obj, room_node_group(), tile_set)
    staging.objects.link(obj)
    staging[TILE_SET_KEY] = tile_set
    return [tile_set, mesh, obj]


def write_room_objects(staging: bpy.types.Collection, plan: Plan, params: Destination, created: list[bpy.types.ID],
                  kept: Container[tuple[int, int, int]] = ()) -> Generator[float, None, None]:
    """One linked duplicate per placed tile (a big tile once) except the ``kept`` ones (by their cell), in batches
    (yields the fraction done); appends to ``created``."""
    placed = _variant_arrays(plan)
    cells, tiles, rotations, mirrored = placed.cells, placed.names, placed.rotations, placed.mirrored
    cell_size = np.asarray(plan.kit.cell_size, dtype=np.float64)
    origin = np.asarray(params.origin, dtype=np.float64)
    frame = params.frame()
    turns = {r: Matrix.Rotation(math.radians(r), 4, 'Z') for r in ROTATIONS}
    flip = Matrix.Diagonal((-1.0, 1.0, 1.0, 1.0))
    for start in range(0, len(cells), BUILD_BATCH):
        for i in range(start, min(start + BUILD_BATCH, len(cells))):
            x, y, z = (int(c) for c in cells[i])
            if (x, y, z) in kept:
                continue
            source = plan.kit.objects[tiles[i]]
            obj = source.copy()
            obj.parent = None
            # A kit is often hidden with the monitor/camera toggles: the room must not inherit that.
            obj.hide_viewport = obj.hide_render = obj.hide_select = False
            if OWNER_KEY in obj:
                del obj[OWNER_KEY]
            staging.objects.link(obj)
            created.append(obj)
            drawn = cell_size * (cells[i] + placed.origins[i])  # a big tile is drawn from its origin's cell
            at = (Matrix.Translation((origin + drawn).tolist()) if frame is None
                  else frame @ Matrix.Translation(drawn.tolist()))
            matrix = at @ turns[int(rotations[i])] @ Matrix.Diagonal((*source.scale, 1.0))
            obj.matrix_world = matrix @ flip if mirrored[i] else matrix
            params.follow(obj)
            mark(obj, OWNER, **{ROOM_KEY: params.room_name, CELL_KEY: (x, y, z), TILE_KEY: source.name,
                                ROTATION_KEY: int(rotations[i]), MIRROR_KEY: bool(mirrored[i]),
                                SCALE_KEY: source.scale.to_tuple(),
                                FOOTPRINT_KEY: tuple(int(n) for n in placed.footprints[i])})
        yield min(1.0, (start + BUILD_BATCH) / max(1, len(cells)))


def build_steps(scene: bpy.types.Scene, plan: Plan, params: Destination,
                kept: Mapping[tuple[int, int, int], bpy.types.Object] | None = None) -> Generator[float, None, None]:
    """Write the plan into a new collection (as ``params.output`` says), then swap it in for the old room.

    ``kept``: objects of the old Real Objects room that stay as they are (hand edits included) for their cells;
    they move into the new collection instead of being written again.
    """
    kept = kept or {}
    staging = bpy.data.collections.new(params.room_name)
    mark(staging, OWNER, strew_name=params.room_name, strew_kit=plan.kit.collection.name)
    created: list[bpy.types.ID] = [staging]
    try:
        if params.output == RoomOutput.OBJECTS:
            yield from write_room_objects(staging, plan, params, created, kept)
        else:  # milliseconds: written and swapped in within one step, so no window redraw waits in between
            created += write_instances(staging, plan, params)
    except BaseException:
        bpy.data.batch_remove(created)
        raise
    old = room_collection(scene, params.room_name)
    for obj in kept.values():
        staging.objects.link(obj)
        if old is not None and old.objects.get(obj.name) is obj:
            old.objects.unlink(obj)
    staging[CELL_KEY + "_size"] = tuple(float(c) for c in plan.kit.cell_size)
    staging["strew_grid_shape"] = tuple(int(s) for s in plan.grid.shape)
    staging["strew_origin"] = tuple(float(c) for c in params.origin)
    clear_room(scene, params.room_name)
    scene.collection.children.link(staging)
    rename(staging, params.room_name)  # Blender adds .001 when a user's collection already has the name
    if params.output != RoomOutput.OBJECTS:
        _take_names(created[1:], params.room_name)


def _take_names(blocks: list[bpy.types.ID], room_name: str) -> None:
    """The new room's tile set, mesh and object take the names the old room held while both existed ("Strew
    Room", not "Strew Room.001" every second time); a name still taken by the user keeps Blender's suffix."""
    for block in blocks:
        wanted = tile_set_name(room_name) if isinstance(block, bpy.types.Collection) else room_name
        family = {bpy.types.Collection: bpy.data.collections, bpy.types.Mesh: bpy.data.meshes,
                  bpy.types.Object: bpy.data.objects}[type(block)]
        if block.name != wanted and wanted not in family:
            rename(block, wanted)


def room_collection(scene: bpy.types.Scene, name: str) -> bpy.types.Collection | None:
    """The collection of the room ``name`` that Strew built in ``scene`` (found by its owner mark)."""
    return owned_collection(scene, name, OWNER, create=False)


def room_objects(scene: bpy.types.Scene, name: str) -> list[bpy.types.Object]:
    collection = room_collection(scene, name)
    if collection is None:
        return []
    return [obj for obj in collection.objects if is_owned(obj, OWNER)]


def placed_count(collection: bpy.types.Collection) -> int:
    """How many tiles the room collection holds (points of the instancer, or real objects)."""
    return len(read_placed(collection).tiles)


def read_placed(collection: bpy.types.Collection) -> PlacedTiles:
    """Every placed tile of a room collection, from the instancer's point attributes or the objects' properties."""
    cells, tiles, rotations, mirrored, footprints = [], [], [], [], []
    for obj in collection.objects:
        if not is_owned(obj, OWNER):
            continue
        if TILES_KEY in obj and obj.type == 'MESH':
            mesh, n = obj.data, len(obj.data.vertices)
            values: dict[str, np.ndarray] = {}
            for key, field, dtype, width in ((CELL_KEY, "vector", np.float32, 3), (TILE_KEY, "value", np.int32, 1),
                                             (ROTATION_KEY, "value", np.int32, 1), (MIRROR_KEY, "value", bool, 1)):
                array = np.empty(n * width, dtype=dtype)
                mesh.attributes[key].data.foreach_get(field, array)
                values[key] = array.reshape(n, width) if width > 1 else array
            names = list(obj[TILES_KEY])
            sizes = np.ones(n * 3, dtype=np.float32)
            if FOOTPRINT_KEY in mesh.attributes:
                mesh.attributes[FOOTPRINT_KEY].data.foreach_get("vector", sizes)
            footprints.append(np.rint(sizes.reshape(n, 3)).astype(np.int64))
            cells.append(np.rint(values[CELL_KEY]).astype(np.int64))
            tiles += [names[i] for i in values[TILE_KEY].tolist()]
            rotations.append(values[ROTATION_KEY].astype(np.int64))
            mirrored.append(values[MIRROR_KEY])
        elif CELL_KEY in obj:
            cells.append(np.array([tuple(obj[CELL_KEY])], dtype=np.int64))
            tiles.append(str(obj[TILE_KEY]))
            rotations.append(np.array([int(obj[ROTATION_KEY])]))
            mirrored.append(np.array([bool(obj.get(MIRROR_KEY, False))]))
            footprints.append(np.array([tuple(obj.get(FOOTPRINT_KEY, (1, 1, 1)))], dtype=np.int64))
    if not cells:
        return PlacedTiles(np.zeros((0, 3), np.int64), [], np.zeros(0, np.int64), np.zeros(0, bool),
                           np.ones((0, 3), np.int64))
    return PlacedTiles(np.concatenate(cells), tiles, np.concatenate(rotations), np.concatenate(mirrored),
                       np.concatenate(footprints))


def clear_room(scene: bpy.types.Scene, name: str) -> int:
    """Remove the room ``name`` Strew built in ``scene`` (its objects, their data and the collection); returns
    how many tiles it held.

    A room collection that still holds objects of the user's after that is left in place and handed over to the
    user (Strew's mark removed), so a later room never hides behind it.
    """
    removed = 0
    while (collection := room_collection(scene, name)) is not None:
        removed += placed_count(collection)
        doomed: list[bpy.types.ID] = [obj for obj in collection.objects if is_owned(obj, OWNER)]
        doomed += [obj.data for obj in doomed if obj.type == 'MESH' and is_owned(obj.data, OWNER)]
        tile_set = collection.get(TILE_SET_KEY)
        if isinstance(tile_set, bpy.types.Collection) and is_owned(tile_set, OWNER):
            doomed.append(tile_set)
        if doomed:
            bpy.data.batch_remove(doomed)
        if not len(collection.objects) and not len(collection.children):
            bpy.data.collections.remove(collection)
        else:
            for key in (OWNER_KEY, "strew_name", "strew_kit", TILE_SET_KEY):
                if key in collection:
                    del collection[key]
    return removed
