"""Custom properties of the wrong type, shape or range: one line naming the object, the property and the form it
needs; the scene unchanged. The cases of the reliability pass, on prefabs, tiles and kits."""

from __future__ import annotations

import math

import bpy
import pytest
from rooms_kits import module
from scenes import scene_snapshot
from small_scenes import ROOM, road_kit, scatter_scene


def refused(operator, **options) -> str:
    """Run ``operator`` expecting a refusal; returns its one-line message after checking the scene is unchanged."""
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        operator(**options)
    assert scene_snapshot() == before
    message = str(failure.value).strip()
    assert "Traceback" not in message and "\n" not in message, message
    return message


@pytest.mark.parametrize("value", ["abc", [1.0, 2.0], -3, math.nan, math.inf, True, {"a": 1.0}])
def test_bad_prefab_weight_is_named(value: object) -> None:
    stones = scatter_scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}  # an earlier result survives the refused run
    stones.objects["Stones 1"]["strew_weight"] = value
    message = refused(bpy.ops.strew.scatter)
    assert '"Stones 1"' in message and "strew_weight" in message and "a number ≥ 0" in message
    assert "weight 0" not in message


def test_prefab_weight_on_a_child_collection_and_a_good_value() -> None:
    stones = scatter_scene()
    child = bpy.data.collections.new("Boulders")
    stones.children.link(child)
    child.objects.link(bpy.data.objects.new("Boulder", bpy.data.meshes.new("Boulder")))
    child["strew_weight"] = "heavy"
    assert '"Boulders"' in refused(bpy.ops.strew.scatter)
    child["strew_weight"] = 2
    stones.objects["Stones 0"]["strew_weight"] = 0
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    # Weight 0 on "Stones 0": it is never picked; the prefab index follows Pick Instance order
    # (Boulders, Stones 0, Stones 1).
    attribute = bpy.data.objects["Strew Stones"].data.attributes["strew_prefab"]
    picked = {item.value for item in attribute.data}
    assert 1 not in picked and picked <= {0, 2}


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("strew_rotations", 90, "a list of turns"),
    ("strew_rotations", [45], "a list of turns"),
    ("strew_rotations", [], "a list of turns"),
    ("strew_weight", [1.0, 2.0], "a number ≥ 0"),
    ("strew_weight", -3, "a number ≥ 0"),
    ("strew_passable", 3, "a list of sides"),
    ("strew_walkable", "yes", "True or False"),
    ("strew_walkable", 2, "True or False"),
    ("strew_sockets", "n=road", "a dict of side -> label"),
    ("strew_sockets", {"n": 1}, "a dict of side -> label"),
])
def test_bad_tile_property_is_named(key: str, value: object, expected: str) -> None:
    road_kit().objects["turn"][key] = value
    message = refused(bpy.ops.strew.assemble_room, **ROOM)
    assert '"turn"' in message and key in message and expected in message, message


def _sockets_of(kit: bpy.types.Collection) -> list[tuple[str, object, tuple[str, ...]]]:
    """Every tile's custom sockets and panel sockets, as they stand."""
    plain = module("scene.custom_props").plain
    return [(obj.name, repr(plain(obj.get("strew_sockets"))),
             tuple(getattr(obj.strew, f"socket_{side}") for side in ("n", "e", "s", "w", "up", "down")))
            for obj in kit.objects]


@pytest.mark.parametrize("value", [2.5, 7, math.nan, "n=road", [1, 2], {"n": 1}, {"n": math.nan},
                                   {"n": "road", "e": 3.5}, {"n": ["road"]}, {"n": {"deep": "x"}}])
@pytest.mark.parametrize("target", ['KIT', 'SELECTED'])
def test_detect_sockets_names_a_tile_whose_sockets_property_is_bad(value: object, target: str) -> None:
    kit = road_kit()
    bpy.context.scene.strew.room.kit = kit
    tile = kit.objects["straight"]
    tile["strew_sockets"] = value
    bpy.context.view_layer.update()
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj.name in kit.objects)
    before = _sockets_of(kit)
    message = refused(bpy.ops.strew.detect_sockets, target=target)
    assert '"straight"' in message and "strew_sockets" in message and "a dict of side -> label" in message, message
    assert _sockets_of(kit) == before
    assert refused(bpy.ops.strew.assemble_room, **ROOM).endswith(message.removeprefix("Error: "))  # same reason


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("strew_cell_size", 5, "three sizes > 0"),
    ("strew_cell_size", [2.0, 0.0, 1.0], "three sizes > 0"),
    ("strew_cell_size", "big", "three sizes > 0"),
    ("strew_compatible", 7, "a list of label pairs"),
    ("strew_compatible", [["a", "b", "c"]], "a list of label pairs"),
])
def test_bad_kit_property_is_named_by_assemble_and_detect(key: str, value: object, expected: str) -> None:
    kit = road_kit()
    kit[key] = value
    message = refused(bpy.ops.strew.assemble_room, **ROOM)
    assert '"Roads"' in message and key in message and expected in message, message
    if key == "strew_cell_size":
        message = refused(bpy.ops.strew.detect_sockets, kit="Roads")
        assert '"Roads"' in message and key in message, message


def test_good_custom_properties_win_over_the_panel() -> None:
    kit = road_kit()
    turn = kit.objects["turn"]
    turn.strew.rotations = {'0'}
    turn["strew_rotations"] = [90.0]  # floats with whole turns are fine
    turn["strew_weight"] = 2
    turn["strew_walkable"] = 1
    assert bpy.ops.strew.assemble_room(**ROOM, output='OBJECTS') == {'FINISHED'}
    placed = [o for o in bpy.data.objects if o.get("strew_tile") == "turn"]
    assert placed and {o["strew_rotation"] for o in placed} == {90}
