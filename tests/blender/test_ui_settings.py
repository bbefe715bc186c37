"""Settings as the window shows them: ranges a drag cannot push into an error."""

from __future__ import annotations

import bpy
import pytest


@pytest.mark.parametrize("name", ["min_radius", "max_radius"])
def test_radius_drag_stops_above_zero(name: str) -> None:
    prop = bpy.context.scene.strew.layers.add().bl_rna.properties[name]
    assert prop.soft_min >= 0.05  # a drag stops at 5 cm …
    assert prop.hard_min == 0.0   # … a script may still type 0 and gets the one-line error


def test_uniform_layer_scatters_at_min_radius_whatever_max_radius_says() -> None:
    """What the greyed-out Max Radius promises: with Uniform density every point keeps Min Radius."""
    from scenes import add_layer, make_prefabs, make_terrain

    make_terrain(size=20.0, subdivisions=8)
    add_layer("Trees", make_prefabs("Trees", count=1), 1.2, 5.0)
    assert bpy.context.scene.strew.layers[0].density_mode == 'NONE'
    bpy.context.scene.strew.terrain = bpy.data.objects["Terrain"]
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    radii = [v.value for v in bpy.data.objects["Strew Trees"].data.attributes["strew_radius"].data]
    assert radii and min(radii) == pytest.approx(1.2) and max(radii) == pytest.approx(1.2)
