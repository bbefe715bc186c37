"""mxgmn "simple tiled" XML tilesets as kits: import one as flat tiles, and solve with its own adjacency.

An mxgmn tileset states which tile may stand next to which (no socket labels), so its kit collection keeps the
XML text (custom property ``strew_mxgmn``, plus ``strew_mxgmn_subset``) and Assemble Room solves with
``core.wfc.load_mxgmn`` rules instead of sockets. Each tile is a 1 × 1 m plane (``strew_mxgmn_tile`` names
its tile), textured with the tile's picture when one lies beside the XML as mxgmn ships them
(``<folder>/<set>/<tile>.png`` or ``<tile> 0.png``), else coloured.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.wfc import load_mxgmn
from ..core.wfc.room import RoomProblem
from .custom_props import CELL_SIZE_KEY
from .room_kit import Kit, tile_objects

MXGMN_KEY = "strew_mxgmn"
SUBSET_KEY = "strew_mxgmn_subset"
TILE_KEY = "strew_mxgmn_tile"


def _picture(folder: Path, tile: str) -> Path | None:
    for candidate in (folder / f"{tile}.png", folder / f"{tile} 0.png"):
        if candidate.is_file():
            return candidate
    return None


def _material(name: str, picture: Path | None) -> bpy.types.Material:
    material = bpy.data.materials.new(f"mxgmn {name}")
    digest = hashlib.blake2b(name.encode(), digest_size=3).digest()
    colour = (*(0.25 + 0.6 * b / 255 for b in digest), 1.0)
    material.diffuse_color = colour  # type: ignore[assignment]
    if material.node_tree is None:
        material.use_nodes = True
    bsdf = material.node_tree.nodes.get("Principled BSDF")
    if bsdf is None:
        return material
    if picture is None:
        bsdf.inputs["Base Color"].default_value = colour
    else:
        texture = material.node_tree.nodes.new('ShaderNodeTexImage')
        texture.image = bpy.data.images.load(str(picture), check_existing=True)
        texture.interpolation = 'Closest'
        material.node_tree.links.new(texture.outputs["Color"], bsdf.inputs["Base Color"])
    return material


def _plane(name: str, material: bpy.types.Material) -> bpy.types.Mesh:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(-0.5, -0.5, 0.0), (0.5, -0.5, 0.0), (0.5, 0.5, 0.0), (-0.5, 0.5, 0.0)], [], [(0, 1, 2, 3)])
    mesh.materials.append(material)
    uv = mesh.uv_layers.new(name="UVMap").data
    for loop, (u, v) in zip(uv, ((0, 0), (1, 0), (1, 1), (0, 1)), strict=True):
        loop.uv = (u, v)  # the picture fills the plane, its top towards +y (north)
    return mesh


def import_mxgmn(scene: bpy.types.Scene, path: str, subset: str = "") -> bpy.types.Collection:
    """Read the XML (``ValueError`` on a bad file), make its kit collection and point the Tile Rooms panel at it."""
    source = Path(path)
    try:
        text = source.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(rpt_("Cannot read {path}: {error}").format(path=str(source), error=error)) from error
    rules = load_mxgmn(text, subset or None)
    collection = bpy.data.collections.new(source.stem)
    scene.collection.children.link(collection)
    collection[MXGMN_KEY] = text
    collection[SUBSET_KEY] = subset
    collection[CELL_SIZE_KEY] = (1.0, 1.0, 1.0)
    folder = source.parent / source.stem
    for number, tile in enumerate(dict.fromkeys(rules.tiles or ())):
        obj = bpy.data.objects.new(tile, _plane(tile, _material(tile, _picture(folder, tile))))
        obj[TILE_KEY] = tile
        obj.location = (number % 8 * 1.5, -10.0 - number // 8 * 1.5, 0.0)
        collection.objects.link(obj)
    layer = scene.view_layers[0].layer_collection.children.get(collection.name)
    if layer is not None:
        layer.exclude = True
    room = scene.strew.room
    room.kit, room.use_border, room.auto_cell_size = collection, False, True
    room.size = (room.size[0], room.size[1], 1)
    return collection


def prepare_mxgmn(collection: bpy.types.Collection, params, error: type[Exception]) -> tuple[Kit, RoomProblem]:
    """Kit and room problem of a room from an imported mxgmn tileset (2-D; no sockets, so no border, fixed
    tiles or counts); ``error`` is raised with the reason."""
    if int(params.size[2]) != 1:
        raise error(rpt_("mxgmn tilesets are flat: set Size z to 1"))
    if params.border or params.fixed or params.border_bottom.strip() or params.border_top.strip() or params.counts:
        raise error(rpt_("mxgmn tilesets have no socket labels: turn Closed Room off, and leave Fixed Tiles, "
                         "Counts, Below and Above empty"))
    if params.entrances:
        raise error(rpt_("mxgmn tilesets have no walkable tiles: leave Entrances empty"))
    if params.paths:
        raise error(rpt_("mxgmn tilesets have no walkable tiles: leave Paths empty"))
    if params.separation or params.max_runs or params.symmetry:
        raise error(rpt_("mxgmn tilesets: leave Separation and Max Run empty and Symmetry at None"))
    try:
        rules = load_mxgmn(str(collection[MXGMN_KEY]), str(collection.get(SUBSET_KEY, "")) or None)
    except ValueError as problem:
        raise error(rpt_('Kit "{name}": {error}').format(name=collection.name, error=problem)) from problem
    objects = {str(obj.get(TILE_KEY, obj.name)): obj for obj in tile_objects(collection)}
    missing = sorted(set(rules.tiles or ()) - set(objects))
    if missing:
        raise error(rpt_('Kit "{name}": the tileset\'s tiles {tiles} have no object; import the XML again').format(
            name=collection.name, tiles=missing))
    size = tuple(params.cell_size) if params.cell_size is not None else tuple(collection[CELL_SIZE_KEY])
    kit = Kit(collection, [], objects, [], size)
    options = dict(periodic=(params.periodic, params.periodic), connected=False,
                   heuristic=params.heuristic,
                   max_backtracks=params.max_backtracks, max_restarts=params.max_restarts,
                   time_limit=float(params.time_limit))
    return kit, RoomProblem(rules, tuple(params.size), int(params.seed), options)
