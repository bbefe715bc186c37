"""Tile Rooms' options in real Blender: one-storey sockets, tile counts, mirrored tiles, and the panels."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from rooms_check import check_positions, placed_tiles, read_room, violations
from rooms_kits import boxes_object, check_room, demo_kit, hand_kit, module


def test_one_storey_room_with_the_issues_sockets() -> None:
    """The issue's example tile (up "" / down "floor") in a one-storey room: up/down only pick the tiles."""
    kit = bpy.data.collections.new("Tiles")
    bpy.context.scene.collection.children.link(kit)
    for name, sockets in (
        ("door_tile", {"n": "wall", "e": "door", "s": "wall", "w": "open", "up": "", "down": "floor"}),
        ("open_tile", {"n": "open", "e": "open", "s": "open", "w": "open", "up": "", "down": "floor"}),
        ("wall_tile", {"n": "wall", "e": "wall", "s": "open", "w": "open", "up": "", "down": "floor"}),
        ("hall_tile", {"n": "wall", "e": "open", "s": "wall", "w": "open", "up": "", "down": "floor"}),
        ("doorway", {"n": "wall", "e": "door", "s": "wall", "w": "door", "up": "", "down": "floor"}),
        ("sky_tile", {"n": "open", "e": "open", "s": "open", "w": "open", "up": "", "down": "cloud"}),
    ):
        obj = boxes_object(name, [(-1, 1, -1, 1, 0, 0.1)], kit)
        obj["strew_sockets"] = sockets
    kit.objects["door_tile"]["strew_weight"] = 2.0
    kit["strew_cell_size"] = (2.0, 2.0, 2.0)
    assert bpy.ops.strew.assemble_room(kit="Tiles", size=(12, 12, 1), seed=3, border="wall", border_bottom="floor",
                                       fixed="door_tile@90 5 5 0") == {'FINISHED'}
    checked = check_room(kit, (12, 12, 1), (0, 0, 0), (2.0, 2.0, 2.0), set(), border=["wall"])
    assert checked["room"][(5, 5, 0)][:2] == ("door_tile", 90)
    assert "sky_tile" not in {tile for tile, _, _ in checked["room"].values()}  # its bottom does not fit "floor"
    # Two storeys of the same kit: the empty tops fit no "floor" bottom, which the error names.
    with pytest.raises(RuntimeError, match="door_tile"):
        bpy.ops.strew.assemble_room(kit="Tiles", size=(4, 4, 2), seed=3, border="wall")


class _CheckingLayout:
    """Stands in for a UILayout: every prop and operator a panel draws must exist."""

    def __init__(self) -> None:
        self.props: list[str] = []
        self.operators: list[str] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self  # row, column, box, separator, label…

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, name, value)

    def prop(self, data, name: str, **kwargs):
        assert name in data.bl_rna.properties, f"{type(data).__name__} has no property {name!r}"
        self.props.append(name)

    def operator(self, idname: str, **kwargs):
        module, name = idname.split(".")
        assert name in dir(getattr(bpy.ops, module)), f"no operator {idname}"
        self.operators.append(idname)
        rna = getattr(getattr(bpy.ops, module), name).get_rna_type()

        class Properties:
            def __setattr__(self, key, value):
                assert key in rna.properties, f"{idname} has no property {key!r}"

        return Properties()

    def template_list(self, listtype, list_id, data, propname, active_data, active_propname, **kwargs):
        assert propname in data.bl_rna.properties and active_propname in active_data.bl_rna.properties


def test_panels_draw_existing_properties_and_operators() -> None:
    panels = module("panels.rooms")
    kit = demo_kit()
    room = bpy.context.scene.strew.room
    assert bpy.ops.strew.fixed_tile_add() == {'FINISHED'}
    room.fixed[0].tile = kit.objects["floor"]
    assert bpy.ops.strew.entrance_add() == {'FINISHED'}
    assert bpy.ops.strew.region_add() == {'FINISHED'}
    tile = kit.objects["wall_door"]
    tile["strew_weight"] = 3.0  # the panel then says the custom property wins
    context = type("Context", (), {"scene": bpy.context.scene, "object": tile, "active_object": tile})()
    drawn = _CheckingLayout()
    for panel in (panels.STREW_PT_rooms, panels.STREW_PT_rooms_rules, panels.STREW_PT_rooms_entrances,
                  panels.STREW_PT_rooms_search, panels.STREW_PT_tile, panels.STREW_PT_rooms_tile):
        fake = type("Panel", (), {"layout": drawn})()
        panel.draw(fake, context)
    assert {"kit", "size", "seed", "connected", "socket_n", "socket_down", "rotations", "walkable", "separation",
            "max_runs", "symmetry"} <= set(drawn.props)
    assert "weight" not in drawn.props
    assert {"strew.assemble_room", "strew.clear_room", "strew.detect_sockets", "strew.entrance_add",
            "strew.pick_room_cell"} <= set(drawn.operators)
    assert "cell" in drawn.props
    regions = _CheckingLayout()
    panels.STREW_PT_rooms_regions.draw(type("Panel", (), {"layout": regions})(), context)
    assert {"volume", "box_min", "tiles", "only", "weight"} <= set(regions.props)
    assert {"strew.region_add", "strew.region_remove", "strew.pick_room_box"} <= set(regions.operators)
    assert bpy.ops.strew.fixed_tile_remove() == {'FINISHED'} and len(room.fixed) == 0


def test_counts_bound_how_often_a_tile_appears() -> None:
    kit = hand_kit()
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border = kit, True, "grass"
    for seed in range(3):
        assert bpy.ops.strew.assemble_room(size=(9, 7, 1), seed=seed, counts="cross=2; turn=6..10") == {'FINISHED'}
        checked = check_room(kit, (9, 7, 1), (0, 0, 0), (2.0, 2.0, 1.0), set(), border=["grass"])
        kinds = [tile for tile, _, _ in checked["room"].values()]
        assert kinds.count("cross") == 2 and 6 <= kinds.count("turn") <= 10
    # The panel's field is read when the caller leaves it unset.
    settings.counts = "straight=0"
    assert bpy.ops.strew.assemble_room(size=(6, 6, 1), seed=1) == {'FINISHED'}
    assert "straight" not in {tile for tile, _, _ in read_room().values()}


def test_mirrored_tiles_are_placed_with_a_negative_scale_and_still_fit() -> None:
    kit = hand_kit()
    dead_end = boxes_object("dead end", [(-1, 1, -1, 1, 0, 0.1), (-0.2, 0.6, -0.2, 0.2, 0.1, 0.2)], kit)
    dead_end["strew_sockets"] = {"n": "grass", "e": "road", "s": "grass", "w": "grass"}
    dead_end["strew_rotations"] = [0]  # only its mirror can point the road west
    dead_end["strew_mirror"] = True
    dead_end["strew_weight"] = 4.0
    assert bpy.ops.strew.assemble_room(kit=kit.name, border="grass", size=(10, 8, 1), seed=5) == {'FINISHED'}
    room = read_room()
    tiles = placed_tiles(room, kit)
    assert violations(tiles, (10, 8, 1), set()) == []
    check_positions(room, (0, 0, 0), (2.0, 2.0, 1.0))
    mirrored = [p for tile, _, p in room.values() if tile == "dead end" and p.mirrored]
    assert mirrored, "the mirrored dead end (road to the west) should appear"
    for p in mirrored:
        assert np.linalg.det(p.matrix_world[:3, :3]) < 0
    assert not any(p.mirrored for tile, _, p in room.values() if tile != "dead end")
