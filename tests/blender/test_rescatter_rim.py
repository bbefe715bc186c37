"""Rescatter Region keeps the layer maximal everywhere it may place, the band around the region's rim included.

Every check is brute force on what the output holds after each edit: probes on a dense grid over the terrain and
on rings at and around the rim (inside and out) where one more instance would fit (:mod:`maximality`), every pair
of instances, the distance kept from the layer above, and which instances changed: those outside the region stay
bit for bit, new ones appear only within the reach of the largest spacing from the region.
"""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from conftest import enable_strew
from maximality import free_probes, grid, rim_rings
from scenes import add_layer, make_prefabs, make_terrain, scene_snapshot
from scipy.spatial import cKDTree
from test_rescatter_region import RADIUS, _build, _check_region, _check_rules, _rows

from strew.core.brush import Box, Circle

EDGE = 20.0  # the terrain of _build covers -20 .. 20 in x and y
OFFSETS = np.array([-1.5, -0.75, -0.25, 0.0, 0.05, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0])


def _region(edit: tuple) -> Box | Circle:
    return Circle(edit[1], edit[2]) if edit[0] == 'CIRCLE' else Box(edit[1], edit[2])


def _run(layer: int, edit: tuple, seed: int) -> None:
    """One Rescatter Region: a box, a circle, or the box of a selected Empty (``('EMPTY', centre, half sides)``)."""
    if edit[0] == 'EMPTY':
        marker = bpy.data.objects.new("Region", None)
        bpy.context.scene.collection.objects.link(marker)
        marker.empty_display_type, marker.empty_display_size = 'CUBE', 1.0
        marker.location, marker.scale = (*edit[1], 2.0), (*edit[2], 1.0)
        bpy.context.view_layer.objects.active = marker
        marker.select_set(True)
        bpy.context.view_layer.update()
        done = bpy.ops.strew.rescatter_region(layer_index=layer, shape='BOX', seed=seed)
        bpy.data.objects.remove(marker)
    elif edit[0] == 'BOX':
        done = bpy.ops.strew.rescatter_region(layer_index=layer, shape='BOX', box_min=edit[1], box_max=edit[2],
                                              seed=seed)
    else:
        done = bpy.ops.strew.rescatter_region(layer_index=layer, shape='CIRCLE', centre=edit[1], radius=edit[2],
                                              seed=seed)
    assert done == {'FINISHED'}


def _as_region(edit: tuple) -> tuple:
    """The region an edit works on, as ('BOX', low, high) or ('CIRCLE', centre, radius)."""
    if edit[0] != 'EMPTY':
        return edit
    centre, half = np.asarray(edit[1]), np.asarray(edit[2])
    return 'BOX', tuple(centre - half), tuple(centre + half)


def _assert_maximal(layer: int, region: tuple | None, step: float) -> None:
    """No place on the terrain's grid (``step`` apart) or about the region's rim where one more instance fits."""
    probes = grid((-EDGE, -EDGE), (EDGE, EDGE), step)
    if region is not None:
        probes = np.concatenate([probes, rim_rings(_region(region), OFFSETS, 0.5 * step)])
    free = free_probes(layer, probes)
    assert not free.any(), f"{free.sum()} places where one more instance fits, e.g. {probes[free][:3].tolist()}"


def _summed_overlaps(rows: np.ndarray) -> int:
    """Pairs of instances closer than the sum of their radii (a layer spaced by its objects' size)."""
    xy, r = rows[:, :2], rows[:, RADIUS]
    pairs = cKDTree(xy).query_pairs(2.0 * float(r.max()), output_type="ndarray")
    d = np.linalg.norm(xy[pairs[:, 0]] - xy[pairs[:, 1]], axis=1)
    return int((d < (r[pairs[:, 0]] + r[pairs[:, 1]]) * (1.0 - 1e-6)).sum())


EDITS = [('BOX', (-12.0, -6.0), (-2.0, 7.0)), ('CIRCLE', (-4.0, 4.0), 6.0), ('EMPTY', (3.0, -2.0), (5.0, 3.0)),
         ('CIRCLE', (6.0, 3.0), 7.0), ('BOX', (12.0, 12.0), (25.0, 25.0))]


@pytest.mark.parametrize("seed", [11, 4_000_037, 2**31 - 1])
def test_five_overlapping_rescatters_keep_the_layer_maximal_at_every_rim(seed: int) -> None:
    """Bushes: a radius from a noise density (0.6 to 1.2 m), Keep Away and a pair rule from the Trees above."""
    _build()
    trees = _rows("Trees")
    for k, edit in enumerate(EDITS):
        before = _rows()
        _run(1, edit, (seed + k) % 2**31)
        region = _as_region(edit)
        _check_region(before, _rows(), region)
        _check_rules()
        _assert_maximal(1, region, 0.2)
    assert np.array_equal(_rows("Trees"), trees)


def test_the_same_edits_give_the_same_bytes() -> None:
    results = []
    for _ in range(2):
        bpy.ops.wm.read_homefile(use_empty=True)
        enable_strew()
        _build()
        for k, edit in enumerate(EDITS):
            _run(1, edit, 70 + k)
        results.append(_rows())
    assert results[0].tobytes() == results[1].tobytes()


def _constant_layer() -> None:
    """A terrain with Trees and a constant-radius Grass layer that keeps 1.5 m away from them."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=40.0, subdivisions=10, displace=0.0, location=(0.0, 0.0, 0.0),
                                       rotation_z=0.0, scale=(1.0, 1.0, 1.0))
    add_layer("Trees", make_prefabs("Trees"), 6.0, 6.0, seed=1)
    add_layer("Grass", make_prefabs("Grass"), 0.9, 0.9, seed=5, keep_away=1.5)
    assert bpy.ops.strew.scatter() == {'FINISHED'}


@pytest.mark.parametrize("seed", [3, 91])
def test_a_constant_radius_layer_stays_maximal(seed: int) -> None:
    _constant_layer()
    for k, edit in enumerate(EDITS[:3]):
        before = _rows("Grass")
        _run(1, edit, seed + k)
        after = _rows("Grass")
        region = _as_region(edit)
        _check_region(before, after, region, band=0.9)  # a constant spacing reaches 0.9 m past the rim
        xy = after[:, :2]
        assert cKDTree(xy).query(xy, k=2)[0][:, 1].min() >= 0.9 * (1.0 - 1e-6)
        assert cKDTree(_rows("Trees")[:, :2]).query(xy)[0].min() >= 1.5 * (1.0 - 1e-6)
        _assert_maximal(1, region, 0.25)


def _rocks(gap: tuple[float, float]) -> None:
    """A layer spaced by its objects' size: two prefabs with footprints 0.3 and 0.8 m, scaled 0.8 to 1.3, with a
    gap of ``gap`` (a noise density between them when they differ)."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=40.0, subdivisions=10, displace=0.0, location=(0.0, 0.0, 0.0),
                                       rotation_z=0.0, scale=(1.0, 1.0, 1.0))
    collection = make_prefabs("Rocks", count=2)
    for obj, footprint in zip(collection.objects, (0.3, 0.8), strict=True):
        obj["strew_radius"] = footprint
    settings = dict(density_mode='NOISE', noise_scale=8.0) if gap[0] != gap[1] else {}
    add_layer("Rocks", collection, *gap, seed=6, spacing='OBJECTS', scale_min=0.8, scale_max=1.3, **settings)
    assert bpy.ops.strew.scatter() == {'FINISHED'}


@pytest.mark.parametrize("gap", [(0.4, 0.4), (0.3, 0.9)], ids=["constant gap", "gap from a density"])
@pytest.mark.parametrize("seed", [8, 123_457])
def test_a_layer_spaced_by_object_size_stays_maximal(gap: tuple[float, float], seed: int) -> None:
    _rocks(gap)
    for k, edit in enumerate(EDITS[:4]):
        before = _rows("Rocks")
        _run(0, edit, seed + k)
        after = _rows("Rocks")
        # Radii add up: a removed instance held the spacing as far as its radius plus the largest one.
        largest = max(float(before[:, RADIUS].max()), float(after[:, RADIUS].max()))
        region = _as_region(edit)
        _check_region(before, after, region, band=2.0 * largest)
        assert _summed_overlaps(after) == 0
        _assert_maximal(0, region, 0.2)


@pytest.mark.parametrize("options", [dict(shape='CIRCLE', centre=(3.0, 3.0), radius=1e-4),
                                     dict(shape='BOX', box_min=(0.5, 0.5), box_max=(0.5 + 1e-9, 0.5 + 1e-9)),
                                     dict(shape='BOX', box_min=(-1e9, -1e9), box_max=(1e9, 1e9)),
                                     dict(shape='CIRCLE', centre=(EDGE, 0.0), radius=2.0)],
                         ids=["circle 1e-4", "box 1e-9", "box 1e9", "circle over the edge"])
def test_tiny_huge_and_edge_regions_leave_the_layer_maximal(options: dict) -> None:
    _build()
    try:
        assert bpy.ops.strew.rescatter_region(layer_index=1, seed=3, **options) == {'FINISHED'}
    except RuntimeError as error:
        message = str(error).strip()
        assert "\n" not in message and ("Nothing to rescatter" in message or "Empty region" in message), message
    _check_rules()
    _assert_maximal(1, None, 0.2)


def test_a_region_off_the_terrain_within_a_spacing_of_its_edge_is_one_line() -> None:
    """Nothing of the region lies on the ground (only its band would): refused, nothing changed."""
    _build()
    before, rows = scene_snapshot(), _rows()
    with pytest.raises(RuntimeError, match="off the terrain") as error:
        bpy.ops.strew.rescatter_region(layer_index=1, shape='BOX', box_min=(EDGE + 0.3, -5.0),
                                       box_max=(EDGE + 4.0, 5.0), seed=1)
    assert "\n" not in str(error.value).strip()
    assert scene_snapshot() == before and np.array_equal(_rows(), rows)
