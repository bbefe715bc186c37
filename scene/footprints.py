"""How much room a prefab takes: the footprint a layer spaced by object size keeps apart.

A *From Above* layer's footprint is the smallest circle about the instance's origin that holds the prefab's
evaluated bounding box in x and y (modifiers, text and curves included; any yaw keeps it): the ground it covers
seen from above. An *Every Face* layer stands its instances along every face normal, so its footprint is the
smallest sphere about the origin that holds the box (its farthest corner in 3-D; any orientation keeps it), and
the sampler keeps the gap between spheres in 3-D. Either is measured in the frame the output draws the prefab in:
the Point Instancer and linked duplicates draw an object prefab in its own space (its object transform is replaced
by the instance's), collection empties keep its rotation and scale; a collection prefab draws its objects where
they stand relative to the collection's instance offset. Objects without geometry (empties, lights, cameras) cover
nothing. A prefab's ``strew_radius`` custom property overrides the measure (the circle's or the sphere's radius).
"""

from __future__ import annotations

import bpy
import numpy as np

from ..core.modes import OutputMode, SurfaceMode
from .custom_props import RADIUS, read
from .drawn import world_matrix
from .instancer import Prefab

DRAWN = {'MESH', 'CURVE', 'CURVES', 'SURFACE', 'FONT', 'META', 'GPENCIL', 'GREASEPENCIL', 'VOLUME', 'POINTCLOUD'}
"""Object types that draw something, so their bounding box is a footprint."""
DEPTH = 4
"""How deep collections instanced inside a prefab are followed."""


def _box(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> np.ndarray:
    """The eight corners of the object's evaluated bounding box in its own space ((0, 3) when it draws nothing)."""
    if obj.type not in DRAWN:
        return np.zeros((0, 3))
    return np.array(obj.evaluated_get(depsgraph).bound_box, dtype=np.float64).reshape(-1, 3)


def _collection_corners(collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph, depth: int) -> np.ndarray:
    """Corners of everything a collection instance draws, relative to the collection's instance offset."""
    offset = np.array(collection.instance_offset, dtype=np.float64)
    parts = [np.zeros((0, 3))]
    for obj in collection.all_objects:
        parts.append(_transformed(_object_corners(obj, depsgraph, depth), world_matrix(obj, depsgraph)) - offset)
    return np.concatenate(parts)


def _object_corners(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, depth: int) -> np.ndarray:
    """Corners of what the object draws, in its own space: its geometry and any collection it instances."""
    corners = _box(obj, depsgraph)
    if obj.instance_type == 'COLLECTION' and obj.instance_collection is not None and depth > 0:
        corners = np.concatenate([corners, _collection_corners(obj.instance_collection, depsgraph, depth - 1)])
    return corners


def _transformed(corners: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    return corners @ matrix[:3, :3].T + matrix[:3, 3]


def footprint(prefab: Prefab, output: OutputMode, depsgraph: bpy.types.Depsgraph,
              surface: SurfaceMode = SurfaceMode.TOP) -> float:
    """The prefab's footprint radius at scale 1 as the layer's ``output`` draws it: a circle seen from above for a
    *From Above* ``surface``, a sphere for *Every Face* (``CustomPropertyError`` for an unusable
    ``strew_radius``)."""
    block = prefab.datablock
    override = read(block, RADIUS)
    if override is not None:
        return override
    if isinstance(block, bpy.types.Collection):
        corners = _collection_corners(block, depsgraph, DEPTH)
    elif isinstance(block, bpy.types.Object):
        corners = _object_corners(block, depsgraph, DEPTH)
        if output == OutputMode.EMPTIES:  # a wrapper collection draws the object as it stands, less its location
            corners = corners @ world_matrix(block, depsgraph)[:3, :3].T
    else:
        return 0.0
    if not len(corners):
        return 0.0
    axes = 3 if surface == SurfaceMode.ALL else 2
    return float(np.sqrt((corners[:, :axes] ** 2).sum(axis=1)).max())


def footprints(prefabs: tuple[Prefab, ...], output: OutputMode,
               surface: SurfaceMode = SurfaceMode.TOP) -> tuple[float, ...]:
    """Every prefab's footprint for a layer on ``surface``, in the layer's prefab order."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    return tuple(footprint(prefab, output, depsgraph, surface) for prefab in prefabs)
