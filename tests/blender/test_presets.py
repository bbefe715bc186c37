"""Layer presets: a stack saved in one file loads in another with every setting; bad presets change nothing."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import bpy
import pytest
from conftest import ADDON_MODULE
from scenes import add_layer, make_prefabs


def _presets_module():
    return importlib.import_module(f"{ADDON_MODULE}.scene.presets")


def _settings_of(layer: bpy.types.PropertyGroup) -> dict[str, object]:
    out = {}
    for prop in layer.bl_rna.properties:
        if prop.identifier == "rna_type" or prop.is_readonly:
            continue
        value = getattr(layer, prop.identifier)
        out[prop.identifier] = value.name if isinstance(value, bpy.types.ID) else (
            list(value) if getattr(prop, "is_array", False) else value)
    return out


def test_a_saved_stack_loads_in_a_new_file_with_every_setting() -> None:
    trees, bushes = make_prefabs("Trees"), make_prefabs("Bushes")
    add_layer("Trees", trees, 4.0, 9.0, seed=5, density_mode='NOISE', max_slope=math.radians(31), scale_max=1.4)
    add_layer("Bushes", bushes, 1.5, 3.0, seed=6, keep_away=2.0, density_invert=True, output_mode='EMPTIES')
    before = [_settings_of(layer) for layer in bpy.context.scene.strew.layers]
    assert bpy.ops.strew.preset_save(name="Test Biome") == {'FINISHED'}

    bpy.ops.wm.read_homefile(use_empty=True)
    make_prefabs("Trees")  # the Bushes collection is missing in this file
    assert bpy.ops.strew.preset_load(preset="Test Biome") == {'FINISHED'}
    after = [_settings_of(layer) for layer in bpy.context.scene.strew.layers]
    assert after[0] == before[0]
    missing = {key for key in before[1] if after[1][key] != before[1][key]}
    assert missing == {"collection"} and after[1]["collection"] is None


def test_save_refuses_to_overwrite_unless_asked() -> None:
    add_layer("Trees", make_prefabs("Trees"), 2.0, 2.0)
    assert bpy.ops.strew.preset_save(name="Twice") == {'FINISHED'}
    with pytest.raises(RuntimeError, match="exists"):
        bpy.ops.strew.preset_save(name="Twice")
    assert bpy.ops.strew.preset_save(name="Twice", overwrite=True) == {'FINISHED'}
    with pytest.raises(RuntimeError, match="Preset name"):
        bpy.ops.strew.preset_save(name="../escape")


def _user_presets() -> Path:
    return _presets_module().user_folder()


@pytest.mark.parametrize(("layer", "message"), [
    ({"min_radius": "big"}, "expected a number"),
    ({"seed": 1.5}, "expected an integer"),
    ({"min_radius": -3.0}, "outside"),
    ({"density_mode": "FOG"}, "expected one of"),
    ({"collection": "Trees"}, "data-block"),
])
def test_bad_values_are_refused_and_nothing_changes(layer: dict, message: str) -> None:
    add_layer("Existing", make_prefabs("Trees"), 2.0, 2.0)
    doc = {"format": "strew-layer-preset", "version": 1, "name": "Bad",
           "layers": [{"name": "Fine", "min_radius": 2.0}, {"name": "Broken", **layer}]}
    (_user_presets() / "Bad.json").write_text(json.dumps(doc))
    with pytest.raises(RuntimeError, match=message):
        bpy.ops.strew.preset_load(preset="Bad", replace=True)
    assert [layer.name for layer in bpy.context.scene.strew.layers] == ["Existing"]


def test_not_a_preset_file_is_refused() -> None:
    (_user_presets() / "Junk.json").write_text("{not json")
    with pytest.raises(RuntimeError, match="cannot be read"):
        bpy.ops.strew.preset_load(preset="Junk")
    (_user_presets() / "Other.json").write_text(json.dumps({"layers": []}))
    with pytest.raises(RuntimeError, match="not a Strew layer preset"):
        bpy.ops.strew.preset_load(preset="Other")


def test_every_shipped_biome_loads_on_the_demo_collections() -> None:
    shipped = sorted(p.stem for p in _presets_module().SHIPPED.glob("*.json"))
    assert len(shipped) >= 3
    for name in ("Trees", "Bushes", "Rocks", "Roads"):
        make_prefabs(name)
    for name in shipped:
        bpy.ops.strew.preset_load(preset=name, replace=True)
        layers = bpy.context.scene.strew.layers
        assert len(layers) >= 2 and all(layer.collection is not None for layer in layers)
        assert all(layer.min_radius <= layer.max_radius for layer in layers)


def _rules(layer: bpy.types.PropertyGroup) -> list[tuple[str, float]]:
    return [(rule.layer, round(rule.distance, 6)) for rule in layer.keep_away_rules]


def test_keep_away_rules_travel_with_the_preset_and_follow_a_renamed_layer() -> None:
    add_layer("Trees", make_prefabs("Trees"), 4.0, 4.0)
    shrubs = add_layer("Shrubs", make_prefabs("Shrubs"), 1.0, 1.0)
    rule = shrubs.keep_away_rules.add()
    rule.layer, rule.distance = "Trees", 6.5
    assert bpy.ops.strew.preset_save(name="With Rules") == {'FINISHED'}

    bpy.ops.wm.read_homefile(use_empty=True)
    assert bpy.ops.strew.preset_load(preset="With Rules") == {'FINISHED'}
    assert _rules(bpy.context.scene.strew.layers["Shrubs"]) == [("Trees", 6.5)]

    assert bpy.ops.strew.preset_load(preset="With Rules") == {'FINISHED'}  # again: the layers become "… 2"
    layers = bpy.context.scene.strew.layers
    assert [layer.name for layer in layers] == ["Trees", "Shrubs", "Trees 2", "Shrubs 2"]
    assert _rules(layers["Shrubs"]) == [("Trees", 6.5)] and _rules(layers["Shrubs 2"]) == [("Trees 2", 6.5)]


def test_a_bad_rule_list_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    presets = _presets_module()
    add_layer("Trees", make_prefabs("Trees"), 4.0, 4.0)
    document = presets.stack_to_dict(bpy.context.scene.strew, "Bad")
    document["layers"][0]["keep_away_rules"] = [{"layer": "Trees", "distance": "far"}]
    with pytest.raises(presets.PresetError, match=r"keep_away_rules'\[0\]\.distance: expected a number") as error:
        presets.load(bpy.context.scene.strew, document)
    assert "\n" not in str(error.value)
    assert [layer.name for layer in bpy.context.scene.strew.layers] == ["Trees"]
