"""Strew's outputs in Blender's own glTF exporter, through its user-extension hooks.

Blender's exporter finds user extensions as ``glTF2ExportUserExtension`` on an enabled add-on's module; the
extension's ``__init__`` exposes :class:`StrewGltf` under that name (and :func:`pre_export`, :func:`post_export` as
its callbacks), so a plain *File ▸ Export ▸ glTF 2.0* of a
scene with Strew outputs carries them as well as Strew's own Export Level does:

- the pre-export callback switches on the exporter's Geometry Nodes instances when the scene has a Strew output
  (without it a default export holds none of them) and reads the outputs once (:mod:`.instances`);
- ``gather_gltf_hook`` (before the exporter packs its buffers) gives each output's instance nodes the exact
  transforms, mirrored tiles included (:mod:`strew.core.trs`), and, with GPU instancing, folds them into one node
  per mesh carrying ``EXT_mesh_gpu_instancing`` with the custom instance attributes ``_STREW_RANDOM``,
  ``_STREW_ID``, … (:data:`.instances.VALUES`); without it each instance node gets its values as extras. The
  output's node holds ``strew_output`` and, for a room, ``strew_tiles`` (the names ``_STREW_TILE`` indexes).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import bpy
import numpy as np

from ...core.modes import ExportFormat
from ...core.trs import Y_UP, convert_axes, decompose
from .compat import supported
from .instances import Output, collect, key_of

if TYPE_CHECKING:
    from .request import ExportRequest

GPU_INSTANCING = "EXT_mesh_gpu_instancing"
FLOAT = 5126  # glTF's component type of 32-bit floats
MATCH_TOLERANCE = 1e-3
"""How far (m) an exporter's instance node may lie from Strew's instance it is taken for: the exporter writes
float32, far below this for any level; a larger gap means the two lists are not the same instances."""

outputs_override: list[Output] | None = None
"""Set by Strew's own export while it runs (the outputs it chose); None: a plain export reads every output."""
last_notes: list[str] = []
"""What the last export's hooks noticed (an output whose instances the exporter wrote otherwise)."""


def _module(*names: str) -> Any:
    """The first of the exporter's modules that exists (their names changed between Blender versions)."""
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(names[0])


def _io() -> tuple[Any, Any, Any]:
    """The glTF exporter's node/accessor classes, its extension class and its binary data class."""
    base = "io_scene_gltf2.io"
    return (_module(f"{base}.com.gltf2_io"), _module(f"{base}.com.gltf2_io_extensions"),
            _module(f"{base}.exp.binary_data", f"{base}.exp.gltf2_io_binary_data"))


class StrewGltf:
    """The glTF exporter's user extension for Strew outputs (one object per export, made by the exporter)."""

    def gather_gltf_hook(self, active_scene_idx: int, scenes: list, animations: list, export_settings: dict) -> None:
        outputs = _current if _current is not None else collect(bpy.context.evaluated_depsgraph_get())
        by_name = {output.name: output for output in outputs}
        gpu = bool(export_settings.get('gltf_gpu_instances'))
        for scene in scenes:
            for node in _walk(scene.nodes):
                output = by_name.get(getattr(node, "name", None))
                if output is not None and output.obj.type == 'MESH':
                    last_notes.extend(_rebuild(node, output, gpu))
                elif output is not None:
                    _add_extras(node, {"strew_output": output.kind})


_current: list[Output] | None = None


def pre_export(export_settings: dict) -> None:
    """Before the exporter gathers anything: read the outputs once and switch on its Geometry Nodes instances
    when there is a Strew instancer (``glTF2_pre_export_callback``, called by every supported exporter)."""
    global _current
    last_notes.clear()
    _current = outputs_override if outputs_override is not None else collect(
        bpy.context.evaluated_depsgraph_get())
    if any(output.obj.type == 'MESH' for output in _current):
        export_settings['gltf_gn_mesh'] = True


def post_export(export_settings: dict) -> None:
    """After the export: forget the outputs and pass on what the hook noticed (``glTF2_post_export_callback``)."""
    global _current
    _current = None
    log = export_settings.get('log')
    for note in last_notes:
        if log is not None:
            log.warning(f"Strew: {note}")


def _walk(nodes: list) -> Any:
    for node in nodes:
        yield node
        yield from _walk([child for child in (node.children or []) if not isinstance(child, int)])


def _add_extras(node: Any, extras: dict) -> None:
    node.extras = {**(node.extras or {}), **extras}


def _local_y_up(output: Output) -> np.ndarray:
    """Each instance's matrix in the output node's space, in glTF's axes."""
    return convert_axes(output.local_matrices(), Y_UP)


def _match(children: list, local: np.ndarray) -> np.ndarray | None:
    """For each exporter instance node, the number of Strew's instance at its place (None if they differ)."""
    if len(children) != len(local):
        return None
    placed = np.array([child.translation or (0.0, 0.0, 0.0) for child in children], dtype=np.float64)
    ours = local[:, :3, 3]
    if len(placed) == 0 or np.abs(placed - ours).max() <= MATCH_TOLERANCE:
        return np.arange(len(children))
    key = _order(placed)
    mine = _order(ours)
    matched = np.empty(len(children), dtype=np.int64)
    matched[key] = mine
    if np.abs(placed - ours[matched]).max() > MATCH_TOLERANCE:
        return None
    return matched


def _order(points: np.ndarray) -> np.ndarray:
    rounded = np.round(points / MATCH_TOLERANCE).astype(np.int64)
    return np.lexsort(rounded.T[::-1])


def _rebuild(node: Any, output: Output, gpu: bool) -> list[str]:
    """Exact transforms and per-instance values for the output's instance nodes; folded per mesh with ``gpu``."""
    extras: dict[str, Any] = {"strew_output": output.kind}
    if output.tiles:
        extras["strew_tiles"] = list(output.tiles)
    _add_extras(node, extras)
    every = list(node.children or [])
    leaves = {id(child) for child in every if not child.children and child.mesh is not None}
    children = [child for child in every if id(child) in leaves]
    others = [child for child in every if id(child) not in leaves]
    local = _local_y_up(output)
    matched = _match(children, local)
    if matched is None:
        return [f"{output.name}: the exporter wrote {len(children)} instances where Strew has {len(output)}; "
                "they are exported as the exporter wrote them, without Strew's values"]
    translations, rotations, scales = decompose(local[matched])
    values = {name: column[matched] for name, column in output.values.items()}
    if not gpu:
        for number, child in enumerate(children):
            child.translation, child.rotation, child.scale = (translations[number].tolist(),
                                                             rotations[number].tolist(), scales[number].tolist())
            child.name = f"{child.mesh.name}.{int(output.values['_STREW_ID'][matched[number]])}"
            _add_extras(child, {key_of(name): _plain(column[number]) for name, column in values.items()})
        return []
    groups: dict[int, list[int]] = {}
    for number, child in enumerate(children):
        groups.setdefault(id(child.mesh), []).append(number)
    holders = []
    for numbers in groups.values():
        rows = np.array(numbers)
        mesh = children[numbers[0]].mesh
        holders.append(_holder(f"{output.name} ({mesh.name})", mesh, translations[rows], rotations[rows],
                               scales[rows], {name: column[rows] for name, column in values.items()}))
    node.children = others + holders
    return []


def _plain(value: np.ndarray) -> Any:
    return [float(v) for v in value] if np.ndim(value) else float(value)


def _holder(name: str, mesh: Any, translations: np.ndarray, rotations: np.ndarray, scales: np.ndarray,
            values: dict[str, np.ndarray]) -> Any:
    """A node drawing ``mesh`` once per row through EXT_mesh_gpu_instancing, with Strew's custom attributes."""
    gltf2_io, extensions, _ = _io()
    attributes = {"TRANSLATION": _accessor(translations), "ROTATION": _accessor(rotations),
                  "SCALE": _accessor(scales)}
    for key, column in values.items():
        attributes[key] = _accessor(column)
    node = gltf2_io.Node(camera=None, children=[], extensions=None, extras=None, matrix=None, mesh=mesh, name=name,
                         rotation=None, scale=None, skin=None, translation=None, weights=None)
    node.extensions = {GPU_INSTANCING: extensions.Extension(GPU_INSTANCING, {"attributes": attributes}, False)}
    return node


_TYPES = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4"}


def _accessor(column: np.ndarray) -> Any:
    """A float accessor of ``column`` (one row per instance; glTF custom attributes are read as floats)."""
    gltf2_io, _, binary = _io()
    data = np.ascontiguousarray(column, dtype="<f4")
    width = 1 if data.ndim == 1 else data.shape[1]
    return gltf2_io.Accessor(buffer_view=binary.BinaryData(data.tobytes()), byte_offset=None, component_type=FLOAT,
                             count=len(data), extensions=None, extras=None, max=None, min=None, name=None,
                             normalized=None, sparse=None, type=_TYPES[width])


def package_name() -> str:
    """The extension's top module (``strew``, or ``bl_ext.<repository>.strew`` when Blender installed it)."""
    return __name__.rsplit(".scene.export", 1)[0]


@contextmanager
def discoverable() -> Iterator[None]:
    """Make the glTF exporter find :class:`StrewGltf` for one export: it looks for user extensions only on enabled
    add-ons, and the ``bpy`` wheel's command line registers Strew without enabling it as one."""
    addons = bpy.context.preferences.addons
    name = package_name()
    if name in addons:
        yield
        return
    entry = addons.new()
    entry.module = name
    try:
        yield
    finally:
        addons.remove(entry)


def write_gltf(context: bpy.types.Context, request: ExportRequest, outputs: list[Output], path: Path) -> list[str]:
    """Write ``outputs`` (and the selected objects) with Blender's glTF exporter and Strew's hooks."""
    global outputs_override
    outputs_override = outputs
    try:
        with discoverable():
            exporter = bpy.ops.export_scene.gltf
            exporter(filepath=str(path), **supported(
                exporter, export_format='GLB' if request.format is ExportFormat.GLB else 'GLTF_SEPARATE',
                use_selection=True, export_gn_mesh=True, export_gpu_instances=request.gpu_instancing,
                export_extras=True, export_apply=True))
    finally:
        outputs_override = None
    return list(last_notes)
