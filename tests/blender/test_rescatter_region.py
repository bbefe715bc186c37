"""Rescatter Region: a box or a circle of a layer sampled again with a new seed; the rest stays bit for bit.

The region's new instances keep the layer's spacing against those kept at its rim and its Keep Away (and pair
rules) against the layers above; they are flagged painted, so a later Scatter keeps them; the same seed gives the
same result; bad input is one line and leaves the scene as it was.
"""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from scenes import add_layer, make_prefabs, make_terrain, pairwise_min_ratio, scene_snapshot
from scipy.spatial import cKDTree

KEEP_FROM_TREES = 2.5  # the Bushes' pair rule; their layer-wide Keep Away is smaller
# One row per instance: x y z, prefab, rotation x y z, scale, radius, random, painted.
_ATTRIBUTES = (("strew_prefab", "value", 1, np.int32), ("strew_rotation", "vector", 3, np.float32),
               ("strew_scale", "value", 1, np.float32), ("strew_radius", "value", 1, np.float32),
               ("strew_random", "value", 1, np.float32), ("strew_painted", "value", 1, np.int32))
RADIUS, PAINTED = 8, 10


def _rows(name: str = "Bushes") -> np.ndarray:
    """Every instance of the layer's Point Instancer as exact float64 rows (world x, y, z from the float32 offsets
    and the object's move, then every attribute)."""
    obj = bpy.data.objects[f"Strew {name}"]
    matrix = np.array(obj.matrix_world)
    assert np.array_equal(matrix[:3, :3], np.eye(3))
    mesh = obj.data
    count = len(mesh.vertices)
    co = np.empty(count * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    columns = [co.reshape(-1, 3).astype(np.float64) + matrix[:3, 3]]
    for attribute, field, width, dtype in _ATTRIBUTES:
        values = np.zeros(count * width, dtype=dtype)
        if attribute in mesh.attributes:
            mesh.attributes[attribute].data.foreach_get(field, values)
        columns.append(values.reshape(count, width).astype(np.float64))
    return np.hstack(columns)


def _sorted(rows: np.ndarray) -> np.ndarray:
    return rows[np.lexsort(rows.T[::-1])]


def _inside(rows: np.ndarray, region: tuple) -> np.ndarray:
    xy = rows[:, :2]
    if region[0] == 'BOX':
        low, high = np.minimum(region[1], region[2]), np.maximum(region[1], region[2])
        return (xy >= low).all(axis=1) & (xy <= high).all(axis=1)
    return ((xy - np.asarray(region[1])) ** 2).sum(axis=1) <= region[2] ** 2


def _build() -> None:
    """A gently waved 40 m plane, Trees above Bushes (variable radius, Keep Away and a pair rule), scattered."""
    scene = bpy.context.scene
    scene.strew.terrain = make_terrain(size=40.0, subdivisions=10, displace=0.0, location=(0.0, 0.0, 0.0),
                                       rotation_z=0.0, scale=(1.0, 1.0, 1.0))
    add_layer("Trees", make_prefabs("Trees"), 6.0, 6.0, seed=1)
    bushes = add_layer("Bushes", make_prefabs("Bushes"), 0.6, 1.2, seed=2, keep_away=1.2, density_mode='NOISE',
                       noise_scale=8.0)
    rule = bushes.keep_away_rules.add()
    rule.layer, rule.distance = "Trees", KEEP_FROM_TREES
    assert bpy.ops.strew.scatter() == {'FINISHED'}


def _check_rules() -> None:
    """Brute force: no two Bushes closer than the larger of their radii (across the rim too), and every Bush at
    least max(its radius, the pair rule) from every Tree."""
    bushes, trees = _rows("Bushes"), _rows("Trees")
    assert pairwise_min_ratio(bushes[:, :2], bushes[:, RADIUS]) >= 1.0 - 1e-5
    distance = cKDTree(trees[:, :2]).query(bushes[:, :2])[0]
    assert (distance >= np.maximum(bushes[:, RADIUS], KEEP_FROM_TREES) - 1e-5).all()


def _rescatter(region: tuple, **options: object) -> set[str]:
    if region[0] == 'BOX':
        return bpy.ops.strew.rescatter_region(layer_index=1, shape='BOX', box_min=region[1], box_max=region[2],
                                              **options)
    return bpy.ops.strew.rescatter_region(layer_index=1, shape='CIRCLE', centre=region[1], radius=region[2],
                                          **options)


def _distance(rows: np.ndarray, region: tuple) -> np.ndarray:
    """How far each instance lies outside the region (0 inside)."""
    xy = rows[:, :2]
    if region[0] == 'BOX':
        low, high = np.minimum(region[1], region[2]), np.maximum(region[1], region[2])
        return np.linalg.norm(np.maximum(np.maximum(low - xy, xy - high), 0.0), axis=1)
    return np.maximum(np.linalg.norm(xy - np.asarray(region[1]), axis=1) - region[2], 0.0)


def _rows_set(rows: np.ndarray) -> set[bytes]:
    return {row.tobytes() for row in rows}


def _check_region(before: np.ndarray, after: np.ndarray, region: tuple, band: float | None = None) -> None:
    """Every instance outside the region stays bit for bit; inside, new painted ones, not the old ones; new ones
    outside lie within ``band`` of the rim (the reach of the largest radius: where the removed ones held the
    spacing), so farther out the layer is the same set, bit for bit."""
    band = max(float(before[:, RADIUS].max()), float(after[:, RADIUS].max())) if band is None else band
    out_before = ~_inside(before, region)
    kept = _rows_set(before[out_before])
    assert kept <= _rows_set(after), "an instance outside the region changed or went"
    added = np.array([row.tobytes() not in kept for row in after], dtype=bool)
    assert (_distance(after[added], region) <= band * (1.0 + 1e-6)).all(), "a new instance beyond the rim's band"
    far_before, far_after = _distance(before, region) > band, _distance(after, region) > band
    assert np.array_equal(_sorted(before[far_before]), _sorted(after[far_after]))
    new, old = after[_inside(after, region)], before[~out_before]
    assert len(new) >= 3 and new[:, PAINTED].all() and after[added, PAINTED].all()
    if len(old):
        same = cKDTree(old[:, :2]).query(new[:, :2])[0] < 1e-6
        assert same.sum() <= len(new) // 4, "the new seed should give other places"


# The last two reach past the terrain's edge: the points at its rim change, so the output's bounds change too.
REGIONS = [('BOX', (-12.0, -6.0), (-2.0, 7.0)), ('CIRCLE', (6.0, 3.0), 7.0),
           ('BOX', (12.0, 12.0), (25.0, 25.0)), ('BOX', (16.5, -25.0), (25.0, 25.0))]


@pytest.mark.parametrize("region", REGIONS, ids=["box", "circle", "corner box", "edge strip"])
def test_rescatter_keeps_the_outside_and_the_rules_and_a_later_scatter_keeps_it(region: tuple) -> None:
    _build()
    trees = _rows("Trees")
    for seed in (11, 4_000_037, 2**31 - 1):
        before = _rows()
        assert _rescatter(region, seed=seed) == {'FINISHED'}
        after = _rows()
        _check_region(before, after, region)
        _check_rules()
        assert np.array_equal(_rows("Trees"), trees)
        # The same seed on the same region gives the same instances, in the same order.
        assert _rescatter(region, seed=seed) == {'FINISHED'}
        assert np.array_equal(_rows(), after)
    # A full Scatter of every layer keeps what the region got (painted), and the rules hold around it.
    rescattered = after[after[:, PAINTED] == 1]
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    final = _rows()
    assert final[:, PAINTED].sum() == len(rescattered)
    painted = _sorted(final[final[:, PAINTED] == 1])
    kept = _sorted(rescattered)
    assert np.abs(painted[:, :3] - kept[:, :3]).max() < 1e-5
    assert np.array_equal(painted[:, 3:], kept[:, 3:])
    _check_rules()


def test_a_region_where_nothing_fits_now_empties_and_the_rest_stays_bit_for_bit() -> None:
    """The layer's rules as they are now: no bush fits under a height range above the ground, so the strip
    empties; the output's bounds shrink by half, and still every other instance keeps its bits."""
    _build()
    bushes = bpy.context.scene.strew.layers[1]
    bushes.use_height_range, bushes.height_min, bushes.height_max = True, 100.0, 200.0
    strip = ('BOX', (0.0, -25.0), (25.0, 25.0))
    before = _rows()
    assert bpy.ops.strew.rescatter_region(layer_index=1, shape='BOX', box_min=strip[1], box_max=strip[2],
                                          seed=5) == {'FINISHED'}
    after = _rows()
    assert not _inside(after, strip).any() and _inside(before, strip).sum() > 100
    assert np.array_equal(_sorted(before[~_inside(before, strip)]), _sorted(after))


def test_box_from_the_selected_empty_and_circle_from_the_cursor_with_a_new_seed_each_run() -> None:
    _build()
    marker = bpy.data.objects.new("Region", None)
    bpy.context.scene.collection.objects.link(marker)
    marker.empty_display_type, marker.empty_display_size = 'CUBE', 1.0
    marker.location, marker.scale = (-5.0, 4.0, 3.0), (6.0, 4.0, 1.0)
    bpy.context.view_layer.objects.active = marker
    marker.select_set(True)
    before = _rows()
    assert bpy.ops.strew.rescatter_region(layer_index=1) == {'FINISHED'}
    _check_region(before, _rows(), ('BOX', (-11.0, 0.0), (1.0, 8.0)))
    _check_rules()

    marker.select_set(False)  # no object marks a box: a square of Box Size around the 3D cursor
    bpy.context.scene.cursor.location = (8.0, -8.0, 0.0)
    before = _rows()
    assert bpy.ops.strew.rescatter_region(layer_index=1, box_size=8.0) == {'FINISHED'}
    _check_region(before, _rows(), ('BOX', (4.0, -12.0), (12.0, -4.0)))

    before = _rows()
    assert bpy.ops.strew.rescatter_region(layer_index=1, shape='CIRCLE', radius=6.0) == {'FINISHED'}
    first = _rows()
    _check_region(before, first, ('CIRCLE', (8.0, -8.0), 6.0))
    assert bpy.ops.strew.rescatter_region(layer_index=1, shape='CIRCLE', radius=6.0) == {'FINISHED'}
    _check_region(first, _rows(), ('CIRCLE', (8.0, -8.0), 6.0))  # another seed: other places again
    _check_rules()


def _refused(match: str, **options: object) -> None:
    """One line naming the problem, and nothing changed."""
    before, rows = scene_snapshot(), _rows()
    with pytest.raises(RuntimeError, match=match) as error:
        bpy.ops.strew.rescatter_region(**options)
    message = str(error.value).strip()
    assert "\n" not in message and "Traceback" not in message, message
    assert scene_snapshot() == before
    assert np.array_equal(_rows(), rows)


def test_bad_input_is_one_line_and_leaves_the_scene_as_it_was() -> None:
    _build()
    rocks = add_layer("Rocks", make_prefabs("Rocks"), 1.0, 1.0, seed=3, output_mode='EMPTIES')
    assert bpy.ops.strew.scatter(layer_index=2) == {'FINISHED'}
    rocks.enabled = False
    add_layer("Grass", make_prefabs("Grass"), 0.5, 0.5, seed=4)  # never scattered
    box = dict(shape='BOX', box_min=(-5.0, -5.0), box_max=(5.0, 5.0), seed=1)
    _refused("no layer 7", layer_index=7, **box)
    _refused("Point Instancer", layer_index=2, **box)
    _refused("Scatter it first", layer_index=3, **box)
    _refused("off the terrain", layer_index=1, shape='BOX', box_min=(100.0, 100.0), box_max=(110.0, 110.0))
    _refused("Empty region", layer_index=1, shape='BOX', box_min=(3.0, -5.0), box_max=(3.0, 5.0))
    _refused("Empty region", layer_index=1, shape='CIRCLE', centre=(0.0, 0.0), radius=0.0)
    tree = _rows("Trees")[0, :2]  # no bush within the pair rule's 2.5 m of a tree: nothing to take, none fit
    _refused("Nothing to rescatter", layer_index=1, shape='BOX', box_min=tuple(tree - 0.2), box_max=tuple(tree + 0.2))
    bpy.context.scene.strew.terrain = None
    _refused("terrain", layer_index=1, **box)


@pytest.mark.parametrize("region", [('CIRCLE', (0.0, 0.0), 1e4), ('BOX', (-1e4, -1e4), (1e4, 1e4)),
                                    ('BOX', (-1e9, -1e9), (1e9, 1e9)), ('BOX', (-np.inf, -np.inf), (30.0, 30.0))],
                         ids=["circle 10 km", "box 1e4", "box 1e9", "corner at -inf"])
def test_a_region_larger_than_the_terrain_rescatters_the_whole_layer(region: tuple) -> None:
    _build()
    assert _rescatter(region, seed=9) == {'FINISHED'}
    after = _rows()
    assert len(after) > 100 and after[:, PAINTED].all()
    _check_rules()


@pytest.mark.parametrize("options", [dict(shape='CIRCLE', centre=(3.0, 3.0), radius=1e-4),
                                     dict(shape='BOX', box_min=(0.0, 0.0), box_max=(1e-9, 1e-9))],
                         ids=["circle 1e-4", "box 1e-9"])
def test_a_tiny_region_rescatters_or_says_nothing_fits(options: dict) -> None:
    _build()
    before = _rows()
    try:
        assert bpy.ops.strew.rescatter_region(layer_index=1, seed=3, **options) == {'FINISHED'}
    except RuntimeError as error:
        message = str(error).strip()
        assert message.startswith("Error: Nothing to rescatter") and "\n" not in message, message
    after = _rows()
    assert abs(len(after) - len(before)) <= 1
    _check_rules()


@pytest.mark.parametrize(("size", "scale"), [(0.0, 1.0), (1.0, 1e-9), (1.0, 0.0)])
def test_a_selected_empty_of_no_size_is_one_line(size: float, scale: float) -> None:
    _build()
    empty = bpy.data.objects.new("Marker", None)
    bpy.context.scene.collection.objects.link(empty)
    empty.empty_display_size, empty.location, empty.scale = size, (3.0, 3.0, 0.0), (scale, scale, scale)
    bpy.context.view_layer.objects.active = empty
    empty.select_set(True)
    bpy.context.view_layer.update()
    before = _rows()
    try:
        assert bpy.ops.strew.rescatter_region(layer_index=1, shape='BOX', seed=2) == {'FINISHED'}
    except RuntimeError as error:
        message = str(error).strip()
        assert "\n" not in message and ("Nothing to rescatter" in message or "Empty region" in message), message
    assert abs(len(_rows()) - len(before)) <= 1
    _check_rules()
