"""Tile Rooms: Grow against assembling the larger room afresh, and finding set pieces in a busy scene, on the 53-tile
demo kit, headless."""

from __future__ import annotations

import statistics
import time

import numpy as np

TITLE = "Tile Rooms: Grow and set pieces (53-tile demo kit)"

SHAPE = (30, 30, 3)
GROW = ("+X", 10)
SEEDS = (1, 2, 3)
CLUTTER = 2000  # objects of the user's in the scene that are no set pieces
PIECES = 30  # one per column of the room, none sharing a cell


def _setup():
    import bpy

    from strew import ensure_registered
    from strew.demos.kit import build_demo_kit

    bpy.ops.wm.read_homefile(use_empty=True)
    ensure_registered()
    build_demo_kit(bpy.context.scene)
    return bpy


def _params(size, seed: int):
    from strew.scene.room_job import RoomParams

    return RoomParams(kit="Tiles", size=size, seed=seed, border="wall, window", border_bottom="ground",
                      border_top="sky", use_set_pieces=False)


def _tiles(collection) -> dict:
    from strew.scene.room_output import read_placed

    placed = read_placed(collection)
    return {tuple(c): (t, r, m) for c, t, r, m in zip(placed.cells.tolist(), placed.tiles, placed.rotations.tolist(),
                                                      placed.mirrored.tolist(), strict=True)}


def _grow_rows() -> list[str]:
    from strew.scene import room_job
    from strew.scene.room_grow import grow_room
    from strew.scene.room_output import room_collection

    bpy = _setup()
    scene = bpy.context.scene
    times: dict[str, list[float]] = {"keep": [], "move": [], "fresh": []}
    kept, walls = [], []
    side, cells = GROW
    bigger = (SHAPE[0] + cells, SHAPE[1], SHAPE[2])
    for seed in SEEDS:
        for keep_walls in (True, False):
            room_job.run_to_end(scene, _params(SHAPE, seed))
            old = _tiles(room_collection(scene, "Strew Room"))
            started = time.perf_counter()
            grown = grow_room(scene, _params(SHAPE, seed + 10), side, cells, keep_walls)
            times["keep" if keep_walls else "move"].append(time.perf_counter() - started)
            new = _tiles(room_collection(scene, "Strew Room"))
            outside = [cell for cell in old if keep_walls or cell[0] != SHAPE[0] - 1]  # the old wall layer on +X
            kept.append(all(new.get(cell) == old[cell] for cell in outside))
            if not keep_walls:
                walls.append(grown.walls)
        started = time.perf_counter()
        room_job.run_to_end(scene, _params(bigger, seed))
        times["fresh"].append(time.perf_counter() - started)
    size = " × ".join(map(str, SHAPE))
    grown_size = " × ".join(map(str, bigger))

    def row(label: str, values: list[float]) -> str:
        return f"| {label} | {statistics.median(values):.3f} s | " + ", ".join(f"{t:.3f}" for t in values) + " |"

    return [
        f"Grow a {size} room on {side} by {cells} cells ({cells * SHAPE[1] * SHAPE[2]:,} new cells, closed, Below "
        f"`ground`, Above `sky`), median of seeds {', '.join(map(str, SEEDS))}, the whole call (read back, solve, "
        "write):",
        "",
        "| | median | each seed |",
        "|---|---:|---|",
        row(f"Grow {size} → {grown_size}, Keep Walls", times["keep"]),
        row(f"Grow {size} → {grown_size}, the wall moved out ({walls[0]:,} wall cells solved again)", times["move"]),
        row(f"Assemble {grown_size} afresh", times["fresh"]),
        "",
        f"Every old tile kept (tile, turn, mirror, cell; with the wall moved out, outside the old wall layer) in "
        f"{sum(kept)} of {len(kept)} grown rooms.",
    ]


def _pieces_rows() -> list[str]:
    from mathutils import Matrix

    from strew.scene.room_kit import read_kit
    from strew.scene.room_pieces import find_set_pieces

    bpy = _setup()
    scene = bpy.context.scene
    kit = read_kit(bpy.data.collections["Tiles"], "", None)
    size = np.asarray(kit.cell_size)
    clutter = bpy.data.meshes.new("rock")
    clutter.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], [(0, 1, 2)])
    rng = np.random.default_rng(5)
    for k in range(CLUTTER):
        obj = bpy.data.objects.new(f"rock {k}", clutter)
        obj.location = tuple(rng.uniform(0, 100, 3))
        scene.collection.objects.link(obj)
    floor = kit.objects["floor"]
    for k in range(PIECES):
        obj = bpy.data.objects.new(f"piece {k}", floor.data)
        cell = (k % SHAPE[0], (k * 7) % SHAPE[1], 0)
        obj.matrix_world = Matrix.Translation((size * cell).tolist()) @ Matrix.Diagonal((*floor.scale, 1.0))
        scene.collection.objects.link(obj)
    bpy.context.view_layer.update()
    times = []
    for _ in range(3):
        started = time.perf_counter()
        found = find_set_pieces(scene, kit, np.eye(4), SHAPE)
        times.append(time.perf_counter() - started)
    return [
        f"Finding the set pieces of a {' × '.join(map(str, SHAPE))} room among {CLUTTER + PIECES:,} scene objects "
        f"({PIECES} linked copies of a kit tile, the rest other meshes): {statistics.median(times) * 1000:.1f} ms "
        f"(median of 3), {len(found)} found.",
    ]


def run() -> str:
    return "\n".join([*_grow_rows(), "", *_pieces_rows()])
