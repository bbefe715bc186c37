"""Layer presets: a stack saved in one file loads in another with every setting; bad presets change nothing."""

from __future__ import annotations

import importlib
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path

import bpy
import pytest
from conftest import ADDON_MODULE
from scenes import add_layer, make_prefabs


def _presets_module():
    return importlib.import_module(f"{ADDON_MODULE}.scene.presets")


@pytest.fixture(autouse=True)
def no_user_presets() -> Iterator[None]:
    """Each test starts with no user presets; the folder is inside the harness's temporary Blender user
    resources (conftest sets BLENDER_USER_RESOURCES), never the developer's own."""
    folder = _presets_module().user_folder().resolve()
    assert folder.is_relative_to(Path(os.environ["BLENDER_USER_RESOURCES"]).resolve())
    for path in folder.glob("*.json"):
        path.unlink()
    yield


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
    ({"collection": {"id": "Object", "name": "Oaks"}}, "'collection': takes a Collection, not the Object 'Oaks'"),
    ({"camera": {"id": "Collection", "name": "Trees"}}, "'camera': takes a Object, not the Collection"),
])
def test_bad_values_are_refused_and_nothing_changes(layer: dict, message: str) -> None:
    add_layer("Existing", make_prefabs("Trees"), 2.0, 2.0)
    doc = {"format": "strew-layer-preset", "version": 1, "name": "Bad",
           "layers": [{"name": "Fine", "min_radius": 2.0}, {"name": "Broken", **layer}]}
    (_user_presets() / "Bad.json").write_text(json.dumps(doc))
    with pytest.raises(RuntimeError, match=message):
        bpy.ops.strew.preset_load(preset="Bad", replace=True)
    assert [layer.name for layer in bpy.context.scene.strew.layers] == ["Existing"]


@pytest.mark.parametrize("text", [
    '{"layers": ' + "[" * 200_000 + "]" * 200_000 + "}",
    '{"format": "strew-layer-preset", "version": 1, "layers": [{"seed": ' + "9" * 5000 + "}]}",
])
def test_an_unparseable_preset_is_one_line_and_changes_nothing(text: str) -> None:
    add_layer("Existing", make_prefabs("Trees"), 2.0, 2.0)
    (_user_presets() / "Deep.json").write_text(text)
    with pytest.raises(RuntimeError, match=r"Deep\.json is nested too deep or holds a number too long") as error:
        bpy.ops.strew.preset_load(preset="Deep", replace=True)
    _one_line_error(error)
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


def _files() -> dict[str, bytes]:
    """Every file in the user preset folder with its bytes."""
    return {path.name: path.read_bytes() for path in _user_presets().iterdir()}


def _scene_state() -> list[dict[str, object]]:
    return [_settings_of(layer) for layer in bpy.context.scene.strew.layers]


def _one_line_error(error: pytest.ExceptionInfo[RuntimeError]) -> str:
    """The operator's report as bpy.ops raises it: one line, no traceback."""
    message = str(error.value).strip()
    assert "\n" not in message and "Traceback" not in message, message
    return message


def _save_two_layers(name: str) -> None:
    add_layer("Trees", make_prefabs("Trees"), 4.0, 4.0)
    shrubs = add_layer("Shrubs", make_prefabs("Shrubs"), 1.0, 1.0)
    rule = shrubs.keep_away_rules.add()
    rule.layer, rule.distance = "Trees", 6.5
    assert bpy.ops.strew.preset_save(name=name) == {'FINISHED'}


def test_delete_removes_only_that_file_and_leaves_the_scene() -> None:
    _save_two_layers("Doomed")
    assert bpy.ops.strew.preset_save(name="Kept") == {'FINISHED'}
    before = _scene_state()
    assert bpy.ops.strew.preset_delete(preset="Doomed") == {'FINISHED'}
    assert set(_files()) == {"Kept.json"}
    assert "Doomed" not in _presets_module().available()
    assert _scene_state() == before


def test_rename_moves_the_file_and_the_preset_loads_under_its_new_name() -> None:
    _save_two_layers("Old Name")
    assert bpy.ops.strew.preset_rename(preset="Old Name", new_name="  Valley (v2)  ") == {'FINISHED'}
    assert set(_files()) == {"Valley (v2).json"}
    assert json.loads(_files()["Valley (v2).json"])["name"] == "Valley (v2)"

    bpy.ops.wm.read_homefile(use_empty=True)
    assert bpy.ops.strew.preset_load(preset="Valley (v2)") == {'FINISHED'}
    layers = bpy.context.scene.strew.layers
    assert [layer.name for layer in layers] == ["Trees", "Shrubs"]
    assert _rules(layers["Shrubs"]) == [("Trees", 6.5)]


@pytest.mark.parametrize("new_name", ["", "   ", "///", "../escape", "?*", "x" * 65])
def test_a_bad_new_name_is_refused_and_nothing_changes(new_name: str) -> None:
    _save_two_layers("Mine")
    files, scene = _files(), _scene_state()
    with pytest.raises(RuntimeError, match=r"Preset name .*: use 1–64 letters") as error:
        bpy.ops.strew.preset_rename(preset="Mine", new_name=new_name)
    _one_line_error(error)
    assert _files() == files and _scene_state() == scene


@pytest.mark.parametrize(("new_name", "message"), [
    ("Other", "A preset named 'Other' exists: choose another name"),
    ("Forest", "A preset named 'Forest' exists"),  # a shipped biome's name is taken too
    ("Mine", "already has that name"),
])
def test_a_rename_onto_a_taken_name_is_refused(new_name: str, message: str) -> None:
    _save_two_layers("Mine")
    assert bpy.ops.strew.preset_save(name="Other") == {'FINISHED'}
    files = _files()
    with pytest.raises(RuntimeError, match=message) as error:
        bpy.ops.strew.preset_rename(preset="Mine", new_name=new_name)
    _one_line_error(error)
    assert _files() == files


@pytest.mark.parametrize("operator", ["preset_delete", "preset_rename"])
def test_a_file_removed_outside_blender_is_one_line(operator: str) -> None:
    _save_two_layers("Vanishing")
    (_user_presets() / "Vanishing.json").unlink()
    with pytest.raises(RuntimeError, match="'Vanishing' is no longer in the preset folder") as error:
        getattr(bpy.ops.strew, operator)(preset="Vanishing", **({"new_name": "Back"} if "rename" in operator else {}))
    _one_line_error(error)
    assert _files() == {}


@pytest.mark.parametrize("operator", ["preset_delete", "preset_rename"])
def test_shipped_biomes_are_neither_deleted_nor_renamed(operator: str) -> None:
    shipped = _presets_module().SHIPPED / "Forest.json"
    before = shipped.read_bytes()
    with pytest.raises(RuntimeError, match="'Forest' ships with Strew") as error:
        getattr(bpy.ops.strew, operator)(preset="Forest", **({"new_name": "Mine"} if "rename" in operator else {}))
    _one_line_error(error)
    assert shipped.read_bytes() == before and _files() == {}


class _Recorder:
    """Stands in for the menu's UILayout and keeps every operator button: ``(operator, text, icon, preset)``."""

    def __init__(self) -> None:
        self.buttons: list[list] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self  # column, row, separator…

    def operator(self, idname: str, text: str = "", icon: str = 'NONE', **kwargs) -> _Recorder:
        self.buttons.append([idname, text, icon, None])
        return self

    def __setattr__(self, name: str, value: object) -> None:
        if name == "preset":
            self.buttons[-1][3] = value
        else:
            super().__setattr__(name, value)


def test_the_menu_offers_rename_and_delete_beside_the_users_presets_only() -> None:
    _save_two_layers("Mine")
    menu = importlib.import_module(f"{ADDON_MODULE}.panels.presets").STREW_MT_layer_presets
    layout = _Recorder()
    menu.draw(type("Menu", (), {"layout": layout})(), bpy.context)
    edits = [(idname, preset) for idname, text, icon, preset in layout.buttons
             if idname in {"strew.preset_rename", "strew.preset_delete"}]
    assert edits == [("strew.preset_rename", "Mine"), ("strew.preset_delete", "Mine")]
    loads = [preset for idname, _, _, preset in layout.buttons if idname == "strew.preset_load"]
    assert loads == [*sorted(p.stem for p in _presets_module().SHIPPED.glob("*.json")), "Mine"]
