"""Around and On Layer links between layers: refusals in one line naming both layers (a later, missing or disabled
layer, the layer itself, a cycle), links that follow a rename, same bytes on every run, the command line."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain, point_attributes, scene_snapshot


def _scene() -> None:
    bpy.context.scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    add_layer("Rocks", make_prefabs("Rocks", 2), 5.0, 5.0, seed=2)
    add_layer("Trees", make_prefabs("Trees", 2), 4.0, 4.0, seed=1)
    mushrooms = add_layer("Mushrooms", make_prefabs("Mushrooms", 2), 0.4, 0.4, seed=3)
    mushrooms.around.layer, mushrooms.around_min, mushrooms.around_max = "Trees", 0.5, 2.0


def _layers() -> bpy.types.bpy_prop_collection:
    return bpy.context.scene.strew.layers


def _later() -> None:
    _layers().move(_layers().find("Trees"), 2)  # Trees below Mushrooms


def _missing() -> None:
    _layers()["Mushrooms"].around.layer = "Birches"


def _disabled() -> None:
    _layers()["Trees"].enabled = False


def _itself() -> None:
    _layers()["Mushrooms"].around.layer = "Mushrooms"


def _cycle() -> None:
    _layers()["Trees"].on_layer.layer = "Mushrooms"


def _targets_too() -> None:
    layer = _layers()["Mushrooms"]
    layer.on_layer.layer = "Rocks"
    layer.targets = bpy.data.collections["Rocks"]


def _ring_inside_out() -> None:
    _layers()["Mushrooms"].around_max = 0.2


@pytest.mark.parametrize(("spoil", "parts"), [
    (_later, ['Layer "Mushrooms"', 'Around "Trees" is below "Mushrooms"', 'move "Trees" above']),
    (_missing, ['Layer "Mushrooms"', '"Birches", which is no layer', "clear Around"]),
    (_disabled, ['Layer "Mushrooms"', 'Around "Trees" is disabled', 'enable "Trees"']),
    (_itself, ['Layer "Mushrooms"', "names the layer itself"]),
    (_cycle, ['Layer "Trees"', 'On Layer "Mushrooms" leads back to "Trees" (a cycle)']),
    (_targets_too, ['Layer "Mushrooms"', "clear Targets or On Layer"]),
    (_ring_inside_out, ['Layer "Mushrooms"', "Around Max (0.2) is below Around Min (0.5)"]),
])
def test_a_link_the_layer_order_cannot_take_is_refused_in_one_line(spoil: Callable[[], None],
                                                                    parts: list[str]) -> None:
    _scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}  # an earlier result survives the refusal
    spoil()
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as failure:
        bpy.ops.strew.scatter()
    message = str(failure.value).strip()
    assert "\n" not in message.replace("Error: ", "").strip() and "Traceback" not in message, message
    for part in parts:
        assert part in message, message
    assert scene_snapshot() == before


def test_a_layer_alone_without_the_linked_layers_output_is_told_to_scatter_it_first() -> None:
    _scene()
    with pytest.raises(RuntimeError, match='Around "Trees" has no instances yet: scatter "Trees" first'):
        bpy.ops.strew.scatter(layer_index=_layers().find("Mushrooms"))
    assert "Strew Output" not in bpy.data.collections


def test_renaming_the_linked_layer_keeps_the_link() -> None:
    _scene()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    before = point_attributes(bpy.data.objects["Strew Mushrooms"])
    _layers()["Trees"].name = "Oaks"
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert _layers()["Mushrooms"].around.layer == "Oaks"
    after = point_attributes(bpy.data.objects["Strew Mushrooms"])
    for key in before:
        np.testing.assert_array_equal(before[key], after[key])


def _outputs() -> dict[str, dict[str, np.ndarray]]:
    return {name: point_attributes(bpy.data.objects[f"Strew {name}"]) for name in ("Trees", "Rocks", "Mushrooms")}


@pytest.mark.parametrize("seed", [3, 8])
def test_same_settings_same_bytes_and_another_seed_another_ring(seed: int) -> None:
    _scene()
    _layers()["Mushrooms"].seed = seed
    _layers()["Mushrooms"].around_falloff = True
    _layers()["Mushrooms"].max_radius = 1.0
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    first = _outputs()
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    again = _outputs()
    for name in first:
        for key in first[name]:
            assert first[name][key].tobytes() == again[name][key].tobytes(), (name, key)
    _layers()["Mushrooms"].seed = seed + 100
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    other = _outputs()["Mushrooms"]["position"]
    assert other.shape != first["Mushrooms"]["position"].shape or not np.array_equal(other,
                                                                                      first["Mushrooms"]["position"])


# -- the command line ---------------------------------------------------------------------------------------------

@pytest.fixture
def scene_file(tmp_path: Path) -> Path:
    bpy.context.scene.strew.terrain = make_terrain(size=30.0, subdivisions=8)
    add_layer("Rocks", make_prefabs("Rocks", 2), 5.0, 5.0, seed=2)
    add_layer("Trees", make_prefabs("Trees", 2), 4.0, 4.0, seed=1)
    make_prefabs("Mushrooms", 2)
    make_prefabs("Moss", 1)
    path = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _nearest(points: np.ndarray, centres: np.ndarray) -> np.ndarray:
    return np.sqrt(((points[:, None, :2] - centres[None, :, :2]) ** 2).sum(-1)).min(axis=1)


def test_cli_around_and_on(strew, scene_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.blend"
    code, stdout, err = strew("scatter", scene_file, "-o", out, "--layer", "Mushrooms:0.3:0.3",
                              "--around", "Trees:0.5:2")
    assert code == 0, err
    assert "Strew Mushrooms" in stdout
    bpy.ops.wm.open_mainfile(filepath=str(out))
    trees = point_attributes(bpy.data.objects["Strew Trees"])["position"]
    mushrooms = point_attributes(bpy.data.objects["Strew Mushrooms"])["position"]
    gap = _nearest(mushrooms, trees)
    assert len(mushrooms) > 100 and gap.min() >= 0.5 - 1e-4 and gap.max() <= 2.0 + 1e-4

    moss = tmp_path / "moss.blend"
    code, _, err = strew("scatter", scene_file, "-o", moss, "--layer", "Moss:0.05:0.05", "--on", "Rocks")
    assert code == 0, err
    bpy.ops.wm.open_mainfile(filepath=str(moss))
    assert bpy.context.scene.strew.layers["Moss"].on_layer.layer == "Rocks"
    assert len(bpy.data.objects["Strew Moss"].data.vertices) > 50


@pytest.mark.parametrize(("options", "parts"), [
    (["--around", "Trees:2"], ["--around 'Trees:2'", "LAYER:MIN:MAX"]),
    (["--around", "Trees:2:1"], ["--around 'Trees:2:1'", "MAX (1) is below MIN (2)"]),
    (["--around", "Trees:-1:2"], ["--around 'Trees:-1:2'", "MIN"]),
    (["--around", "Trees:0:nan"], ["--around 'Trees:0:nan'", "MAX"]),
    (["--around", "Trees:0:1:fast"], ["--around 'Trees:0:1:fast'", ":falloff"]),
    (["--around", "Birches:0:1"], ["--around Birches:0:1", "no layer named 'Birches'"]),
    (["--on", "Birches"], ["--on Birches", "no layer named 'Birches'"]),
    (["--on", ""], ["--on", "name the earlier layer"]),
])
def test_cli_refusals_name_the_flag(strew, scene_file: Path, tmp_path: Path, options: list[str],
                                    parts: list[str]) -> None:
    out = tmp_path / "out.blend"
    code, _, err = strew("scatter", scene_file, "-o", out, "--layer", "Mushrooms:0.3:0.3", *options)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("strew: error: "), err
    for part in parts:
        assert part in lines[0], lines[0]
    assert not out.exists()


def test_cli_a_link_to_a_later_layer_names_the_flag(strew, scene_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.blend"
    code, _, err = strew("scatter", scene_file, "-o", out, "--layer", "Trees:4:4", "--layer", "Mushrooms:0.3:0.3",
                         "--around", "Mushrooms:0:1")
    assert code == 2 and "--around Mushrooms:0:1: layer 'Trees'" in err and "is below" in err, err
    assert not out.exists()


def test_cli_without_a_layer_is_refused(strew, scene_file: Path, tmp_path: Path) -> None:
    code, _, err = strew("scatter", scene_file, "-o", tmp_path / "out.blend", "--on", "Rocks")
    assert code == 2 and "--on applies to the --layer layers" in err, err


def test_farm_tasks_refuse_a_linked_layer(strew, scene_file: Path, tmp_path: Path) -> None:
    code, _, err = strew("scatter", scene_file, "--layer", "Mushrooms:0.3:0.3", "--around", "Trees:0:1",
                         "--plan", tmp_path / "plan.json")
    assert code == 2 and "farm tasks cannot place a layer around or on another layer" in err, err


class _Layout:
    """Stands in for a UILayout: records what a draw function shows (every property must exist)."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self  # column, label…

    def prop(self, data, name: str, **kwargs) -> None:
        assert name in data.bl_rna.properties, name
        self.shown.append(name)

    def prop_search(self, data, name: str, search_data, search_name: str, **kwargs) -> None:
        assert name in data.bl_rna.properties and search_name in search_data.bl_rna.properties, name
        self.shown.append(f"{data.path_from_id()}.{name}")


def test_the_panel_rows_show_the_ring_once_a_layer_is_picked(strew_extension) -> None:
    _scene()
    draw = importlib.import_module(f"{strew_extension.__name__}.panels.scatter_relations").draw_relations
    context = type("Context", (), {"scene": bpy.context.scene})()
    rocks, mushrooms = _Layout(), _Layout()
    draw(rocks, context, _layers()["Rocks"])
    draw(mushrooms, context, _layers()["Mushrooms"])
    assert rocks.shown == ["strew.layers[0].around.layer", "strew.layers[0].on_layer.layer"]
    assert {"around_min", "around_max", "around_falloff"} <= set(mushrooms.shown)


def test_one_or_two_workers_write_the_same_ring(strew_extension) -> None:
    _scene()
    _layers()["Mushrooms"].spacing = 'OBJECTS'  # the ring holds the layer's footprints: they travel to the workers
    _layers()["Mushrooms"].around_falloff = True
    _layers()["Mushrooms"].max_radius = 1.0
    bpy.context.scene.strew.chunk_size = 6.0  # many chunks: the pool gets work
    results = {}
    for workers in (1, 2):
        bpy.context.scene.strew.workers = workers
        assert bpy.ops.strew.scatter() == {'FINISHED'}
        results[workers] = _outputs()
    importlib.import_module(f"{strew_extension.__name__}.core.pool").close_kept_pool()
    for name in results[1]:
        for key in results[1][name]:
            assert results[1][name][key].tobytes() == results[2][name][key].tobytes(), (name, key)


def test_links_travel_with_a_preset_and_follow_the_layers_it_renames(strew_extension) -> None:
    presets = importlib.import_module(f"{strew_extension.__name__}.scene.presets")
    _scene()
    _layers()["Mushrooms"].around_falloff = True
    moss = add_layer("Moss", make_prefabs("Moss", 1), 0.05, 0.05, seed=4)
    moss.on_layer.layer = "Rocks"
    document = presets.stack_to_dict(bpy.context.scene.strew, "Linked")
    assert document["layers"][2]["around"]["layer"] == "Trees"
    assert document["layers"][3]["on_layer"]["layer"] == "Rocks"
    presets.load(bpy.context.scene.strew, document)  # beside the layers it came from: renamed
    loaded = {layer.name: layer for layer in _layers()}
    assert loaded["Mushrooms 2"].around.layer == "Trees 2" and loaded["Mushrooms 2"].around_falloff
    assert loaded["Moss 2"].on_layer.layer == "Rocks 2"
    assert loaded["Mushrooms"].around.layer == "Trees"  # the first ones are as they were
    assert bpy.ops.strew.scatter() == {'FINISHED'}


def test_a_bad_link_in_a_preset_is_one_line(strew_extension) -> None:
    presets = importlib.import_module(f"{strew_extension.__name__}.scene.presets")
    _scene()
    document = presets.stack_to_dict(bpy.context.scene.strew, "Linked")
    document["layers"][2]["around"] = "Trees"
    with pytest.raises(presets.PresetError, match="setting 'around': expected settings"):
        presets.load(bpy.context.scene.strew, document)
    assert len(_layers()) == 3
