"""Helpers of the Live Update tests: drive a change through the depsgraph handler and the timer's work headless."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import bpy
import numpy as np
from scenes import point_attributes


def live_update():  # the module as Blender loaded it
    return importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")


def layer_key(name: str) -> str:
    """What the live update's cache files the layer ``name`` under (its id)."""
    return bpy.context.scene.strew.layers[name].layer_id


def surface_key(name: str) -> str:
    """What the live update's cache files the terrain object ``name`` under."""
    return importlib.import_module("bl_ext.strew_dev.strew.scene.job_cache").source_id(bpy.data.objects[name])


def positions(layer_name: str) -> np.ndarray:
    return point_attributes(bpy.data.objects[f"Strew {layer_name}"])["position"]


def outputs() -> dict[str, dict[str, np.ndarray]]:
    return {layer.name: point_attributes(bpy.data.objects[f"Strew {layer.name}"])
            for layer in bpy.context.scene.strew.layers}


def settle(change: Callable[[], object], by_handler: bool = False) -> None:
    """Make a change, let the depsgraph handler note it, and run the waiting re-scatter (the timer's work).

    Headless, a setting of a property group reaches no handler: unless ``by_handler`` (the change must be noticed
    from Blender's own update), the update is handed over as Blender's window does."""
    module = live_update()
    change()
    bpy.context.view_layer.update()
    if not by_handler and not module.scheduled():
        module.on_depsgraph_update(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    assert module.scheduled()
    assert module.flush()


def assert_same_as_a_fresh_scatter() -> None:
    """The live output equals what the Scatter button makes from nothing (no cache involved)."""
    live = outputs()
    bpy.ops.strew.scatter()
    fresh = outputs()
    for name, attributes in fresh.items():
        for key, values in attributes.items():
            np.testing.assert_allclose(live[name][key], values, atol=1e-6, err_msg=f"{name}.{key}")
