"""Tile Rooms on any kit: the instancer output read back like a script would (and real objects), mirrored
tiles, defaults that work on a kit with labels of its own, flat kits, Detect Sockets round-tripping the demo
kit, UV maps."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from rooms_check import (
    OPPOSITE,
    border_violations,
    check_positions,
    fits,
    placed_tiles,
    read_room,
    room_collection,
    source_tile,
    turn,
    violations,
    walkable_regions,
)
from rooms_kits import adjacent_pairs, module, pairs, plane, road_kit

# --- output: one instancer object by default, real objects as an option ------------------------------------------


def test_instancer_and_real_objects_hold_the_same_room_and_a_script_reads_both() -> None:
    kit = road_kit()
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(9, 7, 1), seed=4) == {'FINISHED'}
    room = room_collection()
    assert len(room.objects) == 1  # one object per room
    instancer = room.objects[0]
    assert instancer.modifiers[0].type == 'NODES' and instancer["strew_tiles"]
    as_instances = read_room()  # point attributes, checked against what Geometry Nodes instances at each cell
    check_positions(as_instances, (0, 0, 0), (3.0, 3.0, 3.0))
    tiles = placed_tiles(as_instances, kit)
    assert violations(tiles, (9, 7, 1), set()) == []
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(9, 7, 1), seed=4, output='OBJECTS') == {'FINISHED'}
    as_objects = read_room()
    assert len(room_collection().objects) == 63
    assert {c: v[:2] for c, v in as_objects.items()} == {c: v[:2] for c, v in as_instances.items()}
    for cell, (_, _, placed) in as_objects.items():
        np.testing.assert_allclose(placed.matrix_world, as_instances[cell][2].matrix_world, atol=1e-5)
    # Clearing removes Strew's data-blocks (points mesh, tile set) and nothing of the kit.
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(5, 5, 1), seed=4) == {'FINISHED'}
    assert bpy.ops.strew.clear_room() == {'FINISHED'}
    assert not [block for blocks in (bpy.data.objects, bpy.data.meshes, bpy.data.collections)
                for block in blocks if block.get("strew_owner") == "room"]
    assert sorted(o.name for o in kit.objects) == ["bend", "junction", "street", "verge"]


def test_mirrored_variants_are_negative_scale_in_both_modes() -> None:
    wfc, room_job, room_kit = module("core.wfc"), module("scene.room_job"), module("scene.room_kit")
    kit = road_kit()
    parsed = room_kit.read_kit(kit)
    ones = np.ones((3, 3), dtype=bool)
    rules = wfc.Rules(weights=np.ones(3), allowed={"e": ones, "n": ones}, tiles=("bend", "bend", "street"),
                      rotations=(0, 90, 90), reflected=(False, True, True))
    grid = np.array([[0, 1], [2, 1]]).reshape(2, 2, 1)
    for output in ('INSTANCES', 'OBJECTS'):
        params = room_job.RoomParams(kit=kit.name, size=(2, 2, 1), output=output, origin=(10.0, 0.0, 0.0))
        plan = room_job.Plan(parsed, rules, grid, 0, 0)
        for _ in room_job.build_steps(bpy.context.scene, plan, params.destination):
            pass
        placed = read_room()
        for cell, (tile, rotation, p) in placed.items():
            v = int(grid[cell])
            assert (tile, rotation) == (rules.tiles[v], rules.rotations[v])
            det = np.linalg.det(p.matrix_world[:3, :3])
            assert (det < 0) == rules.reflected[v], (output, cell, det)
            # mirrored: x -> -x before the turn, so the turned local x axis is reversed
            a = np.radians(rotation)
            x_axis = p.matrix_world[:3, 0] / np.linalg.norm(p.matrix_world[:3, 0])
            sign = -1.0 if rules.reflected[v] else 1.0
            np.testing.assert_allclose(x_axis[:2], sign * np.array([np.cos(a), np.sin(a)]), atol=1e-6)


def test_a_users_collection_named_like_the_room_is_never_filled_or_reported() -> None:
    kit = road_kit()
    user = bpy.data.collections.new("Strew Room")
    bpy.context.scene.collection.children.link(user)
    user.objects.link(bpy.data.objects.new("mine", None))
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(4, 4, 1), seed=1) == {'FINISHED'}
    assert [o.name for o in user.objects] == ["mine"] and "strew_owner" not in user
    assert room_collection() is not user and len(read_room()) == 16
    assert bpy.ops.strew.clear_room() == {'FINISHED'}
    assert [o.name for o in user.objects] == ["mine"] and user.name == "Strew Room"


# --- defaults that work on any kit ------------------------------------------------------------------------------


def test_a_bare_call_assembles_on_a_kit_without_the_label_wall() -> None:
    """The documented call on a kit whose labels are its own: Closed Room is off unless asked for."""
    kit = road_kit("Tiles")
    assert bpy.ops.strew.assemble_room(kit="Tiles", size=(10, 10, 1), seed=3) == {'FINISHED'}
    room = read_room()
    assert sorted(room) == sorted(np.ndindex(10, 10, 1))
    assert violations(placed_tiles(room, kit), (10, 10, 1), set()) == []
    # A border the kit has is honoured when asked for; one it lacks is refused with the label named.
    assert bpy.ops.strew.assemble_room(kit="Tiles", size=(6, 6, 1), seed=3, border="verge") == {'FINISHED'}
    assert border_violations(placed_tiles(read_room(), kit), (6, 6, 1), ["verge"], set()) == []
    with pytest.raises(RuntimeError, match="Border 'wall'"):
        bpy.ops.strew.assemble_room(kit="Tiles", size=(6, 6, 1), border="wall")


def test_the_demo_kit_turns_closed_room_on() -> None:
    assert bpy.context.scene.strew.room.use_border is False
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    room = bpy.context.scene.strew.room
    assert room.use_border and room.border == "wall, window"


def test_flat_kits_take_cubic_cells_and_detect_their_sockets() -> None:
    kit = road_kit()
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(6, 5, 2), seed=2) == {'FINISHED'}
    room = read_room()
    check_positions(room, (0, 0, 0), (3.0, 3.0, 3.0))  # flat tiles: height = width
    # Detect Sockets on the planes: the labels it finds keep roads joined to roads.
    for obj in kit.objects:
        del obj["strew_sockets"]
    settings = bpy.context.scene.strew.room
    settings.kit = kit
    assert bpy.ops.strew.detect_sockets() == {'FINISHED'}
    hand = {"verge": "vvvv", "street": "avav", "bend": "aavv", "junction": "aaav"}
    for obj in kit.objects:
        detected = [getattr(obj.strew, f"socket_{s}") for s in "nesw"]
        kinds = hand[obj.name]
        for i in range(4):
            for j in range(4):
                assert (detected[i] == detected[j]) == (kinds[i] == kinds[j]), (obj.name, detected)
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(8, 8, 1), seed=5) == {'FINISHED'}
    for cell, side, a, b in adjacent_pairs(read_room()):
        sa = hand[a[0]][(("n", "e", "s", "w").index(_turned_side(side, -a[1])))]
        sb = hand[b[0]][(("n", "e", "s", "w").index(_turned_side(OPPOSITE[side], -b[1])))]
        assert sa == sb, (cell, side, a[:2], b[:2])


def test_markings_a_millimetre_up_keep_a_kit_flat() -> None:
    kit = road_kit()
    cell_size = module("scene.room_kit").bounds_cell_size
    street = kit.objects["street"]
    street.data.vertices[-1].co.z = 0.001  # a road marking lifted against z-fighting
    assert cell_size(list(kit.objects)) == (3.0, 3.0, 3.0)
    street.data.vertices[-1].co.z = 0.1  # a kerb: 3 % of the width is a height
    assert cell_size(list(kit.objects)) == (3.0, 3.0, 0.1)


def _turned_side(side: str, degrees: int) -> str:
    order = ("e", "n", "w", "s")
    return order[(order.index(side) + degrees // 90) % 4]


# --- Detect Sockets round-trips the demo kit --------------------------------------------------------------------


def test_detect_sockets_on_the_demo_kit_assembles_rooms_the_hand_set_sockets_allow() -> None:
    """Detect Sockets, then the kit's own settings (12 × 12 × 2, every walkable cell connected): every adjacency
    the detected labels allow also fits by hand; a railing and the air beyond it still fit each other."""
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    kit = bpy.data.collections["Tiles"]
    hand = {obj.name: source_tile(obj) for obj in kit.objects}
    compatible = pairs(kit["strew_compatible"])
    bpy.context.scene.strew.room.use_border = False  # Border is tested below; here every side may face out
    assert bpy.ops.strew.detect_sockets() == {'FINISHED'}  # no warning either: nothing leaves its cell sideways
    detected = {obj.name: source_tile(obj) for obj in kit.objects}
    assert any(detected[n]["sockets"] != hand[n]["sockets"] for n in hand)
    assert "strew_sockets" not in kit.objects["air"]  # keeps its up/down, so its settings say "set"
    found = {label for tile in detected.values() for label in tile["sockets"].values()}
    twins = {frozenset((label.rstrip("~"), label.rstrip("~") + "~")) for label in found if label.startswith("m")}
    # Every railing side against every side of every tile, in every pairing: fits by the detected labels exactly
    # when it fits by hand (the railings stand off the side, so a railing side reads as open to the void).
    for a, b in ((a, b) for a in hand for b in hand):
        for side_a in ("n", "e", "s", "w"):
            if hand[a]["sockets"][side_a] != "rail":
                continue
            for side_b in ("n", "e", "s", "w"):
                by_hand = fits(hand[a]["sockets"][side_a], hand[b]["sockets"][side_b], compatible)
                by_detect = fits(detected[a]["sockets"][side_a], detected[b]["sockets"][side_b], twins)
                assert by_hand == by_detect, (a, side_a, b, side_b)
    assert bpy.context.scene.strew.room.connected
    size = (12, 12, 2)
    for seed in (3, 4):
        assert bpy.ops.strew.assemble_room(size=size, seed=seed) == {'FINISHED'}
        room = read_room()
        assert len({tile for tile, _, _ in room.values()}) >= 15  # rooms, not one family of tiles
        by_hand = {cell: turn(hand[tile], rotation) for cell, (tile, rotation, _) in room.items()}
        assert violations(by_hand, size, compatible) == []  # every adjacency the detected labels allowed, hand-set fit
        assert len(walkable_regions(by_hand)) == 1


def test_detect_sockets_keeps_the_closed_room_closed() -> None:
    """The demo kit's "+" turns Closed Room on (border "wall, window", ground below, sky above); after Detect
    Sockets the border field names the detected labels of the same sides, so the room still assembles and every
    outer side is one the hand-set labels called a wall or a window."""
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    kit = bpy.data.collections["Tiles"]
    hand = {obj.name: source_tile(obj) for obj in kit.objects}
    room = bpy.context.scene.strew.room
    assert room.use_border and room.border == "wall, window"
    assert bpy.ops.strew.detect_sockets() == {'FINISHED'}
    assert "wall" not in room.border  # the sides' new labels; up and down were not detected, so they stay
    assert (room.border_bottom, room.border_top) == ("ground", "sky")
    size = (6, 5, 2)
    assert bpy.ops.strew.assemble_room(size=size, seed=2, connected=False) == {'FINISHED'}
    placed = read_room()
    assert len(placed) == 6 * 5 * 2
    for (x, y, z), (tile, rotation, _) in placed.items():
        sockets = turn(hand[tile], rotation)["sockets"]
        outer = [side for side, edge in (("w", x == 0), ("e", x == size[0] - 1), ("s", y == 0),
                                         ("n", y == size[1] - 1)) if edge]
        assert all(sockets[side] in ("wall", "window") for side in outer), ((x, y, z), tile, sockets)


def test_an_empty_tile_gets_sockets_and_vertical_overhang_is_not_warned_about() -> None:
    kit = road_kit()
    void_mesh = bpy.data.meshes.new("void")
    void = bpy.data.objects.new("void", void_mesh)
    kit.objects.link(void)
    tall = plane("lamp", kit, 3.0, marks=[(-0.1, 0.1, -0.1, 0.1)])
    tall.data.vertices[-1].co.z = 4.5  # reaches into the cell above
    kit["strew_cell_size"] = (3.0, 3.0, 3.0)
    for obj in kit.objects:
        obj.pop("strew_sockets", None)
    bpy.context.scene.strew.room.kit = kit
    assert bpy.ops.strew.detect_sockets(vertical=True) == {'FINISHED'}
    assert dict(void["strew_sockets"].to_dict()) == {s: "" for s in ("n", "e", "s", "w", "up", "down")}
    assert not module("scene.room_kit").tiles_off_cell([tall], (3.0, 3.0, 3.0), 0.01, vertical=False)
    assert module("scene.room_kit").tiles_off_cell([tall], (3.0, 3.0, 3.0), 0.01)


def test_every_demo_tile_has_a_uv_map() -> None:
    assert bpy.ops.strew.build_demo_kit() == {'FINISHED'}
    for obj in bpy.data.collections["Tiles"].objects:
        mesh = obj.data
        assert mesh.uv_layers.active is not None, obj.name
        if not len(mesh.polygons):
            continue
        uv = np.empty(len(mesh.loops) * 2)
        mesh.uv_layers.active.data.foreach_get("uv", uv)
        uv = uv.reshape(-1, 2)
        sizes = np.empty(len(mesh.polygons), dtype=np.int64)
        mesh.polygons.foreach_get("loop_total", sizes)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        for start, size in zip(starts, sizes, strict=True):  # every face spans some area in UV space
            corners = uv[start:start + size]
            assert np.ptp(corners[:, 0]) > 0 and np.ptp(corners[:, 1]) > 0, obj.name



def test_realized_mirrored_tiles_face_outwards_after_flip_faces_on_strew_mirror() -> None:
    """The documented recipe: Realize Instances keeps each face's winding, so a mirrored (negative scale) tile
    comes out inside-out until Flip Faces runs on the faces whose ``strew_mirror`` is set."""
    wfc, room_job, room_kit = module("core.wfc"), module("scene.room_job"), module("scene.room_kit")
    kit = bpy.data.collections.new("Wedges")
    bpy.context.scene.collection.children.link(kit)
    # A wedge: asymmetric in x, closed, faces wound outwards.
    vertices = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0), (1, -1, 2), (1, 1, 2)]
    faces = [(0, 3, 2, 1), (0, 1, 4), (3, 5, 2), (1, 2, 5, 4), (0, 4, 5, 3)]
    mesh = bpy.data.meshes.new("wedge")
    mesh.from_pydata(vertices, [], faces)
    wedge = bpy.data.objects.new("wedge", mesh)
    kit.objects.link(wedge)
    wedge["strew_sockets"] = {side: "x" for side in "nesw"}
    ones = np.ones((2, 2), dtype=bool)
    rules = wfc.Rules(weights=np.ones(2), allowed={"e": ones, "n": ones}, tiles=("wedge", "wedge"),
                      rotations=(90, 90), reflected=(False, True))
    grid = np.array([0, 1, 1, 0]).reshape(2, 2, 1)
    params = room_job.RoomParams(kit=kit.name, size=(2, 2, 1), cell_size=(2.0, 2.0, 2.0))
    plan = room_job.Plan(room_kit.read_kit(kit, "", (2.0, 2.0, 2.0)), rules, grid, 0, 0)
    for _ in room_job.build_steps(bpy.context.scene, plan, params.destination):
        pass
    room = room_collection().objects[0]
    tree = bpy.data.node_groups.new("Realize", 'GeometryNodeTree')
    tree.interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')
    info, realize = tree.nodes.new('GeometryNodeObjectInfo'), tree.nodes.new('GeometryNodeRealizeInstances')
    flip, mirrored = tree.nodes.new('GeometryNodeFlipFaces'), tree.nodes.new('GeometryNodeInputNamedAttribute')
    out = tree.nodes.new('NodeGroupOutput')
    info.inputs['Object'].default_value = room
    mirrored.data_type, mirrored.inputs['Name'].default_value = 'BOOLEAN', "strew_mirror"
    for a, b in ((info.outputs['Geometry'], realize.inputs[0]), (realize.outputs[0], flip.inputs[0]),
                 (mirrored.outputs['Attribute'], flip.inputs['Selection']), (flip.outputs[0], out.inputs[0])):
        tree.links.new(a, b)
    holder = bpy.data.objects.new("holder", bpy.data.meshes.new("holder"))
    bpy.context.scene.collection.objects.link(holder)
    holder.modifiers.new("Realize", 'NODES').node_group = tree
    evaluated = holder.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh()
    assert len(evaluated.polygons) == 4 * len(faces)
    for polygon in evaluated.polygons:  # every face of every wedge points away from a point inside that wedge
        x, y = divmod(polygon.index // len(faces), 2)  # realized in point order: cells x-major
        # inside point (0.4, 0, 0.6) of the wedge, mirrored (x -> -x) or not, then turned 90°: (0, ±0.4, 0.6)
        inside = np.array([x * 2.0, y * 2.0 + (0.4 if grid[x, y, 0] == 0 else -0.4), 0.6])
        centre = np.array(polygon.center)
        assert np.dot(np.array(polygon.normal), centre - inside) > 0, ((x, y), tuple(centre), tuple(polygon.normal))
    holder.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh_clear()


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_a_tile_marked_strew_mirror_is_placed_mirrored_by_negative_scale(output: str) -> None:
    """A shelf whose back ("back_l") fits only its mirror twin ("back_r"): shelves stand back to back with a
    mirrored one, which the room writes with a negative x scale and the flag strew_mirror."""
    wfc, room_kit = module("core.wfc"), module("scene.room_kit")
    kit = bpy.data.collections.new("Shelves")
    bpy.context.scene.collection.children.link(kit)
    kit["strew_cell_size"] = (2.0, 2.0, 2.0)
    kit["strew_compatible"] = "back_l=back_r"
    floor = plane("floor", kit, 2.0)
    floor["strew_sockets"] = {side: "open" for side in "nesw"}
    shelf = plane("shelf", kit, 2.0, marks=[(0.5, 1.0, -1.0, 0.2)])
    shelf["strew_sockets"] = {"n": "open", "e": "back_l", "s": "open", "w": "open"}
    shelf["strew_mirror"] = True
    assert bpy.ops.strew.assemble_room(kit="Shelves", size=(6, 6, 1), seed=2, counts="shelf=4..*", periodic=True,
                                       output=output) == {'FINISHED'}
    room = read_room()
    parsed = room_kit.read_kit(kit)
    rules = wfc.rules_from_tiles(parsed.tiles, compatible=parsed.compatible, dims=2)
    key = {(t, r, m): v for v, (t, r, m) in enumerate(zip(rules.tiles, rules.rotations, rules.reflected,
                                                            strict=True))}
    grid = np.full((6, 6), -1)
    mirrored = 0
    for (x, y, _), (tile, rotation, placed) in room.items():
        flipped = bool(np.linalg.det(placed.matrix_world[:3, :3]) < 0)
        grid[x, y] = key[(tile, rotation, flipped)]
        mirrored += flipped
    assert (grid >= 0).all() and wfc.find_violations(rules, grid, periodic=True) == []
    shelves = sum(tile == "shelf" for tile, _, _ in room.values())
    assert shelves >= 4 and 2 * mirrored == shelves  # (no edge) every shelf's back meets a mirrored one's


def test_a_tile_that_is_an_empty_instancing_a_collection_shows_its_parts_in_every_cell() -> None:
    kit = bpy.data.collections.new("Parts Kit")
    bpy.context.scene.collection.children.link(kit)
    parts = bpy.data.collections.new("parts")
    plane("slab", parts, 2.0)
    tile = bpy.data.objects.new("tile", None)
    tile.instance_type, tile.instance_collection = 'COLLECTION', parts
    kit.objects.link(tile)
    tile["strew_sockets"] = {side: "a" for side in "nesw"}
    assert bpy.ops.strew.assemble_room(kit=kit.name, size=(3, 2, 1), cell_size=(2.0, 2.0, 2.0),
                                       origin=(5.0, 0.0, 1.0)) == {'FINISHED'}
    room = room_collection().objects[0]
    depsgraph = bpy.context.evaluated_depsgraph_get()
    slabs = sorted(tuple(np.round(np.array(i.matrix_world)[:3, 3], 4)) for i in depsgraph.object_instances
                   if i.is_instance and i.instance_object.original.name == "slab" and i.parent
                   and i.parent.original == room)
    assert slabs == sorted((5.0 + 2.0 * x, 2.0 * y, 1.0) for x in range(3) for y in range(2))
