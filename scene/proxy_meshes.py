"""Light stand-ins of a prefab for far instances: its bounding box, its convex hull, or a decimated copy.

A proxy mesh holds what one instance of the prefab shows in the instance's own space (as the instancer's Collection
Info with Reset Children places it), with the prefab's materials. Each is made once per prefab, kind and look of
the prefab and then shared: the mesh carries a key of all three (:func:`proxy_mesh`), and a later call with the
same key finds it instead of building it again. The prefab itself is only read, never changed.
"""

from __future__ import annotations

import bmesh
import bpy
import numpy as np
from mathutils import Matrix

from ..core.modes import ProxyKind
from .fingerprints import digest
from .instancer import OWNER
from .ownership import is_owned, mark

KIND_KEY = "strew_kind"
PROXY_KIND = "proxy_mesh"
PROXY_KEY = "strew_proxy_key"  # on a proxy mesh: the kind, the ratio and a digest of the prefab's geometry
_GEOMETRY = {'MESH', 'CURVE', 'SURFACE', 'FONT', 'META'}


def _parts(block: bpy.types.ID) -> list[tuple[bpy.types.Object, Matrix]]:
    """The objects one instance of ``block`` shows, each with its matrix in the instance's space."""
    if isinstance(block, bpy.types.Object):
        return [(block, Matrix.Identity(4))] if block.type in _GEOMETRY else []
    offset = Matrix.Translation(-block.instance_offset)
    return [(obj, offset @ obj.matrix_world) for obj in block.all_objects if obj.type in _GEOMETRY]


def _joined(block: bpy.types.ID, depsgraph: bpy.types.Depsgraph) -> tuple[bmesh.types.BMesh, list]:
    """The evaluated geometry of every part of ``block`` in one BMesh (faces keep their material through a joined
    material list), and that list."""
    joined = bmesh.new()
    materials: list = []
    for obj, matrix in _parts(block):
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        try:
            if mesh is None:
                continue
            part = bmesh.new()
            part.from_mesh(mesh)
            part.transform(matrix)
            base = len(materials)
            # the originals: an evaluated material is the depsgraph's copy, freed with it (a mesh keeping one
            # brings Blender 4.x down at the next evaluation)
            materials += [None if slot.material is None else slot.material.original
                          for slot in evaluated.material_slots] or [None]
            for face in part.faces:
                face.material_index = base + min(face.material_index, max(len(evaluated.material_slots) - 1, 0))
            staged = bpy.data.meshes.new("Strew proxy part")
            part.to_mesh(staged)
            part.free()
            joined.from_mesh(staged)  # appends to what the BMesh holds
            bpy.data.meshes.remove(staged)
        finally:
            evaluated.to_mesh_clear()
    return joined, materials


def _key(kind: ProxyKind, ratio: float, joined: bmesh.types.BMesh, materials: list) -> str:
    coordinates = np.array([vert.co[:] for vert in joined.verts], dtype=np.float32).reshape(-1, 3)
    sizes = np.array([len(face.verts) for face in joined.faces], dtype=np.int32)
    names = "|".join("" if m is None else m.name for m in materials)
    shown_ratio = f"{ratio:.4f}" if kind == ProxyKind.DECIMATE else "-"
    return f"{kind}:{shown_ratio}:{digest(coordinates, sizes)}:{names}"


def _box(joined: bmesh.types.BMesh) -> bmesh.types.BMesh:
    box = bmesh.new()
    if not joined.verts:
        return box
    corners = np.array([vert.co[:] for vert in joined.verts])
    low, high = corners.min(axis=0), corners.max(axis=0)
    verts = [box.verts.new((x, y, z)) for x in (low[0], high[0]) for y in (low[1], high[1]) for z in (low[2], high[2])]
    for quad in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)):
        box.faces.new([verts[i] for i in quad])
    return box


def _hull(joined: bmesh.types.BMesh) -> bmesh.types.BMesh:
    hull = bmesh.new()
    for vert in joined.verts:
        hull.verts.new(vert.co[:])
    if len(hull.verts) >= 4:
        found = bmesh.ops.convex_hull(hull, input=list(hull.verts))
        loose: list[bmesh.types.BMVert | bmesh.types.BMEdge | bmesh.types.BMFace] = list(
            {g for g in (*found["geom_interior"], *found["geom_unused"]) if isinstance(g, bmesh.types.BMVert)})
        bmesh.ops.delete(hull, geom=loose, context='VERTS')
    if not hull.faces and joined.faces:  # a flat prefab (one triangle) has no solid hull: it is its own proxy
        hull.free()
        return joined.copy()
    return hull


def _decimated(mesh: bpy.types.Mesh, ratio: float) -> bpy.types.Mesh:
    """A decimated copy of ``mesh`` (Blender's Decimate modifier, Collapse), evaluated in a scene of its own so the
    user's scene never sees the helper object."""
    scene = bpy.data.scenes.new("Strew proxy staging")
    helper = bpy.data.objects.new("Strew proxy staging", mesh)
    try:
        scene.collection.objects.link(helper)
        modifier = helper.modifiers.new("Decimate", 'DECIMATE')
        modifier.ratio = ratio
        view_layer = scene.view_layers[0]
        view_layer.update()  # builds the view layer's depsgraph
        depsgraph = view_layer.depsgraph
        return bpy.data.meshes.new_from_object(helper.evaluated_get(depsgraph))
    finally:
        bpy.data.objects.remove(helper)
        bpy.data.scenes.remove(scene)


def _find(key: str) -> bpy.types.Mesh | None:
    return next((mesh for mesh in bpy.data.meshes
                 if is_owned(mesh, OWNER) and mesh.get(KIND_KEY) == PROXY_KIND and mesh.get(PROXY_KEY) == key), None)


def proxy_mesh(block: bpy.types.ID, kind: ProxyKind, ratio: float, depsgraph: bpy.types.Depsgraph) -> bpy.types.Mesh:
    """The proxy of the prefab ``block`` (an object or a collection): found when one with the same kind, ratio and
    prefab geometry exists, made otherwise."""
    joined, materials = _joined(block, depsgraph)
    try:
        key = _key(kind, ratio, joined, materials)
        found = _find(key)
        if found is not None:
            return found
        name = f"Strew Proxy {block.name}"
        if kind == ProxyKind.DECIMATE:
            full = bpy.data.meshes.new(name)
            joined.to_mesh(full)
            for material in materials:
                full.materials.append(material)
            mesh = _decimated(full, ratio) if ratio < 1.0 and len(full.polygons) > 3 else full.copy()
            bpy.data.meshes.remove(full)
            mesh.name = name
        else:
            mesh = _shape_mesh(name, _box(joined) if kind == ProxyKind.BOUNDS else _hull(joined), materials)
        if kind != ProxyKind.BOUNDS and _triangles(mesh) > _faces_triangles(joined) > BOX_TRIANGLES:
            # a hull heavier than the prefab itself (a low-poly tree's) would cost more than the full instance:
            # the box stands in
            bpy.data.meshes.remove(mesh)
            mesh = _shape_mesh(name, _box(joined), materials)
    finally:
        joined.free()
    mark(mesh, OWNER, **{KIND_KEY: PROXY_KIND, PROXY_KEY: key})
    return mesh


BOX_TRIANGLES = 12


def _triangles(mesh: bpy.types.Mesh) -> int:
    sides = np.zeros(len(mesh.polygons), dtype=np.int64)
    mesh.polygons.foreach_get("loop_total", sides)
    return int((sides - 2).sum())


def _faces_triangles(shape: bmesh.types.BMesh) -> int:
    return sum(len(face.verts) - 2 for face in shape.faces)


def _shape_mesh(name: str, shape: bmesh.types.BMesh, materials: list) -> bpy.types.Mesh:
    """A new mesh of ``shape`` (freed here) in the prefab's first material."""
    mesh = bpy.data.meshes.new(name)
    shape.to_mesh(mesh)
    shape.free()
    if materials:
        mesh.materials.append(materials[0])
    return mesh


def remove_unused_meshes() -> None:
    """Remove the proxy meshes nothing uses any more."""
    unused = [mesh for mesh in bpy.data.meshes
              if is_owned(mesh, OWNER) and mesh.get(KIND_KEY) == PROXY_KIND and mesh.users == 0]
    if unused:
        bpy.data.batch_remove(unused)
