"""The list operators (layers, keep-away rules, fixed tiles) share one behaviour: add after the active item and
make it active, remove the active item and keep the index in range; poll says why when there is nothing to do."""

from __future__ import annotations

import random

import bpy
import pytest

LISTS = {  # owner, list, active index, add, remove, a property that can tell the items apart
    "layers": (lambda: bpy.context.scene.strew, "layers", "active_layer_index",
               bpy.ops.strew.layer_add, bpy.ops.strew.layer_remove, "seed"),
    "rules": (lambda: bpy.context.scene.strew.layers[1], "keep_away_rules", "active_rule_index",
              bpy.ops.strew.keep_away_add, bpy.ops.strew.keep_away_remove, "distance"),
    "fixed": (lambda: bpy.context.scene.strew.room, "fixed", "active_fixed_index",
              bpy.ops.strew.fixed_tile_add, bpy.ops.strew.fixed_tile_remove, "cell"),
}


@pytest.mark.parametrize("name", sorted(LISTS))
def test_random_adds_and_removes_keep_the_active_index_on_the_right_item(name) -> None:
    owner_of, attribute, active, add, remove, mark = LISTS[name]
    settings = bpy.context.scene.strew
    for number, layer_name in enumerate(("Top", "Below")):
        layer = settings.layers.add()
        layer.name, layer.seed = layer_name, 1000 + number
    settings.active_layer_index = 1

    def tag(item):
        value = getattr(item, mark)
        return tuple(value) if name == "fixed" else value

    def tag_new(item, number):
        setattr(item, mark, (number, 0, 0) if name == "fixed" else number)

    rng = random.Random(7)
    model = [tag(item) for item in getattr(owner_of(), attribute)]  # the list as it should be
    for number in range(1, 61):
        owner = owner_of()
        items = getattr(owner, attribute)
        if rng.random() < 0.55 or not len(items):
            index = getattr(owner, active) if len(items) else -1
            assert add() == {'FINISHED'}
            place = min(index + 1, len(items) - 1)
            assert getattr(owner, active) == place
            tag_new(items[place], number)
            model.insert(place, tag(items[place]))
        else:
            index = rng.randrange(len(items))
            setattr(owner, active, index)
            assert remove() == {'FINISHED'}
            del model[index]
            assert getattr(owner, active) == max(0, min(index, len(items) - 1))
        assert [tag(item) for item in items] == model


def test_poll_says_why_when_there_is_nothing_to_do() -> None:
    assert not bpy.ops.strew.layer_remove.poll()
    assert not bpy.ops.strew.fixed_tile_remove.poll()
    assert not bpy.ops.strew.keep_away_add.poll()  # no layer above the active one
    bpy.context.scene.strew.layers.add()
    assert bpy.ops.strew.layer_remove.poll() and not bpy.ops.strew.keep_away_remove.poll()
    with pytest.raises(RuntimeError, match="There is no fixed tile to remove"):
        bpy.ops.strew.fixed_tile_remove()
