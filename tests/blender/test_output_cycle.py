"""A layer whose prefabs reach Strew's own output is refused before anything is written, on every path."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import bpy
import pytest
from scenes import add_layer, make_prefabs, make_terrain, scene_snapshot


def _scene(output_mode: str = 'GEOMETRY_NODES') -> bpy.types.Collection:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=20.0, subdivisions=6)
    trees = make_prefabs("trees", 2)
    add_layer("Trees", trees, 2.5, 2.5, seed=1, output_mode=output_mode)
    add_layer("Bushes", make_prefabs("bushes", 2), 1.5, 1.5, seed=2, output_mode=output_mode)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    return trees


def _output() -> bpy.types.Collection:
    return next(c for c in bpy.data.collections if c.get("strew_name") == "Strew Output")


def _empty_instancing(collection: bpy.types.Collection, name: str = "Grove") -> bpy.types.Object:
    empty = bpy.data.objects.new(name, None)
    empty.instance_type = 'COLLECTION'
    empty.instance_collection = collection
    return empty


def _output_collection_in_prefabs(trees: bpy.types.Collection) -> str:
    trees.children.link(_output())
    return "Strew Output"


def _output_object_in_prefabs(trees: bpy.types.Collection) -> str:
    own = next(block for block in (*_output().objects, *_output().children) if block.get("strew_layer") == "Trees")
    (trees.children if isinstance(own, bpy.types.Collection) else trees.objects).link(own)
    return own.name


def _other_layers_output_in_prefabs(trees: bpy.types.Collection) -> str:
    other = next(block for block in (*_output().objects, *_output().children) if block.get("strew_layer") == "Bushes")
    (trees.children if isinstance(other, bpy.types.Collection) else trees.objects).link(other)
    return other.name


def _empty_instancing_the_output(trees: bpy.types.Collection) -> str:
    trees.objects.link(_empty_instancing(_output()))
    return "Grove"


def _deep_inside_a_child(trees: bpy.types.Collection) -> str:
    middle = bpy.data.collections.new("Middle")
    middle.children.link(_output())
    sub = bpy.data.collections.new("Sub")
    sub.objects.link(_empty_instancing(middle))
    trees.children.link(sub)
    return "Sub"


def _copy_of_the_output_in_prefabs(trees: bpy.types.Collection) -> str:
    own = next(block for block in _output().objects if block.get("strew_layer") == "Trees")
    copy = own.copy()
    trees.objects.link(copy)
    return copy.name


CYCLES = [_output_collection_in_prefabs, _output_object_in_prefabs, _other_layers_output_in_prefabs,
          _empty_instancing_the_output, _deep_inside_a_child]


def _scatter_all() -> None:
    bpy.ops.strew.scatter()


def _this_layer() -> None:
    bpy.ops.strew.scatter(layer_index=0)


def _paint() -> None:
    bpy.ops.strew.paint(layer_index=0, radius=3.0, stroke=[{"name": "", "location": (13.0, -7.0, 0.0)}])


def _live_update() -> None:
    live = importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")
    scene = bpy.context.scene
    scene.strew.layers[0].seed = 5
    live.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
    assert live.flush()
    raise RuntimeError(live.problem(scene))


@pytest.mark.parametrize("output_mode", ['GEOMETRY_NODES', 'EMPTIES'])
@pytest.mark.parametrize("run", [_scatter_all, _this_layer, _paint, _live_update],
                         ids=["scatter", "this-layer", "paint", "live"])
@pytest.mark.parametrize("make_cycle", CYCLES, ids=lambda f: f.__name__.strip("_"))
def test_prefabs_reaching_the_output_are_refused(make_cycle: Callable[[bpy.types.Collection], str],
                                                  run: Callable[[], None], output_mode: str) -> None:
    trees = _scene(output_mode)
    through = make_cycle(trees)
    bpy.context.scene.strew.live_update = run is _live_update
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as refused:
        run()
    message = str(refused.value).removeprefix("Error: ").strip()
    assert "\n" not in message and "Traceback" not in message
    assert 'Layer "Trees"' in message and f'take "{through}" out of "trees"' in message
    assert scene_snapshot() == before


def test_a_copy_of_an_output_among_the_prefabs_is_refused_too() -> None:
    trees = _scene()
    through = _copy_of_the_output_in_prefabs(trees)
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match=f'take "{through}" out of "trees"'):
        bpy.ops.strew.scatter()
    assert scene_snapshot() == before


def test_prefabs_that_instance_other_collections_still_scatter() -> None:
    trees = _scene()
    rocks = make_prefabs("rocks", 2)
    trees.objects.link(_empty_instancing(rocks))
    environment = bpy.data.collections.new("Environment")  # Strew Output inside a user collection: no prefab
    bpy.context.scene.collection.children.link(environment)
    environment.children.link(_output())
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    depsgraph = bpy.context.evaluated_depsgraph_get()
    drawn = sum(1 for inst in depsgraph.object_instances
                if inst.is_instance and inst.parent is not None and inst.parent.original.name == "Strew Trees")
    assert drawn > 0
