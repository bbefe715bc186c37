"""Curve layers in real Blender: instances along Bézier, poly and NURBS curves, spaced, at a fixed step or over a
band, on the terrain or on the curve, checked against geometry read here independently (the curve as Blender
draws it, the terrain by ray casts)."""

from __future__ import annotations

import math

import bpy
import numpy as np
import pytest
from mathutils import Matrix
from scenes import (
    add_layer,
    distance_to_segments,
    make_prefabs,
    make_road,
    make_terrain,
    point_attributes,
    ray_down,
    scene_snapshot,
    terrain_bvh,
)


def _drawn_segments(obj: bpy.types.Object) -> np.ndarray:
    """The curve as Blender draws it: its evaluated edges in world space (S, 2, 3)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    matrix = np.array(evaluated.matrix_world)
    co = np.array([matrix[:3, :3] @ np.array(v.co) + matrix[:3, 3] for v in mesh.vertices])
    edges = np.array([tuple(e.vertices) for e in mesh.edges])
    evaluated.to_mesh_clear()
    return co[edges]


def _bezier(name: str = "Hedge", scale: float = 1.0, cyclic: bool = False) -> bpy.types.Object:
    """An S-shaped Bézier curve across the terrain (a road, a hedge line)."""
    curve = bpy.data.curves.new(name, 'CURVE')
    curve.dimensions = '3D'
    spline = curve.splines.new('BEZIER')
    knots = [(-20.0, -15.0, 0.0), (-5.0, 5.0, 1.0), (10.0, -5.0, 0.0), (20.0, 12.0, 2.0)]
    spline.bezier_points.add(len(knots) - 1)
    for point, co in zip(spline.bezier_points, knots, strict=True):
        point.co = co
        point.handle_left_type = point.handle_right_type = 'AUTO'
    spline.use_cyclic_u = cyclic
    obj = bpy.data.objects.new(name, curve)
    obj.scale = (scale, scale, scale)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _setup(**settings: object) -> tuple[bpy.types.Object, bpy.types.PropertyGroup, bpy.types.Object]:
    terrain = make_terrain(size=60.0, subdivisions=16)
    bpy.context.scene.strew.terrain = terrain
    curve = _bezier()
    layer = add_layer("Hedge", make_prefabs("Shrubs"), 1.0, 1.0, seed=3, output_mode='GEOMETRY_NODES',
                      along_curve=curve, **settings)
    return terrain, layer, curve


def _scatter() -> dict[str, np.ndarray]:
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    return point_attributes(bpy.data.objects["Strew Hedge"])


def _pairs_closest(points: np.ndarray) -> float:
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    return float(d.min())


def _probes(segments: np.ndarray, step: float) -> np.ndarray:
    """Points every ``step`` along the segments (3-D)."""
    out = []
    for a, b in segments:
        count = max(int(np.ceil(np.linalg.norm(b - a) / step)), 1)
        t = np.arange(count + 1)[:, None] / count
        out.append(a + (b - a) * t)
    return np.concatenate(out)


@pytest.mark.parametrize("seed", [1, 7, 23])
def test_spaced_on_the_terrain_is_maximal_along_the_curve_and_stands_on_the_ground(empty_scene, seed) -> None:
    terrain, layer, curve = _setup()
    layer.seed = seed
    found = _scatter()
    xy = found["position"][:, :2]
    assert len(xy) > 30
    segments = _drawn_segments(curve)
    # on the curve seen from above
    assert distance_to_segments(xy, segments[:, :, :2]).max() < 1e-5
    # never two closer than the radius (from above), and no place on the curve with room for one more
    assert _pairs_closest(xy) >= 1.0 - 1e-6
    probes = _probes(segments, 0.02)[:, :2]
    bvh = terrain_bvh(terrain)
    on_ground = ~np.isnan(ray_down(bvh, probes)[0])
    nearest = np.sqrt(((probes[:, None, :] - xy[None, :, :]) ** 2).sum(-1)).min(axis=1)
    assert nearest[on_ground].max() < 1.0 + 1e-6
    # standing on the terrain
    z, _ = ray_down(bvh, xy)
    assert np.abs(found["position"][:, 2] - z).max() < 1e-3


def test_follow_curve_turns_plus_x_along_the_tangent(empty_scene) -> None:
    _, _layer, curve = _setup(along_follow=True, align_to_normal=0.0)
    found = _scatter()
    segments = _drawn_segments(curve)
    xy = found["position"][:, :2]
    gap = distance_to_segments(xy, segments[:, :, :2])
    assert gap.max() < 1e-5
    nearest = np.argmin(np.stack([distance_to_segments(xy, segments[k:k + 1, :, :2]) for k in range(len(segments))],
                                 axis=1), axis=1)
    tangent = segments[nearest, 1, :2] - segments[nearest, 0, :2]
    tangent /= np.linalg.norm(tangent, axis=1)[:, None]
    axes = np.array([np.array(Matrix.LocRotScale(None, __import__("mathutils").Euler(r), None).to_3x3())[:2, 0]
                     for r in found["strew_rotation"]])
    assert np.abs((axes * tangent).sum(axis=1) - 1.0).max() < 1e-4


def test_fixed_step_puts_posts_exactly_a_step_apart_with_one_at_each_end(empty_scene) -> None:
    _, _layer, curve = _setup(along_mode='STEP', along_step=2.5, along_place='CURVE')
    found = _scatter()
    segments = _drawn_segments(curve)
    lengths = np.linalg.norm(segments[:, 1] - segments[:, 0], axis=1)
    ends = np.concatenate([[0.0], np.cumsum(lengths)])
    # each post's distance along the drawn curve, measured here
    along = []
    for p in found["position"]:
        d = np.linalg.norm(np.cross(segments[:, 1] - segments[:, 0], segments[:, 0] - p), axis=1) / lengths
        t = ((p - segments[:, 0]) * (segments[:, 1] - segments[:, 0])).sum(1) / lengths
        k = int(np.argmin(np.where((t >= -1e-6) & (t <= lengths + 1e-6), d, np.inf)))
        along.append(ends[k] + t[k])
    along = np.sort(np.array(along))
    total = ends[-1]
    assert abs(along[0]) < 1e-5 and abs(along[-1] - total) < 1e-5
    steps = np.diff(along)
    assert np.abs(steps[:-1] - 2.5).max() < 1e-5 and 0 < steps[-1] <= 2.5 + 1e-5
    assert len(along) == math.floor(total / 2.5) + 1 + (total % 2.5 > 1e-6)


def test_on_the_curve_stands_on_the_curve_in_3d_and_spaces_in_3d(empty_scene) -> None:
    _terrain, layer, _ = _setup(along_place='CURVE')
    lifted = _bezier("Cable")
    lifted.location = (0.0, 0.0, 12.0)
    lifted.rotation_euler = (0.3, 0.0, 0.4)
    layer.along_curve = lifted
    found = _scatter()
    points = found["position"]
    segments = _drawn_segments(lifted)
    a, b = segments[:, 0], segments[:, 1]
    ab = b - a
    t = np.clip(((points[:, None, :] - a[None]) * ab[None]).sum(-1) / (ab * ab).sum(-1)[None], 0.0, 1.0)
    gap = np.linalg.norm(points[:, None, :] - (a[None] + t[..., None] * ab[None]), axis=-1).min(axis=1)
    assert gap.max() < 1e-4
    assert _pairs_closest(points) >= 1.0 - 1e-6
    probes = _probes(segments, 0.02)
    nearest = np.sqrt(((probes[:, None, :] - points[None, :, :]) ** 2).sum(-1)).min(axis=1)
    assert nearest.max() < 1.0 + 1e-6


def test_a_band_keeps_within_its_width_of_the_curve_and_fills_it(empty_scene) -> None:
    _, layer, curve = _setup(along_mode='BAND', along_width=3.0)
    layer.min_radius = layer.max_radius = 0.8
    found = _scatter()
    xy = found["position"][:, :2]
    segments = _drawn_segments(curve)[:, :, :2]
    assert len(xy) > 100
    assert distance_to_segments(xy, segments).max() < 3.0 + 1e-6
    assert _pairs_closest(xy) >= 0.8 - 1e-6


def test_offset_both_sides_makes_an_alley(empty_scene) -> None:
    _, _layer, curve = _setup(along_offset=4.0, along_both_sides=True, along_mode='STEP', along_step=3.0)
    found = _scatter()
    xy = found["position"][:, :2]
    gap = distance_to_segments(xy, _drawn_segments(curve)[:, :, :2])
    # on straight stretches exactly the offset; a corner's mitre may come nearer by the chord error only
    assert np.median(gap) == pytest.approx(4.0, abs=0.05) and gap.min() > 3.5


def test_keep_away_and_exclude_hold_for_a_curve_layer(empty_scene) -> None:
    _terrain, layer, _curve = _setup()
    road, road_segments = make_road([(-30.0, 0.0), (30.0, 0.0)])
    layer.exclusion_collection, layer.exclusion_margin = road, 2.0
    add_layer("Rocks", make_prefabs("Stones"), 9.0, 9.0, seed=5, output_mode='GEOMETRY_NODES')
    scene = bpy.context.scene
    scene.strew.layers.move(len(scene.strew.layers) - 1, 0)  # the rocks first: the hedge keeps away from them
    scene.strew.layers["Hedge"].keep_away = 2.5
    found = _scatter()
    rocks_xy = point_attributes(bpy.data.objects["Strew Rocks"])["position"][:, :2]
    xy = found["position"][:, :2]
    assert len(xy) > 10
    assert distance_to_segments(xy, road_segments).min() >= 2.0 - 1e-6
    d = np.sqrt(((xy[:, None, :] - rocks_xy[None, :, :]) ** 2).sum(-1))
    assert d.min() >= 2.5 - 1e-6


def test_several_curves_nurbs_and_a_closed_loop_from_a_collection(empty_scene) -> None:
    _terrain, layer, curve = _setup()
    layer.along_curve = None
    group = bpy.data.collections.new("Lines")
    bpy.context.scene.collection.children.link(group)
    bpy.context.scene.collection.objects.unlink(curve)
    group.objects.link(curve)
    bpy.ops.curve.primitive_nurbs_path_add(location=(0.0, 8.0, 0.0))
    nurbs = bpy.context.object
    nurbs.scale = (4.0, 4.0, 1.0)
    bpy.ops.curve.primitive_bezier_circle_add(radius=6.0, location=(5.0, -8.0, 0.0))
    circle = bpy.context.object
    for obj in (nurbs, circle):
        for owner in list(obj.users_collection):
            owner.objects.unlink(obj)
        group.objects.link(obj)
    layer.along_curves = group
    found = _scatter()
    xy = found["position"][:, :2]
    segments = np.concatenate([_drawn_segments(obj)[:, :, :2] for obj in (curve, nurbs, circle)])
    assert distance_to_segments(xy, segments).max() < 1e-5
    assert _pairs_closest(xy) >= 1.0 - 1e-6
    for obj in (nurbs, circle):
        assert distance_to_segments(xy, _drawn_segments(obj)[:, :, :2]).min() < 1e-5  # each curve holds some


def test_same_seed_same_bytes_and_a_bevelled_curve_follows_its_centre(empty_scene) -> None:
    _, _layer, curve = _setup()
    first = _scatter()["position"]
    assert _scatter()["position"].tobytes() == first.tobytes()
    curve.data.bevel_depth = 0.5  # now drawn as a tube: its centre line is followed
    bevelled = _scatter()["position"]
    assert bevelled.shape == first.shape and np.abs(bevelled - first).max() < 1e-3  # float32 evaluation aside


@pytest.mark.parametrize("case", ["mesh", "empty collection", "every face"])
def test_bad_curve_settings_get_one_line_and_leave_the_scene(empty_scene, case) -> None:
    _, layer, _ = _setup()
    if case == "mesh":
        layer.along_curve = bpy.context.scene.strew.terrain  # set from Python: the panel offers curves only
    elif case == "empty collection":
        layer.along_curve = None
        layer.along_curves = bpy.data.collections.new("Nothing")
    else:
        layer.surface = 'ALL'
        layer.targets = make_prefabs("Walls")
    before = scene_snapshot()
    with pytest.raises(RuntimeError) as error:
        bpy.ops.strew.scatter()
    message = str(error.value).strip().splitlines()[-1]
    assert 'Layer "Hedge"' in message and "Traceback" not in str(error.value)
    assert scene_snapshot() == before


def _saved(tmp_path) -> str:
    """A file with a terrain, a prefab collection, a fence curve and a mesh named like a curve."""
    terrain = make_terrain(size=60.0, subdivisions=16)
    bpy.context.scene.strew.terrain = terrain
    make_prefabs("Posts")
    _bezier("Fence")
    path = tmp_path / "fence.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return str(path)


def test_the_command_line_puts_fence_posts_along_a_curve(empty_scene, tmp_path) -> None:
    from cli_process import strew_run, succeeded

    source = _saved(tmp_path)
    out = tmp_path / "out.blend"
    succeeded(strew_run("scatter", source, "--layer", "Posts:0.5:0.5", "--curve", "Fence", "--along", "step",
                        "--step", "2", "-o", out, cwd=tmp_path))
    bpy.ops.wm.open_mainfile(filepath=str(out))
    posts = bpy.data.objects["Strew Posts"]
    xy = point_attributes(posts)["position"][:, :2]
    segments = _drawn_segments(bpy.data.objects["Fence"])[:, :, :2]
    assert len(xy) > 20 and distance_to_segments(xy, segments).max() < 1e-5


@pytest.mark.parametrize(("flags", "message"), [
    (["--curve", "Terrain"], "'Terrain' is a mesh, not a curve object"),
    (["--curve", "Nowhere"], "no curve object or collection named 'Nowhere'"),
    (["--along", "step"], "the curve options need --curve NAME"),
    (["--curve", "Fence", "--step", "-1"], "--step"),
])
def test_bad_curve_options_are_refused_in_one_line(empty_scene, tmp_path, flags, message) -> None:
    from cli_process import refused, strew_run

    source = _saved(tmp_path)
    refused(strew_run("scatter", source, "--layer", "Posts:0.5:0.5", *flags, "-o", tmp_path / "out.blend",
                      cwd=tmp_path), message)
    assert not (tmp_path / "out.blend").exists()


def test_moving_a_curve_point_changes_the_instances_near_it_only(empty_scene) -> None:
    _, layer, _ = _setup(along_place='CURVE')
    curve = bpy.data.curves.new("Wall", 'CURVE')
    spline = curve.splines.new('POLY')
    spline.points.add(60)
    for k, point in enumerate(spline.points):
        point.co = (-300.0 + 10.0 * k, 4.0 * math.sin(k), 0.0, 1.0)
    wall = bpy.data.objects.new("Wall", curve)
    bpy.context.scene.collection.objects.link(wall)
    layer.along_curve = wall
    bpy.context.scene.strew.chunk_size = 20.0
    before = _scatter()["position"]
    spline.points[30].co = (0.0, 9.0, 2.0, 1.0)
    after = _scatter()["position"]
    far = 6 * 20.0
    assert before.tobytes() != after.tobytes()
    kept, now = before[np.abs(before[:, 0]) > far], after[np.abs(after[:, 0]) > far]
    assert kept.shape == now.shape and np.abs(kept - now).max() < 1e-4  # float32 about the output's own origin
    assert (np.abs(before[:, 0]) > far).sum() > 200


@pytest.mark.parametrize("mode", ["SPACED", "STEP", "BAND"])
def test_live_update_follows_a_moved_curve_point(empty_scene, mode) -> None:
    from live import assert_same_as_a_fresh_scatter, positions, settle

    _, _layer, curve = _setup(along_mode=mode, along_width=2.0)
    _scatter()
    bpy.context.scene.strew.live_update = True
    before = positions("Hedge")

    def move() -> None:
        point = curve.data.splines[0].bezier_points[1]
        point.co.y += 3.0
        curve.data.update_tag()

    settle(move, by_handler=True)
    after = positions("Hedge")
    assert before.shape != after.shape or np.abs(before - after).max() > 0.1
    segments = _drawn_segments(curve)[:, :, :2]
    if mode == "BAND":
        assert distance_to_segments(after[:, :2], segments).max() < 2.0 + 1e-6
    else:
        assert distance_to_segments(after[:, :2], segments).max() < 1e-5
    assert_same_as_a_fresh_scatter()


def test_object_size_spacing_along_a_curve_keeps_the_gap_between_footprints(empty_scene) -> None:
    _, layer, _ = _setup(spacing='OBJECTS', scale_min=0.7, scale_max=1.3)
    kit = bpy.data.collections.new("Rocks")
    bpy.context.scene.collection.children.link(kit)
    for name, size in (("Boulder", 4.0), ("Pebble", 0.4)):
        mesh = bpy.data.meshes.new(name)
        half = size / 2
        mesh.from_pydata([(x, y, z) for x in (-half, half) for y in (-half, half) for z in (0, size)], [],
                         [(0, 1, 3, 2), (4, 5, 7, 6), (0, 1, 5, 4), (2, 3, 7, 6), (0, 2, 6, 4), (1, 3, 7, 5)])
        kit.objects.link(bpy.data.objects.new(name, mesh))
    layer.collection = kit
    layer.min_radius = layer.max_radius = 0.5  # the gap between footprints' edges
    found = _scatter()
    names = [p.name for p in kit.objects]
    footprint = {name: math.hypot(size / 2, size / 2) for name, size in (("Boulder", 4.0), ("Pebble", 0.4))}
    reach = np.array([footprint[names[k]] for k in found["strew_prefab"]]) * found["strew_scale"]
    xy = found["position"][:, :2]
    d = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    gap = d - reach[:, None] - reach[None, :]
    assert len(xy) > 10 and {0, 1} <= set(found["strew_prefab"].tolist())
    assert gap.min() >= 0.5 - 1e-4


def test_rescatter_region_refuses_a_layer_on_its_curves_and_refills_a_band(empty_scene) -> None:
    _, layer, curve = _setup()
    _scatter()
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="follows its curves"):
        bpy.ops.strew.rescatter_region(layer_index=0, shape='CIRCLE', centre=(0.0, 0.0), radius=6.0, seed=3)
    assert scene_snapshot() == before
    layer.along_mode, layer.along_width = 'BAND', 3.0
    _scatter()
    assert bpy.ops.strew.rescatter_region(layer_index=0, shape='CIRCLE', centre=(-5.0, 5.0), radius=6.0,
                                          seed=3) == {'FINISHED'}
    xy = point_attributes(bpy.data.objects["Strew Hedge"])["position"][:, :2]
    assert distance_to_segments(xy, _drawn_segments(curve)[:, :, :2]).max() < 3.0 + 1e-6
    assert _pairs_closest(xy) >= 1.0 - 1e-4


def test_a_curve_layer_around_trees_keeps_its_curve_and_the_ring(empty_scene) -> None:
    _, _, curve = _setup()
    add_layer("Trees", make_prefabs("Oaks"), 6.0, 6.0, seed=2, output_mode='GEOMETRY_NODES')
    layers = bpy.context.scene.strew.layers
    layers.move(len(layers) - 1, 0)  # the trees first
    hedge = layers["Hedge"]
    hedge.around.layer, hedge.around_min, hedge.around_max = "Trees", 1.0, 4.0
    found = _scatter()
    xy = found["position"][:, :2]
    oaks = point_attributes(bpy.data.objects["Strew Trees"])["position"][:, :2]
    nearest = np.sqrt(((xy[:, None] - oaks[None]) ** 2).sum(-1)).min(axis=1)
    assert len(xy) > 5
    assert nearest.min() >= 1.0 - 1e-4 and nearest.max() <= 4.0 + 1e-4
    assert distance_to_segments(xy, _drawn_segments(curve)[:, :, :2]).max() < 1e-5


def test_a_curve_layer_on_another_layer_is_refused_in_one_line(empty_scene) -> None:
    _setup()
    add_layer("Rocks", make_prefabs("Stones"), 5.0, 5.0, seed=2, output_mode='GEOMETRY_NODES')
    layers = bpy.context.scene.strew.layers
    layers.move(len(layers) - 1, 0)
    layers["Hedge"].on_layer.layer = "Rocks"
    before = scene_snapshot()
    with pytest.raises(RuntimeError, match="follows curves or stands on another layer"):
        bpy.ops.strew.scatter()
    assert scene_snapshot() == before
