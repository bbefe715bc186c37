"""What a collection draws: its objects, and every object its instancers place, each with its world matrix.

A collection's objects draw themselves (a mesh, a curve, text); some also place others. An empty instancing a
collection (an asset dragged in from the Asset Browser, a collection instance, one linked from a library) draws
that collection's objects, relative to its instance offset, and the collections those instance in turn; a
collection instanced by several empties is drawn at each. A Geometry Nodes modifier, a particle system or vertex
and face instancing places instances, which only the evaluated depsgraph knows (``depsgraph.object_instances``).

:func:`drawn` goes through all of it, so Exclude, Proximity and Targets read an asset as they read a mesh.
Collection instances are followed here, whether the collection is in the scene or not (an asset's is not) and
whether the empty is visible or not; what the depsgraph instantiates is read from its list, where Blender keeps
only what the view layer shows. Strew's own output is never read: neither its objects nor what they instance.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import bpy
import numpy as np

from .ownership import is_owned

DEPTH = 8
"""How deep collections instanced inside an instanced collection are followed (Blender itself stops at 8)."""
GEOMETRY = frozenset({'MESH', 'CURVE', 'SURFACE', 'FONT'})
"""Object types whose evaluated geometry is a mesh seen from above."""


@dataclass(frozen=True)
class Drawn:
    """One object drawn by a collection: ``key`` tells it from every other placement of the same object
    (session_uids along the way, with the instance's number for the depsgraph's), ``obj`` is the evaluated
    object whose geometry is drawn (for the depsgraph's instances, valid only until the next one is asked for),
    ``matrix`` where it is drawn (4 x 4, world), ``name`` the object's own name."""

    key: tuple[object, ...]
    obj: bpy.types.Object
    matrix: np.ndarray
    name: str


def world_matrix(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> np.ndarray:
    """Where ``obj`` stands (4 x 4, world): as evaluated; for an object the depsgraph does not evaluate (in a
    collection excluded from the view layer, or one that only such an empty instances), from its own location,
    rotation and scale and its parents', as Blender would place it (its stored matrix is not kept up to date)."""
    evaluated = obj.evaluated_get(depsgraph)
    if evaluated.is_evaluated:
        return np.array(evaluated.matrix_world, dtype=np.float64)
    basis = np.array(obj.matrix_basis, dtype=np.float64)
    if obj.parent is None:
        return basis
    return world_matrix(obj.parent, depsgraph) @ np.array(obj.matrix_parent_inverse, dtype=np.float64) @ basis


def makes_instances(obj: bpy.types.Object) -> bool:
    """Whether the evaluated depsgraph may hold instances ``obj`` places (Geometry Nodes, particles, vertex or
    face instancing); an empty's collection is followed here instead."""
    if obj.instance_type in {'VERTS', 'FACES'}:
        return True
    if getattr(obj, "particle_systems", None) and len(obj.particle_systems):
        return True
    return any(modifier.type == 'NODES' for modifier in obj.modifiers)


def instanced(obj: bpy.types.Object) -> bpy.types.Collection | None:
    """The collection an empty instances (None: none, or Strew's own output)."""
    collection = obj.instance_collection if obj.instance_type == 'COLLECTION' else None
    return None if collection is None or is_owned(collection) else collection


def _members(collection: bpy.types.Collection) -> list[bpy.types.Object]:
    return [obj for obj in collection.all_objects if not is_owned(obj)]


def watched_objects(collection: bpy.types.Collection) -> list[bpy.types.Object]:
    """The collection's objects and those of every collection they instance (each once, not Strew's output):
    what a change of the drawing comes from."""
    found: dict[int, bpy.types.Object] = {}
    stack = [(collection, 0)]
    seen = {collection.as_pointer()}
    while stack:
        current, depth = stack.pop()
        for obj in _members(current):
            found.setdefault(obj.as_pointer(), obj)
            inner = instanced(obj)
            if inner is not None and depth < DEPTH and inner.as_pointer() not in seen:
                seen.add(inner.as_pointer())
                stack.append((inner, depth + 1))
    return list(found.values())


def drawn(collection: bpy.types.Collection, depsgraph: bpy.types.Depsgraph) -> Iterator[Drawn]:
    """Everything ``collection`` draws (see the module's text), in a fixed order: its objects and the collections
    they instance first, then the depsgraph's instances. Read each :class:`Drawn`'s ``obj`` before asking for the
    next.

    An empty whose collection holds objects that place instances themselves is read from the depsgraph's list as
    a whole (Blender's own flattening, nested instances included), unless that list has nothing of it (the empty
    is hidden) or the collection holds Strew's output: then its collections are followed here, without the
    instances placed inside them."""
    placers: dict[int, tuple[object, ...]] = {}
    deferred: list[bpy.types.Object] = []
    for obj in _members(collection):
        key = (obj.session_uid,)
        if makes_instances(obj) or _places_inside(obj):
            placers[obj.as_pointer()] = key
        if obj.instance_type == 'COLLECTION' and obj.as_pointer() in placers:
            deferred.append(obj)
            continue
        yield from _placed(obj, depsgraph, np.identity(4), key, 0)
    if not placers:
        return
    found: set[int] = set()
    yield from _instances(depsgraph, placers, found)
    for obj in deferred:
        if obj.as_pointer() not in found:
            yield from _placed(obj, depsgraph, np.identity(4), (obj.session_uid,), 0)


def _places_inside(obj: bpy.types.Object) -> bool:
    """Whether the collections ``obj`` instances (all the way down) hold an object placing instances of its own,
    and none of Strew's output."""
    inner = instanced(obj)
    if inner is None:
        return False
    stack, seen, places = [(inner, 0)], {inner.as_pointer()}, False
    while stack:
        current, depth = stack.pop()
        for member in current.all_objects:
            if is_owned(member):
                return False
            places = places or makes_instances(member)
            deeper = member.instance_collection if member.instance_type == 'COLLECTION' else None
            if deeper is not None and is_owned(deeper):
                return False
            if deeper is not None and depth < DEPTH and deeper.as_pointer() not in seen:
                seen.add(deeper.as_pointer())
                stack.append((deeper, depth + 1))
    return places


def _placed(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, parent: np.ndarray, key: tuple[object, ...],
            depth: int) -> Iterator[Drawn]:
    """``obj`` drawn at ``parent`` times its own world matrix, and the collections it instances."""
    evaluated = obj.evaluated_get(depsgraph)
    matrix = parent @ world_matrix(obj, depsgraph)
    if obj.type in GEOMETRY:
        yield Drawn(key, evaluated, matrix, obj.name)
    inner = instanced(obj)
    if inner is None or depth >= DEPTH:
        return
    offset = np.identity(4)
    offset[:3, 3] = -np.array(inner.instance_offset, dtype=np.float64)
    within = matrix @ offset
    for member in _members(inner):
        yield from _placed(member, depsgraph, within, (*key, member.session_uid), depth + 1)


def _instances(depsgraph: bpy.types.Depsgraph, placers: dict[int, tuple[object, ...]],
               found: set[int]) -> Iterator[Drawn]:
    """The depsgraph's instances placed by the objects ``placers`` (original pointer → key); ``found`` gets the
    pointers of those that placed any."""
    for instance in depsgraph.object_instances:
        if not instance.is_instance or instance.parent is None:
            continue
        parent = instance.parent.original.as_pointer()
        key = placers.get(parent)
        if key is None:
            continue
        found.add(parent)
        obj = instance.object
        if obj.type in GEOMETRY:
            original = obj.original
            path = tuple(int(step) for step in np.asarray(instance.persistent_id))
            yield Drawn((*key, path), obj, np.array(instance.matrix_world, dtype=np.float64),
                        obj.name if original is None else original.name)
