"""A procedural modular kit of 50+ tiles for two-storey rooms (floors, walls, corners, doors, arches, windows,
corridors with T and X junctions, straight and spiral stairs, balconies and air), sockets set.

Cells are 4 × 4 × 3 m; each tile's origin is the centre of its cell's bottom face. Walls stand inside the cell
against its side (0.2 m thick), so two rooms meet with back-to-back walls; a side's label says what stands on
it: ``open`` (floor continues), ``wall``, ``window``, ``door``, ``arch``, ``cor`` (a 2 m corridor mouth) and
``rail`` (a railing over ``air``). Vertically every floor tile has ``down = floor`` and ``up = ceil``; stairs
carry ``stair:0`` / ``spiral:0`` between their bottom and top pieces. Compatible pairs (stored on the kit as
``strew_compatible``): ceil=floor, ceil=void (an air cell above a room), ceil=sky (the top border),
ground=floor (the bottom border, so air never stands on the ground).
"""

from __future__ import annotations

import math

import bpy

from ..scene.custom_props import CELL_SIZE_KEY, COMPATIBLE_KEY
from .kit_parts import (
    CELL,
    COLORS,
    HEIGHT,
    INSET,
    SIDE_ANGLE,
    SLAB,
    WALL,
    H,
    Parts,
    extra,
    frame,
    side_feature,
    slab,
)

STEPS = 12  # stair steps per storey (the last one is the top piece's landing)
RISE = HEIGHT / STEPS
KIT_NAME = "Tiles"
COMPATIBLE = (("ceil", "floor"), ("ceil", "void"), ("ceil", "sky"), ("ground", "floor"))
PASSABLE_LABELS = {"open", "door", "arch", "cor"}


def _room(name, e="open", n="open", w="open", s="open", weight=1.0, extras=()):
    return dict(name=name, kind="room", sides={"n": n, "e": e, "s": s, "w": w}, weight=weight, extras=extras)


def _corridor(name, open_sides, weight=1.0, lamp=False):
    sides = {side: ("cor" if side in open_sides else "wall") for side in ("n", "e", "s", "w")}
    return dict(name=name, kind="corridor", sides=sides, weight=weight, extras=("lamp",) if lamp else ())


def tile_table() -> list[dict]:
    """Every tile of the demo kit: name, kind, side labels (n e s w), weight and decorations."""
    t = [
        _room("floor", weight=4.0), _room("floor_tiles", weight=1.0, extras=("tiles",)),
        _room("floor_rug", weight=0.5, extras=("rug",)), _room("floor_crates", weight=0.3, extras=("crates",)),
        _room("floor_table", weight=0.4, extras=("table",)), _room("pillar", weight=0.4, extras=("pillar",)),
        _room("outer_corner", weight=0.6, extras=("post",)),
    ]
    for label in ("wall", "window", "door", "arch", "cor"):
        t.append(_room(f"wall_{label}" if label != "wall" else "wall", e=label, weight=2.0 if label == "wall" else 0.8))
    t += [_room("wall_shelf", e="wall", weight=0.4, extras=("shelf",)),
          _room("wall_pilasters", e="wall", weight=0.4, extras=("pilasters",))]
    for e, n in (("wall", "wall"), ("window", "wall"), ("wall", "window"), ("window", "window"), ("door", "wall"),
                 ("wall", "door"), ("arch", "wall"), ("wall", "arch"), ("cor", "wall"), ("wall", "cor")):
        name = "corner" if (e, n) == ("wall", "wall") else f"corner_{e}_{n}"
        t.append(_room(name, e=e, n=n, weight=1.5 if name == "corner" else 0.5))
    for e, w in (("wall", "wall"), ("window", "wall"), ("window", "window"), ("door", "wall"), ("door", "door"),
                 ("arch", "wall"), ("arch", "arch"), ("door", "arch"), ("window", "door")):
        name = "hall" if (e, w) == ("wall", "wall") else f"hall_{e}_{w}"
        t.append(_room(name, e=e, w=w, weight=0.8 if name == "hall" else 0.4))
    for e in ("wall", "window", "door", "arch", "cor"):
        t.append(_room("alcove" if e == "wall" else f"alcove_{e}", n="wall", e=e, s="wall", weight=0.3))
    t += [_corridor("corridor", "ns", 1.5), _corridor("corridor_lamp", "ns", 0.5, lamp=True),
          _corridor("corridor_corner", "ne", 0.8), _corridor("corridor_t", "new", 0.6),
          _corridor("corridor_x", "nesw", 0.4), _corridor("corridor_end", "n", 0.2)]
    wall3 = {"n": "wall", "s": "wall"}
    t += [
        dict(name="stair", kind="stair", sides={**wall3, "e": "wall", "w": "open"}, weight=1.5, extras=()),
        dict(name="stair_top", kind="stair_top", sides={**wall3, "e": "open", "w": "wall"}, weight=1.0, extras=()),
        dict(name="spiral", kind="spiral", sides={"n": "wall", "e": "wall", "s": "wall", "w": "open"}, weight=1.5,
             extras=()),
        dict(name="spiral_top", kind="spiral_top", sides={"n": "open", "e": "wall", "s": "wall", "w": "wall"},
             weight=1.0, extras=()),
        _room("balcony", e="rail", weight=0.6), _room("balcony_corner", e="rail", n="rail", weight=0.4),
        _room("balcony_bridge", e="rail", w="rail", weight=0.3),
        _room("balcony_end", e="rail", n="rail", s="rail", weight=0.2),
        dict(name="air", kind="air", sides={s: "rail" for s in "nesw"}, weight=1.0, extras=()),
    ]
    for tile in t:
        tile["up"], tile["down"] = "ceil", "floor"
    vertical = {"stair": ("stair:0", "floor"), "stair_top": ("ceil", "stair:0"), "spiral": ("spiral:0", "floor"),
                "spiral_top": ("ceil", "spiral:0"), "air": ("ceil", "void")}
    for tile in t:
        if tile["name"] in vertical:
            tile["up"], tile["down"] = vertical[tile["name"]]
    return t


def tile_geometry(tile: dict) -> Parts:
    p = Parts()
    kind, sides = tile["kind"], tile["sides"]
    if kind == "room":
        void = frozenset(side for side, label in sides.items() if label == "rail")
        slab(p, "floor", void)
        for side, label in sides.items():
            side_feature(p, label, side, void)
        for name in tile["extras"]:
            extra(p, name)
    elif kind == "corridor":
        p.box(-1.0, 1.0, -1.0, 1.0, 0, SLAB, "stone")
        for sx in (-1, 1):
            for sy in (-1, 1):
                p.box(min(sx, sx * H), max(sx, sx * H), min(sy, sy * H), max(sy, sy * H), 0, HEIGHT)
        for side, label in sides.items():
            t = SIDE_ANGLE[side]
            if label == "cor":
                p.box(1.0, H, -1.0, 1.0, 0, SLAB, "stone", turn=t)
            else:
                p.box(1.0, H, -1.0, 1.0, 0, HEIGHT, turn=t)
        if "lamp" in tile["extras"]:
            p.box(0.85, 1.0, -0.15, 0.15, 2.2, 2.5, "glass")
    elif kind == "stair":  # 11 steps; the 12th is the landing of stair_top, so no piece leaves its cell
        slab(p, "stone")
        for side in ("n", "s", "e"):
            side_feature(p, "wall", side)
        run = CELL / STEPS
        for i in range(STEPS - 1):
            x0 = -H + i * run + (INSET if i == 0 else 0.0)  # the first step stops short of the open side
            p.box(x0, -H + (i + 1) * run, -H + WALL, H - WALL, SLAB, SLAB + (i + 1) * RISE, "stone")
    elif kind == "stair_top":
        for side in ("n", "s", "w"):
            side_feature(p, "wall", side)
        frame(p, "stone", (("n", WALL), ("s", WALL), ("w", WALL), ("e", CELL / STEPS)))
        p.box(-H + WALL, H - CELL / STEPS, H - WALL - 0.08, H - WALL, SLAB + 0.95, SLAB + 1.05, "metal")
    elif kind == "spiral":
        slab(p, "stone")
        for side in ("n", "s", "e"):
            side_feature(p, "wall", side)
        p.box(-0.2, 0.2, -0.2, 0.2, 0, HEIGHT, "metal")
        for i in range(STEPS - 1):
            top = SLAB + (i + 1) * RISE
            p.box(0.2, 1.75, -0.28, 0.28, top - 0.15, top, "wood", angle=math.pi + (i + 1) * (1.5 * math.pi / STEPS))
    elif kind == "spiral_top":
        for side in ("e", "s", "w"):
            side_feature(p, "wall", side)
        frame(p, "stone", (("e", WALL), ("s", WALL), ("w", WALL), ("n", H - 1.75)))
        p.box(-0.2, 0.2, -0.2, 0.2, 0, SLAB, "metal")
    elif kind == "air":
        pass
    return p


def _materials() -> dict[str, bpy.types.Material]:
    out = {}
    for key, (color, roughness) in COLORS.items():
        name = f"Strew Kit {key.title()}"
        material = bpy.data.materials.get(name) or bpy.data.materials.new(name)
        if material.node_tree is None:
            material.use_nodes = True
        bsdf = material.node_tree.nodes.get("Principled BSDF")
        if bsdf is not None:
            bsdf.inputs["Base Color"].default_value = (*color, 1.0)
            bsdf.inputs["Roughness"].default_value = roughness
            if key == "glass":
                bsdf.inputs["Alpha"].default_value = 0.35
        material.diffuse_color = (*color, 1.0)
        out[key] = material
    return out


def passable_sides(tile: dict) -> set[str]:
    sides = {side for side, label in tile["sides"].items() if label in PASSABLE_LABELS}
    if tile["kind"] in ("stair", "spiral"):
        sides.add("up")
    if tile["kind"] in ("stair_top", "spiral_top"):
        sides.add("down")
    return sides


def build_demo_kit(scene: bpy.types.Scene, name: str = KIT_NAME, hide: bool = True,
                   location=(0.0, -60.0, 0.0)) -> bpy.types.Collection:
    """Build the kit as collection ``name`` (tiles laid out in rows), set every tile's sockets and the scene's
    Tile Rooms settings (kit, border, connectivity) for a two-storey room; returns the collection."""
    materials = _materials()
    collection = bpy.data.collections.new(name)
    scene.collection.children.link(collection)
    collection[CELL_SIZE_KEY] = (CELL, CELL, HEIGHT)
    collection[COMPATIBLE_KEY] = ", ".join(f"{a}={b}" for a, b in COMPATIBLE)
    for i, tile in enumerate(tile_table()):
        parts = tile_geometry(tile)
        obj = bpy.data.objects.new(tile["name"], parts.mesh(tile["name"], materials))
        collection.objects.link(obj)
        obj.location = (location[0] + (i % 10) * (CELL + 2), location[1] - (i // 10) * (CELL + 2), location[2])
        settings = obj.strew
        for side, label in tile["sides"].items():
            setattr(settings, f"socket_{side}", label)
        settings.socket_up, settings.socket_down = tile["up"], tile["down"]
        settings.weight = tile["weight"]
        settings.walkable = tile["kind"] != "air"
        settings.passable = passable_sides(tile) or {'n'}
        settings.rotations = {'0', '90', '180', '270'}
    room = scene.strew.room
    room.kit = collection
    room.auto_cell_size = True
    room.use_border = True
    room.border, room.border_bottom, room.border_top = "wall, window", "ground", "sky"
    room.connected = True
    room.size = (12, 12, 2)
    if hide:
        layer = scene.view_layers[0].layer_collection.children.get(collection.name)
        if layer is not None:
            layer.exclude = True
    return collection
