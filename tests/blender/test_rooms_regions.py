"""Tile Rooms' regions in real Blender: a box of cells or a mesh volume that allows only some tiles or weighs them
otherwise, read back from the placed room cell by cell; Pick Box for a region, Regenerate Box, save and reload,
the command line, and bad or impossible regions in one line with the scene unchanged."""

from __future__ import annotations

import math
from pathlib import Path

import bpy
import numpy as np
import pytest
from rooms_check import placed_tiles, read_room, violations
from rooms_kits import box, hand_kit, mesh_object, module
from scenes import scene_snapshot

SIZE = (10, 8, 1)
CELL = (2.0, 2.0, 1.0)


def _panel(kit: bpy.types.Collection) -> bpy.types.PropertyGroup:
    settings = bpy.context.scene.strew.room
    settings.kit, settings.use_border, settings.border, settings.size = kit, True, "grass", SIZE
    return settings


def _region(settings, name: str, low, high, tiles: str, only: bool = False, weight: float = 1.0, volume=None):
    assert bpy.ops.strew.region_add() == {'FINISHED'}
    region = settings.regions[settings.active_region_index]
    region.name, region.box_min, region.box_max, region.tiles, region.only, region.weight = (
        name, low, high, tiles, only, weight)
    region.volume = volume
    return region


def _in_box(cell, low, high) -> bool:
    return all(a <= c <= b for a, c, b in zip(low, cell, high, strict=True))


@pytest.mark.parametrize("output", ['INSTANCES', 'OBJECTS'])
def test_every_cell_of_a_region_holds_only_its_tiles(output: str) -> None:
    kit = hand_kit()
    settings = _panel(kit)
    settings.output = output
    _region(settings, "park", (2, 1, 0), (5, 4, 0), "grass", only=True)
    _region(settings, "plaza", (7, 3, 0), (8, 6, 0), "cross, straight", only=True)
    seen_outside: set[str] = set()
    for seed in range(4):
        settings.seed = seed
        assert bpy.ops.strew.assemble_room() == {'FINISHED'}
        room = read_room()
        assert violations(placed_tiles(room, kit), SIZE, set()) == []
        for cell, (tile, _turn, _placed) in room.items():
            if _in_box(cell, (2, 1, 0), (5, 4, 0)):
                assert tile == "grass", (seed, cell, tile)
            elif _in_box(cell, (7, 3, 0), (8, 6, 0)):
                assert tile in ("cross", "straight"), (seed, cell, tile)
            else:
                seen_outside.add(tile)
    assert seen_outside == {"grass", "straight", "turn", "cross"}  # outside, the kit's own rules


def test_weights_shift_the_counts_and_a_factor_of_zero_keeps_a_tile_out() -> None:
    kit = hand_kit()
    settings = _panel(kit)
    settings.size = (16, 12, 1)
    wing = _region(settings, "wing", (0, 0, 0), (7, 11, 0), "grass", weight=0.2)
    counts = {"inside": 0, "outside": 0}
    for seed in range(4):
        settings.seed = seed
        assert bpy.ops.strew.assemble_room() == {'FINISHED'}
        for (x, _y, _z), (tile, _turn, _placed) in read_room().items():
            if tile == "grass":
                counts["inside" if x <= 7 else "outside"] += 1
    assert counts["inside"] < 0.75 * counts["outside"], counts  # grass (weight 3) thinned to 0.6 in the wing
    wing.tiles, wing.weight = "turn=0, cross", 1.0
    wing.only = False
    for seed in range(3):
        settings.seed = seed
        assert bpy.ops.strew.assemble_room() == {'FINISHED'}
        assert not [c for c, (tile, _t, _p) in read_room().items() if c[0] <= 7 and tile == "turn"]


def _cube(name: str, centre, half, turn_degrees: float = 0.0) -> bpy.types.Object:
    vertices, faces = box(-half[0], half[0], -half[1], half[1], -half[2], half[2])
    obj = mesh_object(name, vertices, faces, bpy.context.scene.collection)
    obj.location = centre
    obj.rotation_euler.z = math.radians(turn_degrees)
    bpy.context.view_layer.update()
    return obj


@pytest.mark.parametrize("turn_degrees", [0.0, 45.0])
def test_a_mesh_volume_restricts_the_cells_whose_centres_lie_inside_it(turn_degrees: float) -> None:
    kit = hand_kit()
    settings = _panel(kit)
    settings.origin = (3.0, -2.0, 0.0)
    centre, half = np.array([12.0, 6.0, 0.5]), np.array([4.5, 3.1, 2.0])
    lake = _cube("Lake", centre, half, turn_degrees)
    _region(settings, "lake", (0, 0, 0), (0, 0, 0), "grass", only=True, volume=lake)
    a = math.radians(turn_degrees)
    inside = set()
    for x, y, z in np.ndindex(*SIZE):  # the cell's centre in the cube's own frame, by hand
        point = np.array(settings.origin) + np.array(CELL) * (x, y, z + 0.5) - centre
        local = np.array([math.cos(a) * point[0] + math.sin(a) * point[1],
                          -math.sin(a) * point[0] + math.cos(a) * point[1], point[2]])
        if np.all(np.abs(local) < half):
            inside.add((x, y, z))
    assert 6 <= len(inside) < 40
    for seed in range(3):
        settings.seed = seed
        assert bpy.ops.strew.assemble_room() == {'FINISHED'}
        room = read_room()
        assert all(room[cell][0] == "grass" for cell in inside)
        assert {tile for cell, (tile, _t, _p) in room.items() if cell not in inside} != {"grass"}


def test_pick_box_fills_the_selected_region() -> None:
    room_pick = module("operators.room_pick")
    settings = _panel(hand_kit())
    report = room_pick.set_region_box(settings, (5, 4, 0), (2, 1, 0))  # none selected: a new one
    assert len(settings.regions) == 1 and report == 'Region "Region 1": (2, 1, 0) – (5, 4, 0), 16 cell(s)'
    region = settings.regions[0]
    assert (tuple(region.box_min), tuple(region.box_max)) == ((2, 1, 0), (5, 4, 0))
    assert bpy.ops.strew.region_add() == {'FINISHED'}
    assert settings.regions[1].name == "Region 2" and settings.active_region_index == 1
    room_pick.set_region_box(settings, (0, 0, 0), (1, 1, 0))
    assert tuple(settings.regions[1].box_max) == (1, 1, 0) and tuple(settings.regions[0].box_max) == (5, 4, 0)
    assert tuple(settings.box_max) == (2, 2, 0)  # Regenerate Box's own box is left alone
    rna = bpy.ops.strew.pick_room_box.get_rna_type().properties["target"]
    assert [item.identifier for item in rna.enum_items] == ['REGENERATE', 'REGION']


def test_regenerate_box_keeps_the_regions() -> None:
    kit = hand_kit()
    settings = _panel(kit)
    _region(settings, "park", (3, 2, 0), (5, 5, 0), "grass", only=True)
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}
    before = read_room()
    for seed in (2, 3, 4):
        assert bpy.ops.strew.regenerate_room_box(box_min=(1, 1, 0), box_max=(7, 6, 0), seed=seed) == {'FINISHED'}
        after = read_room()
        assert all(after[c][:2] == before[c][:2] for c in after if not _in_box(c, (1, 1, 0), (7, 6, 0)))
        assert all(after[c][0] == "grass" for c in after if _in_box(c, (3, 2, 0), (5, 5, 0)))


def test_regions_are_kept_in_the_file_and_used_by_the_command_line(tmp_path: Path, capsys) -> None:
    cli = module("cli")
    kit = hand_kit("Tiles")
    settings = _panel(kit)
    _region(settings, "park", (2, 1, 0), (5, 4, 0), "grass", only=True)
    off = _region(settings, "off", (0, 0, 0), (9, 7, 0), "grass", only=True)
    off.enabled = False  # switched off: the room ignores it
    kit_path, out = tmp_path / "kit.blend", tmp_path / "room.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(kit_path))
    capsys.readouterr()
    assert cli.main(["room", str(kit_path), "--seed", "5", "-o", str(out)]) == 0
    bpy.ops.wm.open_mainfile(filepath=str(out))
    regions = bpy.context.scene.strew.room.regions
    assert [(r.name, r.tiles, r.only, r.enabled) for r in regions] == [("park", "grass", True, True),
                                                                       ("off", "grass", True, False)]
    room = read_room()
    assert all(room[c][0] == "grass" for c in room if _in_box(c, (2, 1, 0), (5, 4, 0)))
    assert {tile for tile, _t, _p in room.values()} != {"grass"}


def _unknown_tile(settings) -> str:
    _region(settings, "park", (1, 1, 0), (2, 2, 0), "grass, lava", only=True)
    return "Region 'park': no tile named 'lava' in the kit"


def _outside(settings) -> str:
    _region(settings, "wing", (4, 4, 0), (12, 5, 0), "grass", only=True)
    return "Region 'wing': its box (4, 4, 0) – (12, 5, 0) reaches outside the room of (10, 8, 1) cells"


def _bad_text(settings) -> str:
    _region(settings, "wing", (1, 1, 0), (2, 2, 0), "grass=lots")
    return "Region 'wing': write its tiles as TILE or TILE=FACTOR"


def _does_nothing(settings) -> str:
    _region(settings, "wing", (1, 1, 0), (2, 2, 0), "grass")
    return "Region 'wing' changes nothing: tick Only These Tiles"


def _impossible(settings) -> str:
    _region(settings, "square", (0, 0, 0), (1, 1, 0), "cross", only=True)  # roads out into the grass border
    return "region 'square', which allows only 'cross'"


def _empty_volume(settings) -> str:
    _region(settings, "lake", (0, 0, 0), (0, 0, 0), "grass", only=True, volume=_cube("Far", (500, 0, 0), (1, 1, 1)))
    return 'Region "lake": the volume "Far" holds no cell\'s centre of the room'


@pytest.mark.parametrize("spoil", [_unknown_tile, _outside, _bad_text, _does_nothing, _impossible, _empty_volume])
def test_bad_and_impossible_regions_are_one_line_and_leave_the_scene_unchanged(spoil) -> None:
    settings = _panel(hand_kit())
    assert bpy.ops.strew.assemble_room() == {'FINISHED'}  # an earlier room must survive a failed run
    message = spoil(settings)
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.assemble_room()
    text = str(failure.value).strip()
    assert message in text and len(text.splitlines()) == 1, text
    assert scene_snapshot() == before
    assert len(read_room()) == 80


class _RecordingLayout:
    """Stands in for a UILayout: keeps every label and every operator's properties set."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.set: dict[str, object] = {}

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self

    def label(self, text: str = "", **kwargs) -> None:
        self.labels.append(text)

    def operator(self, idname: str, **kwargs):
        outer = self

        class Properties:
            def __setattr__(self, key, value):
                outer.set[f"{idname}.{key}"] = value

        return Properties()


def test_the_list_shows_each_regions_box_or_volume_and_pick_box_targets_the_region() -> None:
    panels = module("panels.rooms")
    settings = _panel(hand_kit())
    box_region = _region(settings, "park", (2, 1, 0), (5, 4, 0), "grass", only=True)
    volume_region = _region(settings, "lake", (0, 0, 0), (0, 0, 0), "grass", only=True,
                            volume=_cube("Lake", (4, 4, 0), (2, 2, 2)))
    layout = _RecordingLayout()
    for item in (box_region, volume_region):
        panels.STREW_UL_regions.draw_item(None, None, layout, settings, item, 0, settings, "active_region_index")
    assert layout.labels == ["(2, 1, 0) – (5, 4, 0)", "Lake"]
    context = type("Context", (), {"scene": bpy.context.scene})()
    layout = _RecordingLayout()
    panels.STREW_PT_rooms_regions.draw(type("Panel", (), {"layout": layout})(), context)
    assert layout.set == {"strew.pick_room_box.target": 'REGION'}


def test_a_region_works_on_an_imported_mxgmn_tileset(tmp_path: Path) -> None:
    from test_rooms_tools import KNOTS

    path = tmp_path / "Knots.xml"
    path.write_text(KNOTS)
    assert bpy.ops.strew.import_mxgmn(filepath=str(path)) == {'FINISHED'}
    settings = bpy.context.scene.strew.room
    _region(settings, "calm", (1, 1, 0), (4, 3, 0), "empty, line", only=True)
    for seed in (1, 2):
        assert bpy.ops.strew.assemble_room(size=(9, 8, 1), seed=seed, periodic=True) == {'FINISHED'}
        room = read_room()
        inside = {tile for cell, (tile, _t, _p) in room.items() if _in_box(cell, (1, 1, 0), (4, 3, 0))}
        assert inside <= {"empty", "line"}, inside
