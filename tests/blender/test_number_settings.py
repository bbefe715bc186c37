"""Every number setting at its limits, as a script, a saved file, a preset or Live Update hands it over.

Blender clamps a number to its property's range when a script or a field sets it, but NaN passes, and a saved file
(an IDProperty) may hold anything. Scatter refuses each such value in one line naming the setting, and the scene
stays as it was; no value switches a rule off in silence.
"""

from __future__ import annotations

import importlib
import json
import math

import bpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenes import scene_snapshot
from small_scenes import scatter_scene

NAN = float("nan")
FLT_MAX = 3.4028234663852886e38


def _struct(owner: str) -> bpy.types.Struct:
    scene = bpy.types.Scene.bl_rna.properties["strew"].fixed_type
    layer = scene.properties["layers"].fixed_type
    return {"StrewSceneSettings": scene, "StrewLayer": layer,
            "StrewKeepAwayRule": layer.properties["keep_away_rules"].fixed_type}[owner]


def _numbers(owner: str) -> list[str]:
    return sorted(p.identifier for p in _struct(owner).properties if p.type in ('FLOAT', 'INT') and not p.is_readonly)


def _two_layers() -> bpy.types.PropertyGroup:
    """The small scatter scene with a second layer that keeps a rule's distance from the first."""
    stones = scatter_scene()
    settings = bpy.context.scene.strew
    pebbles = settings.layers.add()
    pebbles.name, pebbles.collection = "Pebbles", stones
    pebbles.min_radius = pebbles.max_radius = 1.0
    rule = pebbles.keep_away_rules.add()
    rule.layer, rule.distance = "Stones", 2.0
    return settings


def _targets() -> dict[str, tuple[str, str]]:
    """Every number setting Scatter reads: (class, identifier), keyed by a test id."""
    found = {}
    for owner, prefix in (("StrewSceneSettings", "scene"), ("StrewLayer", "layer"), ("StrewKeepAwayRule", "rule")):
        for identifier in _numbers(owner):
            found[f"{prefix}.{identifier}"] = (owner, identifier)
    return found


def _group(owner: str) -> bpy.types.PropertyGroup:
    settings = bpy.context.scene.strew
    return {"StrewSceneSettings": settings, "StrewLayer": settings.layers[1],
            "StrewKeepAwayRule": settings.layers[1].keep_away_rules[0]}[owner]


def _outside(prop: bpy.types.Property, kind: str) -> float | int | None:
    """A value beyond ``prop``'s range of the kind asked for (None when there is none to store)."""
    if kind == "nan":
        return NAN if prop.type == 'FLOAT' else None
    if prop.type == 'INT':
        edge = prop.hard_max if kind == "above" else prop.hard_min
        beyond = edge + 1 if kind == "above" else edge - 1
        return beyond if -2**31 <= beyond <= 2**31 - 1 else None
    if kind == "above":
        return 1e300 if prop.hard_max >= FLT_MAX else prop.hard_max * 2 + 1  # a saved file's double
    return -1e300 if prop.hard_min <= -FLT_MAX else prop.hard_min - max(1.0, abs(prop.hard_min))  # float32 apart




@pytest.mark.parametrize("kind", ["nan", "above", "below"])
def test_every_number_setting_out_of_range_is_one_line(kind: str) -> None:
    """One scene per setting: NaN set by a script, values beyond the range held by a saved file's property."""
    checked = 0
    for name, (owner, identifier) in _targets().items():
        bpy.ops.wm.read_homefile(use_empty=True)
        _two_layers()
        group = _group(owner)
        prop = group.bl_rna.properties[identifier]
        value = _outside(prop, kind)
        if value is None:
            continue
        if kind == "nan":
            setattr(group, identifier, value)
        else:
            group[identifier] = value  # as a saved file may hold it: no clamping on the way in
        before = scene_snapshot()
        with pytest.raises(RuntimeError) as error:
            bpy.ops.strew.scatter()
        message = str(error.value).strip()
        assert "\n" not in message and "Traceback" not in message, (name, message)
        assert message.count(f"{prop.name} is ") == 1 and "; give a " in message, (name, message)
        assert scene_snapshot() == before, name
        checked += 1
    assert checked >= 20


def test_nan_settings_in_a_saved_file_are_refused_after_reopening(tmp_path) -> None:
    settings = _two_layers()
    settings.chunk_size = NAN
    settings.layers[1].exclusion_margin = NAN
    path = tmp_path / "nan.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    bpy.ops.wm.open_mainfile(filepath=str(path))
    with pytest.raises(RuntimeError, match=r"Scatter settings: Chunk Size is nan; give a number from 0 to 1e\+09"):
        bpy.ops.strew.scatter()
    bpy.context.scene.strew.chunk_size = 64.0
    with pytest.raises(RuntimeError, match=r'Layer "Pebbles": Margin is nan'):
        bpy.ops.strew.scatter()


@pytest.mark.parametrize(("identifier", "value"), [
    ("keep_away", 1e30), ("keep_away", math.inf), ("camera_max_distance", FLT_MAX), ("exclusion_margin", 1e21),
    ("height_max", math.inf), ("height_min", -math.inf),
])
def test_huge_lengths_from_a_script_stop_at_the_limit_and_still_work(identifier: str, value: float) -> None:
    """Blender clamps them to the declared maximum (1e9 m), which every rule still honours."""
    settings = _two_layers()
    setattr(settings.layers[1], identifier, value)
    assert abs(getattr(settings.layers[1], identifier)) == 1e9
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    if identifier == "keep_away":  # a kilometre-wide keep away leaves no pebble beside the stones
        assert len(bpy.data.objects["Strew Pebbles"].data.vertices) == 0


def test_live_update_reports_a_nan_chunk_size_as_its_problem() -> None:
    live = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    _two_layers()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    bpy.context.scene.strew.live_update = True
    bpy.context.scene.strew.chunk_size = NAN
    bpy.context.view_layer.update()
    if not live.scheduled():
        live.on_depsgraph_update(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    live.flush()
    assert live.problem(bpy.context.scene) == "Scatter settings: Chunk Size is nan; give a number from 0 to 1e+09"


@pytest.mark.parametrize(("key", "value"), [
    ("keep_away", 1e30), ("keep_away", math.inf), ("min_radius", math.nan), ("seed", 2**31),
    ("exclusion_margin", -1e-9), ("height_min", -1e300), ("start_points", 0),
])
def test_presets_with_numbers_out_of_range_are_refused(key: str, value: float) -> None:
    presets = importlib.import_module("bl_ext.strew_dev.strew.scene.presets")
    doc = {"format": "strew-layer-preset", "version": 1, "name": "Edge", "layers": [{"name": "Edge", key: value}]}
    (presets.user_folder() / "Edge.json").write_text(json.dumps(doc))  # json writes NaN and Infinity as Python does
    with pytest.raises(RuntimeError, match=f"setting '{key}': .* is outside"):
        bpy.ops.strew.preset_load(preset="Edge")
    assert len(bpy.context.scene.strew.layers) == 0


def test_fuzz_preset_numbers() -> None:
    """Any number in a preset's layer: it loads when its setting takes it, else one line and no layer added."""
    presets = importlib.import_module("bl_ext.strew_dev.strew.scene.presets")
    struct = _struct("StrewLayer")
    keys = [p.identifier for p in struct.properties if p.type in ('FLOAT', 'INT') and not p.is_readonly
            and not p.is_array]
    numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**40, 2**40),
                        st.sampled_from([FLT_MAX, -FLT_MAX, 1e9, 1e9 + 1e3, 2**31, 2**31 - 1, 0, -0.0]))

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(key=st.sampled_from(keys), value=numbers)
    def run(key: str, value: float) -> None:
        layers = bpy.context.scene.strew.layers
        layers.clear()
        doc = {"format": "strew-layer-preset", "version": 1, "name": "Fuzz", "layers": [{"name": "F", key: value}]}
        (presets.user_folder() / "Fuzz.json").write_text(json.dumps(doc))
        prop = struct.properties[key]
        fits = (not isinstance(value, float) or prop.type == 'FLOAT') and prop.hard_min <= value <= prop.hard_max
        if fits:
            assert bpy.ops.strew.preset_load(preset="Fuzz") == {'FINISHED'}
            assert len(layers) == 1
        else:
            with pytest.raises(RuntimeError) as error:
                bpy.ops.strew.preset_load(preset="Fuzz")
            assert "\n" not in str(error.value).strip() and f"setting '{key}'" in str(error.value)
            assert len(layers) == 0

    run()
