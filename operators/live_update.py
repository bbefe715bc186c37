"""Live update: re-scatter the layers whose inputs changed, a short pause after the last change.

``on_depsgraph_update`` (a ``depsgraph_update_post`` handler) only notes the first layer whose inputs changed;
it never writes (a write there would trigger it again). Every change pushes back one ``bpy.app.timers``
callback (the debounce); when the pause is over, it re-runs that layer and every enabled layer below it
(they keep away from it) through the job behind the Scatter button, stepped in short slices from the timer
so the interface stays responsive. The job writes only in its last step, so a new change simply drops an
unfinished run. While a Scatter or Tile Rooms job runs, the update waits. Strew's own output never counts
as a change, so a live run does not trigger itself.

Inputs of a layer: its settings, the scene's Scatter settings, the geometry and transform of its targets (the
terrain, or the meshes of its Targets collection), of the objects in its Exclude and Proximity collections, its
density image, with camera culling or falloff its camera (placement, lens, clipping), and the weights of the
terrain's vertex groups it reads. Weights are compared at the pause after an edit of the terrain in Weight Paint
or Edit mode (reading them takes a pass over every vertex: too slow for every brush dab).

Between runs a :class:`~strew.scene.job_cache.JobCache` keeps each target's terrain lookup and each layer's
fields and sampled points, keyed by fingerprints of what they depend on: a change re-does only what it touches.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator
from typing import Any

import bpy
from bpy.app.handlers import persistent
from bpy.app.translations import pgettext_rpt as rpt_

from ..scene import scatter_job
from ..scene.job_cache import JobCache, fingerprint, weight_digests
from ..scene.ownership import is_owned
from ..scene.scatter_spec import groups_read
from ..scene.targets import target_objects

DELAY = 0.5  # seconds of quiet after the last change before the layers re-scatter
SLICE = 0.05  # seconds of work per timer call while a re-scatter runs (the interface stays responsive)
# Scene settings that do not change any layer's result.
_PASSIVE = {"rna_type", "live_update", "active_layer_index", "show_preview", "room", "layers"}
# Object modes in which vertex weights change (painted, or assigned from the Vertex Groups panel).
WEIGHT_MODES = {'WEIGHT_PAINT', 'EDIT'}

_pending: dict[str, int] = {}  # scene name -> first layer to re-scatter
_signatures: dict[str, tuple[tuple[Any, ...], list[tuple[Any, ...]]]] = {}
_fingerprints: dict[str, tuple[Any, ...]] = {}  # object name -> placement and evaluated geometry
_weights: dict[tuple[str, str], str] = {}  # (terrain, vertex group) -> hash of the weights last seen
_repainted: set[str] = set()  # scenes whose terrain was edited in a weight mode since the last check
CACHE = JobCache()  # what live runs re-use from the previous one
_jobs_running = 0


def job_started() -> None:
    """A modal job began: live updates wait until :func:`job_finished`."""
    global _jobs_running
    _jobs_running += 1


def job_finished() -> None:
    global _jobs_running
    _jobs_running = max(0, _jobs_running - 1)


def _plain(value: Any) -> Any:
    if isinstance(value, bpy.types.ID):
        return ("ID", value.name)
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    try:
        return tuple(value)
    except TypeError:
        return repr(value)


def _signature(group: bpy.types.PropertyGroup, skip: set[str]) -> tuple[Any, ...]:
    return tuple(_plain(getattr(group, p.identifier)) for p in group.bl_rna.properties if p.identifier not in skip)


def _snapshot(settings: Any) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The scene's and each layer's settings; a layer that looks through a camera also notes which one (picking
    another scene camera changes it)."""
    return _signature(settings, _PASSIVE), [(*_signature(layer, {"rna_type"}), _camera_name(settings, layer))
                                            for layer in settings.layers]


def _camera_name(settings: Any, layer: Any) -> str | None:
    """The camera a layer culls or thins by (its own, else the scene's), or None."""
    if not (layer.camera_cull or layer.camera_falloff):
        return None
    camera = layer.camera or settings.id_data.camera
    return None if camera is None else camera.name


def _sources(settings: Any, layer: Any) -> set[str]:
    """Names of the data-blocks a layer reads from the scene."""
    names: set[str] = set()
    if layer.targets is not None:
        names |= {obj.name for obj in target_objects(layer.targets)}
    elif settings.terrain is not None:
        names.add(settings.terrain.name)
    if layer.exclusion_collection is not None:
        names |= {obj.name for obj in layer.exclusion_collection.all_objects}
    if layer.proximity_collection is not None:
        names |= {obj.name for obj in layer.proximity_collection.all_objects}
    if layer.density_image is not None:
        names.add(layer.density_image.name)
    camera = _camera_name(settings, layer)
    if camera is not None:
        names.add(camera)
    return names


def first_changed(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> int | None:
    """Index of the first layer whose inputs this depsgraph update changed, or None."""
    settings = scene.strew
    before = _signatures.get(scene.name)
    if before is None:  # a file loaded with Live Update on: what it holds now is the reference
        start_watching(scene, depsgraph)
        return None
    now = _snapshot(settings)
    _signatures[scene.name] = now
    first: int | None = None
    if before != now:
        if before[0] != now[0]:
            first = 0
        else:
            old, new = before[1], now[1]
            first = next((i for i in range(len(new)) if i >= len(old) or old[i] != new[i]), None)
    touched = set()
    for update in depsgraph.updates:
        block = update.id.original
        if isinstance(block, bpy.types.Camera):  # lens or clipping: the objects showing it through
            touched |= {obj.name for obj in bpy.data.objects if obj.data == block}
        elif isinstance(block, bpy.types.Image) or (
            isinstance(block, bpy.types.Object)
            and (update.is_updated_geometry or update.is_updated_transform)
            and not is_owned(block)
        ):
            touched.add(block.name)
    for index, layer in enumerate(settings.layers):
        if first is not None and index >= first:
            break
        if any(_changed(name, depsgraph) for name in _sources(settings, layer) & touched):
            first = index
    terrain = settings.terrain
    edited = terrain is not None and terrain.name in touched and terrain.mode in WEIGHT_MODES
    if edited and any(_groups_per_layer(settings)):
        # Weights are not part of the geometry's fingerprint and reading them is too slow for every brush
        # dab: the check waits for the pause (:func:`_repaint_first`).
        _repainted.add(scene.name)
    return first


def _groups_per_layer(settings: Any) -> list[set[str]]:
    """Per layer, the terrain vertex groups it reads (empty for layers on their own Targets)."""
    return [set() if layer.targets is not None else
            groups_read(layer.mask_vertex_group, layer.density_mode, layer.density_vertex_group)
            for layer in settings.layers]


def _remember_weights(settings: Any, depsgraph: bpy.types.Depsgraph) -> set[str]:
    """Hash the weights of the terrain's vertex groups the layers read; the groups whose hash changed."""
    terrain = settings.terrain
    names = set().union(*_groups_per_layer(settings)) if terrain is not None else set()
    if not names:
        return set()
    changed = set()
    for name, digest in weight_digests(terrain, depsgraph, names).items():
        if _weights.get((terrain.name, name)) != digest:
            changed.add(name)
            _weights[(terrain.name, name)] = digest
    return changed


def _repaint_first(scene: bpy.types.Scene) -> int | None:
    """After weights were edited: the first layer that reads a vertex group whose weights changed, or None."""
    if scene.name not in _repainted:
        return None
    _repainted.discard(scene.name)
    changed = _remember_weights(scene.strew, bpy.context.evaluated_depsgraph_get())
    return next((i for i, groups in enumerate(_groups_per_layer(scene.strew)) if groups & changed), None)


def _changed(name: str, depsgraph: bpy.types.Depsgraph) -> bool:
    """Whether the object (or image) ``name`` differs from when it was last seen; remembers it. Blender also
    reports objects as updated when only the relations around them were rebuilt (Strew adding its output), so
    an update counts only when the fingerprint changed."""
    obj = bpy.data.objects.get(name)
    if obj is None:
        return True  # an image: reported only when it changed
    now = fingerprint(obj, depsgraph)
    if _fingerprints.get(name) == now:
        return False
    _fingerprints[name] = now
    return True


@persistent
def on_depsgraph_update(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> None:
    """Note what changed and push the re-scatter back by :data:`DELAY` (never writes anything). A live run
    still computing is dropped (it has not written yet) and starts again after the pause."""
    settings = getattr(scene, "strew", None)
    if settings is None or not settings.live_update:
        return
    first = first_changed(scene, depsgraph)
    if first is None and scene.name not in _repainted:
        return
    if _running is not None:
        first = _running.first if first is None else min(first, _running.first)
        _drop_running()
    if first is not None:
        _pending[scene.name] = min(first, _pending.get(scene.name, first))
    if bpy.app.timers.is_registered(_on_timer):
        bpy.app.timers.unregister(_on_timer)
    bpy.app.timers.register(_on_timer, first_interval=DELAY)


def scheduled() -> bool:
    """Whether a live re-scatter is waiting for its pause to end or still computing."""
    return bpy.app.timers.is_registered(_on_timer)


def start_watching(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None = None) -> None:
    """Take the current settings and sources as the reference (called when Live Update is switched on)."""
    settings = scene.strew
    _signatures[scene.name] = _snapshot(settings)
    depsgraph = depsgraph or bpy.context.evaluated_depsgraph_get()
    for layer in settings.layers:
        for name in _sources(settings, layer):
            obj = bpy.data.objects.get(name)
            if obj is not None:
                _fingerprints[name] = fingerprint(obj, depsgraph)
    _remember_weights(settings, depsgraph)
    _repainted.discard(scene.name)


class _Run:
    """A live re-scatter in progress: the job generator, stepped from the timer in short slices."""

    def __init__(self, scene: bpy.types.Scene, first: int, job: Generator[tuple[float, str], None, Any]) -> None:
        self.scene, self.first, self.job = scene, first, job


_running: _Run | None = None


def _drop_running() -> None:
    global _running
    if _running is not None:
        _running.job.close()  # the job writes only in its last step: the scene is as it was
        _running = None


def _start() -> bool:
    """Begin the waiting re-scatter of the current scene; False when there is nothing to do."""
    global _running
    scene = bpy.context.scene
    if scene is None:
        return False
    first = _pending.pop(scene.name, None)
    if not scene.strew.live_update:
        _repainted.discard(scene.name)
        return False
    repainted = _repaint_first(scene)
    if repainted is not None:
        first = repainted if first is None else min(first, repainted)
    if first is None:
        return False
    indices = scatter_job.layers_from(scene, first)
    if not indices:
        return False
    _running = _Run(scene, first, scatter_job.run(bpy.context, indices, cache=CACHE))
    return True


def _step(seconds: float) -> bool:
    """Advance the running re-scatter for about ``seconds``; True when it is over (done or refused)."""
    global _running
    assert _running is not None
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline:
            next(_running.job)
    except StopIteration:
        _signatures[_running.scene.name] = _snapshot(_running.scene.strew)
        _running = None
        return True
    except scatter_job.ScatterError as error:
        print(rpt_("Strew live update: {error}").format(error=error))
        _running = None
        return True
    return False


def _on_timer() -> float | None:
    """The timer callback: steps the re-scatter in slices so the interface stays responsive; waits while a
    modal job runs (dropping its own unfinished run, which the modal job supersedes)."""
    if _jobs_running:
        _drop_running()
        return DELAY
    if _running is None and not _start():
        return None
    return None if _step(SLICE) else 0.0


def flush() -> bool:
    """Run the waiting re-scatter to the end now, without the pause (scripts, tests); False while a modal
    job runs."""
    if _jobs_running:
        return False
    if bpy.app.timers.is_registered(_on_timer):
        bpy.app.timers.unregister(_on_timer)
    if _running is None and not _start():
        return True
    while not _step(math.inf):
        pass
    return True


@persistent
def on_load(_file: str) -> None:
    """Forget the previous file: what the loaded one holds is the reference (other scenes than the current
    one take theirs at their first update, see :func:`first_changed`)."""
    _forget()
    scene = bpy.context.scene
    settings = getattr(scene, "strew", None) if scene is not None else None
    if settings is not None and settings.live_update:
        start_watching(scene)


def _forget() -> None:
    if bpy.app.timers.is_registered(_on_timer):
        bpy.app.timers.unregister(_on_timer)
    _drop_running()
    _pending.clear()
    _signatures.clear()
    _fingerprints.clear()
    _weights.clear()
    _repainted.clear()
    CACHE.clear()


_HANDLERS = ((bpy.app.handlers.depsgraph_update_post, on_depsgraph_update), (bpy.app.handlers.load_post, on_load))


def register() -> None:
    for handlers, handler in _HANDLERS:
        if handler not in handlers:
            handlers.append(handler)


def unregister() -> None:
    for handlers, handler in _HANDLERS:
        if handler in handlers:
            handlers.remove(handler)
    _forget()
