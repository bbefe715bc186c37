"""Presets at scale: thousands of layers load with every setting, and the keep-away rules name the layers the
saved rules named, however the load had to rename them."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Iterator
from pathlib import Path

import bpy
import pytest
from conftest import ADDON_MODULE
from scenes import make_prefabs


def _presets_module():
    return importlib.import_module(f"{ADDON_MODULE}.scene.presets")


@pytest.fixture(autouse=True)
def no_user_presets() -> Iterator[None]:
    folder = _presets_module().user_folder().resolve()
    assert folder.is_relative_to(Path(os.environ["BLENDER_USER_RESOURCES"]).resolve())
    for path in folder.glob("*.json"):
        path.unlink()
    yield


def _stack(count: int) -> None:
    """``count`` layers with varied settings, each keeping away from up to two random earlier layers."""
    rng = random.Random(count)
    trees = make_prefabs("Trees", count=1)
    layers = bpy.context.scene.strew.layers
    for index in range(count):
        layers.add()
        layer = layers[index]
        layer.name, layer.seed, layer.collection = f"Layer {index}", index, trees
        layer.min_radius = 1.0 + index % 7
        layer.max_radius = layer.min_radius + index % 3
        for _ in range(min(index, rng.randrange(3))):
            rule = layer.keep_away_rules.add()
            rule.layer, rule.distance = f"Layer {rng.randrange(index)}", float(rng.randrange(1, 50))


def _state(layer: bpy.types.PropertyGroup) -> dict[str, object]:
    out: dict[str, object] = {}
    for prop in layer.bl_rna.properties:
        if prop.identifier in {"rna_type", "layer_id", "name", "keep_away_rules"} or prop.is_readonly:
            continue
        value = getattr(layer, prop.identifier)
        out[prop.identifier] = value.name if isinstance(value, bpy.types.ID) else value
    return out


def _rules(layer: bpy.types.PropertyGroup) -> list[tuple[str, float]]:
    return [(rule.layer, rule.distance) for rule in layer.keep_away_rules]


@pytest.mark.parametrize("count", [10, 1_000, 10_000])
def test_a_big_preset_loaded_twice_renames_its_layers_and_its_rules_follow(count: int) -> None:
    _stack(count)
    layers = bpy.context.scene.strew.layers
    saved = [(layer.name, _state(layer), _rules(layer)) for layer in layers]
    assert bpy.ops.strew.preset_save(name="Big") == {'FINISHED'}

    assert bpy.ops.strew.preset_load(preset="Big") == {'FINISHED'}  # the same names again: every one renamed
    layers = bpy.context.scene.strew.layers
    assert len(layers) == 2 * count
    for index, (name, state, rules) in enumerate(saved):
        first, second = layers[index], layers[count + index]
        assert (first.name, _state(first), _rules(first)) == (name, state, rules)
        assert second.name == f"{name} 2"
        assert _state(second) == state
        assert _rules(second) == [(f"{rule} 2", distance) for rule, distance in rules]
