"""Detect Sockets in real Blender on a kit whose true sockets are known, and a room that lines up its geometry."""

from __future__ import annotations

import math
import time

import bpy
import numpy as np
import pytest
from mathutils import Matrix
from rooms_check import OPPOSITE, STEP, fits, read_room, turn
from rooms_kits import boxes_object, module
from small_scenes import ROOM, road_kit

SIDE_TURNS = {"e": 0, "n": 1, "w": 2, "s": 3}
MIRROR = {"slab": "slab", "full": "full", "post_r": "post_l", "post_l": "post_r"}
# Side pieces stop short of the neighbouring sides' planes, so each side's profile is its own piece only.
KIND_BOXES = {"slab": None, "full": (0.8, 1, -0.9, 0.9, 0, 1.5), "post_r": (0.8, 1, 0.4, 0.9, 0, 1.5),
              "post_l": (0.8, 1, -0.9, -0.4, 0, 1.5)}
DETECT_KIT = {
    "open": {"n": "slab", "e": "slab", "s": "slab", "w": "slab"},
    "wall": {"n": "slab", "e": "full", "s": "slab", "w": "slab"},
    "post": {"n": "slab", "e": "post_r", "s": "slab", "w": "slab"},
    "post_l": {"n": "slab", "e": "post_l", "s": "slab", "w": "slab"},
    "corner": {"n": "full", "e": "full", "s": "slab", "w": "post_r"},
}


def _detect_kit() -> bpy.types.Collection:
    kit = bpy.data.collections.new("Detect")
    bpy.context.scene.collection.children.link(kit)
    for name, sides in DETECT_KIT.items():
        pieces = [(KIND_BOXES[k], SIDE_TURNS[s]) for s, k in sides.items() if KIND_BOXES[k]]
        obj = boxes_object(name, [(-1, 1, -1, 1, 0, 0.1)] + [b for b, _ in pieces], kit, [0] + [t for _, t in pieces])
        obj.location = (len(kit.objects) * 4.0, -20.0, 0.0)
    # A shaft: a column in the north-east corner from bottom to top (its top profile changes under a turn).
    shaft = boxes_object("shaft", [(0.5, 1, 0.5, 1, 0, 2)], kit)
    shaft.location = (0.0, -30.0, 0.0)
    return kit


def test_detect_sockets_labels_a_kit_whose_true_sockets_are_known() -> None:
    kit = _detect_kit()
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size, room.cell_size = kit, False, (2.0, 2.0, 2.0)
    assert bpy.ops.strew.detect_sockets(target='KIT', vertical=True) == {'FINISHED'}
    labels = {obj.name: {s: getattr(obj.strew, f"socket_{s}") for s in ("n", "e", "s", "w", "up", "down")}
              for obj in kit.objects}
    # Documented pairing: "m<hash>" (an asymmetric profile) always pairs with "m<hash>~" (its mirror).
    every = {label for sockets in labels.values() for label in sockets.values()}
    pairs = {frozenset((label.rstrip("~"), label.rstrip("~") + "~")) for label in every if label.startswith("m")}
    # Every side of every tile against every side of every other (any turn can make them face each other).
    for a, sides_a in DETECT_KIT.items():
        for b, sides_b in DETECT_KIT.items():
            for side_a, kind_a in sides_a.items():
                for side_b, kind_b in sides_b.items():
                    truth = kind_a == MIRROR[kind_b]
                    assert fits(labels[a][side_a], labels[b][side_b], pairs) == truth, (a, side_a, b, side_b)
    # Bottom faces: the bare slab looks the same after any turn, and hides the walls' feet.
    assert labels["open"]["up"] == "" and labels["open"]["down"] and ":" not in labels["open"]["down"]
    assert labels["wall"]["down"] == labels["post"]["down"] == labels["open"]["down"]  # from below: the slab
    # The shaft's top and bottom profiles are the same corner square: equal labels with an orientation suffix,
    # and the shaft turned by 90° no longer fits an unturned one above it.
    shaft = labels["shaft"]
    assert shaft["up"] == shaft["down"] and ":" in shaft["up"]
    turned = turn({"sockets": shaft, "walkable": False, "passable": set()}, 90)
    assert not fits(turned["sockets"]["up"], shaft["down"], pairs)
    # A single side re-detected on a copy moved off by 3 cm gets another label (the tolerance is 1 cm).
    moved = kit.objects["wall"].copy()
    moved.data = kit.objects["wall"].data.copy()
    moved.data.transform(Matrix.Translation((0.03, 0.0, 0.0)))
    kit.objects.link(moved)
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj is moved)
    assert bpy.ops.strew.detect_sockets(target='SELECTED') == {'FINISHED'}
    assert moved.strew.socket_e != labels["wall"]["e"]
    off = module("scene.room_kit").tiles_off_cell(list(kit.objects), (2.0, 2.0, 2.0), 0.01)
    assert [name for name, _ in off] == [moved.name] and off[0][1] == pytest.approx(0.03, abs=1e-6)
    kit.objects.unlink(moved)


def test_a_room_from_detected_sockets_lines_up_the_geometry() -> None:
    kit = _detect_kit()
    kit.objects.unlink(kit.objects["shaft"])
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size, room.cell_size, room.use_border = kit, False, (2.0, 2.0, 2.0), False
    assert bpy.ops.strew.detect_sockets() == {'FINISHED'}
    for obj in kit.objects:  # reviewed by hand: one storey, nothing above or below
        obj.strew.socket_up = obj.strew.socket_down = ""
    assert bpy.ops.strew.assemble_room(size=(7, 7, 1), seed=9, output='OBJECTS') == {'FINISHED'}
    placed = read_room()
    # Geometry check: on every shared side plane the two tiles' vertices coincide (to 1 mm).
    def plane_points(obj, side):
        m = obj.matrix_world
        pts = np.array([m @ v.co for v in obj.data.vertices])
        centre = np.array(m.translation)
        axis, sign = {"e": (0, 1), "w": (0, -1), "n": (1, 1), "s": (1, -1)}[side]
        on = np.abs(pts[:, axis] - (centre[axis] + sign * 1.0)) < 1e-4
        return {tuple(p) for p in np.round(pts[on], 3)}

    bpy.context.view_layer.update()
    tiles = {name for name, _, _ in placed.values()}
    assert len(tiles) >= 3
    for (x, y, z), (_, _, p) in placed.items():
        for side in ("e", "n"):
            other = (x + STEP[side][0], y + STEP[side][1], z)
            if other in placed:
                assert plane_points(p.obj, side) == plane_points(placed[other][2].obj, OPPOSITE[side]), ((x, y), side)


def _labels(kit: bpy.types.Collection) -> list[tuple[str, ...]]:
    return [(obj.name, *(getattr(obj.strew, f"socket_{s}") for s in ("n", "e", "s", "w", "up", "down")))
            for obj in kit.objects]


@pytest.mark.parametrize(("scale", "quantum", "cell"), [
    (1.0, 1e-5, "2 × 2 × 2"),          # the Precision field's own minimum
    (100.0, 0.01, "200 × 200 × 200"),  # a kit modelled in centimetres, its cell from the tiles' bounds
    (200.0, 0.01, "400 × 400 × 400"),  # a 400 m tile
])
def test_detect_sockets_refuses_rasters_beyond_the_memory_budget_at_once(scale: float, quantum: float,
                                                                         cell: str) -> None:
    kit = _detect_kit()
    for obj in kit.objects:
        obj.scale = (scale, scale, scale)
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size = kit, True
    assert bpy.ops.strew.detect_sockets(quantum=0.01 * scale) == {'FINISHED'}  # labels to keep
    before = _labels(kit)
    started = time.perf_counter()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.detect_sockets(quantum=quantum)
    assert time.perf_counter() - started < 1.0
    message = str(failure.value).strip()
    assert "\n" not in message and "Traceback" not in message, message
    assert f"a {cell} cell every {quantum:g} needs about" in message and "raise quantum (Precision) to" in message
    assert _labels(kit) == before


@pytest.mark.parametrize(("vertex", "axis", "value", "where"), [
    (4, 2, math.nan, "face 0 has a corner (vertex 4) at (0, 0, nan), not a finite point"),
    (0, 0, math.inf, "face 0 has a corner (vertex 0) at (inf, -1, 0), not a finite point"),
    (2, 1, math.nan, "face 1 has a corner (vertex 2) at (1, nan, 0), not a finite point"),
    (5, 1, -math.inf, "vertex 5 is at (0.5, -inf, 0.5), not a finite point"),  # a loose vertex: no face to name
    (4, 2, 3e38, "face 0 has a corner (vertex 4) at (0, 0, 3e+38), farther than 1e+09 m from the origin"),
])
def test_a_tile_with_a_vertex_at_nan_infinity_or_far_away_is_named_with_its_face(vertex: int, axis: int, value: float,
                                                                        where: str) -> None:
    kit = road_kit()
    del kit["strew_cell_size"]  # the cell from the tiles' bounds: every vertex counts
    mesh = kit.objects["turn"].data
    mesh.vertices.add(1)
    mesh.vertices[5].co = (0.5, 0.5, 0.5)
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    co[3 * vertex + axis] = value
    mesh.vertices.foreach_set("co", co)
    mesh.update()
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size = kit, True
    before = _labels(kit)
    for operator, options in ((bpy.ops.strew.detect_sockets, {}), (bpy.ops.strew.assemble_room, ROOM)):
        with pytest.raises(RuntimeError) as failure:
            operator(**options)
        message = str(failure.value).strip()
        assert "\n" not in message and f'Tile "turn": {where}; move or delete' in message, message
    assert _labels(kit) == before and not any(c.get("strew_owner") == "room" for c in bpy.data.collections)


def _sockets(kit: bpy.types.Collection) -> dict[str, tuple]:
    return {obj.name: (tuple(getattr(obj.strew, f"socket_{s}") for s in ("n", "e", "s", "w", "up", "down")),
                       {key: str(value) for key, value in obj.items()}) for obj in kit.objects}


@pytest.mark.parametrize("stop_after", [0, 1, 3, "all but the last"])
def test_detect_sockets_closed_mid_run_leaves_the_kit_and_borders_unchanged(stop_after) -> None:
    """ESC: the window closes the job between tiles; nothing is written until the last tile is labelled."""
    socket_job = module("scene.socket_job")
    kit = _detect_kit()
    room = bpy.context.scene.strew.room
    room.kit, room.auto_cell_size, room.cell_size, room.border = kit, False, (2.0, 2.0, 2.0), "slab"
    before, border = _sockets(kit), room.border
    objects = list(kit.objects)
    job = socket_job.detect_job(objects, (2.0, 2.0, 2.0), 0.01, True, room)
    steps = len(objects) - 1 if stop_after == "all but the last" else stop_after
    progress = [next(job) for _ in range(steps + 1)]
    assert [round(fraction * len(objects)) for fraction, _ in progress] == list(range(steps + 1))
    assert all(objects[i].name in text for i, (_, text) in enumerate(progress))
    job.close()
    assert _sockets(kit) == before and room.border == border
    found = socket_job.run_to_end(socket_job.detect_job(objects, (2.0, 2.0, 2.0), 0.01, True, room))
    assert found.tiles == len(objects) and _sockets(kit) != before


def test_detect_sockets_job_refuses_a_bad_tile_before_writing_any() -> None:
    socket_job = module("scene.socket_job")
    kit = _detect_kit()
    before = _sockets(kit)
    list(kit.objects)[-1]["strew_sockets"] = float("nan")
    with pytest.raises(module("scene.room_kit").KitError):
        socket_job.run_to_end(socket_job.detect_job(list(kit.objects), (2.0, 2.0, 2.0), 0.01, False))
    del list(kit.objects)[-1]["strew_sockets"]
    assert _sockets(kit) == before
