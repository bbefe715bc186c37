"""Scatter output survives the user's own edits: moved, copied, several scenes, a user collection named like ours."""

from __future__ import annotations

import bpy
import pytest
from scenes import make_prefabs, make_terrain


def _small_scene(scene: bpy.types.Scene, output_mode: str = 'GEOMETRY_NODES') -> None:
    scene.strew.terrain = make_terrain(name=f"Terrain {scene.name}", size=20.0, subdivisions=6)
    stones = bpy.data.collections.get("Stones") or make_prefabs("Stones", 2)
    layer = scene.strew.layers.add()
    layer.name, layer.collection, layer.seed = "Stones", stones, 3
    layer.min_radius = layer.max_radius = 2.5
    layer.output_mode = output_mode


def _strew_objects() -> list[str]:
    return sorted(o.name for o in bpy.data.objects if o.get("strew_owner"))


def test_output_moved_under_a_user_collection_is_cleared_and_reused() -> None:
    scene = bpy.context.scene
    _small_scene(scene)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    output = bpy.data.collections["Strew Output"]
    mine = bpy.data.collections.new("Environment")
    scene.collection.children.link(mine)
    scene.collection.children.unlink(output)
    mine.children.link(output)

    assert bpy.ops.strew.scatter() == {'FINISHED'}  # found where the user put it: replaced, not duplicated
    assert [c.name for c in bpy.data.collections if c.get("strew_owner")] == ["Strew Output"]
    assert [o.name for o in bpy.data.objects if o.name.startswith("Strew Stones")] == ["Strew Stones"]
    assert output.name in mine.children
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert _strew_objects() == [] and "Strew Output" not in bpy.data.collections
    assert "Environment" in bpy.data.collections


def test_user_copy_of_an_output_object_is_never_cleared() -> None:
    _small_scene(bpy.context.scene)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    original = bpy.data.objects["Strew Stones"]
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj == original)
    bpy.context.view_layer.objects.active = original
    assert bpy.ops.object.duplicate() == {'FINISHED'}  # Shift+D: the copy carries the custom properties
    copy = bpy.context.view_layer.objects.active
    assert copy != original and copy.get("strew_owner") == original.get("strew_owner")
    assert copy.name in bpy.data.collections["Strew Output"].objects

    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert copy.name in bpy.data.objects and copy.name in bpy.data.collections["Strew Output"].objects
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert copy.name in bpy.data.objects and copy.data is not None
    assert "Strew Stones" not in bpy.data.objects
    # The output collection still holds the user's copy: it stays, and so does the copy in it.
    assert [o.name for o in bpy.data.collections["Strew Output"].objects] == [copy.name]


def test_user_object_put_in_a_layer_collection_survives_clear() -> None:
    _small_scene(bpy.context.scene, 'EMPTIES')
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    mine = bpy.data.objects.new("My Lamp", None)
    bpy.data.collections["Strew Stones"].objects.link(mine)
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert "My Lamp" in bpy.data.objects and mine.users_collection
    assert _strew_objects() == []


@pytest.mark.parametrize("mode", ['EMPTIES', 'GEOMETRY_NODES'])
def test_clear_in_one_scene_leaves_the_other_scene_intact(mode: str) -> None:
    first = bpy.context.scene
    _small_scene(first, mode)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    second = bpy.data.scenes.new("Second")
    in_second = {"scene": second, "view_layer": second.view_layers[0]}
    with bpy.context.temp_override(**in_second):
        _small_scene(second, mode)
        assert bpy.ops.strew.scatter() == {'FINISHED'}
    first_objects = sorted(o.name for o in first.objects if o.get("strew_owner"))
    first_instancing = {o.name: o.instance_collection for o in first.objects if o.get("strew_owner")}
    with bpy.context.temp_override(**in_second):
        assert bpy.ops.strew.clear() == {'FINISHED'}
    assert not [o for o in second.objects if o.get("strew_owner")]
    assert sorted(o.name for o in first.objects if o.get("strew_owner")) == first_objects
    for name, wrapper in first_instancing.items():
        # Each empty of the first scene still instances a live wrapper holding its prefab.
        assert bpy.data.objects[name].instance_collection == wrapper
        if wrapper is not None:
            assert wrapper.name in bpy.data.collections and len(wrapper.objects) == 1
    with bpy.context.temp_override(scene=first, view_layer=first.view_layers[0]):
        assert bpy.ops.strew.clear() == {'FINISHED'}
    assert _strew_objects() == []
    assert not [c for c in bpy.data.collections if c.get("strew_owner")]


def test_user_collection_named_strew_output_is_never_touched() -> None:
    scene = bpy.context.scene
    theirs = bpy.data.collections.new("Strew Output")
    scene.collection.children.link(theirs)
    camera = bpy.data.objects.new("Their Camera", bpy.data.cameras.new("Their Camera"))
    theirs.objects.link(camera)
    _small_scene(scene)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    ours = [c for c in bpy.data.collections if c.get("strew_owner")]
    assert len(ours) == 1 and ours[0] is not theirs and "Strew Stones" in ours[0].objects
    assert list(theirs.objects) == [camera]
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert list(theirs.objects) == [camera] and "Their Camera" in bpy.data.objects


def test_strew_output_is_refused_as_a_layer_collection() -> None:
    scene = bpy.context.scene
    _small_scene(scene)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.layers[0].collection = bpy.data.collections["Strew Output"]
    before = _strew_objects()
    with pytest.raises(RuntimeError, match="is what Strew made"):
        bpy.ops.strew.scatter()
    assert _strew_objects() == before
