"""The demo kit's building blocks: its dimensions, boxes gathered into meshes with box UVs, and the features a
tile side carries (walls, windows, doors, arches, corridor mouths, railings), slabs, frames and extras."""

from __future__ import annotations

import math

import bpy
import numpy as np

from ..core.wfc.vocab import OPPOSITE, TURN

CELL = 4.0
HEIGHT = 3.0
H = CELL / 2
WALL = 0.2
SLAB = 0.15
INSET = 0.02  # how far features that must not join the neighbour stop short of the cell's side
SIDE_ANGLE = {"e": 0, "n": 1, "w": 2, "s": 3}  # quarter turns that carry the east side to this side

COLORS = {
    "floor": ((0.45, 0.32, 0.22), 0.6), "tile": ((0.75, 0.72, 0.66), 0.4), "wall": ((0.86, 0.84, 0.78), 0.9),
    "trim": ((0.25, 0.2, 0.17), 0.5), "glass": ((0.55, 0.75, 0.9), 0.05), "stone": ((0.55, 0.55, 0.57), 0.8),
    "metal": ((0.2, 0.22, 0.25), 0.3), "accent": ((0.6, 0.12, 0.1), 0.9), "wood": ((0.55, 0.38, 0.2), 0.7),
}
MATERIALS = tuple(COLORS)


class Parts:
    """Boxes (with a material each) gathered into one mesh."""

    def __init__(self) -> None:
        self.vertices: list[np.ndarray] = []
        self.faces: list[np.ndarray] = []
        self.materials: list[int] = []
        self.count = 0

    def box(self, x0, x1, y0, y1, z0, z1, material: str = "wall", turn: int = 0, angle: float = 0.0) -> None:
        xs, ys, zs = (x0, x1), (y0, y1), (z0, z1)
        v = np.array([[xs[i], ys[j], zs[k]] for i in (0, 1) for j in (0, 1) for k in (0, 1)], dtype=np.float64)
        self.add(v, turn, angle, material)

    def add(self, v: np.ndarray, turn: int, angle: float, material: str) -> None:
        a = turn * math.pi / 2 + angle
        c, s = math.cos(a), math.sin(a)
        # written out, not a matrix product: BLAS kernels round differently on different CPUs
        v = np.column_stack([v[:, 0] * c - v[:, 1] * s, v[:, 0] * s + v[:, 1] * c, v[:, 2]])
        quads = np.array([[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]])
        self.vertices.append(np.round(v, 6))
        self.faces.append(quads + self.count)
        self.materials += [MATERIALS.index(material)] * 6
        self.count += 8

    def mesh(self, name: str, materials: dict[str, bpy.types.Material]) -> bpy.types.Mesh:
        mesh = bpy.data.meshes.new(name)
        if self.count:
            mesh.from_pydata(np.concatenate(self.vertices).tolist(), [], np.concatenate(self.faces).tolist())
        for key in MATERIALS:
            mesh.materials.append(materials[key])
        if self.count:
            mesh.polygons.foreach_set("material_index", np.array(self.materials, dtype=np.int32))
        mesh.update()
        box_uv(mesh)
        return mesh


def box_uv(mesh: bpy.types.Mesh, name: str = "UVMap") -> None:
    """A "UVMap" by box projection (1 UV unit = 1 m): each face is projected along its normal's main axis, so
    textures keep their scale on every tile and line up across neighbouring tiles."""
    uv_layer = mesh.uv_layers.new(name=name)
    loops = len(mesh.loops)
    if not loops:
        return
    co = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", co)
    vertex = np.empty(loops, dtype=np.int32)
    mesh.loops.foreach_get("vertex_index", vertex)
    normals = np.empty(len(mesh.polygons) * 3)
    mesh.polygons.foreach_get("normal", normals)
    sizes = np.empty(len(mesh.polygons), dtype=np.int32)
    mesh.polygons.foreach_get("loop_total", sizes)
    axis = np.repeat(np.abs(normals.reshape(-1, 3)).argmax(axis=1), sizes)
    points = co.reshape(-1, 3)[vertex]
    keep = np.array([[1, 2], [0, 2], [0, 1]])[axis]  # drop the axis the face looks along
    uv = np.take_along_axis(points, keep, axis=1)
    uv_layer.data.foreach_set("uv", uv.astype(np.float32).ravel())


# --- side features, built for the east side (x = +H, u = y) and turned to their side ---------------------------


def side_feature(p: Parts, label: str, side: str, void: frozenset[str] = frozenset()) -> None:
    """The feature ``label`` on ``side``; ``void`` names the tile's sides that face the void (kept off them)."""
    t = SIDE_ANGLE[side]
    x0, x1 = H - WALL, H
    if label == "wall":
        p.box(x0, x1, -H, H, 0, HEIGHT, turn=t)
    elif label == "window":
        pieces = ((-H, -0.8, 0, HEIGHT), (0.8, H, 0, HEIGHT), (-0.8, 0.8, 0, 1.0), (-0.8, 0.8, 2.2, HEIGHT))
        for y0, y1, z0, z1 in pieces:
            p.box(x0, x1, y0, y1, z0, z1, turn=t)
        p.box(H - WALL / 2 - 0.01, H - WALL / 2 + 0.01, -0.8, 0.8, 1.0, 2.2, "glass", turn=t)
        p.box(x0 - 0.08, x0, -0.9, 0.9, 0.95, 1.0, "trim", turn=t)
    elif label == "door":
        for y0, y1, z0, z1 in ((-H, -0.6, 0, HEIGHT), (0.6, H, 0, HEIGHT), (-0.6, 0.6, 2.2, HEIGHT)):
            p.box(x0, x1, y0, y1, z0, z1, turn=t)
        for y0, y1 in ((-0.7, -0.6), (0.6, 0.7)):
            p.box(x0 - 0.05, x0, y0, y1, 0, 2.3, "trim", turn=t)
        p.box(x0 - 0.05, x0, -0.7, 0.7, 2.2, 2.3, "trim", turn=t)
    elif label == "arch":
        p.box(x0, x1, -H, -0.9, 0, HEIGHT, turn=t)
        p.box(x0, x1, 0.9, H, 0, HEIGHT, turn=t)
        steps = 9
        for i in range(steps):
            y0, y1 = -0.9 + 1.8 * i / steps, -0.9 + 1.8 * (i + 1) / steps
            yc = max(abs(y0), abs(y1)) if y0 * y1 > 0 else 0.0
            p.box(x0, x1, y0, y1, 2.0 + math.sqrt(max(0.81 - yc * yc, 0.0)), HEIGHT, turn=t)
    elif label == "cor":
        p.box(x0, x1, -H, -1.0, 0, HEIGHT, turn=t)
        p.box(x0, x1, 1.0, H, 0, HEIGHT, turn=t)
    elif label == "rail":  # off the side's plane, like the slab under it: the side is open to the void
        left, right = TURN[side], OPPOSITE[TURN[side]]  # the sides at u = +H and u = -H
        y0, y1 = -H + (INSET if right in void else 0.0), H - (INSET if left in void else 0.0)
        p.box(H - 0.1, H - INSET, y0, y1, SLAB + 0.95, SLAB + 1.05, "metal", turn=t)
        for y in np.linspace(-H + 0.1, H - 0.1, 6):
            p.box(H - 0.08, H - 0.02, y - 0.03, y + 0.03, SLAB, SLAB + 1.0, "metal", turn=t)


def slab(p: Parts, material: str = "floor", short: frozenset[str] = frozenset()) -> None:
    """The floor slab; it stops INSET short of the sides in ``short`` (those facing the void)."""
    cut = {side: INSET if side in short else 0.0 for side in SIDE_ANGLE}
    p.box(-H + cut["w"], H - cut["e"], -H + cut["s"], H - cut["n"], 0, SLAB, material)


def frame(p: Parts, material: str, strips) -> None:
    """A floor round a stairwell: a strip of the given width along each of the given sides (full length)."""
    for side, width in strips:
        p.box(H - width, H, -H, H, 0, SLAB, material, turn=SIDE_ANGLE[side])


def extra(p: Parts, kind: str) -> None:
    if kind == "tiles":
        for i in range(4):
            for j in range(4):
                x0, x1 = max(-H + i, -H + INSET), min(-H + i + 1, H - INSET)  # off the sides: a decoration
                y0, y1 = max(-H + j, -H + INSET), min(-H + j + 1, H - INSET)  # does not change a side's label
                p.box(x0, x1, y0, y1, SLAB, SLAB + 0.01, "tile" if (i + j) % 2 else "stone")
    elif kind == "rug":
        p.box(-1.1, 1.1, -0.8, 0.8, SLAB, SLAB + 0.02, "accent")
    elif kind == "crates":
        p.box(-1.6, -0.9, -1.6, -0.9, SLAB, SLAB + 0.7, "wood")
        p.box(-0.8, -0.2, -1.6, -1.0, SLAB, SLAB + 0.6, "wood")
        p.box(-1.5, -1.0, -1.5, -1.0, SLAB + 0.7, SLAB + 1.2, "wood", angle=0.0)
    elif kind == "table":
        p.box(-0.6, 0.6, -0.4, 0.4, SLAB + 0.72, SLAB + 0.78, "wood")
        for x in (-0.55, 0.5):
            for y in (-0.35, 0.3):
                p.box(x, x + 0.05, y, y + 0.05, SLAB, SLAB + 0.72, "wood")
    elif kind == "pillar":
        p.box(-0.25, 0.25, -0.25, 0.25, 0, HEIGHT, "stone")
    elif kind == "post":  # fills the convex corner where two walls of neighbouring cells meet
        p.box(H - WALL, H, H - WALL, H, 0, HEIGHT)
    elif kind == "shelf":
        p.box(H - WALL - 0.35, H - WALL, -1.0, 1.0, SLAB, 2.0, "wood")
    elif kind == "pilasters":
        for y in (-1.2, 1.0):
            p.box(H - WALL - 0.15, H - WALL, y, y + 0.2, 0, HEIGHT, "stone")


# --- tile table -----------------------------------------------------------------------------------------------
