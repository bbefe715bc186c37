"""Set pieces: copies of kit tiles standing in the room's box become fixed cells. Checked against the scene: the
room writes nothing in a piece's cells, every other cell holds one tile, and every pair of neighbours fits, the
pieces' sockets read from their own world matrices; every refusal leaves the scene as it was."""

from __future__ import annotations

import itertools

import bpy
import numpy as np
import pytest
from rooms_check import placed_tiles, read_room, room_collection, violations
from rooms_kits import module, road_kit
from rooms_pieces import full_copy, instance_of, linked_copy, piece_sockets, place
from scenes import scene_snapshot

SHAPE = (6, 5, 1)
ORIGIN = (3.0, -2.0, 0.0)
SIZE = (3.0, 3.0, 3.0)  # the road kit: 3 m planes, a flat kit, so cubic cells


def _kit() -> bpy.types.Collection:
    kit = road_kit()
    kit.objects["junction"]["strew_mirror"] = True
    settings = bpy.context.scene.strew.room
    settings.kit, settings.size, settings.origin = kit, SHAPE, ORIGIN
    return kit


def _room_matrix() -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, 3] = ORIGIN
    return matrix


def _pieces(kit: bpy.types.Collection) -> dict[str, tuple]:
    """Four pieces of the four kinds, each with the cell it stands in."""
    tiles = kit.objects
    pieces = {
        "my bend": (place(linked_copy(tiles["bend"], "my bend"), tiles["bend"], ORIGIN, SIZE, (2, 1, 0), 90),
                    (2, 1, 0)),
        "street.001": (place(full_copy(tiles["street"]), tiles["street"], ORIGIN, SIZE, (4, 3, 0), 90), (4, 3, 0)),
        "mirrored": (place(linked_copy(tiles["junction"], "mirrored"), tiles["junction"], ORIGIN, SIZE, (1, 3, 0), 0,
                           mirror_axis=1), (1, 3, 0)),
        "verge asset": (place(instance_of(tiles["verge"], "verge asset"), tiles["verge"], ORIGIN, SIZE, (5, 0, 0)),
                        (5, 0, 0)),
    }
    assert pieces["street.001"][0].data.name == "street.001"
    return pieces


def _with_pieces(kit, pieces, room) -> dict:
    """Every cell's sockets: the room's tiles as read back, the pieces from their own matrices."""
    tiles = placed_tiles(room, kit)
    for obj, cell in pieces.values():  # each piece's tile: the instanced one, or its mesh's name before the copy number
        source = kit.objects["verge"] if obj.type == 'EMPTY' else kit.objects[obj.data.name.split(".")[0]]
        tiles[cell] = piece_sockets(obj, source, _room_matrix())
    return tiles


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_set_pieces_become_fixed_cells_and_the_room_fits_around_them(output: str, seed: int) -> None:
    kit = _kit()
    pieces = _pieces(kit)
    bpy.context.view_layer.update()
    before = {name: np.array(obj.matrix_world) for name, (obj, _cell) in pieces.items()}
    settings = bpy.context.scene.strew.room
    settings.seed, settings.output = seed, output
    for _ in range(2):  # again: the room's own objects of the first time are no set pieces
        assert bpy.ops.strew.assemble_room() == {'FINISHED'}
        room = read_room()
        cells = {cell for _obj, cell in pieces.values()}
        assert set(room) == set(np.ndindex(*SHAPE)) - cells  # no tile written where a piece stands
        tiles = _with_pieces(kit, pieces, room)
        assert sorted(tiles) == sorted(np.ndindex(*SHAPE))
        assert violations(tiles, SHAPE, set()) == []
        for name, (obj, _cell) in pieces.items():  # the pieces stay where they were, the user's
            bpy.context.view_layer.update()
            assert bpy.data.objects.get(name) is obj and np.array_equal(np.array(obj.matrix_world), before[name])
            assert obj.get("strew_owner") is None and room_collection() not in obj.users_collection
    recorded = module("scene.room_pieces").recorded(room_collection())
    assert sorted((p.name, p.cell) for p in recorded) == sorted((n, c) for n, (_o, c) in pieces.items())
    mirrored = next(p for p in recorded if p.name == "mirrored")
    assert mirrored.mirrored and mirrored.rotation == 180  # y negated = x negated, turned half round


def test_use_set_pieces_off_ignores_them_and_the_report_counts_them() -> None:
    kit = _kit()
    pieces = _pieces(kit)
    assert bpy.ops.strew.assemble_room(use_set_pieces=False) == {'FINISHED'}
    assert set(read_room()) == set(np.ndindex(*SHAPE))
    assert module("scene.room_pieces").recorded(room_collection()) == ()
    job = module("scene.room_job")
    params = job.RoomParams(kit=kit.name, size=SHAPE, origin=ORIGIN, seed=2)
    result = job.run_to_end(bpy.context.scene, params)
    assert result.pieces == tuple(sorted(pieces)) and "4 set piece(s) used" in result.pieces_line()
    assert result.placed == 30 - 4


def _off_grid(kit):
    obj = place(linked_copy(kit.objects["bend"], "loose"), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0))
    obj.location.x += 0.3
    return "loose", "off the grid"


def _turned(kit):
    place(linked_copy(kit.objects["bend"], "askew"), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0), 30)
    return "askew", "turned 30.0°"


def _tilted(kit):
    obj = place(linked_copy(kit.objects["bend"], "leaning"), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0))
    obj.rotation_euler.x = 0.2
    return "leaning", "tilted"


def _scaled(kit):
    obj = place(linked_copy(kit.objects["bend"], "big"), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0))
    obj.scale = (1.5, 1.5, 1.5)
    return "big", "scaled"


def _two_in_one_cell(kit):
    place(linked_copy(kit.objects["bend"], "first"), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0))
    place(linked_copy(kit.objects["verge"], "second"), kit.objects["verge"], ORIGIN, SIZE, (2, 2, 0))
    return "second", "both stand in cell (2, 2, 0)"


def _clash(kit):
    place(linked_copy(kit.objects["street"], "road"), kit.objects["street"], ORIGIN, SIZE, (2, 2, 0))  # n asphalt
    place(linked_copy(kit.objects["verge"], "lawn"), kit.objects["verge"], ORIGIN, SIZE, (2, 3, 0))  # s verge
    return "road", "cannot touch"


def _edited_copy(kit):
    obj = place(full_copy(kit.objects["bend"]), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0))
    obj.data.vertices[0].co.z += 0.5
    return "bend.001", "looks like a copy of tile 'bend'"


def _faces_the_border(kit):
    bpy.context.scene.strew.room.use_border = True
    bpy.context.scene.strew.room.border = "verge"
    place(linked_copy(kit.objects["street"], "exit"), kit.objects["street"], ORIGIN, SIZE, (2, 0, 0))  # s asphalt
    return "exit", "faces the room's border"


def _turn_not_allowed(kit):
    place(linked_copy(kit.objects["street"], "back"), kit.objects["street"], ORIGIN, SIZE, (2, 2, 0), 180)
    return "back", "does not allow"


def _mirror_not_allowed(kit):
    place(linked_copy(kit.objects["bend"], "flipped"), kit.objects["bend"], ORIGIN, SIZE, (2, 2, 0), 0, mirror_axis=0)
    return "flipped", "not used mirrored"


@pytest.mark.parametrize("make", [_off_grid, _turned, _tilted, _scaled, _two_in_one_cell, _clash, _edited_copy,
                                  _faces_the_border, _turn_not_allowed, _mirror_not_allowed],
                         ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("assembled", [False, True])
def test_a_piece_that_fits_no_cell_is_named_in_one_line_and_nothing_changes(make, assembled: bool) -> None:
    kit = _kit()
    if assembled:  # a room stands already: it stays as it was
        assert bpy.ops.strew.assemble_room(seed=4) == {'FINISHED'}
    name, words = make(kit)
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError) as error:
        bpy.ops.strew.assemble_room(seed=4)
    message = str(error.value).strip()
    assert name in message and words in message, message
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert scene_snapshot() == snapshot


def test_pieces_outside_the_box_and_other_objects_are_left_alone() -> None:
    kit = _kit()
    place(linked_copy(kit.objects["bend"], "far"), kit.objects["bend"], ORIGIN, SIZE, (9, 2, 0), 37)  # outside
    lamp = bpy.data.objects.new("lamp", bpy.data.lights.new("lamp", 'POINT'))
    bpy.context.scene.collection.objects.link(lamp)
    lamp.location = (ORIGIN[0] + 4.1, ORIGIN[1] + 3.3, 1.0)  # inside the box, off the grid: not a tile
    assert bpy.ops.strew.assemble_room(seed=1) == {'FINISHED'}
    assert set(read_room()) == set(np.ndindex(*SHAPE))


def test_regenerate_box_keeps_the_pieces_and_writes_nothing_in_their_cells() -> None:
    kit = _kit()
    pieces = _pieces(kit)
    assert bpy.ops.strew.assemble_room(seed=2) == {'FINISHED'}
    for seed in (3, 4):
        assert bpy.ops.strew.regenerate_room_box(box_min=(0, 0, 0), box_max=(5, 4, 0), seed=seed) == {'FINISHED'}
        room = read_room()
        assert set(room) == set(np.ndindex(*SHAPE)) - {cell for _obj, cell in pieces.values()}
        assert violations(_with_pieces(kit, pieces, room), SHAPE, set()) == []


def _cells_of(box) -> set:
    """The cells a world box of whole cells covers (cell c spans c ± ½ across, c … c + 1 up, 2 m cells)."""
    (x0, y0, z0), (x1, y1, z1) = (np.array(corner) / 2.0 for corner in box)
    return set(itertools.product(range(round(x0 + 0.5), round(x1 + 0.5)), range(round(y0 + 0.5), round(y1 + 0.5)),
                                 range(round(z0), round(z1))))


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_big_set_pieces_cover_their_cells_and_the_room_fills_the_rest(output: str) -> None:
    """A 2 x 2 hall (modelled at twice the size, scaled 0.5) turned 180° and a 1 x 2 gallery turned 90°, placed by
    hand: the pieces' own boxes and the room's drawn tiles cover every cell exactly once."""
    from mathutils import Matrix
    from test_rooms_big import big_kit, drawn_boxes, world_box

    kit = big_kit()
    hall, gallery = kit.objects["hall"], kit.objects["gallery"]
    pieces = []
    for tile, name, at, degrees in ((hall, "my hall", (3, 3, 0), 180), (gallery, "my gallery", (1, 0, 0), 90)):
        obj = linked_copy(tile, name)
        turn = Matrix.Rotation(np.radians(degrees), 4, 'Z')
        obj.matrix_world = Matrix.Translation(tuple(2.0 * c for c in at)) @ turn @ Matrix.Diagonal((*tile.scale, 1.0))
        pieces.append(obj)
    bpy.context.view_layer.update()
    size = (5, 4, 2)
    assert bpy.ops.strew.assemble_room(size=size, seed=3, output=output) == {'FINISHED'}
    boxes = [box for _tile, box in drawn_boxes(room_collection())]
    boxes += [world_box(obj, obj.matrix_world) for obj in pieces]
    seen: list = []
    for box in boxes:
        seen += sorted(_cells_of(box))
    assert len(seen) == len(set(seen)), "two tiles cover one cell"
    assert set(seen) == set(itertools.product(*(range(s) for s in size)))
    recorded = {p.name: (p.cell, p.footprint) for p in module("scene.room_pieces").recorded(room_collection())}
    assert recorded == {"my hall": ((2, 2, 0), (2, 2, 1)), "my gallery": ((0, 0, 0), (2, 1, 1))}
    # and one reaching outside the room is refused, naming it
    pieces[0].location.x -= 6.0  # its origin in cell (0, 3, 0), turned half round: it covers x = -1 … 0
    snapshot = scene_snapshot()
    with pytest.raises(RuntimeError, match=r"'my hall'.*reaches outside the room"):
        bpy.ops.strew.assemble_room(size=size, seed=3, output=output)
    assert scene_snapshot() == snapshot


def test_grow_keeps_the_set_pieces_fixed_and_renumbered() -> None:
    kit = _kit()
    pieces = _pieces(kit)
    assert bpy.ops.strew.assemble_room(seed=5) == {'FINISHED'}
    assert bpy.ops.strew.grow_room(side='-X', cells=2, seed=6) == {'FINISHED'}
    shape = (SHAPE[0] + 2, SHAPE[1], SHAPE[2])
    moved = {name: (obj, (cell[0] + 2, cell[1], cell[2])) for name, (obj, cell) in pieces.items()}
    room = read_room()
    assert set(room) == set(np.ndindex(*shape)) - {cell for _obj, cell in moved.values()}
    tiles = placed_tiles(room, kit)
    origin = np.eye(4)
    origin[:3, 3] = np.array(ORIGIN) - np.array([2 * SIZE[0], 0.0, 0.0])
    for obj, cell in moved.values():
        source = kit.objects["verge"] if obj.type == 'EMPTY' else kit.objects[obj.data.name.split(".")[0]]
        tiles[cell] = piece_sockets(obj, source, origin)
    assert violations(tiles, shape, set()) == []
    recorded = module("scene.room_pieces").recorded(room_collection())
    assert sorted((p.name, p.cell) for p in recorded) == sorted((n, c) for n, (_o, c) in moved.items())


def test_command_line_assembles_around_the_set_pieces_of_the_file(tmp_path, capsys) -> None:
    cli = module("cli")
    kit = _kit()
    pieces = _pieces(kit)
    path, out = tmp_path / "pieces.blend", tmp_path / "room.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    capsys.readouterr()
    assert cli.main(["room", str(path), "--seed", "2", "-o", str(out)]) == 0
    assert "4 set piece(s) used" in capsys.readouterr().out
    bpy.ops.wm.open_mainfile(filepath=str(out))
    cells = {cell for _obj, cell in pieces.values()}
    assert set(read_room()) == set(np.ndindex(*SHAPE)) - cells
    assert cli.main(["room", str(path), "--seed", "2", "--no-set-pieces", "-o", str(out)]) == 0
    bpy.ops.wm.open_mainfile(filepath=str(out))
    assert set(read_room()) == set(np.ndindex(*SHAPE))
    bpy.ops.wm.open_mainfile(filepath=str(path))
    bpy.data.objects["my bend"].location.x += 0.4
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    capsys.readouterr()
    refused = tmp_path / "refused.blend"
    assert cli.main(["room", str(path), "--seed", "2", "-o", str(refused)]) == 2
    error = capsys.readouterr().err.strip()
    assert "'my bend'" in error and "off the grid" in error and len(error.splitlines()) == 1
    assert not refused.exists()


class _Recording:
    """Stands in for a UILayout: keeps every label and every property row drawn."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.props: list[str] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self

    def label(self, text: str = "", **kwargs) -> None:
        self.labels.append(text)

    def prop(self, data, name: str, **kwargs) -> None:
        self.props.append(name)


def test_the_panel_shows_use_set_pieces_and_how_many_the_room_was_built_around() -> None:
    panels = module("panels.rooms")
    kit = _kit()
    _pieces(kit)
    context = type("Context", (), {"scene": bpy.context.scene})()
    layout = _Recording()
    panels.STREW_PT_rooms.draw(type("Panel", (), {"layout": layout})(), context)
    assert "use_set_pieces" in layout.props and not any("set piece" in text for text in layout.labels)
    assert bpy.ops.strew.assemble_room(seed=1) == {'FINISHED'}
    layout = _Recording()
    panels.STREW_PT_rooms.draw(type("Panel", (), {"layout": layout})(), context)
    assert "Built around 4 set piece(s)" in layout.labels
    layout = _Recording()
    panels.STREW_PT_rooms_edit.draw(type("Panel", (), {"layout": layout})(), context)
    assert {"grow_side", "grow_cells"} <= set(layout.props)


def _decoded(obj: bpy.types.Object, kit: bpy.types.Collection) -> dict:
    """A piece's sockets in the room, from its own world matrix: its turn read off its x axis (negated when the
    determinant is negative: mirrored), the kit tile's labels turned (and mirrored) by the checks' own rules."""
    from rooms_check import mirror, source_tile, turn

    matrix = np.array(obj.matrix_world)
    axis = matrix[:3, 0] / np.linalg.norm(matrix[:3, 0])
    mirrored = np.linalg.det(matrix[:3, :3]) < 0
    if mirrored:
        axis = -axis
    degrees = round(float(np.degrees(np.arctan2(axis[1], axis[0]))) / 90.0) * 90 % 360
    source = source_tile(kit.objects[obj.data.name])
    return turn(mirror(source) if mirrored else source, degrees)


def test_demo_kit_set_pieces_copied_from_a_room_on_two_storeys() -> None:
    """Copies of a room's own tiles (walls, corners, doors, stairs …, turned) left standing as set pieces: a room
    with another seed is assembled around them; every pair of neighbours fits, up and down included."""
    from rooms_kits import demo_kit

    kit = demo_kit()
    settings = bpy.context.scene.strew.room
    size = (6, 5, 2)
    settings.kit, settings.size, settings.output = kit, size, 'OBJECTS'
    options = dict(border="wall, window", border_bottom="ground", border_top="sky", connected=False)
    assert bpy.ops.strew.assemble_room(seed=2, **options) == {'FINISHED'}
    first = read_room()
    chosen = [(0, 0, 0), (5, 4, 1), (2, 0, 1), (3, 2, 0), (0, 3, 0), (4, 4, 0)]
    for k, cell in enumerate(chosen):  # Alt D of the kit tile, placed where the room had it
        tile, _rotation, placed = first[cell]
        linked_copy(kit.objects[tile], f"piece {k}").matrix_world = placed.obj.matrix_world.copy()
    bpy.ops.strew.clear_room()
    bpy.context.view_layer.update()
    for seed in (5, 6):
        assert bpy.ops.strew.assemble_room(seed=seed, **options) == {'FINISHED'}
        room = read_room()
        assert set(room) == set(np.ndindex(*size)) - set(chosen)
        tiles = placed_tiles(room, kit)
        for k, cell in enumerate(chosen):
            tiles[cell] = _decoded(bpy.data.objects[f"piece {k}"], kit)
            assert tiles[cell]["sockets"] == placed_tiles({cell: first[cell]}, kit)[cell]["sockets"]
        assert violations(tiles, size, {frozenset(("ceil", "floor")), frozenset(("ceil", "void")),
                                        frozenset(("ceil", "sky")), frozenset(("ground", "floor"))}) == []
