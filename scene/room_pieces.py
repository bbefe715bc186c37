"""Set pieces: kit tiles a designer placed by hand inside a room's box, read as fixed cells for Assemble Room.

A scene object is a copy of a kit tile when it is a linked duplicate (it shares the tile's mesh), a full copy (its
mesh has the tile's vertices and faces), an empty instancing the same collection as an empty tile, or an empty
instancing a collection that holds exactly one kit tile (the tile's collection dragged in). Not set pieces: the
kit's own tiles, everything Strew made (a room's output among it), and objects of any other kind.

A piece's place is read from where its geometry stands in the room's frame (cell ``c``'s tile origin at
``origin + cell_size * c``): its cell from its origin (a big tile's from the cell its origin lies in), its turn
about +Z, and a mirror from a negative scale on one axis. A piece off the grid, tilted, turned by other than a
multiple of 90°, scaled other than its tile, in a cell with another piece, or whose sockets clash with a
neighbouring piece or the border is refused in one line naming it; the scene is left as it was. The pieces stay
as they are (they are the user's); the room writes no tile in their cells and records them on its collection, so
Regenerate Box and Grow keep them.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.wfc import SocketTile
from ..core.wfc.room import RoomProblem
from ..core.wfc.room_input import FixedTile
from ..core.wfc.set_pieces import ANGLE_TOLERANCE, POSITION_TOLERANCE, SCALE_TOLERANCE, piece_clash, piece_variant
from ..core.wfc.sockets import MIRROR_SUFFIX
from ..core.wfc.tile_parts import origin_cell
from ..core.wfc.vocab import SIDES_2D
from .ownership import OWNER_KEY, is_owned
from .room_kit import Kit
from .room_output import PlacedTiles

PIECES_KEY = "strew_set_pieces"
"""The room collection's record of the set pieces it was assembled around (JSON: a list of objects)."""


class PieceError(Exception):
    """A set piece that fits no cell; the message (translated) names it and says what to change."""


@dataclass(frozen=True)
class SetPiece:
    """One set piece: the object's name, its kit tile, turn, mirror, anchor cell and the cells it covers from
    there (its footprint after the turn)."""

    name: str
    tile: str
    rotation: int
    mirrored: bool
    cell: tuple[int, int, int]
    footprint: tuple[int, int, int] = (1, 1, 1)

    def fixed(self) -> FixedTile:
        """The piece as a fixed tile of the room (``name~`` for a mirrored one)."""
        return FixedTile(self.tile + (MIRROR_SUFFIX if self.mirrored else ""), self.rotation, self.cell)

    def covered(self) -> list[tuple[int, int, int]]:
        """Every cell the piece covers."""
        x, y, z = self.cell
        fx, fy, fz = self.footprint
        return [(x + i, y + j, z + k) for i in range(fx) for j in range(fy) for k in range(fz)]

    def shifted(self, offset) -> SetPiece:
        """The same piece counted from a room origin ``offset`` cells lower (a room grown on -X, -Y or -Z)."""
        x, y, z = (int(c) + int(o) for c, o in zip(self.cell, offset, strict=True))
        return dataclasses.replace(self, cell=(x, y, z))


def _stem(name: str) -> str:
    """A name without Blender's copy number (``floor.001`` -> ``floor``)."""
    return re.sub(r"\.\d{3,}$", "", name)


def _mesh_signature(mesh: bpy.types.Mesh) -> tuple:
    """What makes two meshes the same geometry: their vertices (to 10 µm) and each face's vertices."""
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    loops = np.empty(len(mesh.loops), dtype=np.int32)
    mesh.loops.foreach_get("vertex_index", loops)
    totals = np.empty(len(mesh.polygons), dtype=np.int32)
    mesh.polygons.foreach_get("loop_total", totals)
    return (len(mesh.vertices), np.round(co.astype(np.float64) / 1e-5).astype(np.int64).tobytes(), loops.tobytes(),
            totals.tobytes())


class _KitIndex:
    """How scene objects are told to be copies of the kit's tiles."""

    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self.by_data: dict[int, str] = {}
        self.by_collection: dict[int, str] = {}
        self.signatures: dict[tuple, str] | None = None
        self.vertex_counts: set[int] = set()
        self.seen: dict[int, str | None] = {}
        self.stems: dict[str, str] = {}
        for name in sorted(kit.objects):
            obj = kit.objects[name]
            if obj.type == 'MESH':
                self.by_data.setdefault(obj.data.as_pointer(), name)
                self.stems.setdefault(_stem(obj.data.name), name)
            elif obj.instance_type == 'COLLECTION' and obj.instance_collection is not None:
                self.by_collection.setdefault(obj.instance_collection.as_pointer(), name)
            self.stems.setdefault(_stem(name), name)
        self.members = {obj.as_pointer() for obj in kit.collection.all_objects}

    def _same_geometry(self, mesh: bpy.types.Mesh) -> str | None:
        if self.signatures is None:
            self.signatures, self.vertex_counts = {}, set()
            for name in sorted(self.kit.objects):
                obj = self.kit.objects[name]
                if obj.type == 'MESH':
                    tile_mesh = cast(bpy.types.Mesh, obj.data)
                    self.signatures.setdefault(_mesh_signature(tile_mesh), name)
                    self.vertex_counts.add(len(tile_mesh.vertices))
        if len(mesh.vertices) not in self.vertex_counts:  # most meshes of a scene: no tile has as many vertices
            return None
        key = mesh.as_pointer()
        if key not in self.seen:  # many objects share a mesh: compare it once
            self.seen[key] = self.signatures.get(_mesh_signature(mesh))
        return self.seen[key]

    def match(self, obj: bpy.types.Object) -> tuple[str, np.ndarray, bool] | None:
        """``(tile, world matrix of the tile's placement, exact)`` for a copy of a kit tile; ``exact`` False for a
        mesh that only looks like one (a copy's name, another mesh); None for anything else."""
        if obj.type == 'MESH':
            mesh = cast(bpy.types.Mesh, obj.data)
            name = self.by_data.get(mesh.as_pointer()) or self._same_geometry(mesh)
            if name is not None:
                return name, np.array(obj.matrix_world, dtype=np.float64), True
            alike = self.stems.get(_stem(obj.name)) or self.stems.get(_stem(mesh.name))
            return None if alike is None else (alike, np.array(obj.matrix_world, dtype=np.float64), False)
        if obj.type != 'EMPTY' or obj.instance_type != 'COLLECTION' or obj.instance_collection is None:
            return None
        world = np.array(obj.matrix_world, dtype=np.float64)
        collection = obj.instance_collection
        name = self.by_collection.get(collection.as_pointer())
        if name is not None:
            return name, world, True
        inside = [o for o in collection.all_objects if o.name in self.kit.objects and o == self.kit.objects[o.name]
                  and o.parent is None]
        if len(inside) != 1:
            return None
        offset = np.eye(4)
        offset[:3, 3] = -np.asarray(collection.instance_offset, dtype=np.float64)
        return inside[0].name, world @ offset @ np.array(inside[0].matrix_world, dtype=np.float64), True


def _candidates(scene: bpy.types.Scene, index: _KitIndex) -> list[bpy.types.Object]:
    """The scene's objects that may be set pieces: not the kit's, not Strew's (nor in a collection of Strew's)."""
    strews = {obj.as_pointer() for collection in bpy.data.collections if collection.get(OWNER_KEY) is not None
              for obj in collection.objects}
    out = []
    for obj in sorted(scene.objects, key=lambda o: o.name):
        pointer = obj.as_pointer()
        if pointer in index.members or pointer in strews or is_owned(obj):
            continue
        out.append(obj)
    return out


def _placement(piece: str, tile: SocketTile, scale: tuple[float, float, float], local: np.ndarray
               ) -> tuple[int, bool]:
    """The turn and mirror of a piece from its matrix in the room's frame; ``PieceError`` when it is tilted,
    turned by other than a multiple of 90° or scaled other than its tile."""
    linear = local[:3, :3]
    norms = np.linalg.norm(linear, axis=0)
    wanted = np.abs(np.asarray(scale, dtype=np.float64))
    if np.any(wanted == 0) or np.any(np.abs(norms / wanted - 1.0) > SCALE_TOLERANCE):
        raise PieceError(rpt_("Set piece {name!r} (tile {tile!r}) is scaled {scale} where the tile is scaled {wanted}; "
                              "give it the tile's scale (a negative scale on one axis mirrors it)").format(
            name=piece, tile=tile.name, scale=tuple(round(float(n), 4) for n in norms),
            wanted=tuple(round(float(w), 4) for w in wanted)))
    unit = linear / np.asarray(scale, dtype=np.float64)
    limit = math.sin(math.radians(ANGLE_TOLERANCE))
    if np.abs(unit.T @ unit - np.eye(3)).max() > 4 * limit or abs(unit[2, 2]) < math.cos(math.radians(
            ANGLE_TOLERANCE)) or np.abs(unit[2, :2]).max() > limit or np.abs(unit[:2, 2]).max() > limit:
        raise PieceError(rpt_("Set piece {name!r} (tile {tile!r}) is tilted; stand it upright, turned about Z only")
                         .format(name=piece, tile=tile.name))
    mirrored = bool(np.linalg.det(unit) < 0)
    if unit[2, 2] < 0:  # upside down: a half turn about a level axis, which no tile placement makes
        raise PieceError(rpt_("Set piece {name!r} (tile {tile!r}) is tilted; stand it upright, turned about Z only")
                         .format(name=piece, tile=tile.name))
    turn = unit @ np.diag([-1.0, 1.0, 1.0]) if mirrored else unit
    degrees = math.degrees(math.atan2(turn[1, 0], turn[0, 0]))
    quarter = round(degrees / 90.0)
    if abs(degrees - 90.0 * quarter) > ANGLE_TOLERANCE:
        raise PieceError(rpt_("Set piece {name!r} (tile {tile!r}) is turned {angle:.1f}°; turn it by a multiple of "
                              "90°").format(name=piece, tile=tile.name, angle=degrees % 360.0))
    return int(90 * quarter) % 360, mirrored


def _piece(obj: bpy.types.Object, tile: SocketTile, source: bpy.types.Object, local: np.ndarray,
           cell_size: np.ndarray, shape: tuple[int, int, int]) -> SetPiece | None:
    """The set piece ``obj`` makes in the room, None when its origin stands outside the room's box."""
    drawn = local[:3, 3] / cell_size
    nearest = np.rint(drawn)
    if np.any(nearest < 0) or np.any(nearest >= np.asarray(shape)):
        return None
    if np.abs(drawn - nearest).max() > POSITION_TOLERANCE:
        raise PieceError(rpt_("Set piece {name!r} (tile {tile!r}) is off the grid: its origin lies {distance:.3g} from "
                              "cell {cell}'s (allowed: {share:.0%} of a cell); snap it to the cell or move it out of "
                              "the room").format(name=obj.name, tile=tile.name,
                                                 distance=float(np.linalg.norm((drawn - nearest) * cell_size)),
                                                 cell=tuple(int(c) for c in nearest), share=POSITION_TOLERANCE))
    scale = (float(source.scale[0]), float(source.scale[1]), float(source.scale[2]))
    rotation, mirrored = _placement(obj.name, tile, scale, local)
    if rotation not in tile.rotations:
        raise PieceError(rpt_("Set piece {name!r} is tile {tile!r} turned {rotation}°, a turn the tile does not allow "
                              "(its rotations: {allowed}); turn it or allow the turn in Strew Tile").format(
            name=obj.name, tile=tile.name, rotation=rotation, allowed=", ".join(map(str, tile.rotations))))
    if mirrored and not tile.mirror:
        raise PieceError(rpt_("Set piece {name!r} is tile {tile!r} mirrored, and the tile is not used mirrored; give "
                              "it a positive scale or set strew_mirror on the tile").format(name=obj.name,
                                                                                           tile=tile.name))
    sx, sy, sz = (int(s) for s in tile.size)
    footprint = (sy, sx, sz) if rotation in (90, 270) else (sx, sy, sz)
    at = origin_cell(footprint, rotation, mirrored)
    anchor = tuple(int(n) - int(o) for n, o in zip(nearest, at, strict=True))
    if any(a < 0 or a + f > s for a, f, s in zip(anchor, footprint, shape, strict=True)):
        raise PieceError(rpt_("Set piece {name!r} (tile {tile!r}, {cells} cells) at {cell} reaches outside the room of "
                              "{size} cells; move it inwards or make the room larger").format(
            name=obj.name, tile=tile.name, cells=" × ".join(map(str, footprint)), cell=anchor,
            size=" × ".join(map(str, shape))))
    return SetPiece(obj.name, tile.name, rotation, mirrored, (anchor[0], anchor[1], anchor[2]), footprint)


def find_set_pieces(scene: bpy.types.Scene, kit: Kit, matrix: np.ndarray,
                    shape: tuple[int, int, int]) -> list[SetPiece]:
    """The set pieces standing in the room of ``shape`` cells whose cell grid has the world ``matrix`` (cell ``c``'s
    tile origin at ``matrix @ (kit.cell_size * c)``), by object name; ``PieceError`` for one that fits no cell or
    two in one cell."""
    index = _KitIndex(kit)
    tiles = {tile.name: tile for tile in kit.tiles}
    inverse = np.linalg.inv(matrix)
    cell_size = np.asarray(kit.cell_size, dtype=np.float64)
    pieces: list[SetPiece] = []
    taken: dict[tuple[int, int, int], str] = {}
    for obj in _candidates(scene, index):
        found = index.match(obj)
        if found is None or found[0] not in tiles:
            continue
        name, world, exact = found
        local = inverse @ world
        if not exact:
            nearest = np.rint(local[:3, 3] / cell_size)
            if np.all(nearest >= 0) and np.all(nearest < np.asarray(shape)):
                raise PieceError(rpt_("{name!r} stands in the room and looks like a copy of tile {tile!r}, but its "
                                      "mesh differs from the tile's; undo the edit, rename it (and its mesh) or move "
                                      "it out of the room").format(name=obj.name, tile=name))
            continue
        piece = _piece(obj, tiles[name], kit.objects[name], local, cell_size, shape)
        if piece is None:
            continue
        for cell in piece.covered():
            if cell in taken:
                raise PieceError(rpt_("Set pieces {name!r} and {other!r} both stand in cell {cell}; keep one")
                                 .format(name=taken[cell], other=obj.name, cell=cell))
            taken[cell] = obj.name
        pieces.append(piece)
    return pieces


def check_pieces(pieces: list[SetPiece], kit: Kit, problem: RoomProblem, fixed: tuple[FixedTile, ...], size,
                 periodic: bool, border_text: dict[str, str]) -> None:
    """Refuse pieces the room cannot hold: a turn the room's rules lack, a cell the Fixed Tiles pin, sockets that
    clash with a neighbouring piece or the border (``PieceError`` naming the piece)."""
    rules = problem.rules
    covered = {cell: piece for piece in pieces for cell in piece.covered()}
    for item in fixed:
        if item.cell in covered:
            raise PieceError(rpt_("Set piece {name!r} stands in cell {cell}, where Fixed Tiles pins {tile!r}; remove "
                                  "one of them").format(name=covered[item.cell].name, cell=item.cell, tile=item.tile))
    tiles = {tile.name: tile for tile in kit.tiles}
    variants = []
    for piece in pieces:
        variant = piece_variant(rules, tiles[piece.tile], piece.rotation, piece.mirrored)
        if variant is None:
            raise PieceError(rpt_("Set piece {name!r} is tile {tile!r} turned {rotation}°, which this room cannot hold "
                                  "(the tile is left out, or its top or bottom fits no Above or Below label); move "
                                  "it out of the room or change the room").format(
                name=piece.name, tile=piece.tile, rotation=piece.rotation))
        variants.append(variant)
    clash = piece_clash(rules, size, [(p.cell, v) for p, v in zip(pieces, variants, strict=True)],
                        problem.options.get("border"), periodic, border_text)
    if clash is None:
        return
    one = pieces[clash.first]
    cell = tuple(int(c) for c in clash.cell)
    if clash.second is None:
        raise PieceError(rpt_("Set piece {name!r} ({tile!r}) at {cell} faces the room's border on side {side} with "
                              "{label!r}, which fits no border label ({border}); turn it or move it inwards").format(
            name=one.name, tile=one.tile, cell=cell, side=clash.side, label=clash.label, border=clash.other))
    other = pieces[clash.second]
    raise PieceError(rpt_("Set pieces {name!r} ({tile!r}) at {cell} and {other!r} ({other_tile!r}) cannot touch: side "
                          "{side} {label!r} does not fit {other_label!r}; move or turn one").format(
        name=one.name, tile=one.tile, cell=cell, other=other.name, other_tile=other.tile, side=clash.side,
        label=clash.label, other_label=clash.other))


def border_text(params) -> dict[str, str]:
    """The border's labels per side, as the settings write them (for messages)."""
    out = {}
    if params.border is not None and not params.periodic:
        out = dict.fromkeys(SIDES_2D, params.border)
    if params.border_bottom.strip():
        out["down"] = params.border_bottom
    if params.border_top.strip():
        out["up"] = params.border_top
    return out


def with_set_pieces(scene: bpy.types.Scene, params, kit: Kit, problem: RoomProblem,
                    prepare: Callable[[Any], tuple[Kit, RoomProblem]]) -> tuple[Kit, RoomProblem, tuple[SetPiece, ...]]:
    """The kit and problem of ``params`` with the set pieces standing in the room as fixed tiles (read again
    only when there are pieces), and the pieces; ``PieceError`` for one the room cannot hold."""
    if not getattr(params, "use_set_pieces", True) or problem.rules.sockets is None:
        return kit, problem, ()
    matrix = np.eye(4)
    matrix[:3, 3] = params.origin
    pieces = find_set_pieces(scene, kit, matrix, params.size)
    if not pieces:
        return kit, problem, ()
    check_pieces(pieces, kit, problem, params.fixed, params.size, params.periodic, border_text(params))
    with_pieces = dataclasses.replace(params, fixed=(*params.fixed, *(piece.fixed() for piece in pieces)))
    kit, problem = prepare(with_pieces)
    return kit, problem, tuple(pieces)


def with_recorded(placed: PlacedTiles, pieces: tuple[SetPiece, ...]) -> PlacedTiles:
    """A room's placed tiles read back, and its recorded set pieces as tiles of their cells (for Regenerate Box
    and Grow, which solve around them)."""
    if not pieces:
        return placed
    return PlacedTiles(
        np.concatenate([placed.cells, np.array([piece.cell for piece in pieces], dtype=np.int64)]),
        [*placed.tiles, *(piece.tile for piece in pieces)],
        np.concatenate([placed.rotations, np.array([piece.rotation for piece in pieces], dtype=np.int64)]),
        np.concatenate([placed.mirrored, np.array([piece.mirrored for piece in pieces], dtype=bool)]),
        np.concatenate([placed.footprints, np.array([piece.footprint for piece in pieces], dtype=np.int64)]))


def pinned(grid: np.ndarray, pieces: tuple[SetPiece, ...]) -> np.ndarray:
    """``grid`` (3-D) with -1 everywhere but in the set pieces' cells: the solver's fixed cells that keep them."""
    out = np.full(grid.shape, -1, dtype=np.int64)
    for piece in pieces:
        for cell in piece.covered():
            out[cell] = grid[cell]
    return out


def record(collection: bpy.types.Collection, pieces) -> None:
    """Write the set pieces a room was built around on its collection (nothing when there are none)."""
    if pieces:
        collection[PIECES_KEY] = json.dumps([dataclasses.asdict(piece) for piece in pieces])
    elif PIECES_KEY in collection:
        del collection[PIECES_KEY]


def _cell(values) -> tuple[int, int, int]:
    x, y, z = (int(c) for c in values)
    return x, y, z


def recorded(collection: bpy.types.Collection | None) -> tuple[SetPiece, ...]:
    """The set pieces a room collection records (none for a room without)."""
    text = None if collection is None else collection.get(PIECES_KEY)
    if not isinstance(text, str):
        return ()
    try:
        return tuple(SetPiece(str(item["name"]), str(item["tile"]), int(item["rotation"]), bool(item["mirrored"]),
                              _cell(item["cell"]), _cell(item["footprint"])) for item in json.loads(text))
    except (ValueError, KeyError, TypeError):
        return ()
