"""Tile Rooms tools and the command line: Regenerate Box, Import mxgmn XML, the `room` and `kit` commands'
validation, options and ownership."""

from __future__ import annotations

import math
from pathlib import Path

import bpy
import numpy as np
import pytest
from rooms_check import check_positions, placed_tiles, read_room, room_collection, violations
from rooms_kits import module, road_kit
from scenes import scene_snapshot

# --- Regenerate Box -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_regenerate_box_keeps_every_cell_outside_the_box(output: str) -> None:
    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.seed, settings.output = kit, (8, 6, 1), 1, output
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    before = read_room()
    changed = False
    for seed in (2, 3, 4):
        assert bpy.ops.strew.regenerate_room_box(box_min=(2, 1, 0), box_max=(5, 3, 0), seed=seed) == {'FINISHED'}
        after = read_room()
        assert sorted(after) == sorted(before)
        inside = {c for c in after if 2 <= c[0] <= 5 and 1 <= c[1] <= 3}
        assert all(after[c][:2] == before[c][:2] for c in after if c not in inside)
        assert violations(placed_tiles(after, kit), (8, 6, 1), set()) == []
        changed |= any(after[c][:2] != before[c][:2] for c in inside)
        if output == 'OBJECTS':
            assert len(room_collection().objects) == 48
    assert changed
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError, match="outside the room"):
        bpy.ops.strew.regenerate_room_box(box_min=(0, 0, 0), box_max=(8, 2, 0))
    assert scene_snapshot() == snapshot


MOVES = {  # what a user does to a whole room: the matrix applied to it in world space
    "moved": ((40.0, -12.0, 3.0), 0.0, 0.0, 1.0),
    "turned": ((5.0, 7.0, 0.0), 0.0, 37.0, 1.0),
    "quarter turn": ((0.0, 0.0, 0.0), 0.0, 90.0, 1.0),
    "tilted and scaled": ((-3.0, 2.0, 8.0), 17.0, -63.0, 1.5),
}


def _move(name: str):
    from mathutils import Matrix

    offset, tilt, turn, scale = MOVES[name]
    return (Matrix.Translation(offset) @ Matrix.Rotation(math.radians(turn), 4, 'Z')
            @ Matrix.Rotation(math.radians(tilt), 4, 'X') @ Matrix.Scale(scale, 4))


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
@pytest.mark.parametrize("move", sorted(MOVES))
def test_regenerate_box_and_pick_box_keep_a_room_where_the_user_moved_and_turned_it(output: str, move: str) -> None:
    from mathutils import Matrix

    room_frame = module("scene.room_frame")
    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.seed, settings.output = kit, (6, 5, 1), 1, output
    settings.origin = (3.0, -2.0, 1.5)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    world = _move(move)
    for obj in room_collection().objects:  # the whole room, moved and turned together
        obj.matrix_world = world @ obj.matrix_world
    hand = None
    if output == 'OBJECTS':  # and one tile outside the box edited by hand
        hand = next(o for o in room_collection().objects if tuple(o["strew_cell"]) == (0, 4, 0))
        hand.location.z += 0.25
        hand["note"] = "mine"
    bpy.context.view_layer.update()
    edited = None if hand is None else np.array(hand.matrix_world)
    before = read_room()
    size, origin = np.array(room_collection()["strew_cell_size"]), np.array(settings.origin)
    for seed in (2, 3):
        assert bpy.ops.strew.regenerate_room_box(box_min=(1, 1, 0), box_max=(4, 3, 0), seed=seed) == {'FINISHED'}
        after = read_room()
        assert all(after[c][:2] == before[c][:2] for c in after if not (1 <= c[0] <= 4 and 1 <= c[1] <= 3))
        for cell, (tile, rotation, placed) in after.items():
            if placed.obj is not None and placed.obj == hand:
                assert np.allclose(np.array(hand.matrix_world), edited) and hand["note"] == "mine"
                continue
            source = kit.objects[tile]
            turn = Matrix.Rotation(math.radians(rotation), 4, 'Z')
            expected = world @ Matrix.Translation(origin + size * cell) @ turn @ Matrix.Diagonal((*source.scale, 1.0))
            assert np.allclose(placed.matrix_world, np.array(expected), atol=1e-4), (cell, tile, rotation)
    frame = room_frame.room_frame(room_collection())  # Pick Box: the cell under a point of the moved room
    rng = np.random.default_rng(4)
    for cell in np.ndindex(6, 5, 1):
        inside = origin + size * (np.array(cell) + np.array([*rng.uniform(-0.45, 0.45, 2), 0.3]))
        assert frame.cell_at(world @ _vector(inside)) == cell
    corners = np.array(frame.box_corners((3, 2, 0), (1, 0, 0)))
    local = [(x, y, z) for z in (0.0, 1.0) for y in (-0.5, 2.5) for x in (0.5, 3.5)]
    assert np.allclose(corners, [tuple(world @ _vector(origin + size * c)) for c in np.array(local)],
                       atol=1e-4)


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
@pytest.mark.parametrize("change", ["every tile doubled", "one tile halved", "moved then rescaled"])
def test_regenerate_box_keeps_the_cells_of_a_room_whose_kit_tiles_were_rescaled(output: str, change: str) -> None:
    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.seed, settings.output = kit, (6, 5, 1), 1, output
    settings.origin = (2.0, 1.0, 0.5)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    size = np.array(room_collection()["strew_cell_size"])
    shift = np.array([7.0, -4.0, 0.0]) if change == "moved then rescaled" else np.zeros(3)
    for obj in room_collection().objects:
        obj.location = tuple(np.array(obj.location) + shift)
    tiles = sorted(kit.objects, key=lambda o: o.name)
    if change == "one tile halved":
        tiles[0].scale = (0.5, 0.5, 0.5)
    else:
        for tile in tiles:
            tile.scale = (2.0, 2.0, 2.0)
    bpy.context.view_layer.update()
    for seed in (2, 3, 4):
        assert bpy.ops.strew.regenerate_room_box(box_min=(1, 1, 0), box_max=(3, 3, 0), seed=seed) == {'FINISHED'}
        assert np.allclose(room_collection()["strew_cell_size"], size)
        if output == 'OBJECTS':
            for obj in room_collection().objects:
                expected = np.array(settings.origin) + shift + size * np.array(obj["strew_cell"])
                assert np.allclose(obj.matrix_world.translation, expected, atol=1e-4), obj.name
        else:
            obj = next(o for o in room_collection().objects if "strew_tiles" in o)
            cells = np.array([v.co for v in obj.data.vertices])
            assert np.allclose(cells / size, np.round(cells / size), atol=1e-5)


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_regenerate_box_keeps_the_parent_a_user_gave_the_room(output: str) -> None:
    from mathutils import Matrix

    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.seed, settings.output = kit, (6, 5, 1), 1, output
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    building = bpy.data.objects.new("Building", None)
    bpy.context.scene.collection.objects.link(building)
    building.location = (10.0, 0.0, 0.0)
    bpy.context.view_layer.update()
    for obj in room_collection().objects:  # parented where they stand, as Ctrl P does
        obj.parent = building
        obj.matrix_parent_inverse = building.matrix_world.inverted()
    building.rotation_euler.z = math.radians(30)
    bpy.context.view_layer.update()
    before = {cell: np.array(placed.matrix_world) for cell, (_t, _r, placed) in read_room().items()}
    assert bpy.ops.strew.regenerate_room_box(box_min=(1, 1, 0), box_max=(4, 3, 0), seed=5) == {'FINISHED'}
    bpy.context.view_layer.update()
    assert all(obj.parent == building for obj in room_collection().objects)
    after = read_room()
    for cell, (_tile, rotation, placed) in after.items():  # each tile where its cell stood, turned by its turn
        turned = Matrix.Rotation(math.radians(30 + rotation), 4, 'Z').to_3x3()
        assert np.allclose(placed.matrix_world[:3, 3], before[cell][:3, 3], atol=1e-5), cell
        assert np.allclose(placed.matrix_world[:3, :3], np.array(turned), atol=1e-5), cell
    building.location.y += 7.0  # and the whole room still follows the building
    bpy.context.view_layer.update()
    moved = read_room()
    assert all(np.allclose(moved[c][2].matrix_world[:3, 3], after[c][2].matrix_world[:3, 3] + (0.0, 7.0, 0.0),
                           atol=1e-5) for c in after)


def _vector(values):
    from mathutils import Vector

    return Vector(tuple(float(v) for v in values))


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_pick_box_finds_the_cell_under_the_mouse_on_the_real_geometry(output: str) -> None:
    """What Pick Box does per click: a ray from above hits the tile (instanced or real), the cell on the
    viewer's side of the hit is the tile's cell; points outside the room have no cell."""
    from mathutils import Vector

    from strew.scene.room_frame import cell_at, cell_box_corners

    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.seed, settings.output = kit, (5, 4, 1), 2, output
    settings.origin = (3.0, -2.0, 1.5)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    room = room_collection()
    size = np.asarray(room["strew_cell_size"])
    origin = np.asarray(settings.origin)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    down = Vector((0.0, 0.0, -1.0))
    rng = np.random.default_rng(5)
    for cell in np.ndindex(5, 4, 1):
        offset = rng.uniform(-0.45, 0.45, 2)
        top = origin + size * (cell[0] + offset[0], cell[1] + offset[1], cell[2]) + (0.0, 0.0, 50.0)
        hit, location, *_rest = bpy.context.scene.ray_cast(depsgraph, Vector(top), down)
        assert hit, (cell, top)
        assert cell_at(room, location - down * 1e-3) == cell
    outside = origin + size * (5.6, 1.0, 0.2)
    assert cell_at(room, outside) is None and cell_at(room, origin + size * (1.0, -0.6, 0.2)) is None
    corners = np.asarray(cell_box_corners(room, (3, 2, 0), (1, 0, 0)))
    assert np.allclose(corners.min(axis=0), origin + size * (0.5, -0.5, 0.0))
    assert np.allclose(corners.max(axis=0), origin + size * (3.5, 2.5, 1.0))


def test_pick_box_is_a_viewport_tool() -> None:
    kit = road_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size = kit, (3, 3, 1)
    assert not bpy.ops.strew.pick_room_box.poll()  # no room yet
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError, match="3D Viewport"):
        bpy.ops.strew.pick_room_box()  # the background has no 3D Viewport to click in
    assert scene_snapshot() == snapshot


# --- command line -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["--size", "-3", "4", "1"], "--size is -3; give a whole number from 1"),
    (["--size", "0", "0", "0"], "--size is 0; give a whole number from 1"),
    (["--cell-size", "0", "0", "0"], "--cell-size"), (["--max-restarts", "-1"], "--max-restarts is -1"),
    (["--time-limit", "0"], "--time-limit is 0; give a number ≥ 0.1"), (["--origin", "nan", "0", "0"], "origin"),
])
def test_command_line_refuses_bad_sizes_with_one_line_and_exit_2(tmp_path: Path, capsys, args, message) -> None:
    cli = module("cli")
    kit_path, out = tmp_path / "kit.blend", tmp_path / "room.blend"
    road_kit("Tiles")
    bpy.ops.wm.save_as_mainfile(filepath=str(kit_path))
    capsys.readouterr()
    assert cli.main(["room", str(kit_path), "--kit", "Tiles", *args, "-o", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and message in error and "Traceback" not in error
    assert not out.exists()


def test_command_line_heuristic_is_the_rooms_vocabulary_in_any_case(capsys) -> None:
    parser = module("cli").build_parser()
    vocab = module("core.wfc.vocab")
    for given in ("MRV", "mrv", "Scanline", "auto"):
        assert parser.parse_args(["room", "kit.blend", "--heuristic", given]).heuristic == vocab.Heuristic(given)
    with pytest.raises(SystemExit) as stop:  # the solver's own, not one a room offers
        parser.parse_args(["room", "kit.blend", "--heuristic", "grow"])
    error = capsys.readouterr().err
    assert stop.value.code == 2 and "invalid choice: 'GROW'" in error
    assert all(str(heuristic) in error for heuristic in vocab.ROOM_HEURISTICS)


def test_command_line_room_has_the_panels_options_and_reports_by_ownership(tmp_path: Path, capsys) -> None:
    cli = module("cli")
    kit_path, out = tmp_path / "kit.blend", tmp_path / "room.blend"
    road_kit("Tiles")
    user = bpy.data.collections.new("Strew Room")
    bpy.context.scene.collection.children.link(user)
    bpy.ops.wm.save_as_mainfile(filepath=str(kit_path))
    capsys.readouterr()
    assert cli.main(["room", str(kit_path), "--kit", "Tiles", "--size", "5", "4", "1", "--seed", "2",
                     "--max-restarts", "3", "--max-backtracks", "50", "--heuristic", "MRV", "--origin", "1", "2", "3",
                     "--counts", "junction=0; bend=2..*", "--real-objects", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "20 tiles in collection 'Strew Room.001'" in printed
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert len(bpy.data.collections["Strew Room"].objects) == 0
    room = read_room()
    assert len(room) == 20 and room_collection().name == "Strew Room.001"
    check_positions(room, (1.0, 2.0, 3.0), (3.0, 3.0, 3.0))
    assert all(p.obj is not None for _, _, p in room.values())
    tiles = [tile for tile, _, _ in room.values()]
    assert "junction" not in tiles and tiles.count("bend") >= 2


# --- Import mxgmn XML -----------------------------------------------------------------------------------------------

KNOTS = """<set>
  <tiles>
    <tile name="corner" symmetry="L" weight="0.5"/>
    <tile name="cross" symmetry="I" weight="0.5"/>
    <tile name="empty" symmetry="X"/>
    <tile name="line" symmetry="I"/>
    <tile name="hook" symmetry="F" weight="0.5"/>
  </tiles>
  <neighbors>
    <neighbor left="corner 1" right="empty"/><neighbor left="corner" right="cross"/>
    <neighbor left="corner" right="line"/><neighbor left="corner 1" right="line 1"/>
    <neighbor left="empty" right="empty"/><neighbor left="empty" right="line 1"/>
    <neighbor left="line" right="line"/><neighbor left="line" right="cross"/>
    <neighbor left="cross" right="cross"/><neighbor left="cross 1" right="cross 1"/>
    <neighbor left="hook" right="line"/><neighbor left="hook 1" right="empty"/><neighbor left="hook 2" right="empty"/>
    <neighbor left="hook 3" right="empty"/><neighbor left="empty" right="hook 1"/><neighbor left="empty" right="hook"/>
  </neighbors>
</set>"""


def test_imported_mxgmn_tileset_assembles_by_its_own_adjacency(tmp_path: Path) -> None:
    wfc = module("core.wfc")
    path = tmp_path / "Knots.xml"
    path.write_text(KNOTS)
    assert bpy.ops.strew.import_mxgmn(filepath=str(path)) == {'FINISHED'}
    kit = bpy.data.collections["Knots"]
    assert sorted(o["strew_mxgmn_tile"] for o in kit.objects) == ["corner", "cross", "empty", "hook", "line"]
    assert all(o.data.uv_layers for o in kit.objects)
    rules = wfc.load_mxgmn(KNOTS)
    variant = {(t, r, m): v for v, (t, r, m) in enumerate(zip(rules.tiles, rules.rotations, rules.reflected,
                                                                 strict=True))}
    for seed in (1, 2):
        assert bpy.ops.strew.assemble_room(size=(9, 8, 1), seed=seed, periodic=True) == {'FINISHED'}
        obj = room_collection().objects[0]
        n = len(obj.data.vertices)
        names = list(obj["strew_tiles"])
        values = {}
        for key, field, dtype in (("strew_cell", "vector", np.float32), ("strew_tile", "value", np.int32),
                                  ("strew_rotation", "value", np.int32), ("strew_mirror", "value", bool)):
            array = np.empty(n * (3 if key == "strew_cell" else 1), dtype=dtype)
            obj.data.attributes[key].data.foreach_get(field, array)
            values[key] = array
        cells = np.rint(values["strew_cell"].reshape(n, 3)).astype(int)
        grid = np.full((9, 8), -1)
        for (x, y, _), t, r, m in zip(cells, values["strew_tile"], values["strew_rotation"], values["strew_mirror"],
                                      strict=True):
            grid[x, y] = variant[(names[t], int(r), bool(m))]
        assert (grid >= 0).all()
        assert wfc.find_violations(rules, grid, periodic=True) == []
        dg = bpy.context.evaluated_depsgraph_get()
        flipped = [np.linalg.det(np.array(i.matrix_world)[:3, :3]) < 0 for i in dg.object_instances
                   if i.is_instance and i.parent and i.parent.original == obj]
        assert sum(flipped) == int(values["strew_mirror"].sum())
    with pytest.raises(RuntimeError, match="flat"):
        bpy.ops.strew.assemble_room(size=(4, 4, 2))
    bad = tmp_path / "bad.xml"
    bad.write_text("<set><tiles>")
    with pytest.raises(RuntimeError, match="not valid XML"):
        bpy.ops.strew.import_mxgmn(filepath=str(bad))


@pytest.mark.parametrize(("xml", "subset", "expected"), [
    ('<neighbor left="" right="a"/>', "two", r'<neighbor left="" right="a">: write left as a tile name'),
    ('<neighbor left="a" right="a 9"/>', "", r"orientation '9' in <neighbor"),
    ('<neighbor left="a b c" right="a"/>', "", "write left as a tile name"),
    ("".join(f'<tile name="t{i}" symmetry="F"/>' for i in range(8000)), "",
     r"64,00\d tile variants .* needs about 19\.\d GiB, more than the memory budget"),
])
def test_import_mxgmn_refuses_a_bad_or_oversized_tileset_in_one_line(tmp_path: Path, xml: str, subset: str,
                                                                     expected: str) -> None:
    tiles, neighbors = (xml, "") if xml.startswith("<tile") else ("", xml)
    path = tmp_path / "set.xml"
    path.write_text(f'<set><tiles><tile name="a"/><tile name="b"/>{tiles}</tiles><neighbors>{neighbors}'
                    '</neighbors><subsets><subset name="two"><tile name="a"/><tile name="b"/></subset></subsets></set>')
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=expected) as failure:
        bpy.ops.strew.import_mxgmn(filepath=str(path), subset=subset)
    assert "\n" not in str(failure.value).strip() and "Traceback" not in str(failure.value)
    assert scene_snapshot() == before


def test_command_line_files_room_and_kit_fail_cleanly_before_any_work(tmp_path: Path, capsys) -> None:
    cli = module("cli")
    kit_path = tmp_path / "kit.blend"
    road_kit("Tiles")
    bpy.ops.wm.save_as_mainfile(filepath=str(kit_path))
    kit_bytes = kit_path.read_bytes()
    text = tmp_path / "notes.blend"
    text.write_text("not a blend file")
    truncated = tmp_path / "truncated.blend"
    truncated.write_bytes(kit_bytes[: len(kit_bytes) // 3])
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    cases = [
        (["room", str(text), "--kit", "Tiles", "-o", str(tmp_path / "a.blend")], "not a readable .blend"),
        (["room", str(truncated), "--kit", "Tiles", "-o", str(tmp_path / "b.blend")], "not a readable .blend"),
        (["room", str(kit_path), "--kit", "Tiles", "-o", str(tmp_path)], "is a folder"),
        (["room", str(kit_path), "--kit", "Tiles", "-o", str(a_file / "room.blend")], "is a file"),
        (["room", str(kit_path), "--kit", "Tiles", "-o", str(kit_path)], "--in-place"),
        (["kit", str(a_file / "kit.blend")], "is a file"),
        (["kit", str(tmp_path)], "is a folder"),
    ]
    capsys.readouterr()
    for argv, message in cases:
        assert cli.main(argv) == 2, argv
        error = capsys.readouterr().err.strip()
        assert len(error.splitlines()) == 1 and message in error, (argv, error)
    assert kit_path.read_bytes() == kit_bytes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "kit.blend", "notes.blend", "truncated.blend"]
