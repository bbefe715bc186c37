"""Strew's outputs in Blender's own FBX exporter, as one object per instance sharing its source mesh.

Blender's FBX exporter writes none of the instances a Geometry Nodes instancer makes (a scatter layer's Point
Instancer, a room's Instances output), grows quadratically on a layer of collection empties, and stops with an
error on an integer triple custom property (a Real Objects room tile's ``strew_cell``). FBX has no instancing
attributes either, so :func:`write_fbx` stages the level for it:

- every instance of every output (:mod:`.instances`) becomes a temporary object that shares the source's mesh (FBX
  writes that mesh once, every instance's Model pointing at it), at the exact world matrix (a mirrored tile keeps
  its negative determinant, which FBX carries as a negative scale), carrying its values as custom properties an
  engine reads (Unity: ``OnPostprocessGameObjectWithUserProperties``): ``strew_random``, ``strew_id``,
  ``strew_prefab``; for rooms ``strew_tile`` (the tile's name), ``strew_cell`` (three floats),
  ``strew_rotation``, ``strew_mirror``, ``strew_id``;
- they stand at the root, named after their output ("Strew Trees.000042", "Strew Room wall 3_0_1"), in place of
  the output's own objects (an instancer would export as an empty mesh, a layer's point empties take the
  exporter's quadratic path); parenting them would make removing them quadratic in Blender;
- integer triples of any exported object are written as three floats while the exporter runs, so a room of Real
  Objects exports with its custom properties; the user's data are never changed;
- everything staged is removed afterwards in one batch, whatever happens, and the exporter's selection is given
  back. Staging is linear in instances: objects are created and linked in one pass, their matrices set in one
  ``foreach_set``, and the depsgraph is evaluated once, by the exporter (Blender's batch removal of the objects
  is mildly superlinear: about a quarter of the time at 50,000 instances).

With the exporter's default axes each root object's rotation is written as XYZ Euler angles that Blender computes
in single precision: near a quarter turn about z (the order's gimbal lock once z becomes the file's y) a rotation
can be off by about 2e-4; the Unity preset (*Apply Transform*) keeps such turns about one axis and exact.

Axis and unit presets (:data:`ENGINE_OPTIONS`), on top of ``use_selection`` and ``use_custom_props``:

- ``BLENDER``: the exporter's defaults;
- ``UNITY``: Y up, -Z forward, *FBX All* scaling and *Apply Transform*, so Unity imports at scale 1 with no -90°
  x rotation on each object; face smoothing (Unity's importer asks for smoothing groups);
- ``UNREAL``: Z up, X forward (Unreal's axes, as Epic's Blender guides export), units as Blender writes them
  (Unreal converts them on import), face smoothing;
- ``GODOT``: the exporter's defaults (Godot converts FBX through ufbx); glTF is Godot's better path, with GPU
  instancing into a MultiMesh.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.modes import EngineAxes
from .instances import ROOM, VALUES, Output
from .request import ExportError, ExportRequest

STAGE_NAME = "Strew FBX Export"
"""The temporary collection the staged instances live in while the exporter runs."""

ENGINE_OPTIONS: dict[EngineAxes, dict[str, Any]] = {
    EngineAxes.BLENDER: {},
    EngineAxes.UNITY: {"axis_forward": '-Z', "axis_up": 'Y', "apply_scale_options": 'FBX_SCALE_ALL',
                       "bake_space_transform": True, "mesh_smooth_type": 'FACE'},
    EngineAxes.UNREAL: {"axis_forward": 'X', "axis_up": 'Z', "apply_scale_options": 'FBX_SCALE_NONE',
                        "mesh_smooth_type": 'FACE'},
    EngineAxes.GODOT: {},
}

WRITTEN_APART = {"_STREW_TILE", "_STREW_CELL"}
"""Room values FBX gets in another form: the tile's name, and the cell as three floats."""


def write_fbx(context: bpy.types.Context, request: ExportRequest, outputs: list[Output], path: Path) -> list[str]:
    """Export the selection with every output's instances staged as objects; notes for the user."""
    options = {**ENGINE_OPTIONS.get(request.engine, {}), "filepath": str(path), "use_selection": True,
               "use_custom_props": True}
    converted: list[str] = []
    with staged(context, outputs), _integer_triples_as_floats(converted):
        result = bpy.ops.export_scene.fbx(**options)
    if 'FINISHED' not in result:
        raise ExportError(rpt_('Blender\'s FBX exporter did not write "{name}"').format(name=path.name))
    count = sum(len(output) for output in outputs)
    notes = [f"FBX has no instancing attributes: each of the {count} instances is an object sharing its mesh, "
             "its values (strew_random, strew_id, and a room's strew_tile, strew_cell, strew_rotation, strew_mirror) "
             "as custom properties"]
    if converted:
        names = ", ".join(sorted(set(converted)))
        notes.append(f"integer triples written as three floats (FBX's vector properties hold floats): {names}")
    if request.engine is EngineAxes.GODOT:
        notes.append("For Godot, glTF is the better path: its GPU instancing becomes a MultiMesh")
    return notes


@contextmanager
def staged(context: bpy.types.Context, outputs: list[Output]) -> Iterator[list[bpy.types.Object]]:
    """The outputs' instances as temporary objects, selected in place of the outputs' own objects; all removed
    (and the selection given back) on leaving, whatever happened."""
    collection = bpy.data.collections.new(STAGE_NAME)
    created: list[bpy.types.ID] = [collection]
    hidden: list[bpy.types.Object] = []
    try:
        context.scene.collection.children.link(collection)
        matrices: list[np.ndarray] = []
        depsgraph = context.evaluated_depsgraph_get()
        for output in outputs:
            _stage(collection, output, depsgraph, created, matrices)
        if matrices:  # column-major, in the collection's (link) order
            flat = np.ascontiguousarray(np.array(matrices, dtype=np.float32).transpose(0, 2, 1)).ravel()
            collection.objects.foreach_set("matrix_basis", flat)
        for output in outputs:
            for obj in _replaced(output):
                if obj.select_get():
                    obj.select_set(False)
                    hidden.append(obj)
        staged_objects = [block for block in created if isinstance(block, bpy.types.Object)]
        for obj in staged_objects:
            obj.select_set(True)
        yield staged_objects
    finally:
        for obj in hidden:
            obj.select_set(True)
        bpy.data.batch_remove(created)
        context.view_layer.update()  # brings the view layer's object list up to date (else it lists None)


def _replaced(output: Output) -> list[bpy.types.Object]:
    """The scene objects the staged instances stand for: the output and its point empties or duplicates."""
    return [output.obj, *output.obj.children_recursive]


def _stage(collection: bpy.types.Collection, output: Output, depsgraph: bpy.types.Depsgraph,
           created: list[bpy.types.ID], matrices: list[np.ndarray]) -> None:
    """One object per instance of ``output``, their world matrices appended in link order."""
    sources = list(dict.fromkeys(output.sources))
    slots = {source.name: _object_materials(source) for source in sources}
    meshes = {source.name: _mesh_of(source, depsgraph, created) for source in sources}
    names = _names(output)
    values = _properties(output)
    for number, source in enumerate(output.sources):
        obj = bpy.data.objects.new(names[number], meshes[source.name])
        collection.objects.link(obj)
        created.append(obj)
        for key, value in values[number].items():
            obj[key] = value
        for index, material in slots[source.name]:
            obj.material_slots[index].link = 'OBJECT'
            obj.material_slots[index].material = material
    matrices.extend(output.matrices)


def _mesh_of(source: bpy.types.Object, depsgraph: bpy.types.Depsgraph,
             created: list[bpy.types.ID]) -> bpy.types.ID:
    """The mesh Blender draws for ``source``: its own, or (when modifiers change it) a temporary copy of the
    evaluated one, named "<mesh> modified"."""
    if not any(modifier.show_viewport for modifier in source.modifiers):
        return source.data
    mesh = bpy.data.meshes.new_from_object(source.evaluated_get(depsgraph), preserve_all_data_layers=True,
                                           depsgraph=depsgraph)
    mesh.name = f"{source.data.name} modified"
    created.append(mesh)
    return mesh


def _object_materials(source: bpy.types.Object) -> list[tuple[int, bpy.types.Material | None]]:
    """The source's material slots linked to the object (not its mesh), which a new object would not have."""
    return [(index, slot.material) for index, slot in enumerate(source.material_slots) if slot.link == 'OBJECT']


def _names(output: Output) -> list[str]:
    """Readable names: "<output>.000042" for a scatter layer, "<output> <tile> x_y_z" for a room's tiles."""
    if output.kind != ROOM or "_STREW_CELL" not in output.values:
        return [f"{output.name}.{number:06d}" for number in range(len(output))]
    cells = np.rint(output.values["_STREW_CELL"]).astype(np.int64).reshape(-1, 3)
    tiles = _tile_names(output)
    return [f"{output.name} {tile} {x}_{y}_{z}" for tile, (x, y, z) in zip(tiles, cells.tolist(), strict=True)]


def _tile_names(output: Output) -> list[str]:
    indices = np.rint(output.values.get("_STREW_TILE", np.zeros(len(output)))).astype(np.int64)
    return [output.tiles[i] if 0 <= i < len(output.tiles) else source.name
            for i, source in zip(indices.tolist(), output.sources, strict=True)]


def _properties(output: Output) -> list[dict[str, Any]]:
    """Each instance's custom properties: floats, integers and strings, which FBX and Unity both read."""
    columns: dict[str, list[Any]] = {}
    for value in VALUES[output.kind]:
        if value.name in output.values and value.name not in WRITTEN_APART:
            column = np.asarray(output.values[value.name], dtype=np.float64)
            columns[value.key] = (np.rint(column).astype(np.int64) if value.integer else column).tolist()
    if output.kind == ROOM:
        columns["strew_tile"] = _tile_names(output)
        if "_STREW_CELL" in output.values:
            columns["strew_cell"] = np.asarray(output.values["_STREW_CELL"], np.float64).reshape(-1, 3).tolist()
    names = list(columns)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns.values(), strict=True)] if names \
        else [{} for _ in range(len(output))]


class _FloatTriple(list):
    """Three floats the exporter writes as an FBX vector (it asks a value for ``to_list``)."""

    def to_list(self) -> list[float]:
        return list(self)


class _FloatTriples:
    """A data-block's custom properties as the exporter reads them, integer triples turned into floats."""

    def __init__(self, block: Any, converted: list[str]) -> None:
        self.bl_rna = block.bl_rna
        self._block = block
        self._converted = converted

    def items(self) -> list[tuple[str, Any]]:
        out = []
        for key, value in self._block.items():
            listed = getattr(value, "to_list", lambda: None)()
            if isinstance(listed, list) and len(listed) == 3 and all(isinstance(v, int) for v in listed):
                value = _FloatTriple(float(v) for v in listed)
                self._converted.append(key)
            out.append((key, value))
        return out


@contextmanager
def _integer_triples_as_floats(converted: list[str]) -> Iterator[None]:
    """While the exporter runs, give it integer-triple custom properties as floats (it stops with an error on
    them), recording their names in ``converted``; nothing in the file is changed."""
    try:
        module = importlib.import_module("io_scene_fbx.export_fbx_bin")
    except ImportError:
        yield
        return
    original = getattr(module, "fbx_data_element_custom_properties", None)
    if original is None:
        yield
        return

    def with_floats(props: Any, block: Any) -> Any:
        return original(props, _FloatTriples(block, converted))

    module.fbx_data_element_custom_properties = with_floats
    try:
        yield
    finally:
        module.fbx_data_element_custom_properties = original
