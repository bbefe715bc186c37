"""Strew's outputs in USD: Blender's exporter writes the file, then each output gets an exact PointInstancer.

Blender's USD exporter writes a scatter layer's or room's instances differently per version (5.x: a
PointInstancer whose orientations are half floats, mirrored tiles turned upside down and per-instance values
marked *constant*; 4.2: one Xform per instance). The file is opened again with ``pxr`` (usd-core beside the
``bpy`` wheel, the bundled one in Blender) and, under each output's prim, what Blender wrote for its instances
gives way to one ``PointInstancer`` named ``Instances``:

- ``prototypes``: each source mesh once, ``Prototype_<n>`` referencing the mesh Blender wrote (its
  ``userProperties:blender:object_name`` the source object, ``…:data_name`` the mesh), under an ``over`` so it is
  drawn only as instanced;
- ``positions``, ``orientationsf`` (and half-float ``orientations`` for older readers), ``scales``: each
  instance's exact transform relative to the instancer, mirrors as a negative x scale (:mod:`strew.core.trs`);
- primvars with ``vertex`` interpolation, one value per instance: ``strew_random``, ``strew_id``,
  ``strew_prefab``; for rooms ``strew_tile``, ``strew_cell`` (int3), ``strew_rotation``, ``strew_mirror`` and
  ``strew_id`` (:data:`.instances.VALUES`), plus every other per-point attribute Blender 5.x wrote;
- ``string[] strew:tiles`` (a room's tile names, which ``strew_tile`` indexes) and ``string strew:output``
  (``scatter`` or ``room``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.modes import EngineAxes
from ...core.trs import decompose
from .compat import supported
from .instances import VALUES, Output, key_of
from .request import ExportError

if TYPE_CHECKING:
    from .request import ExportRequest

INSTANCER = "Instances"
NAMESPACE = "userProperties"
OBJECT_NAME = f"{NAMESPACE}:blender:object_name"
DATA_NAME = f"{NAMESPACE}:blender:data_name"
_writing = False
"""True while :func:`write_usd` runs the exporter (it fixes the written file itself; the hook stands aside)."""
PXR = ("Gf", "Sdf", "Usd", "UsdGeom", "Vt")
INSTALL = "USD export needs the pxr module: pip install usd-core (into the Python that runs Blender)"

AXES: dict[EngineAxes, dict[str, Any]] = {
    EngineAxes.BLENDER: {},
    EngineAxes.UNITY: {"convert_orientation": True, "export_global_up_selection": 'Y',
                       "export_global_forward_selection": 'NEGATIVE_Z', "convert_scene_units": 'METERS'},
    EngineAxes.GODOT: {"convert_orientation": True, "export_global_up_selection": 'Y',
                       "export_global_forward_selection": 'NEGATIVE_Z', "convert_scene_units": 'METERS'},
    EngineAxes.UNREAL: {"convert_orientation": False, "convert_scene_units": 'CENTIMETERS'},
}
"""The USD exporter's axis and unit options per engine preset (Unreal: Z up in centimetres, Unity and Godot:
Y up in metres)."""
METERS_PER_UNIT = {'METERS': 1.0, 'CENTIMETERS': 0.01}


def pxr_modules() -> Any:
    """``pxr``'s modules (``.Usd``, ``.UsdGeom``, …), or ExportError saying what to install where it is missing."""
    try:
        importlib.import_module("pxr")
        return SimpleNamespace(**{name: importlib.import_module(f"pxr.{name}") for name in PXR})
    except ImportError:
        raise ExportError(rpt_(INSTALL)) from None


def write_usd(context: bpy.types.Context, request: ExportRequest, outputs: list[Output], path: Path) -> list[str]:
    """Write the selection with Blender's USD exporter, then give each output its exact PointInstancer."""
    global _writing
    if not getattr(bpy.app.build_options, "usd", True):
        raise ExportError(rpt_("This Blender was built without USD: export to .glb or .fbx instead"))
    px = pxr_modules()
    options = AXES[request.engine]
    exporter = bpy.ops.wm.usd_export
    _writing = True
    try:
        exporter(filepath=str(path), **supported(
            exporter, selected_objects_only=True, use_instancing=True, export_custom_properties=True,
            custom_properties_namespace=NAMESPACE, author_blender_name=True, merge_parent_xform=False, **options))
    finally:
        _writing = False
    layer = px.Sdf.Layer.FindOrOpen(str(path))
    plans, notes = clear_layer(layer, outputs)
    stage = px.Usd.Stage.Open(layer)
    wanted = METERS_PER_UNIT.get(options.get("convert_scene_units", ""))
    if wanted is not None:
        _units(stage, wanted)
    for plan in plans:
        _author(stage, *plan)
    layer.Save()
    return notes


def _units(stage: Any, meters_per_unit: float) -> None:
    """Scale the root prim where the exporter could not write ``meters_per_unit`` itself (Blender 4.2)."""
    px = pxr_modules()
    have = px.UsdGeom.GetStageMetersPerUnit(stage)
    if abs(have - meters_per_unit) <= 1e-12 * meters_per_unit:
        return
    root = stage.GetDefaultPrim()
    xformable = px.UsdGeom.Xformable(root)
    ops = list(xformable.GetOrderedXformOps())
    factor = have / meters_per_unit
    scale = xformable.AddScaleOp(px.UsdGeom.XformOp.PrecisionDouble, "strewUnits")
    scale.Set(px.Gf.Vec3d(factor, factor, factor))
    xformable.SetXformOpOrder([scale, *ops])
    px.UsdGeom.SetStageMetersPerUnit(stage, meters_per_unit)


def fix_stage(stage: Any, outputs: list[Output]) -> list[str]:
    """Replace what the exporter wrote for each mesh output's instances on ``stage`` by Strew's PointInstancer
    (notes for outputs it could not find there; those stay as the exporter wrote them)."""
    plans, notes = clear_layer(stage.GetRootLayer(), outputs)
    for plan in plans:
        _author(stage, *plan)
    return notes


Plan = tuple[Any, Output, dict[tuple[str, str], Any], dict[str, tuple[Any, Any]]]


def clear_layer(layer: Any, outputs: list[Output]) -> tuple[list[Plan], list[str]]:
    """Remove what the exporter wrote for each mesh output's instances from ``layer`` (best with no stage open
    on it: no recomposition), keeping the meshes to reference; per output found, what :func:`_author` needs."""
    px = pxr_modules()
    wanted = {output.name: output for output in outputs if output.obj.type == 'MESH' and len(output)}
    found: dict[str, Any] = {}
    meshes: dict[tuple[str, str], Any] = {}
    for spec in layer.rootPrims:
        _walk(spec, wanted, found, meshes)
    plans: list[Plan] = []
    notes = []
    for name, output in wanted.items():
        spec = found.get(name)
        if spec is None:
            notes.append(f"{name}: not in the USD file (hidden or not selected); its instances are not exported")
            continue
        for child in spec.nameChildren:
            _find_meshes(child, meshes, depth=2)
        missing = [source.name for source in dict.fromkeys(output.sources) if _mesh_for(source, meshes) is None]
        if missing:
            notes.append(f"{name}: the exporter wrote no mesh for {', '.join(missing)}; its instances are exported "
                         "as the exporter wrote them")
            continue
        plans.append((spec.path, output, meshes, _point_primvars(spec, output)))
        with px.Sdf.ChangeBlock():
            _clear(layer, spec, output, meshes)
    return plans, notes


def _attr(spec: Any, name: str) -> Any:
    attribute = spec.attributes.get(name) if spec.attributes else None
    return None if attribute is None else attribute.default


def _walk(spec: Any, wanted: dict[str, Output], found: dict[str, Any], meshes: dict[tuple[str, str], Any]) -> None:
    """Find the output prims (not entering them) and the meshes written outside them."""
    name = _attr(spec, OBJECT_NAME)
    if name in wanted:
        found[name] = spec
        return
    _find_meshes(spec, meshes, depth=1)
    for child in spec.nameChildren:
        _walk(child, wanted, found, meshes)


def _find_meshes(spec: Any, meshes: dict[tuple[str, str], Any], depth: int) -> None:
    """Record the path of each Mesh spec holding its own data (no reference) at most ``depth`` levels down, keyed by
    (object name, mesh name) and ("", mesh name)."""
    if spec.typeName == "Mesh" and not spec.referenceList.GetAddedOrExplicitItems():
        data = _attr(spec, DATA_NAME)
        if data is not None and spec.attributes.get("points") is not None:
            owner = _attr(spec.nameParent, OBJECT_NAME) or ""
            meshes.setdefault((owner, data), spec.path)
            meshes.setdefault(("", data), spec.path)
    if depth > 1:
        for child in spec.nameChildren:
            _find_meshes(child, meshes, depth - 1)


def _mesh_for(source: bpy.types.Object, meshes: dict[tuple[str, str], Any]) -> Any:
    return meshes.get((source.name, source.data.name)) or meshes.get(("", source.data.name))


def _clear(layer: Any, spec: Any, output: Output, meshes: dict[tuple[str, str], Any]) -> None:
    """Remove what the exporter wrote for the output's instances (and the instancer's own point mesh, which has
    no faces), keeping (as ``over``, not drawn) the prims
    that hold the meshes the prototypes reference. The kept children are set aside and the rest cleared at once
    (removing children one by one takes time quadratic in their number)."""
    px = pxr_modules()
    depth = spec.path.pathElementCount
    used = {_mesh_for(source, meshes) for source in dict.fromkeys(output.sources)}
    holders = {path.GetPrefixes()[depth] for path in used if path.HasPrefix(spec.path) and path != spec.path}
    sources = {source.name for source in output.sources}
    points = output.obj.data.name if output.obj.type == 'MESH' else None  # the instancer's own point mesh
    kept = [child for child in spec.nameChildren if child.path in holders or (
        child.typeName != "PointInstancer" and child.name != INSTANCER and _attr(child, OBJECT_NAME) not in sources
        and not (child.typeName == "Mesh" and _attr(child, DATA_NAME) == points))]
    if len(kept) == len(spec.nameChildren):
        return
    scratch = px.Sdf.Layer.CreateAnonymous()
    aside = px.Sdf.CreatePrimInLayer(scratch, "/Kept").path
    names = [child.name for child in kept]
    for name in names:
        px.Sdf.CopySpec(layer, spec.path.AppendChild(name), scratch, aside.AppendChild(name))
    spec.nameChildren.clear()
    for name in names:
        path = spec.path.AppendChild(name)
        px.Sdf.CreatePrimInLayer(layer, path)
        px.Sdf.CopySpec(scratch, aside.AppendChild(name), layer, path)
        if path in holders:
            layer.GetPrimAtPath(path).specifier = px.Sdf.SpecifierOver


def _author(stage: Any, path: Any, output: Output, meshes: dict[tuple[str, str], Any],
            extra: dict[str, tuple[Any, Any]]) -> None:
    """Define the output's PointInstancer from Strew's own instance arrays."""
    px = pxr_modules()
    instancer = px.UsdGeom.PointInstancer.Define(stage, path.AppendChild(INSTANCER))
    holder = stage.OverridePrim(instancer.GetPath().AppendChild("Prototypes"))
    order = list(dict.fromkeys(source.name for source in output.sources))
    sources = {source.name: source for source in output.sources}
    targets = []
    for number, name in enumerate(order):
        prototype = stage.DefinePrim(holder.GetPath().AppendChild(f"Prototype_{number}"))
        prototype.GetReferences().AddInternalReference(_mesh_for(sources[name], meshes))
        px.UsdGeom.Xformable(prototype).GetXformOpOrderAttr().Set(px.Vt.TokenArray([]))
        prototype.CreateAttribute(OBJECT_NAME, px.Sdf.ValueTypeNames.String, custom=True).Set(name)
        targets.append(prototype.GetPath())
    holder.SetSpecifier(px.Sdf.SpecifierOver)  # defining the prototypes defined it: drawn only as instanced
    instancer.CreatePrototypesRel().SetTargets(targets)
    index = {name: number for number, name in enumerate(order)}
    instancer.CreateProtoIndicesAttr(px.Vt.IntArray.FromNumpy(
        np.array([index[source.name] for source in output.sources], dtype=np.int32)))
    local = _local(stage, instancer.GetPrim(), output)
    translations, quats, scales = decompose(local)
    instancer.CreatePositionsAttr(px.Vt.Vec3fArray.FromNumpy(translations.astype(np.float32)))
    instancer.CreateOrientationsfAttr(px.Vt.QuatfArray.FromNumpy(quats.astype(np.float32)))
    instancer.CreateOrientationsAttr(px.Vt.QuathArray.FromNumpy(quats.astype(np.float16)))
    instancer.CreateScalesAttr(px.Vt.Vec3fArray.FromNumpy(scales.astype(np.float32)))
    ids = output.values.get("_STREW_ID")
    if ids is not None and len(np.unique(ids)) == len(ids):
        instancer.CreateIdsAttr(px.Vt.Int64Array.FromNumpy(ids.astype(np.int64)))
    _primvars(instancer, output, extra)
    prim = instancer.GetPrim()
    prim.CreateAttribute("strew:output", px.Sdf.ValueTypeNames.String, custom=True).Set(output.kind)
    if output.tiles:
        prim.CreateAttribute("strew:tiles", px.Sdf.ValueTypeNames.StringArray, custom=True).Set(
            px.Vt.StringArray(list(output.tiles)))
    extent = instancer.ComputeExtentAtTime(px.Usd.TimeCode.Default(), px.Usd.TimeCode.Default())
    if extent is not None:
        instancer.CreateExtentAttr(extent)


def _local(stage: Any, prim: Any, output: Output) -> np.ndarray:
    """Each instance's matrix relative to ``prim`` on the stage, in the stage's axes and units: Blender's world
    matrices taken into the stage by the default prim's transform (the exporter's axis and unit conversion)."""
    px = pxr_modules()
    cache = px.UsdGeom.XformCache()
    root = stage.GetDefaultPrim()
    if root:
        convert = np.array(cache.GetLocalToWorldTransform(root), dtype=np.float64).T
    else:
        placed = np.array(cache.GetLocalToWorldTransform(prim.GetParent()), dtype=np.float64).T
        convert = placed @ np.linalg.inv(output.matrix)
    here = np.array(cache.GetLocalToWorldTransform(prim), dtype=np.float64).T
    return np.linalg.inv(here) @ convert @ output.matrices


def _primvars(instancer: Any, output: Output, extra: dict[str, tuple[Any, Any]]) -> None:
    """Per-instance primvars (``vertex``): Strew's values, then the other per-point attributes Blender wrote."""
    px = pxr_modules()
    api = px.UsdGeom.PrimvarsAPI(instancer)
    ours = set()
    for key, column in output.values.items():
        name = key_of(key)
        ours.add(name)
        if column.ndim == 2:
            kind, data = px.Sdf.ValueTypeNames.Int3Array, px.Vt.Vec3iArray.FromNumpy(np.rint(column).astype(np.int32))
        elif key in _INTEGERS[output.kind]:
            kind, data = px.Sdf.ValueTypeNames.IntArray, px.Vt.IntArray.FromNumpy(np.rint(column).astype(np.int32))
        else:
            kind, data = px.Sdf.ValueTypeNames.FloatArray, px.Vt.FloatArray.FromNumpy(column.astype(np.float32))
        api.CreatePrimvar(name, kind, px.UsdGeom.Tokens.vertex).Set(data)
    for name, (kind, values) in extra.items():
        if name not in ours:
            api.CreatePrimvar(name, kind, px.UsdGeom.Tokens.vertex).Set(values)


_INTEGERS = {kind: {value.name for value in values if value.integer} for kind, values in VALUES.items()}


def _point_primvars(spec: Any, output: Output) -> dict[str, tuple[Any, Any]]:
    """The per-point primvars the exporter wrote on its PointInstancer under the output's prim (Blender 5.x,
    marked *constant*), one value per instance: each row taken from the instance's point."""
    points = len(output.obj.data.vertices)
    out: dict[str, tuple[Any, Any]] = {}
    for child in spec.nameChildren:
        if child.typeName != "PointInstancer":
            continue
        for attribute in child.attributes:
            value = attribute.default
            if not attribute.name.startswith("primvars:") or value is None or not hasattr(value, "__len__"):
                continue
            if len(value) == points and points:
                rows = np.asarray(value)[output.points]
                out[attribute.name.removeprefix("primvars:")] = (attribute.typeName, type(value).FromNumpy(rows))
    return out


class StrewUsdHook(getattr(bpy.types, "USDHook", object)):
    """A plain *File ▸ Export ▸ USD* gives Strew's outputs their PointInstancers too, on the stage Blender is
    writing. Only where the exporter hands that stage to Python (Blender with its bundled ``pxr``; the ``bpy``
    wheel cannot convert it): anywhere else the export goes on as Blender writes it."""

    bl_idname = "strew_usd_hook"
    bl_label = "Strew instances"
    bl_description = "Strew's scatter layers and rooms as exact PointInstancers with per-instance primvars"

    @staticmethod
    def on_export(export_context: Any) -> bool:
        if _writing:
            return True
        from .instances import collect

        try:
            outputs = collect(export_context.get_depsgraph())
            if not outputs:
                return True
            for note in fix_stage(export_context.get_stage(), outputs):
                print(f"Strew: {note}")
        except Exception as error:  # a hook that raises would fail the user's whole export
            print(f"Strew: Strew's outputs are exported as Blender writes them ({type(error).__name__}: {error})")
        return True


_register, _unregister = bpy.utils.register_classes_factory((StrewUsdHook,))


def register() -> None:
    """Register the USD export hook (where this Blender has USD hooks)."""
    if hasattr(bpy.types, "USDHook"):
        _register()


def unregister() -> None:
    if getattr(StrewUsdHook, "is_registered", False):
        _unregister()
