"""Proxy Beyond: instances near the view point in full, farther ones as their prefab's proxy, renders always full.

Every check reads what Blender itself makes of the output (the evaluated depsgraph's instances, a render's
depsgraph) and compares it with geometry computed here from the output's points and the prefabs' vertices.
"""

from __future__ import annotations

import importlib

import bmesh
import bpy
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mathutils import Matrix, Vector
from scenes import add_layer, make_prefabs, make_terrain
from scipy.spatial import ConvexHull, cKDTree

PROXY_PREFIX = "Strew Proxy "


def _output_points(obj: bpy.types.Object) -> tuple[np.ndarray, np.ndarray]:
    """World positions and prefab numbers of the output's points (read from its mesh, not from Strew)."""
    mesh = obj.data
    co = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", co)
    matrix = np.array(obj.matrix_world)
    prefab = np.empty(len(mesh.vertices), dtype=np.int32)
    mesh.attributes["strew_prefab"].data.foreach_get("value", prefab)
    return co.reshape(-1, 3) @ matrix[:3, :3].T + matrix[:3, 3], prefab


def _instances(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None = None) -> list[tuple[str, np.ndarray]]:
    """(original object name, world matrix) of every instance the output makes."""
    depsgraph = depsgraph or bpy.context.evaluated_depsgraph_get()
    found = []
    for item in depsgraph.object_instances:  # items are valid only while iterating
        if item.is_instance and item.parent and item.parent.original == obj:
            found.append((item.object.original.name, np.array(item.matrix_world, dtype=np.float64)))
    return found


def _scene(seed: int, prefabs: bpy.types.Collection | None = None) -> tuple[bpy.types.PropertyGroup, bpy.types.Object]:
    bpy.context.scene.strew.terrain = make_terrain()
    layer = add_layer("Trees", prefabs or make_prefabs("Trees"), 0.8, 1.6, seed=seed)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    return layer, bpy.data.objects["Strew Trees"]


def _view() -> bpy.types.Object:
    found = [o for o in bpy.data.objects if o.get("strew_kind") == "view"]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_instance_is_full_within_the_distance_and_its_prefabs_proxy_beyond(seed: int) -> None:
    layer, obj = _scene(seed)
    prefab_names = [o.name for o in sorted(layer.collection.objects, key=lambda o: o.name)]
    full = _instances(obj)
    full_at = cKDTree(np.array([m[:3, 3] for _, m in full]))
    positions, prefab = _output_points(obj)
    assert len(full) == len(positions)
    layer.proxy_beyond = True
    obj = bpy.data.objects["Strew Trees"]
    rng = np.random.default_rng(seed)
    view = _view()
    for _ in range(3):
        eye = positions[rng.integers(len(positions))] + rng.uniform(-4.0, 4.0, 3)  # near some, far from most
        view.location = eye.tolist()
        layer.proxy_distance = float(rng.uniform(5.0, 30.0))
        shown = _instances(obj)
        assert len(shown) == len(positions)
        at = np.array([m[:3, 3] for _, m in shown])
        gap, nearest = cKDTree(positions).query(at)
        assert gap.max() < 1e-3 and len(set(nearest.tolist())) == len(positions)  # one instance per point
        far = np.linalg.norm(positions - eye, axis=1) > layer.proxy_distance
        assert 0 < far.sum() < len(positions)
        for (name, matrix), point in zip(shown, nearest.tolist(), strict=True):
            if far[point]:
                assert name == f"{PROXY_PREFIX}Trees {prefab[point]:05d}"
            else:
                assert name == prefab_names[prefab[point]]
            # a proxy stands, turns and scales as the full instance it replaces
            _, same = full_at.query(matrix[:3, 3])
            assert np.allclose(matrix, full[same][1], atol=1e-4)


class _Recorder(bpy.types.RenderEngine):
    """A render engine that only counts, per original object, the instances its render depsgraph holds."""

    bl_idname = "STREW_TEST_RECORDER"
    bl_label = "Recorder"
    seen: dict[str, int] = {}

    def render(self, depsgraph: bpy.types.Depsgraph) -> None:
        _Recorder.seen = {}
        for item in depsgraph.object_instances:
            if item.is_instance:
                name = item.object.original.name
                _Recorder.seen[name] = _Recorder.seen.get(name, 0) + 1
        size = (self.resolution_x(), self.resolution_y())
        result = self.begin_result(0, 0, *size)
        self.end_result(result)

    def resolution_x(self) -> int:
        return 4

    def resolution_y(self) -> int:
        return 4


def test_renders_show_every_instance_in_full() -> None:
    layer, _ = _scene(4)
    layer.proxy_beyond, layer.proxy_distance = True, 3.0
    _view().location = (500.0, 500.0, 0.0)  # every instance is beyond the distance
    viewport = _instances(bpy.data.objects["Strew Trees"])
    assert viewport and all(name.startswith(PROXY_PREFIX) for name, _ in viewport)
    bpy.utils.register_class(_Recorder)
    try:
        scene = bpy.context.scene
        scene.render.engine = _Recorder.bl_idname
        scene.render.resolution_x = scene.render.resolution_y = 4
        camera = bpy.data.objects.new("Cam", bpy.data.cameras.new("Cam"))
        scene.collection.objects.link(camera)
        scene.camera = camera
        bpy.ops.render.render()
    finally:
        bpy.utils.unregister_class(_Recorder)
    prefab_names = {o.name for o in layer.collection.objects}
    assert sum(count for name, count in _Recorder.seen.items() if name in prefab_names) == len(viewport)
    assert not any(name.startswith(PROXY_PREFIX) for name in _Recorder.seen)


def _local_vertices(obj: bpy.types.Object) -> np.ndarray:
    co = np.empty(len(obj.data.vertices) * 3)
    obj.data.vertices.foreach_get("co", co)
    return co.reshape(-1, 3)


def _triangles(mesh: bpy.types.Mesh) -> int:
    mesh.calc_loop_triangles()
    return len(mesh.loop_triangles)


def _sphere_prefabs() -> bpy.types.Collection:
    """Three heavy prefabs: a UV sphere squashed by its mesh, a cone, and a collection of two spheres standing
    apart with an instance offset."""
    import bmesh

    collection = bpy.data.collections.new("Trees")

    def mesh_of(name: str, make, matrix) -> bpy.types.Mesh:
        bm = bmesh.new()
        make(bm)
        bm.transform(matrix)
        mesh = bpy.data.meshes.new(name)
        bm.to_mesh(mesh)
        bm.free()
        return mesh

    squash = Matrix.Diagonal((0.6, 0.3, 1.2, 1.0))
    sphere = mesh_of("Ball", lambda bm: bmesh.ops.create_uvsphere(bm, u_segments=48, v_segments=24, radius=1.0),
                     Matrix.Translation((0.0, 0.0, 1.0)) @ squash)
    cone = mesh_of("Spike", lambda bm: bmesh.ops.create_cone(bm, segments=40, radius1=0.5, radius2=0.0, depth=2.0,
                                                             cap_ends=True), Matrix.Identity(4))
    collection.objects.link(bpy.data.objects.new("Trees 0", sphere))
    collection.objects.link(bpy.data.objects.new("Trees 1", cone))
    pair = bpy.data.collections.new("Trees 2")
    for x in (2.0, 3.5):
        part = bpy.data.objects.new(f"Pair {x}", sphere)
        part.location = (x, 1.0, 0.0)
        pair.objects.link(part)
    pair.instance_offset = (2.75, 1.0, 0.0)
    collection.children.link(pair)
    bpy.context.scene.collection.children.link(collection)
    bpy.context.view_layer.layer_collection.children[collection.name].exclude = True
    return collection


def _shown_by(prefab: bpy.types.ID) -> np.ndarray:
    """The vertices one instance of the prefab shows, in the instance's space (computed here, in float64)."""
    if isinstance(prefab, bpy.types.Object):
        return _local_vertices(prefab)
    offset = np.array(prefab.instance_offset)
    parts = []
    for obj in prefab.all_objects:
        matrix = np.array(obj.matrix_world)
        parts.append(_local_vertices(obj) @ matrix[:3, :3].T + matrix[:3, 3] - offset)
    return np.concatenate(parts)


def _prefab_triangles(prefab: bpy.types.ID) -> int:
    objects = [prefab] if isinstance(prefab, bpy.types.Object) else list(prefab.all_objects)
    return sum(_triangles(obj.data) for obj in objects)


def _proxy_objects() -> list[bpy.types.Object]:
    collection = next(c for c in bpy.data.collections if c.get("strew_proxies"))
    return sorted(collection.objects, key=lambda o: o.name)


@pytest.mark.parametrize("kind", ['BOUNDS', 'HULL', 'DECIMATE'])
def test_proxies_are_the_prefabs_box_hull_or_decimated_copy(kind: str) -> None:
    prefabs = _sphere_prefabs()
    layer, _ = _scene(5, prefabs)
    layer.proxy_kind, layer.proxy_ratio, layer.proxy_beyond = kind, 0.2, True
    proxies = _proxy_objects()
    blocks = sorted([*prefabs.objects, *prefabs.children], key=lambda b: b.name)
    assert len(proxies) == len(blocks) == 3
    for proxy, block in zip(proxies, blocks, strict=True):
        vertices = _shown_by(block)
        got = _local_vertices(proxy)
        if kind == 'BOUNDS':
            assert len(proxy.data.polygons) == 6
            assert np.allclose(got.min(axis=0), vertices.min(axis=0), atol=1e-5)
            assert np.allclose(got.max(axis=0), vertices.max(axis=0), atol=1e-5)
        elif kind == 'HULL':
            hull = ConvexHull(vertices)
            assert ConvexHull(got).volume == pytest.approx(hull.volume, rel=1e-4)
            # every vertex of the hull is a vertex of the prefab, on the reference hull
            assert cKDTree(vertices).query(got)[0].max() < 1e-5
            assert (hull.equations[:, :3] @ got.T + hull.equations[:, 3:]).max() < 1e-5
        else:
            assert 0 < _triangles(proxy.data) <= 0.25 * _prefab_triangles(block)
            # Collapse moves kept vertices a little (to the least-error place): within 5 % of the size
            slack = 0.05 * np.ptp(vertices, axis=0).max()
            assert (got.min(axis=0) >= vertices.min(axis=0) - slack).all()
            assert (got.max(axis=0) <= vertices.max(axis=0) + slack).all()


def test_proxies_are_made_once_and_removed_with_the_output_leaving_the_prefabs_as_they_were() -> None:
    prefabs = _sphere_prefabs()
    before = {o.name: (_local_vertices(o).tobytes(), o.data.name, tuple(o.location), dict(o.items()))
              for o in prefabs.all_objects}
    meshes_before = {m.name for m in bpy.data.meshes}
    layer, _ = _scene(6, prefabs)
    other = add_layer("Shrubs", prefabs, 0.3, 0.3, seed=9)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert bpy.data.objects["Strew Shrubs"].data.vertices
    layer.proxy_beyond = other.proxy_beyond = True
    layer.proxy_kind = other.proxy_kind = 'DECIMATE'
    made = sorted(m.name for m in bpy.data.meshes if m.get("strew_kind") == "proxy_mesh")
    assert len(made) == 3  # one per prefab, shared by both layers
    pointers = {m.as_pointer() for m in bpy.data.meshes if m.get("strew_kind") == "proxy_mesh"}
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    assert {m.as_pointer() for m in bpy.data.meshes if m.get("strew_kind") == "proxy_mesh"} == pointers
    assert bpy.ops.strew.clear() == {'FINISHED'}
    assert not [c for c in bpy.data.collections if c.get("strew_proxies")]
    assert not [m for m in bpy.data.meshes if m.get("strew_kind") == "proxy_mesh"]
    assert not [o for o in bpy.data.objects if o.name.startswith(("Strew Proxy", "Strew View"))]
    assert len(bpy.data.scenes) == 1
    after = {o.name: (_local_vertices(o).tobytes(), o.data.name, tuple(o.location), dict(o.items()))
             for o in prefabs.all_objects}
    assert after == before
    assert meshes_before <= {m.name for m in bpy.data.meshes}


def test_switching_proxies_off_removes_them_and_the_view_point_starts_at_the_camera() -> None:
    camera = bpy.data.objects.new("Cam", bpy.data.cameras.new("Cam"))
    bpy.context.scene.collection.objects.link(camera)
    camera.location = (10.0, -30.0, 12.0)
    bpy.context.scene.camera = camera
    layer, _ = _scene(7)
    layer.proxy_beyond = True
    assert Vector(_view().location) == camera.location
    obj = bpy.data.objects["Strew Trees"]
    assert [m.name for m in obj.modifiers] == ["Strew Instancer", "Strew Proxies"]
    layer.display_mode = 'BOUNDS'  # the display modifier comes after the proxies
    assert [m.name for m in obj.modifiers] == ["Strew Instancer", "Strew Proxies", "Strew Viewport"]
    layer.proxy_beyond = False
    assert [m.name for m in obj.modifiers] == ["Strew Instancer", "Strew Viewport"]
    assert not [c for c in bpy.data.collections if c.get("strew_proxies")]
    assert not [o for o in bpy.data.objects if o.get("strew_kind") == "view"]


def test_the_view_point_follows_the_eye_once_it_moved_a_step() -> None:
    """What the window's timer does with the eye a 3D view drew from (no 3D view draws here)."""
    import importlib

    follow = importlib.import_module("bl_ext.strew_dev.strew.scene.proxy_view").follow
    layer, _ = _scene(8)
    layer.proxy_beyond, layer.proxy_distance = True, 40.0  # a step of 2 % of 40 m: 0.8 m
    view = _view()
    start = Vector(view.location)
    assert not follow(bpy.context.scene, start + Vector((0.5, 0.5, 0.0)))  # 0.71 m: stays
    assert Vector(view.location) == start
    eye = start + Vector((0.6, 0.6, 0.0))  # 0.85 m: follows
    assert follow(bpy.context.scene, eye) and (Vector(view.location) - eye).length < 1e-6
    obj = bpy.data.objects["Strew Trees"]
    positions, _ = _output_points(obj)
    far = np.linalg.norm(positions - np.array(eye), axis=1) > 40.0
    assert 0 < far.sum() < len(far)
    assert sum(name.startswith(PROXY_PREFIX) for name, _ in _instances(obj)) == far.sum()


def test_the_number_of_proxies_is_the_number_of_points_beyond_the_distance_wherever_the_view_stands() -> None:
    layer, obj = _scene(10)
    positions, _ = _output_points(obj)
    layer.proxy_beyond = True
    view = _view()
    coordinate = st.floats(-80.0, 80.0, allow_nan=False)

    @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(x=coordinate, y=coordinate, z=st.floats(-5.0, 40.0), distance=st.floats(0.0, 120.0))
    def check(x: float, y: float, z: float, distance: float) -> None:
        layer.proxy_distance = distance
        view.location = (x, y, z)
        eye = np.array(view.location, dtype=np.float64)  # as stored (float32)
        gap = np.linalg.norm(positions - eye, axis=1) - layer.proxy_distance
        shown = _instances(bpy.data.objects["Strew Trees"])
        proxies = sum(name.startswith(PROXY_PREFIX) for name, _ in shown)
        assert len(shown) == len(positions)
        # points within float32 rounding of the distance may go either way
        assert (gap > 1e-3).sum() <= proxies <= (gap > -1e-3).sum()

    check()


@pytest.mark.parametrize("kind", ['BOUNDS', 'HULL', 'DECIMATE'])
def test_proxies_wear_the_prefabs_own_materials_and_survive_evaluation(kind: str) -> None:
    """Each proxy mesh holds the prefab's materials from bpy.data (an evaluated copy would be freed with its
    depsgraph and crash the next evaluation in Blender 4.x); the output then evaluates again and again."""
    prefabs = _sphere_prefabs()
    for number, obj in enumerate(sorted(prefabs.all_objects, key=lambda o: o.name)):
        if not obj.data.materials:
            obj.data.materials.append(bpy.data.materials.new(f"Paint {number}"))
    layer, output = _scene(6, prefabs)
    layer.proxy_kind, layer.proxy_beyond = kind, True
    for step in range(3):
        _view().location = (3.0 * step, 0.0, 0.0)
        assert len(_instances(output)) >= len(output.data.vertices)  # a two-part prefab shows two objects
    names = {m.name for m in bpy.data.materials}
    for proxy in _proxy_objects():
        assert proxy.data.materials, proxy.name
        for material in proxy.data.materials:
            assert material is not None and not material.is_evaluated and material.name in names
            assert bpy.data.materials[material.name] == material


@pytest.mark.parametrize(("kind", "ratio"), [('HULL', 0.1), ('DECIMATE', 0.1), ('DECIMATE', 0.95)])
def test_a_proxy_is_never_heavier_than_the_prefab_it_stands_for(strew_extension, kind: str, ratio: float) -> None:
    """The demo's fir trees are low-poly (their convex hull has more triangles than they do): each proxy is at most
    as heavy as its prefab; where the asked kind would be heavier, the prefab's box stands in."""
    valley = importlib.import_module(f"{strew_extension.__name__}.demos.valley")
    trees = valley.build_prefabs(bpy.context.scene)["Trees"]
    layer, _ = _scene(8, trees)
    layer.proxy_kind, layer.proxy_ratio, layer.proxy_beyond = kind, ratio, True
    blocks = sorted(trees.objects, key=lambda b: b.name)
    for proxy, block in zip(_proxy_objects(), blocks, strict=True):
        assert _triangles(proxy.data) <= _prefab_triangles(block), (proxy.name, block.name)
        hull = ConvexHull(_shown_by(block))
        if kind == 'HULL' and len(hull.simplices) > _prefab_triangles(block):  # heavier: the box stands in
            got = _local_vertices(proxy)
            assert len(proxy.data.polygons) == 6
            assert np.allclose(got.min(axis=0), _shown_by(block).min(axis=0), atol=1e-5)


def test_proxies_show_the_prefabs_modifiers_though_their_collection_is_excluded() -> None:
    """A card thickened by Solidify and a Suzanne with Subdivision, in a collection excluded from the view layer
    (as prefabs usually are): the Bounds proxy is the box of the evaluated geometry, measured here through a
    depsgraph of the test's own scene."""
    prefabs = bpy.data.collections.new("Modified")
    card = bpy.data.meshes.new("Card")
    card.from_pydata([(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)], [], [(0, 1, 2, 3)])
    thick = bpy.data.objects.new("A thick card", card)
    solidify = thick.modifiers.new("Solidify", 'SOLIDIFY')
    solidify.thickness, solidify.offset = 0.5, 1.0
    bm = bmesh.new()
    bmesh.ops.create_monkey(bm)
    monkey = bpy.data.meshes.new("Suzanne")
    bm.to_mesh(monkey)
    bm.free()
    suzanne = bpy.data.objects.new("B Suzanne", monkey)
    suzanne.modifiers.new("Subdivision", 'SUBSURF').levels = 1
    for obj in (thick, suzanne):
        prefabs.objects.link(obj)
    bpy.context.scene.collection.children.link(prefabs)
    bpy.context.view_layer.layer_collection.children[prefabs.name].exclude = True
    layer, _ = _scene(4, prefabs)
    layer.proxy_kind, layer.proxy_beyond = 'BOUNDS', True
    reference = bpy.data.scenes.new("Reference")
    for obj in (thick, suzanne):
        reference.collection.objects.link(obj)
    reference.view_layers[0].update()
    depsgraph = reference.view_layers[0].depsgraph
    for proxy, prefab in zip(_proxy_objects(), (thick, suzanne), strict=True):
        evaluated = prefab.evaluated_get(depsgraph).data
        shown = np.array([v.co[:] for v in evaluated.vertices])
        assert len(evaluated.vertices) != len(prefab.data.vertices)  # the modifier did change the geometry
        got = _local_vertices(proxy)
        assert np.allclose(got.min(axis=0), shown.min(axis=0), atol=1e-5)
        assert np.allclose(got.max(axis=0), shown.max(axis=0), atol=1e-5)
    assert all(m.name in ("Solidify", "Subdivision") for o in (thick, suzanne) for m in o.modifiers)


@pytest.mark.parametrize("kind", ['BOUNDS', 'HULL', 'DECIMATE'])
def test_odd_prefabs_get_a_proxy_without_a_word(kind: str) -> None:
    """An empty, a text, one triangle, a line of edges and a flat card: each gets a proxy, and no error (nothing
    for the empty, nor for the edges where a hull or a decimated copy keeps no face)."""
    prefabs = bpy.data.collections.new("Odd")
    card = bpy.data.meshes.new("Card")
    card.from_pydata([(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)], [], [(0, 1, 2, 3)])
    triangle = bpy.data.meshes.new("Triangle")
    triangle.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], [(0, 1, 2)])
    line = bpy.data.meshes.new("Line")
    line.from_pydata([(x, 0, 0) for x in range(5)], [(0, 1), (1, 2)], [])
    for name, data in (("A card", card), ("B empty", None), ("C text", bpy.data.curves.new("Text", 'FONT')),
                       ("D triangle", triangle), ("E line", line)):
        prefabs.objects.link(bpy.data.objects.new(name, data))
    bpy.context.scene.collection.children.link(prefabs)
    bpy.context.view_layer.layer_collection.children[prefabs.name].exclude = True
    layer, _ = _scene(11, prefabs)
    layer.proxy_kind, layer.proxy_beyond = kind, True
    faces = [len(o.data.polygons) for o in _proxy_objects()]
    expected = {'BOUNDS': [6, 0, 6, 6, 6], 'HULL': [2, 0, None, 1, 0], 'DECIMATE': [1, 0, None, 1, 0]}[kind]
    for got, want in zip(faces, expected, strict=True):
        assert got == want if want is not None else got > 0  # the text: its hull or decimated glyphs


def test_export_level_writes_every_instance_with_its_prefab_whatever_the_viewport_shows(tmp_path) -> None:
    from export_check import drawn_instances, match, read_gltf
    from rooms_kits import module

    layer, _ = _scene(12)
    full = drawn_instances()  # before any viewport-only setting: every instance with its prefab
    layer.proxy_beyond, layer.proxy_distance = True, 10.0
    layer.display_mode, layer.viewport_percent = 'FULL', 50.0
    assert len(drawn_instances()) < len(full)  # the viewport shows half, most of them as proxies
    job = module("scene.export.job")
    result = job.export_level(bpy.context, job.ExportRequest(tmp_path / "level.glb", terrain=False))
    assert result.instances == len(full)
    placed, _ = read_gltf(tmp_path / "level.glb")
    assert len(match(full, placed)) == len(full) == len(placed)
    assert not [item for item in placed if item.mesh.startswith("Strew")]
    obj = bpy.data.objects["Strew Trees"]
    assert [(m.name, m.show_viewport) for m in obj.modifiers] == [
        ("Strew Instancer", True), ("Strew Proxies", True), ("Strew Viewport", True)]
    assert len(drawn_instances()) < len(full)  # the viewport is as it was
