"""Tile Rooms in real Blender: the demo kit and a hand-made kit assembled and read back independently of the
solver (sockets of the placed, turned tiles; borders; walkable connectivity by BFS), seeds, save and reload,
undo, the modal job."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import bpy
import numpy as np
import pytest
from rooms_check import (
    STEP,
    check_positions,
    read_room,
    room_collection,
    source_tile,
    turn,
    walkable_regions,
)
from rooms_kits import check_room, demo_kit, hand_kit, module, pairs
from scenes import scene_snapshot

DEMO_SIZE = (12, 12, 2)


def test_demo_kit_has_50_plus_tiles_of_every_kind_with_sockets() -> None:
    kit = demo_kit()
    names = {obj.name for obj in kit.objects}
    assert len(names) >= 50
    for needed in ("floor", "wall", "corner", "outer_corner", "wall_door", "wall_arch", "wall_window", "corridor",
                   "corridor_t", "corridor_x", "stair", "stair_top", "spiral", "spiral_top", "air"):
        assert needed in names
    for obj in kit.objects:
        tile = source_tile(obj)
        assert all(side in tile["sockets"] for side in ("n", "e", "s", "w", "up", "down"))
        assert obj.type == 'MESH' and (obj.name == "air" or len(obj.data.polygons) > 0)
    assert len({m.name for obj in kit.objects for m in obj.data.materials}) >= 5


def test_demo_kit_two_storey_room_obeys_sockets_border_fixed_tiles_and_connectivity() -> None:
    kit = demo_kit()
    # The kit set the panel (border, below/above, connectivity); the operator's properties override the rest.
    result = bpy.ops.strew.assemble_room(kit="Tiles", size=DEMO_SIZE, seed=3, origin=(200.0, 5.0, 1.0),
                                         fixed="stair@90 4 4 0; floor 1 1 1")
    assert result == {'FINISHED'}
    checked = check_room(kit, DEMO_SIZE, (200.0, 5.0, 1.0), (4.0, 4.0, 3.0), pairs(kit["strew_compatible"]),
                          border=["wall", "window"], bottom="ground", top="sky")
    room, tiles = checked["room"], checked["tiles"]
    assert room[(4, 4, 0)][:2] == ("stair", 90) and room[(4, 4, 1)][:2] == ("stair_top", 90)
    assert room[(1, 1, 1)][:2] == ("floor", 0)
    regions = walkable_regions(tiles)
    assert len(regions) == 1 and (1, 1, 1) in regions[0]
    # 3-D: both storeys are walkable and joined through stairs; every stair has its top piece right above.
    assert {z for (_, _, z) in regions[0]} == {0, 1}
    for (x, y, z), (tile, rotation, _) in room.items():
        if tile in ("stair", "spiral"):
            assert room[(x, y, z + 1)][:2] == (f"{tile}_top", rotation)
    assert len({tile for tile, _, _ in room.values()}) >= 25
    assert bpy.ops.strew.assemble_room(kit="Tiles", size=(4, 4, 2), seed=3, output='OBJECTS') == {'FINISHED'}
    room = read_room()
    assert all(p.obj.data is kit.objects[p.obj["strew_tile"]].data for _, _, p in room.values())  # linked duplicates
    # A room is never read back as a kit (its objects are Strew's).
    with pytest.raises(RuntimeError, match="empty"):
        bpy.ops.strew.assemble_room(kit="Strew Room", size=(3, 3, 1))


def test_hand_made_kit_from_custom_properties_and_the_panel() -> None:
    kit = hand_kit()
    for obj in kit.objects:  # a kit hidden with the monitor and camera toggles still gives a visible room
        obj.hide_viewport = obj.hide_render = True
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.connected, settings.seed = kit, True, "grass", True, 11
    settings.output = 'OBJECTS'
    assert bpy.ops.strew.assemble_room(size=(9, 7, 1)) == {'FINISHED'}
    checked = check_room(kit, (9, 7, 1), (0, 0, 0), (2.0, 2.0, 1.0), set(), border=["grass"])
    assert len(walkable_regions(checked["tiles"])) == 1
    assert not any(p.obj.hide_viewport or p.obj.hide_render for _, _, p in checked["room"].values())
    kinds = [tile for tile, _, _ in checked["room"].values()]
    assert kinds.count("grass") > len(kinds) / 2  # weight 3 (custom property) vs 1
    # Periodic: the adjacency also holds across the wrapped edges.
    assert bpy.ops.strew.assemble_room(size=(8, 6, 1), periodic=True, connected=False, seed=2) == {'FINISHED'}
    check_room(kit, (8, 6, 1), (0, 0, 0), (2.0, 2.0, 1.0), set(), periodic=True)


def test_rotation_convention_on_the_geometry() -> None:
    """At 90° the side that faced east faces north: the turn tile's road bump points where its sockets say."""
    kit = hand_kit()
    del kit["strew_cell_size"]  # the cell size now comes from the tiles' bounds: 2 x 2 x 1
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(8, 8, 1), seed=5, border="grass",
                                       output='OBJECTS') == {'FINISHED'}
    room = read_room()
    check_positions(room, (0, 0, 0), (2.0, 2.0, 1.0))
    turns = [(cell, rotation, p.obj) for cell, (tile, rotation, p) in room.items() if tile == "turn"]
    assert {rotation for _, rotation, _ in turns} >= {0, 90} or len(turns) >= 2
    for cell, rotation, obj in turns:
        tile = turn(source_tile(kit.objects["turn"]), rotation)
        road_sides = {s for s in "nesw" if tile["sockets"][s] == "road"}
        world = np.array([obj.matrix_world @ v.co for v in obj.data.vertices])
        bump = world[world[:, 2] > 0.15].mean(axis=0)[:2] - np.array(obj.matrix_world.translation)[:2]
        expected = sum(np.array(STEP[s][:2], dtype=float) for s in road_sides)
        assert np.dot(bump, expected) > 0, (cell, rotation, road_sides)


def test_same_seed_same_room_and_reassembling_replaces_only_strews_room() -> None:
    demo_kit()
    user = bpy.data.collections.new("Strew Room")  # the user's own collection with the same name
    bpy.context.scene.collection.children.link(user)
    user.objects.link(bpy.data.objects.new("mine", None))

    def layout() -> dict:
        assert len([c for c in bpy.data.collections if c.get("strew_owner") == "room" and "strew_name" in c]) == 1
        return {cell: (tile, rotation) for cell, (tile, rotation, _) in read_room().items()}

    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=7) == {'FINISHED'}
    first = layout()
    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=7) == {'FINISHED'}
    assert layout() == first
    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=8) == {'FINISHED'}
    assert layout() != first
    assert [o.name for o in user.objects] == ["mine"] and user.name == "Strew Room"
    # The user drops an object of theirs into Strew's room: re-assembling keeps it and never doubles the room.
    ours = room_collection()
    ours.objects.link(bpy.data.objects.new("also mine", None))
    assert bpy.ops.strew.assemble_room(size=(8, 8, 2), seed=8) == {'FINISHED'}
    assert [o.name for o in ours.objects] == ["also mine"] and "strew_owner" not in ours
    assert len(read_room()) == 8 * 8 * 2 and sum(1 for o in bpy.data.objects if o.get("strew_owner") == "room") == 1


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_reassembling_keeps_the_rooms_names(output: str) -> None:
    """The room object, its mesh and its tile set keep their names over any number of Assembles (a script or a
    driver finds the room by name), and a name the user holds keeps Blender's suffix on Strew's side."""
    demo_kit()
    for seed in (1, 2, 3):
        assert bpy.ops.strew.assemble_room(size=(4, 4, 1), seed=seed, output=output) == {'FINISHED'}
        ours = room_collection()
        assert ours.name == "Strew Room"
        if output == 'INSTANCES':
            (room,) = ours.objects
            assert (room.name, room.data.name) == ("Strew Room", "Strew Room")
            assert ours["strew_tile_set"].name == "Strew Room Tiles"
    if output == 'INSTANCES':
        mine = bpy.data.objects.new("Strew Room", None)  # after the room took it: the user's gets the suffix
        assert mine.name == "Strew Room.001"
        bpy.data.objects.remove(bpy.data.objects["Strew Room"])
        bpy.data.objects.new("Strew Room", None)  # the user's own object now holds the name
        assert bpy.ops.strew.assemble_room(size=(4, 4, 1), seed=4, output=output) == {'FINISHED'}
        assert bpy.data.objects["Strew Room"].type == 'EMPTY'  # the user's, untouched
        assert room_collection().objects[0].name.startswith("Strew Room.")


def test_clear_after_save_and_reload(tmp_path: Path) -> None:
    kit = demo_kit()
    kit_objects = sorted(o.name for o in kit.objects)
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=1) == {'FINISHED'}
    before = {cell: (tile, rotation) for cell, (tile, rotation, _) in read_room().items()}
    path = tmp_path / "room.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.wm.open_mainfile(filepath=str(path))
    assert len(read_room()) == 72
    assert bpy.ops.strew.clear_room() == {'FINISHED'}
    assert not [o for o in bpy.data.objects if o.get("strew_owner")]
    assert "Strew Room" not in bpy.data.collections
    assert sorted(o.name for o in bpy.data.collections["Tiles"].objects) == kit_objects
    # The tile settings and the panel's settings were saved: the same room comes back from the reloaded file.
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=1) == {'FINISHED'}
    assert {cell: (tile, rotation) for cell, (tile, rotation, _) in read_room().items()} == before


def test_undo_restores_the_scene() -> None:
    demo_kit()
    before = scene_snapshot()
    bpy.ops.ed.undo_push(message="before room")
    assert bpy.ops.strew.assemble_room('EXEC_DEFAULT', True, size=(6, 6, 2), seed=2) == {'FINISHED'}
    assert "Strew Room" in bpy.data.collections
    bpy.ops.ed.undo()
    assert "Strew Room" not in bpy.data.collections
    assert scene_snapshot() == before


def test_modal_job_cancelled_midway_leaves_the_scene_unchanged() -> None:
    room_job = module("scene.room_job")
    demo_kit()
    assert bpy.ops.strew.assemble_room(size=(6, 6, 2), seed=4) == {'FINISHED'}
    before = scene_snapshot()
    params = room_job.RoomParams(kit="Tiles", size=(30, 30, 2), seed=4, border="wall, window",
                                 border_bottom="ground", border_top="sky")
    # ESC during the solve, then during the build (Real Objects: an instancer room is written in one step)
    for stop_at, output in ((0.06, params.output), (0.6, room_job.RoomOutput.OBJECTS)):
        job = room_job.assemble(bpy.context.scene, dataclasses.replace(params, output=output))
        texts = []
        for fraction, text in job:
            texts.append(text)
            if fraction > stop_at:
                break
        job.close()
        assert scene_snapshot() == before
        assert all(texts) and threading.active_count() == 1  # progress text at every step; no worker thread
    # The stepped job run to the end gives the room the blocking path gives.
    _stepped_room_is_the_blocking_one(room_job, params, None)


def _stepped_room_is_the_blocking_one(room_job, params, pool) -> None:
    """The job stepped to the end (solving in ``pool`` when given) places the room that ``run_to_end`` does."""
    job = room_job.assemble(bpy.context.scene, params, pool)
    while True:
        try:
            next(job)
        except StopIteration as stop:
            assert stop.value.placed == 30 * 30 * 2
            break
    stepped = read_room()
    room_job.run_to_end(bpy.context.scene, params)
    assert {cell: value[:2] for cell, value in read_room().items()} == {c: v[:2] for c, v in stepped.items()}


def test_a_room_solved_in_a_worker_process_is_the_room_of_this_process_and_stops_on_esc(monkeypatch) -> None:
    """What the window does (the solve in a kept worker, the window only polls): the same room; closing the job
    (ESC) mid-solve changes nothing, stops the worker's solve and leaves no shared block behind."""
    room_job = module("scene.room_job")
    pool_module = module("core.pool")
    demo_kit()
    params = room_job.RoomParams(kit="Tiles", size=(30, 30, 2), seed=4, border="wall, window",
                                 border_bottom="ground", border_top="sky")
    remote = module("core.wfc.remote")
    made: list[str] = []  # the shared blocks the remote solve makes: its step boards and the shared problems
    board_init = remote.StepBoard.__init__

    def noting_board(self, name=None):
        board_init(self, name)
        made.append(self.name)

    monkeypatch.setattr(remote.StepBoard, "__init__", noting_board)
    with pool_module.ProcessPool(1) as pool:
        share = pool.share

        def noting_share(work):
            handle = share(work)
            made.append(handle.name)
            return handle

        monkeypatch.setattr(pool, "share", noting_share)
        pool.start()[0].result(timeout=60)
        before = scene_snapshot()
        job = room_job.assemble(bpy.context.scene, params, pool)
        texts = []
        for fraction, text in job:
            texts.append(text)
            if fraction > 0.1:
                break
        job.close()
        assert scene_snapshot() == before and all(texts)
        _stepped_room_is_the_blocking_one(room_job, params, pool)  # the one worker is free again
    assert len(made) == 4 and not [name for name in made if (Path("/dev/shm") / name.lstrip("/")).exists()]
