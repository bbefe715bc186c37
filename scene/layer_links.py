"""A layer placed *Around* or *On* an earlier layer: which layer a link names (validated), and that layer's
instances as the dependent layer reads them.

The instances come from the Scatter job when the linked layer runs in the same job, else from its output in the
scene. Either way they pass through what the Point Instancer stores (float32 offsets, rotations and scales), so a
dependent layer run on its own gives what it gives when the whole stack runs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.orient import rotation_matrices
from . import layer_ids
from .instancer import OWNER, Prefab, offsets, origin_of, prefabs_of
from .instances import PointSet
from .layer_points import read_points
from .ownership import is_owned


@dataclass(frozen=True, eq=False)
class Placed:
    """A layer's instances in world space: positions (N, 3), each instance's rotation times its scale (N, 3, 3),
    its prefab (N,) and its scale (N,); ``digest`` tells two sets apart (a live update's key)."""

    positions: np.ndarray
    matrices: np.ndarray
    prefab: np.ndarray
    scales: np.ndarray
    digest: str

    def __len__(self) -> int:
        return len(self.positions)

    @staticmethod
    def of(positions: np.ndarray, matrices: np.ndarray, prefab: np.ndarray, scales: np.ndarray) -> Placed:
        arrays = (np.ascontiguousarray(positions, dtype=np.float64).reshape(-1, 3),
                  np.ascontiguousarray(matrices, dtype=np.float64).reshape(-1, 3, 3),
                  np.ascontiguousarray(prefab, dtype=np.int64).reshape(-1),
                  np.ascontiguousarray(scales, dtype=np.float64).reshape(-1))
        digest = hashlib.blake2b(b"".join(a.tobytes() for a in arrays), digest_size=16).hexdigest()
        return Placed(*arrays, digest)


def placed_of(points: PointSet) -> Placed:
    """A job's instances of a layer as its Point Instancer output stores and gives them back (float32 offsets
    from the output's origin, float32 rotations and scales)."""
    origin = origin_of(points.positions)
    positions = offsets(points.positions, origin).astype(np.float64) + origin
    rotations = points.rotations.astype(np.float32).astype(np.float64)
    scales = points.scales.astype(np.float32).astype(np.float64)
    return Placed.of(positions, rotation_matrices(rotations) * scales[:, None, None], points.prefab_index, scales)


def placed_in_scene(scene: bpy.types.Scene, layer_id: str, prefabs: list[Prefab]) -> Placed | None:
    """The instances of the layer's output in ``scene`` (None when it has none): a Point Instancer's points, or
    the real objects of a collection output (each matched to its prefab; one matching none is left out)."""
    for block in layer_ids.outputs(scene, layer_id):
        if isinstance(block, bpy.types.Object) and block.type == 'MESH':
            return placed_of(read_points(block))
        if isinstance(block, bpy.types.Collection):
            return _objects_placed(block, prefabs)
    return None


def _prefab_of(obj: bpy.types.Object, prefabs: list[Prefab]) -> int | None:
    """Which prefab a real instance draws: the collection it instances (a prefab collection, or Strew's wrapper of
    a prefab object), or the mesh a linked duplicate shares."""
    for index, prefab in enumerate(prefabs):
        block = prefab.datablock
        drawn = obj.instance_collection
        if drawn is not None and (drawn == block or (isinstance(block, bpy.types.Object) and is_owned(drawn, OWNER)
                                                     and block.name in drawn.objects)):
            return index
        if drawn is None and isinstance(block, bpy.types.Object) and obj.data is not None and obj.data == block.data:
            return index
    return None


def _objects_placed(collection: bpy.types.Collection, prefabs: list[Prefab]) -> Placed:
    found = [(obj, _prefab_of(obj, prefabs)) for obj in collection.objects if is_owned(obj, OWNER) and obj.parent]
    kept = [(obj, index) for obj, index in found if index is not None]
    matrices = np.array([np.array(obj.matrix_world, dtype=np.float64) for obj, _ in kept]).reshape(-1, 4, 4)
    linear = matrices[:, :3, :3]
    scales = np.sqrt((linear[:, :, 0] ** 2).sum(axis=1))
    return Placed.of(matrices[:, :3, 3], linear, np.array([index for _, index in kept], dtype=np.int64), scales)


@dataclass(frozen=True)
class Linked:
    """The earlier layer a link names: its id, name, prefab collection, output mode and spacing mode."""

    layer_id: str
    name: str
    collection: bpy.types.Collection | None
    output: str
    spacing: str

    def prefabs(self) -> list[Prefab]:
        """Its prefabs in Pick Instance order (none without a collection)."""
        return [] if self.collection is None else prefabs_of(self.collection)


def linked_layer(settings: bpy.types.PropertyGroup, scene: bpy.types.Scene, link: bpy.types.PropertyGroup,
                 what: str, follow: tuple[str, ...]) -> Linked | None:
    """The layer ``link`` of ``settings`` (a layer) names, or None when it names none. ``what`` is the setting's
    label; ``follow`` the link attributes whose chains are checked for a cycle. ``ValueError`` naming both layers
    and what to change when the link names no layer, the layer itself, a later or disabled layer, or a cycle."""
    if not link.layer and not link.layer_id:
        return None
    layers = list(scene.strew.layers)
    here = next(i for i, layer in enumerate(layers) if layer.as_pointer() == settings.as_pointer())
    index = _find(layers, link)
    if index is None:
        raise ValueError(rpt_('{what} names "{other}", which is no layer: pick an earlier layer or clear '
                              "{what}").format(what=rpt_(what), other=link.layer))
    other = layers[index]
    if index == here:
        raise ValueError(rpt_("{what} names the layer itself: pick an earlier layer or clear {what}").format(
            what=rpt_(what)))
    if _reaches(layers, index, here, follow):
        raise ValueError(rpt_('{what} "{other}" leads back to "{name}" (a cycle): clear {what} or the link of "{other}"'
                              ).format(what=rpt_(what), other=other.name, name=settings.name))
    if index > here:
        raise ValueError(rpt_('{what} "{other}" is below "{name}": move "{other}" above "{name}" (a layer goes around '
                              "or on earlier layers only)").format(what=rpt_(what), other=other.name,
                                                                    name=settings.name))
    if not other.enabled:
        raise ValueError(rpt_('{what} "{other}" is disabled: enable "{other}" or clear {what}').format(
            what=rpt_(what), other=other.name))
    return Linked(other.layer_id, other.name, other.collection, other.output_mode, other.spacing)


def _find(layers: list[bpy.types.PropertyGroup], link: bpy.types.PropertyGroup) -> int | None:
    """Where the layer a link names stands: by its id when the link has one, else by name."""
    if link.layer_id:
        found = next((i for i, layer in enumerate(layers) if layer.layer_id == link.layer_id), None)
        if found is not None:
            return found
    return next((i for i, layer in enumerate(layers) if layer.name == link.layer), None) if link.layer else None


def _reaches(layers: list[bpy.types.PropertyGroup], start: int, target: int, follow: tuple[str, ...]) -> bool:
    """Whether following the links (``follow``) from layer ``start`` comes to layer ``target``."""
    seen: set[int] = set()
    todo = [start]
    while todo:
        index = todo.pop()
        if index == target:
            return True
        if index in seen:
            continue
        seen.add(index)
        for name in follow:
            found = _find(layers, getattr(layers[index], name))
            if found is not None:
                todo.append(found)
    return False


LINKS = ("around", "on_layer")
"""The link settings of a layer (``properties.layer_relations``): a cycle may run through any of them."""
