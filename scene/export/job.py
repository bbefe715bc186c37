"""Export a level: the terrain, every scatter layer and every room, through Blender's own exporters.

:func:`export_level` checks everything first (the path, the format, that there is something of Strew's to
export and that each output draws its instances), then has the format's writer (:mod:`.gltf`, :mod:`.usd`,
:mod:`.fbx`) write into a fresh folder beside the target and moves the finished files into place, so a refusal or
a failure leaves the user's files and scene as they were.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import bpy
from bpy.app.translations import pgettext_rpt as rpt_

from ...core.modes import ExportFormat
from ..viewport_only import drawn_as_rendered
from .instances import Output, collect
from .request import FORMATS, ExportError, ExportRequest, format_of

__all__ = ["FORMATS", "ExportError", "ExportRequest", "ExportResult", "export_level"]

@dataclass
class ExportResult:
    """What was written: the file, the outputs and instances in it, notes for the user, and the seconds taken."""

    path: Path
    outputs: int
    instances: int
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


Writer = Callable[[bpy.types.Context, ExportRequest, list[Output], Path], list[str]]


def check_path(path: Path) -> None:
    """ExportError unless ``path`` can be written: an existing, writable folder and not a folder itself."""
    format_of(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ExportError(rpt_('Cannot export to "{path}": it is a folder; give a file name').format(path=path))
    if not folder.is_dir():
        raise ExportError(rpt_('Cannot export to "{path}": the folder "{folder}" does not exist').format(
            path=path, folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ExportError(rpt_('Cannot export to "{path}": it is not writable; choose another place').format(
            path=path))


def check_outputs(outputs: list[Output], tiles: int = 0) -> None:
    """ExportError for nothing of Strew's at all (no output, no room tile written as a real object), or for an
    output that draws none of its points (its prefabs are gone)."""
    if not outputs and not tiles:
        raise ExportError(rpt_("Nothing of Strew's to export: scatter a layer or assemble a room first "
                               "(or export with Blender's own exporter)"))
    for output in outputs:
        points = len(output.obj.data.vertices) if output.obj.type == 'MESH' else len(output.obj.children)
        if points and not len(output):
            raise ExportError(rpt_('"{name}" draws none of its {points} instances (its prefab collection or '
                                   "tiles are gone): scatter or assemble it again, or clear it, then export").format(
                name=output.name, points=points))


def export_level(context: bpy.types.Context, request: ExportRequest,
                 progress: Callable[[float], None] | None = None) -> ExportResult:
    """Write the level to ``request.path`` (ExportError before anything is written when it cannot be)."""
    started = time.perf_counter()
    check_path(request.path)
    with drawn_as_rendered(context.scene):  # every instance with its prefab, whatever the viewport shows
        outputs = collect(context.evaluated_depsgraph_get(), _selected(context) if request.selection_only else None)
        check_outputs(outputs, sum(1 for obj in context.scene.objects if _is_room_tile(obj)))
        writer = _writer(request.format)
        if progress:
            progress(0.1)
        with _beside(request.path) as draft, _exported(context, request, outputs):
            notes = writer(context, request, outputs, draft)
    if progress:
        progress(1.0)
    return ExportResult(request.path, len(outputs), sum(len(output) for output in outputs), notes,
                        time.perf_counter() - started)


def _writer(kind: ExportFormat) -> Writer:
    if kind in (ExportFormat.GLB, ExportFormat.GLTF):
        from .gltf import write_gltf
        return write_gltf
    if kind is ExportFormat.USD:
        from .usd import write_usd
        return write_usd
    from .fbx import write_fbx
    return write_fbx


def _selected(context: bpy.types.Context) -> list[bpy.types.Object]:
    return [obj for obj in context.scene.objects if obj.select_get()]


@contextmanager
def _beside(path: Path) -> Iterator[Path]:
    """A draft path in a fresh folder next to ``path``; on success every file written there is moved beside
    ``path`` (replacing older ones of the same names), on failure the folder is removed and nothing is moved."""
    folder = path.parent / f".strew-export-{uuid.uuid4().hex[:8]}"
    try:
        folder.mkdir()
    except OSError as error:
        raise ExportError(rpt_('Cannot export to "{path}": it is not writable ({reason}); choose another place')
                          .format(path=path, reason=error.strerror)) from None
    try:
        yield folder / path.name
        for written in sorted(folder.rglob("*")):
            if written.is_file():
                target = path.parent / written.relative_to(folder)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(written, target)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _exported(context: bpy.types.Context, request: ExportRequest, outputs: list[Output]) -> Iterator[None]:
    """Select exactly what the request exports (the writers export the selection), and give the user's
    selection back afterwards."""
    view_layer = context.view_layer
    before = {obj.name: obj.select_get() for obj in view_layer.objects}
    active = view_layer.objects.active
    chosen = {obj.name for obj in export_objects(context, request, outputs)}
    try:
        for obj in view_layer.objects:
            if obj.visible_get() or obj.name in chosen:
                obj.select_set(obj.name in chosen)
        yield
    finally:
        for obj in view_layer.objects:
            if obj.name in before:
                obj.select_set(before[obj.name])
        view_layer.objects.active = active


def export_objects(context: bpy.types.Context, request: ExportRequest,
                   outputs: list[Output]) -> list[bpy.types.Object]:
    """The scene objects a request writes: the outputs always; with ``strew_only`` only them (and the terrains
    when asked); with ``selection_only`` the selected objects; else every visible object."""
    names = {output.name for output in outputs}
    terrains = {obj.name for obj in _terrains(context.scene)}
    chosen: list[bpy.types.Object] = []
    for obj in context.view_layer.objects:
        if obj.name in names:
            chosen.append(obj)
        elif obj.name in terrains:
            if request.terrain and (not request.selection_only or obj.select_get()):
                chosen.append(obj)
        elif request.strew_only:
            if _is_room_tile(obj) and (not request.selection_only or obj.select_get()):
                chosen.append(obj)
        elif obj.visible_get() and (not request.selection_only or obj.select_get()):
            chosen.append(obj)
    return chosen


def _terrains(scene: bpy.types.Scene) -> list[bpy.types.Object]:
    settings = getattr(scene, "strew", None)
    if settings is None:
        return []
    found = [settings.terrain]
    for layer in settings.layers:
        if layer.targets is not None:
            found.extend(layer.targets.all_objects)
    return [obj for obj in found if obj is not None]


def _is_room_tile(obj: bpy.types.Object) -> bool:
    from ..ownership import OWNER_KEY, is_owned

    return obj.get(OWNER_KEY) == "room" and is_owned(obj, "room")
