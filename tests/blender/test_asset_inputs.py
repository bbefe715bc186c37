"""Exclude, Proximity and Targets read assets as they arrive: an empty placing a collection that is not in the
scene, nested ones, one collection placed by several empties, one linked from a library, and Geometry Nodes
instances. Every check measures what Blender draws (``depsgraph.object_instances``) apart from Strew."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import bpy
import numpy as np
import pytest
from assets import asset, barn, box, farm, instancing_grid, linked_shed, placed
from from_above_reference import drawn_geometry, drawn_meshes, xy_distance
from mathutils import Vector
from mathutils.bvhtree import BVHTree
from scenes import add_layer, make_prefabs, point_attributes

MARGIN = 1.0


def _flat_terrain() -> bpy.types.Object:
    bpy.ops.mesh.primitive_plane_add(size=60.0)
    return bpy.context.active_object


def _collection(name: str) -> bpy.types.Collection:
    collection = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(collection)
    return collection


def _one_asset(into: bpy.types.Collection, folder: Path) -> None:
    placed(barn(), "Barn asset", (-3.0, 4.0, 0.0), rotation_z=0.4, into=into)


def _placed_twice(into: bpy.types.Collection, folder: Path) -> None:
    barn_asset = barn()
    placed(barn_asset, "Barn west", (-15.0, -8.0, 0.0), rotation_z=0.4, into=into)
    placed(barn_asset, "Barn east", (12.0, 9.0, 0.0), rotation_z=-0.9, scale=0.7, into=into)


def _nested(into: bpy.types.Collection, folder: Path) -> None:
    placed(farm(), "Farm", (-8.0, -10.0, 0.0), rotation_z=0.2, into=into)


def _from_a_library(into: bpy.types.Collection, folder: Path) -> None:
    placed(linked_shed(folder), "Shed", (4.0, -2.0, 0.0), rotation_z=0.7, into=into)


def _geometry_nodes(into: bpy.types.Collection, folder: Path) -> None:
    grid = instancing_grid("Blocks", size=36.0, cuts=3, block=2.5)
    grid.rotation_euler = (0.0, 0.0, 0.3)
    into.objects.link(grid)


def _nodes_inside_an_asset(into: bpy.types.Collection, folder: Path) -> None:
    blocks = asset("Block field", instancing_grid("Blocks", size=30.0, cuts=2, block=3.0), box("Post", 1.0))
    placed(blocks, "Block field", (2.0, 3.0, 0.0), rotation_z=0.5, into=into)


ASSETS: dict[str, Callable[[bpy.types.Collection, Path], None]] = {
    "asset": _one_asset,
    "placed-twice": _placed_twice,
    "nested": _nested,
    "linked-library": _from_a_library,
    "geometry-nodes": _geometry_nodes,
    "nodes-inside-an-asset": _nodes_inside_an_asset,
}


@pytest.mark.parametrize("seed", [2, 5])
@pytest.mark.parametrize("kind", list(ASSETS))
def test_exclude_keeps_the_margin_from_every_placement(kind: str, seed: int, tmp_path: Path) -> None:
    scene = bpy.context.scene
    scene.strew.terrain = _flat_terrain()
    exclude = _collection("Exclude")
    ASSETS[kind](exclude, tmp_path)
    add_layer("Grass", make_prefabs("Grass"), 1.0, 1.0, seed=seed, exclusion_collection=exclude,
              exclusion_margin=MARGIN)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy = point_attributes(bpy.data.objects["Strew Grass"])["position"][:, :2]
    triangles, segments = drawn_geometry(list(exclude.objects))
    assert len(triangles) >= 12 and len(xy) > 300
    distance = xy_distance(xy, triangles, segments)
    worst = int(np.argmin(distance))
    assert distance[worst] >= MARGIN - 1e-6, f"instance at {xy[worst]} is {distance[worst]:.6f} m from {kind}"
    assert distance.min() < MARGIN + 0.5  # and they come up to the margin


def _on_surface(positions: np.ndarray, meshes: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> np.ndarray:
    """The height of the top-most drawn triangle straight below each instance (a ray from high above)."""
    vertices, faces, base = [], [], 0
    for points, triangles, _ in meshes:
        vertices += [Vector(p) for p in points]
        faces += [tuple(int(i) + base for i in t) for t in triangles]
        base += len(points)
    tree = BVHTree.FromPolygons(vertices, faces)
    heights = np.full(len(positions), np.nan)
    for i, (x, y, z) in enumerate(positions):
        hit, _, _, _ = tree.ray_cast(Vector((x, y, z + 50.0)), Vector((0.0, 0.0, -1.0)))
        if hit is not None:
            heights[i] = hit.z
    return heights


def test_targets_from_instanced_collections_place_on_the_instanced_meshes(tmp_path: Path) -> None:
    """Targets holding an asset placed twice, a nested one and Geometry Nodes instances: every instance stands on
    a drawn surface, and every placement gets instances."""
    targets = _collection("Targets")
    roof = box("Roof", 8.0, location=(0.0, 0.0, 2.0), rotation=(0.35, 0.0, 0.0))
    houses = asset("Houses", roof, box("Yard", 6.0, location=(9.0, 0.0, -2.0)), offset=(2.0, 0.0, 0.0))
    empties = [placed(houses, "Houses A", (-14.0, 10.0, 0.0), rotation_z=0.6, into=targets),
               placed(houses, "Houses B", (12.0, -12.0, 3.0), rotation_z=-0.4, scale=1.3, into=targets),
               placed(farm(), "Farm", (-10.0, -25.0, 0.0), into=targets)]
    grid = instancing_grid("Plinths", size=16.0, cuts=2, block=4.0)
    grid.location = (20.0, 20.0, 0.0)
    targets.objects.link(grid)
    add_layer("Moss", make_prefabs("Moss"), 0.5, 0.5, seed=3, targets=targets)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    positions = point_attributes(bpy.data.objects["Strew Moss"])["position"]
    assert len(positions) > 500
    meshes = drawn_meshes([*empties, grid])
    heights = _on_surface(positions, meshes)
    assert np.isfinite(heights).all()
    np.testing.assert_allclose(positions[:, 2], heights, atol=1e-4)
    for points, faces, _ in meshes:  # every placement of every mesh got instances on it
        if not len(faces):
            continue  # the grid's own points
        low, high = points[:, :2].min(axis=0), points[:, :2].max(axis=0)
        on = ((positions[:, :2] > low) & (positions[:, :2] < high)).all(axis=1)
        assert on.sum() >= 3, (low, high)


@pytest.mark.parametrize("mode", ['ATTRACT', 'REPEL'])
def test_proximity_measures_from_an_instanced_asset(mode: str, tmp_path: Path) -> None:
    """Each instance's radius is what its distance to the asset (placed twice, one linked from a library) asks."""
    scene = bpy.context.scene
    scene.strew.terrain = _flat_terrain()
    near = _collection("Near")
    _placed_twice(near, tmp_path)
    _from_a_library(near, tmp_path)
    low, high, start, end = 0.6, 2.0, 1.0, 9.0
    add_layer("Grass", make_prefabs("Grass"), low, high, seed=4, proximity_collection=near, proximity_mode=mode,
              proximity_near=start, proximity_far=end)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    attributes = point_attributes(bpy.data.objects["Strew Grass"])
    xy, radii = attributes["position"][:, :2], attributes["strew_radius"]
    triangles, segments = drawn_geometry(list(near.objects))
    t = np.clip((xy_distance(xy, triangles, segments) - start) / (end - start), 0.0, 1.0)
    fade = t * t * (3.0 - 2.0 * t)
    density = 1.0 - fade if mode == 'ATTRACT' else fade
    np.testing.assert_allclose(radii, high + (low - high) * density, atol=1e-4)
    assert (density > 0.9).sum() > 20 and (density < 0.1).sum() > 20


def test_strew_output_placed_by_an_empty_is_never_read() -> None:
    """Exclude holding empties that instance Strew Output, a collection of the user's holding a layer's output and
    a hut, and a barn: the hut and the barn keep instances off, Strew's own instances do not."""
    scene = bpy.context.scene
    scene.strew.terrain = _flat_terrain()
    exclude = _collection("Exclude")
    layer = add_layer("Grass", make_prefabs("Grass"), 1.0, 1.0, seed=2, output_mode='EMPTIES')
    add_layer("Bushes", make_prefabs("Bushes"), 1.5, 1.5, seed=3)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    output = next(c for c in bpy.data.collections if c.get("strew_name") == "Strew Output")
    mixed = asset("Mixed", box("Hut", 4.0, location=(12.0, -12.0, 2.0)))
    mixed.objects.link(bpy.data.objects["Strew Bushes"])
    placed(output, "Everything", (0.0, 0.0, 0.0), into=exclude)
    placed(mixed, "Mixed", (0.0, 0.0, 0.0), into=exclude)
    placed(barn(), "Barn asset", (-3.0, 4.0, 0.0), into=exclude)
    layer.exclusion_collection = exclude
    layer.exclusion_margin = MARGIN
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    grass = np.array([np.array(obj.matrix_world)[:2, 3] for obj in bpy.data.objects
                      if obj.get("strew_layer") == "Grass" and obj.get("strew_owner") and obj.type == 'EMPTY'])
    triangles, segments = drawn_geometry(list(exclude.objects), only={"Barn", "Hut"})
    assert len(triangles) == 24
    distance = xy_distance(grass, triangles, segments)
    assert distance.min() >= MARGIN - 1e-6
    assert distance.min() < MARGIN + 0.5
    assert len(grass) > 1500  # the rest of the ground is filled: Strew's own instances kept nothing off


def _square(center: tuple[float, float], half: float, turn: float, at: tuple[float, float]) -> np.ndarray:
    """The two triangles (2, 3, 2) of a square of side ``2 * half`` centred at ``center``, turned by ``turn``
    about the origin and moved to ``at``."""
    cx, cy = center
    corners = np.array([(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)])
    c, s = np.cos(turn), np.sin(turn)
    moved = corners @ np.array([[c, s], [-s, c]]) + np.array(at)
    return moved[[[0, 1, 2], [0, 2, 3]]]


def test_an_asset_in_a_collection_hidden_from_the_view_layer_is_read_where_it_stands() -> None:
    """The depsgraph evaluates nothing of a collection excluded from the view layer: the asset is placed from its
    empty's and its objects' own transforms (the barn: a 10 m square, worked out here by hand)."""
    scene = bpy.context.scene
    scene.strew.terrain = _flat_terrain()
    exclude = _collection("Exclude")
    bpy.context.view_layer.layer_collection.children["Exclude"].exclude = True
    placed(barn(), "Barn asset", (-3.0, 4.0, 0.0), rotation_z=0.4, into=exclude)
    add_layer("Grass", make_prefabs("Grass"), 1.0, 1.0, seed=2, exclusion_collection=exclude,
              exclusion_margin=MARGIN)
    assert bpy.ops.strew.scatter() == {'FINISHED'}
    xy = point_attributes(bpy.data.objects["Strew Grass"])["position"][:, :2]
    # The barn's centre (2, 1) less the collection's instance offset (1, -1), turned 0.4 and moved by the empty.
    distance = xy_distance(xy, _square((1.0, 2.0), 5.0, 0.4, (-3.0, 4.0)), np.zeros((0, 2, 2)))
    assert distance.min() >= MARGIN - 1e-6
    assert distance.min() < MARGIN + 0.5
