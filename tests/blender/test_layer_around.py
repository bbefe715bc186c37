"""Around: a layer placed only in a ring about an earlier layer's instances, checked by brute force against the
written output (every instance's distance to the nearest linked instance, a dense probe set for maximality)."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain, point_attributes, ray_down, terrain_bvh

TOLERANCE = 1e-4  # float32 output positions tens of metres from the origin


def _nearest(points: np.ndarray, centres: np.ndarray, radii: np.ndarray | None = None) -> np.ndarray:
    """Per point, the least distance (seen from above) to a centre, less that centre's radius: every pair."""
    out = np.empty(len(points))
    for start in range(0, len(points), 1024):
        d = np.sqrt(((points[start:start + 1024, None, :2] - centres[None, :, :2]) ** 2).sum(-1))
        out[start:start + 1024] = (d if radii is None else d - radii[None, :]).min(axis=1)
    return out


def _scene(seed: int, near: float = 0.5, far: float = 2.0, **mushrooms: object) -> bpy.types.Object:
    terrain = make_terrain(size=40.0, subdivisions=12)
    bpy.context.scene.strew.terrain = terrain
    add_layer("Trees", make_prefabs("Trees", 2), 4.0, 4.0, seed=seed)
    layer = add_layer("Mushrooms", make_prefabs("Mushrooms", 2), 0.4, 0.4, seed=seed + 10, **mushrooms)
    layer.around.layer, layer.around_min, layer.around_max = "Trees", near, far
    return terrain


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_instance_is_in_the_ring_and_the_ring_is_filled(seed: int) -> None:
    terrain = _scene(seed)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    trees = point_attributes(bpy.data.objects["Strew Trees"])["position"]
    mushrooms = point_attributes(bpy.data.objects["Strew Mushrooms"])["position"]
    assert len(trees) > 20 and len(mushrooms) > 5 * len(trees)

    gap = _nearest(mushrooms, trees)
    assert gap.min() >= 0.5 - TOLERANCE and gap.max() <= 2.0 + TOLERANCE, (gap.min(), gap.max())
    own = np.sqrt(((mushrooms[:, None, :2] - mushrooms[None, :, :2]) ** 2).sum(-1)) + np.eye(len(mushrooms)) * 1e9
    assert own.min() >= 0.4 - TOLERANCE

    # Maximal: every probe in a ring, on the terrain and clear of the others has a mushroom within 0.4.
    rng = np.random.default_rng(seed)
    probes = rng.uniform(trees[:, :2].min(0) - 3.0, trees[:, :2].max(0) + 3.0, size=(20_000, 2))
    z, _ = ray_down(terrain_bvh(terrain), probes)
    ring = _nearest(probes, trees)
    allowed = np.isfinite(z) & (ring >= 0.5 + 1e-3) & (ring <= 2.0 - 1e-3)
    fillable = allowed.copy()
    fillable[allowed] = _nearest(probes[allowed], mushrooms) >= 0.4 + 1e-3
    assert allowed.sum() > 1_000
    assert fillable.sum() <= 2, f"{fillable.sum()} probes where a mushroom still fits, e.g. {probes[fillable][:3]}"


def test_footprint_edges_count_when_a_layer_is_spaced_by_object_size() -> None:
    _scene(4, near=0.3, far=1.5)
    trees = bpy.data.collections["Trees"]
    sizes = {"Trees 0": 1.0, "Trees 1": 1.6, "Mushrooms 0": 0.1, "Mushrooms 1": 0.25}
    for name, radius in sizes.items():
        bpy.data.objects[name]["strew_radius"] = radius
    layers = bpy.context.scene.strew.layers
    layers["Trees"].spacing = 'OBJECTS'
    layers["Trees"].min_radius = layers["Trees"].max_radius = 2.0
    assert trees.objects
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    tree = point_attributes(bpy.data.objects["Strew Trees"])
    mush = point_attributes(bpy.data.objects["Strew Mushrooms"])
    tree_names = sorted(o.name for o in trees.objects)
    mush_names = sorted(o.name for o in bpy.data.collections["Mushrooms"].objects)
    tree_radii = np.array([sizes[tree_names[i]] for i in tree["strew_prefab"]]) * tree["strew_scale"]
    mush_radii = np.array([sizes[mush_names[i]] for i in mush["strew_prefab"]]) * mush["strew_scale"]
    assert len(mush_radii) > 50
    gap = _nearest(mush["position"], tree["position"], tree_radii) - mush_radii
    assert gap.min() >= 0.3 - TOLERANCE and gap.max() <= 1.5 + TOLERANCE, (gap.min(), gap.max())
    centre_gap = _nearest(mush["position"], tree["position"])
    assert centre_gap.max() > 1.5 + TOLERANCE  # the footprints did count: measured from the centres, some lie beyond

    # Maximal: a probe in the ring whatever mushroom a place draws (its footprint from 0.1 × 0.85 to 0.25 × 1.15)
    # has a mushroom within the spacing.
    rng = np.random.default_rng(4)
    probes = rng.uniform(tree["position"][:, :2].min(0) - 3, tree["position"][:, :2].max(0) + 3, (20_000, 2))
    z, _ = ray_down(terrain_bvh(bpy.context.scene.strew.terrain), probes)
    edge = _nearest(probes, tree["position"], tree_radii)
    allowed = np.isfinite(z) & (edge - 0.25 * 1.15 >= 0.3 + 1e-3) & (edge - 0.1 * 0.85 <= 1.5 - 1e-3)
    fillable = allowed.copy()
    fillable[allowed] = _nearest(probes[allowed], mush["position"]) >= 0.4 + 1e-3
    assert allowed.sum() > 1_000
    assert fillable.sum() <= 2, f"{fillable.sum()} probes where a mushroom still fits, e.g. {probes[fillable][:3]}"


def test_falloff_thins_the_ring_outwards() -> None:
    _scene(5, near=0.0, far=3.0, around_falloff=True)
    layers = bpy.context.scene.strew.layers
    layers["Trees"].min_radius = layers["Trees"].max_radius = 8.0
    layers["Mushrooms"].min_radius, layers["Mushrooms"].max_radius = 0.3, 1.2
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    trees = point_attributes(bpy.data.objects["Strew Trees"])["position"]
    mushrooms = point_attributes(bpy.data.objects["Strew Mushrooms"])["position"]
    gap = _nearest(mushrooms, trees)
    inner, outer = (gap < 1.0).sum() / (1.0 ** 2), ((gap >= 2.0) & (gap <= 3.0)).sum() / (3.0 ** 2 - 2.0 ** 2)
    assert inner > 2.0 * outer, (inner, outer)


@pytest.mark.parametrize("output", ['EMPTIES', 'DUPLICATES'])
def test_a_ring_around_real_objects_read_from_the_scene(output: str) -> None:
    _scene(6)
    bpy.context.scene.strew.layers["Trees"].output_mode = output
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert bpy.ops.strew.scatter(layer_index=1) == {'FINISHED'}  # Mushrooms alone: Trees read from their objects
    trees = np.array([obj.matrix_world.translation[:] for obj in bpy.data.collections["Strew Trees"].objects
                      if obj.parent is not None])
    mushrooms = point_attributes(bpy.data.objects["Strew Mushrooms"])["position"]
    gap = _nearest(mushrooms, trees)
    assert len(trees) > 20 and len(mushrooms) > 5 * len(trees)
    assert gap.min() >= 0.5 - TOLERANCE and gap.max() <= 2.0 + TOLERANCE


def test_an_every_face_layer_keeps_the_ring_seen_from_above() -> None:
    _scene(7, surface='ALL')
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    trees = point_attributes(bpy.data.objects["Strew Trees"])["position"]
    mushrooms = point_attributes(bpy.data.objects["Strew Mushrooms"])["position"]
    gap = _nearest(mushrooms, trees)
    assert len(mushrooms) > 5 * len(trees)
    assert gap.min() >= 0.5 - TOLERANCE and gap.max() <= 2.0 + TOLERANCE


@pytest.mark.parametrize("sized", [("Mushrooms",), ("Trees", "Mushrooms")])
def test_the_ring_layers_own_footprint_counts_when_it_is_spaced_by_size(sized: tuple[str, ...]) -> None:
    _scene(8, near=0.2, far=1.0)
    sizes = {"Trees 0": 0.6, "Trees 1": 0.9, "Mushrooms 0": 0.15, "Mushrooms 1": 0.3}
    for name, radius in sizes.items():
        bpy.data.objects[name]["strew_radius"] = radius
    layers = bpy.context.scene.strew.layers
    for name in sized:
        layers[name].spacing = 'OBJECTS'
    layers["Mushrooms"].min_radius = layers["Mushrooms"].max_radius = 0.1
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    tree = point_attributes(bpy.data.objects["Strew Trees"])
    mush = point_attributes(bpy.data.objects["Strew Mushrooms"])
    tree_radii = np.array([sizes[f"Trees {i}"] for i in tree["strew_prefab"]]) * tree["strew_scale"]
    mush_radii = np.array([sizes[f"Mushrooms {i}"] for i in mush["strew_prefab"]]) * mush["strew_scale"]
    gap = _nearest(mush["position"], tree["position"], tree_radii) - mush_radii
    assert len(mush_radii) > 50
    assert gap.min() >= 0.2 - TOLERANCE and gap.max() <= 1.0 + TOLERANCE, (gap.min(), gap.max())
