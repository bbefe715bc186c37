"""A layer finds its own output by its stable id: renames, copies, This Layer, Live Update, save and reload."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import bpy
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenes import add_layer, make_prefabs, make_terrain, point_attributes, scene_snapshot


def _module(name: str):  # a module as Blender loaded it
    return importlib.import_module(f"bl_ext.strew_dev.strew.scene.{name}")


def _two_layers(output_mode: str = 'GEOMETRY_NODES') -> None:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=24.0, subdivisions=6)
    add_layer("Trees", make_prefabs("Trees", 2), 2.5, 2.5, seed=1, output_mode=output_mode)
    add_layer("Bushes", make_prefabs("Bushes", 2), 1.5, 1.5, seed=2, keep_away=1.0, output_mode=output_mode)


def _outputs() -> list[bpy.types.ID]:
    """Every data-block in Strew Output that carries a layer's mark, copies included."""
    return [block for collection in bpy.data.collections if collection.get("strew_name") == "Strew Output"
            for block in (*collection.objects, *collection.children) if block.get("strew_layer_id")]


def _world(block: bpy.types.ID) -> np.ndarray:
    """World positions of an output, sorted (point object or collection of real objects)."""
    bpy.context.view_layer.update()
    if isinstance(block, bpy.types.Object):
        xyz = point_attributes(block)["position"]
    else:
        xyz = np.array([o.matrix_world.translation[:] for o in block.objects if "strew_radius" in o])
    return xyz[np.lexsort(xyz.T)]


def _by_layer() -> dict[str, list[bpy.types.ID]]:
    found: dict[str, list[bpy.types.ID]] = {}
    for block in _outputs():
        found.setdefault(block["strew_layer_id"], []).append(block)
    return found


def _assert_one_output_each(reference: dict[str, np.ndarray]) -> None:
    """Each layer has exactly one output, named after it, holding what a fresh run places."""
    layers = bpy.context.scene.strew.layers
    found = _by_layer()
    assert sorted(found) == sorted(layer.layer_id for layer in layers)
    for layer in layers:
        (block,) = found[layer.layer_id]
        assert block.name == f"Strew {layer.name}"
        np.testing.assert_allclose(_world(block), reference[layer.layer_id], atol=1e-5)


def _reference() -> dict[str, np.ndarray]:
    return {layer_id: _world(blocks[0]) for layer_id, blocks in _by_layer().items()}


def _rename_layer() -> None:
    bpy.context.scene.strew.layers[0].name = "Oaks"


def _rename_object() -> None:
    first = bpy.context.scene.strew.layers[0]
    (block,) = _by_layer()[first.layer_id]
    block.name = "My Trees"


def _scatter_all() -> None:
    assert bpy.ops.strew.scatter() == {'FINISHED'}


def _this_layer() -> None:
    assert bpy.ops.strew.scatter(layer_index=0) == {'FINISHED'}


def _live_update() -> None:
    live = _module("live_update")
    scene = bpy.context.scene
    for seed in (9, 1):  # a change and its undoing: the run places what it placed before, and the rename counts
        scene.strew.layers[0].seed = seed
        live.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
    assert live.scheduled() and live.flush()
    assert live.problem(scene) is None


@pytest.mark.parametrize("output_mode", ['GEOMETRY_NODES', 'EMPTIES'])
@pytest.mark.parametrize("rename", [_rename_layer, _rename_object], ids=["layer", "object"])
@pytest.mark.parametrize("run", [_scatter_all, _this_layer, _live_update], ids=["scatter", "this-layer", "live"])
def test_a_rename_replaces_the_output_instead_of_adding_one(output_mode: str, rename: Callable[[], None],
                                                            run: Callable[[], None]) -> None:
    _two_layers(output_mode)
    _scatter_all()
    reference = _reference()
    bpy.context.scene.strew.live_update = run is _live_update
    rename()
    run()
    _assert_one_output_each(reference)
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert _outputs() == []


def test_renaming_a_layer_to_another_layers_name_is_refused_and_changes_nothing() -> None:
    _two_layers()
    _scatter_all()
    bpy.context.scene.strew.layers[1].name = "Trees"
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="Two layers have the same name"):
        bpy.ops.strew.scatter(layer_index=1)
    assert scene_snapshot() == before


def test_a_layer_copied_with_its_id_gets_its_own() -> None:
    _two_layers()
    _scatter_all()
    layers = bpy.context.scene.strew.layers
    copy = layers.add()
    for prop in layers[0].bl_rna.properties:
        if not prop.is_readonly and prop.identifier != "name":
            setattr(copy, prop.identifier, getattr(layers[0], prop.identifier))
    copy.name = "Trees Copy"
    assert copy.layer_id == layers[0].layer_id
    original_output = _by_layer()[layers[0].layer_id][0].name
    _scatter_all()
    ids = [layer.layer_id for layer in layers]
    assert len(set(ids)) == 3 and all(ids)
    found = _by_layer()
    assert sorted(found) == sorted(ids) and all(len(blocks) == 1 for blocks in found.values())
    assert found[layers[0].layer_id][0].name == original_output


def test_ids_survive_save_and_reload_and_still_find_the_output(tmp_path) -> None:
    _two_layers()
    _scatter_all()
    reference = _reference()
    ids = [layer.layer_id for layer in bpy.context.scene.strew.layers]
    path = str(tmp_path / "saved.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    bpy.ops.wm.open_mainfile(filepath=path)
    assert [layer.layer_id for layer in bpy.context.scene.strew.layers] == ids
    _rename_layer()
    _rename_object()
    _this_layer()
    _assert_one_output_each(reference)


@pytest.mark.parametrize("reload", [False, True], ids=["same-session", "reloaded"])
def test_output_written_without_layer_ids_is_adopted_once_by_its_name(tmp_path, reload: bool) -> None:
    _two_layers()
    _scatter_all()
    reference = {layer.name: _world(_by_layer()[layer.layer_id][0]) for layer in bpy.context.scene.strew.layers}
    for block in [*_outputs(), *(b.data for b in _outputs() if isinstance(b, bpy.types.Object))]:
        del block["strew_layer_id"]
    for layer in bpy.context.scene.strew.layers:
        layer.layer_id = ""
    if reload:
        path = str(tmp_path / "old.blend")
        bpy.ops.wm.save_as_mainfile(filepath=path)
        bpy.ops.wm.open_mainfile(filepath=path)
        _rename_layer()  # after loading: the output was adopted already
    _scatter_all()
    layers = bpy.context.scene.strew.layers
    was = {"Oaks": "Trees"}
    _assert_one_output_each({layer.layer_id: reference[was.get(layer.name, layer.name)] for layer in layers})


def test_a_user_copy_stays_the_users_through_renames_and_clear() -> None:
    _two_layers()
    _scatter_all()
    first = bpy.context.scene.strew.layers[0]
    original = _by_layer()[first.layer_id][0]
    copy = original.copy()
    copy.data = original.data.copy()
    original.users_collection[0].objects.link(copy)
    assert copy.name == "Strew Trees.001"
    _rename_layer()
    _scatter_all()
    assert copy.name in bpy.data.objects and "Strew Trees" not in bpy.data.objects
    bpy.data.objects.remove(bpy.data.objects["Strew Oaks"])  # the original gone, the copy alone keeps its name
    _scatter_all()
    assert copy.name in bpy.data.objects and "Strew Oaks" in bpy.data.objects
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert copy.name in bpy.data.objects and copy.data is not None


def test_a_copy_of_a_renamed_output_stays_the_users_once_the_original_is_gone() -> None:
    _two_layers()
    _scatter_all()
    original = bpy.data.objects["Strew Trees"]
    original.name = "Forest"
    copy = original.copy()
    copy.data = original.data.copy()
    original.users_collection[0].objects.link(copy)
    for step in (bpy.ops.strew.clear, _scatter_all, bpy.ops.strew.clear, _scatter_all, bpy.ops.strew.clear):
        step()
        assert copy.name == "Forest.001" and copy.name in bpy.data.objects
    assert "Forest" not in bpy.data.objects


# A user's edits between runs, each drawn with its arguments: which layer, which new name.
EDITS = st.one_of(
    st.tuples(st.just("rename layer"), st.integers(0, 1), st.sampled_from(["Trees", "Bushes", "Oaks", "Elms"])),
    st.tuples(st.just("rename output"), st.integers(0, 1), st.sampled_from(["Mine", "Forest", "Strew Elms"])),
    st.tuples(st.just("copy output"), st.integers(0, 1), st.just("")),
    st.tuples(st.just("delete output"), st.integers(0, 1), st.just("")),
    st.tuples(st.just("move layers"), st.just(0), st.just("")),
    st.tuples(st.just("scatter"), st.integers(-1, 1), st.just("")),
    st.tuples(st.just("clear"), st.integers(-1, 1), st.just("")),
)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDITS, max_size=8))
def test_any_sequence_of_renames_copies_and_runs_keeps_one_output_per_layer(edits: list) -> None:
    """After every run each layer it ran has exactly one output, named after it, besides the user's copies;
    the other layers' outputs and every copy are as they were; a refused run changes nothing."""
    bpy.ops.wm.read_homefile(use_empty=True)
    _two_layers()
    _scatter_all()
    layers = bpy.context.scene.strew.layers
    copies: dict[str, str] = {}  # copy name -> the layer id it carries

    def output_of(layer_id: str) -> bpy.types.Object | None:
        own = [b for b in _outputs() if b["strew_layer_id"] == layer_id and b.name not in copies]
        assert len(own) <= 1
        return own[0] if own else None

    for action, index, name in edits:
        layer = layers[index]
        own = output_of(layer.layer_id)
        if action == "rename layer":
            layer.name = name
        elif action == "rename output" and own is not None:
            own.name = name
        elif action == "copy output" and own is not None:
            copy = own.copy()
            copy.data = own.data.copy()
            own.users_collection[0].objects.link(copy)
            copies[copy.name] = layer.layer_id
        elif action == "delete output" and own is not None:
            bpy.data.objects.remove(own)
        elif action == "move layers":
            layers.move(0, 1)
        elif action == "clear":
            assert bpy.ops.strew.clear(layer_index=index) == {'FINISHED'}
            cleared = [layer.layer_id for layer in layers][max(index, 0):max(index, 0) + (2 if index < 0 else 1)]
            assert all(output_of(layer_id) is None for layer_id in cleared)
        elif action == "scatter":
            before = {layer.layer_id: (o.name if (o := output_of(layer.layer_id)) else None) for layer in layers}
            ran = [layer.layer_id for layer in layers][max(index, 0):]
            if len({layer.name for layer in layers}) < len(layers):
                snapshot = scene_snapshot()
                with pytest.raises(RuntimeError, match="Two layers have the same name"):
                    bpy.ops.strew.scatter(layer_index=index)
                assert scene_snapshot() == snapshot
                continue
            assert bpy.ops.strew.scatter(layer_index=index) == {'FINISHED'}
            for layer in layers:
                found = output_of(layer.layer_id)
                if layer.layer_id in ran:
                    assert found is not None and found.name.split(".")[0] == f"Strew {layer.name}"  # ".001": taken
                else:
                    assert (found.name if found else None) == before[layer.layer_id]
        assert {copy: bpy.data.objects[copy]["strew_layer_id"] for copy in copies if copy in bpy.data.objects} \
            == copies


def _boxes(obj: bpy.types.Object) -> list[bpy.types.Collection]:
    """The bounds collections an output's Viewport Display draws."""
    values = _module("compat").modifier_input_values
    return [value for modifier in obj.modifiers if modifier.name == "Strew Viewport"
            for value in values(modifier).values() if isinstance(value, bpy.types.Collection)]


@pytest.mark.parametrize("first_run", ["all layers", "the renamed layer's neighbour only"])
def test_bounds_boxes_follow_the_layer_not_its_name(first_run: str) -> None:
    """A layer renamed, its old name given to another layer, and a user copy of its output: every output keeps
    the boxes of its own prefabs."""
    _two_layers()
    trees, bushes = bpy.context.scene.strew.layers
    trees.display_mode = bushes.display_mode = 'BOUNDS'
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    output = next(o for o in _outputs() if o.get("strew_layer_id") == trees.layer_id)
    copy = output.copy()
    bpy.context.scene.collection.objects.link(copy)
    trees.name, bushes.name = "Oaks", "Trees"
    assert bpy.ops.strew.scatter(layer_index=1 if first_run != "all layers" else -1) == {'FINISHED'}
    trees.display_mode = 'POINTS'
    trees.display_mode = 'BOUNDS'
    by_layer = {block.get("strew_layer_id"): block for block in _outputs() if block is not copy}
    for layer, prefabs in ((trees, "Trees"), (bushes, "Bushes")):
        (boxes,) = _boxes(by_layer[layer.layer_id])
        assert len(boxes.objects) == len(bpy.data.collections[prefabs].objects)
    (kept,) = _boxes(copy)
    assert len(kept.objects) == 2 and kept.name in bpy.data.collections
