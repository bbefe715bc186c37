"""Live Update follows its layers by id: layers removed or moved while a run is in progress."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain, point_attributes

LAYERS = ("Trees", "Bushes", "Rocks")


def _live():  # the module as Blender loaded it
    return importlib.import_module("bl_ext.strew_dev.strew.scene.live_update")


def _scene() -> None:
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=24.0, subdivisions=6)
    for number, name in enumerate(LAYERS):
        add_layer(name, make_prefabs(name, 2), 2.5 - 0.5 * number, 2.5 - 0.5 * number, seed=number + 1,
                  keep_away=0.5 * number)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    scene.strew.live_update = True


def _positions() -> dict[str, np.ndarray]:
    return {obj.name: point_attributes(obj)["position"] for obj in bpy.data.objects
            if obj.name.startswith("Strew ") and obj.get("strew_layer_id")}


def _remove(name: str) -> Callable[[], None]:
    def remove() -> None:
        layers = bpy.context.scene.strew.layers
        layers.remove(layers.find(name))
    return remove


def _move_last_to_top() -> None:
    bpy.context.scene.strew.layers.move(len(bpy.context.scene.strew.layers) - 1, 0)


def _start_run(steps: int):
    """A live run of every layer (Trees' seed changed), stepped ``steps`` times; None when it ended sooner."""
    live, scene = _live(), bpy.context.scene
    scene.strew.layers["Trees"].seed = 11
    live.on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())
    service = live.service(scene)
    assert service._start()
    for _ in range(steps):
        try:
            next(service._run.job)
        except StopIteration:
            return None
    return service


def _step_timer(service) -> int:
    """Call the timer as Blender would until it stops; how many calls that took."""
    calls = 1
    while service._on_timer() is not None:
        calls += 1
        assert calls < 10_000
    return calls


def _fresh() -> dict[str, np.ndarray]:
    """What the Scatter button makes of the scene as it is now."""
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    return _positions()


@pytest.mark.parametrize("change", [_remove("Trees"), _remove("Bushes"), _remove("Rocks"), _move_last_to_top],
                         ids=["first", "middle", "last", "moved"])
def test_a_layer_list_changed_in_every_step_of_a_live_run(change: Callable[[], None]) -> None:
    """Brute force over the step at which the change lands: the timer never raises, nothing is written for a
    layer that is gone, and what the run leaves equals a fresh Scatter of the layers that are left."""
    steps = 0
    while True:
        bpy.ops.wm.read_homefile(use_empty=True)
        _scene()
        service = _start_run(steps)
        if service is None:
            break
        change()
        _step_timer(service)
        scene = bpy.context.scene
        assert _live().problem(scene) is None
        _live().on_depsgraph_update(scene, bpy.context.evaluated_depsgraph_get())  # Blender's, after the change
        assert _live().flush()
        left = {f"Strew {layer.name}" for layer in scene.strew.layers}
        live = {name: xyz for name, xyz in _positions().items() if name in left}
        if change is not _move_last_to_top:  # a removed layer's output stays until Clear, as it was
            assert set(_positions()) == {f"Strew {name}" for name in LAYERS}
        fresh = _fresh()
        assert set(live) == left
        for name in left:
            np.testing.assert_allclose(live[name], fresh[name], atol=1e-6, err_msg=f"step {steps}: {name}")
        steps += 1
    assert steps > 3  # the run took several steps, and the change landed in each


def test_removing_every_layer_mid_run_ends_quietly() -> None:
    _scene()
    service = _start_run(1)
    before = _positions()
    bpy.context.scene.strew.layers.clear()
    _step_timer(service)
    assert _live().problem(bpy.context.scene) is None
    after = _positions()
    assert set(after) == set(before)
    for name, xyz in before.items():
        np.testing.assert_array_equal(after[name], xyz)
    assert _live().flush()


def test_flush_runs_the_layers_left_after_a_removal() -> None:
    _scene()
    service = _start_run(1)
    _remove("Trees")()
    assert _live().flush()
    assert service._run is None and _live().problem(bpy.context.scene) is None
    live = _positions()
    fresh = _fresh()
    for name in ("Strew Bushes", "Strew Rocks"):
        np.testing.assert_allclose(live[name], fresh[name], atol=1e-6)
