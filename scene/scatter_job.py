"""The Scatter job: scene → arrays → ``core.scatter`` → Blender data, shared by the operator and the CLI.

The job computes every layer first and touches the scene only at the end, so an error or a cancel (ESC)
leaves the user's scene exactly as it was.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.chunks import Backend
from ..core.modes import OutputMode
from ..core.poisson import Samples
from ..core.scatter import LayerPoints
from ..core.steps import run_to_end as run_steps
from ..core.terrain import NoAreaError
from . import layer_ids, relations, scatter_spec, worker_pool
from .display import remove_unused_bounds, show_as_set
from .instancer import (
    BLUR_SHARE,
    OUTPUT_COLLECTION,
    OWNER,
    RADIUS_ATTRIBUTE,
    world_blur,
    world_positions,
    write_objects,
)
from .instances import PointSet
from .layer_points import painted_points, read_points, write_instancer
from .layer_surface import Sampler
from .ownership import LAYER_ID_KEY, disown, is_owned, owned_collection, remove, remove_owned, set_current
from .proxies import remove_unused_proxies
from .scatter_spec import LayerInput, ScatterError

__all__ = ["JobResult", "LayerGone", "LayerReport", "ScatterError", "clear_layer_output", "existing_points",
           "layers_from", "run", "run_to_end", "write_results"]


class LayerGone(ScatterError):
    """A layer of the run was removed while it ran: nothing was written."""


@dataclass
class LayerReport:
    name: str
    count: int
    seconds: float
    far: float = 0.0  # the farthest instance's distance from the world origin along x or y
    blur: float = 0.0  # how far apart Blender's float32 world space may put two instances there (0: exact enough)
    spacing: float = 0.0  # the closest the layer's rules let two instances be


def layer_report(name: str, points: PointSet, seconds: float) -> LayerReport:
    """The report of a written layer: how many instances, and whether the world space Blender draws and renders
    them in (float32 about the world origin) can still hold their spacing where they stand."""
    if not len(points.radii):
        return LayerReport(name, 0, seconds)
    far = float(np.abs(points.positions[:, :2]).max())
    blur = world_blur(far)
    spacing = float(points.radii.min())
    return LayerReport(name, len(points.radii), seconds, far, blur if blur > BLUR_SHARE * spacing else 0.0, spacing)


@dataclass
class JobResult:
    reports: list[LayerReport]
    stages: dict[str, float]


def existing_points(scene: bpy.types.Scene, layer_id: str) -> Samples | None:
    """Points Strew wrote earlier for the layer (what the user sees, in 3-D), blockers for later layers."""
    for block in layer_ids.outputs(scene, layer_id):
        if isinstance(block, bpy.types.Object) and block.type == 'MESH':
            return read_points(block).as_blockers()
        if isinstance(block, bpy.types.Collection):
            objs = [o for o in block.objects if is_owned(o, OWNER) and RADIUS_ATTRIBUTE in o]
            if not objs:
                return None
            radii = np.array([float(o[RADIUS_ATTRIBUTE]) for o in objs])
            return Samples(positions=world_positions(objs), radii=radii)
    return None


def clear_layer_output(scene: bpy.types.Scene, layer_id: str | None = None, rewrite: bool = False) -> int:
    """Remove what Strew wrote in ``scene`` for one layer (or all layers); returns how many objects went.
    ``rewrite``: a new output follows at once, which finds the proxy meshes of the old one (kept until then).

    Only data-blocks carrying Strew's mark go; a collection of Strew's that still holds the user's objects
    afterwards is handed over to the user. The prefab wrappers go once no object of any scene instances them.
    """
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER, create=False)
    if output is None:
        return 0
    found = layer_ids.outputs(scene, layer_id)
    cleared = {str(block[LAYER_ID_KEY]) for block in found if LAYER_ID_KEY in block}
    removed = 0
    wrappers: set[bpy.types.Collection] = set()
    for child in [block for block in found if isinstance(block, bpy.types.Collection)]:
        objects = [o for o in child.objects if is_owned(o, OWNER)]
        wrappers |= {o.instance_collection for o in objects
                     if o.instance_collection is not None and is_owned(o.instance_collection, OWNER)}
        removed += remove_owned(objects, OWNER)
        if len(child.objects) or len(child.children):
            disown(child)
        else:
            bpy.data.batch_remove([child])
    unused = [wrapper for wrapper in wrappers if wrapper.users == 0]
    if unused:
        bpy.data.batch_remove(unused)
    for layer in cleared:
        set_current(output, layer, None)  # the user's copies left behind stay theirs
    removed += remove([block for block in found if isinstance(block, bpy.types.Object)], OWNER)
    remove_unused_bounds()
    remove_unused_proxies(keep_meshes=rewrite)
    if layer_id is None and not output.objects and not output.children:
        bpy.data.batch_remove([output])
    return removed


def _write(scene: bpy.types.Scene, layer: LayerInput, points: PointSet) -> None:
    clear_layer_output(scene, layer.layer_id, rewrite=True)
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER)
    if layer.output == OutputMode.GEOMETRY_NODES:
        obj = write_instancer(output, layer.mark, layer.collection, points)
        index = layer_ids.index_of(scene, layer.layer_id)
        if index is not None:
            show_as_set(obj, scene.strew.layers[index])
    else:
        write_objects(output, layer.mark, list(layer.prefabs), points,
                      linked_duplicates=layer.output == OutputMode.DUPLICATES)
    remove_unused_proxies()  # the old output's proxy meshes the new one did not take


def run(
    context: bpy.types.Context, layers: list[str] | None = None, backend: Backend | None = None,
    sampler: Sampler | None = None,
) -> Generator[tuple[float, str], None, JobResult]:
    """Generator running the Scatter job; yields (fraction done, what runs next) — the modal operator steps it,
    shows both in the status bar, and ESC closes it.

    ``layers`` are the ids of the layers to run (None: every enabled layer), looked up when the job starts and
    again before it writes: :class:`LayerGone` when one was removed meanwhile.
    When it finishes, ``StopIteration.value`` is a :class:`JobResult`. Raises :class:`ScatterError` on bad
    settings before anything changed. Chunks run on ``backend`` (e.g. a Dask cluster) if given, else in the
    kept process pool of the scene's *Workers* (:mod:`.worker_pool`). ``sampler`` reads the surfaces and samples
    each layer (the live update's keeps what did not change since its last run); by default, from the scene.
    """
    if backend is None:
        backend = worker_pool.for_scene(context.scene)
    return (yield from _run(context, layers, backend, sampler or Sampler()))


def _indices(scene: bpy.types.Scene, layers: list[str]) -> list[int]:
    """Where the layers with these ids stand now; :class:`LayerGone` when one of them is no more."""
    indices = [layer_ids.index_of(scene, layer_id) for layer_id in layers]
    if None in indices:
        raise LayerGone(rpt_("A layer was removed while Scatter ran: nothing was written; scatter again"))
    return [index for index in indices if index is not None]


def _run(
    context: bpy.types.Context, layers: list[str] | None, backend: Backend | None, sampler: Sampler,
) -> Generator[tuple[float, str], None, JobResult]:
    scene = context.scene
    job = scatter_spec.read(scene, None if layers is None else _indices(scene, layers))
    stages: dict[str, float] = {}

    started = time.perf_counter()
    surfaces = sampler.surfaces(job, context.evaluated_depsgraph_get())
    stages["read mesh"] = time.perf_counter() - started
    yield 0.1, rpt_("Sampling")

    # Blockers: layers above the first computed one, as they stand in the scene now.
    placed: dict[str, Samples] = {}
    for above in job.blocker_layers:
        found = existing_points(scene, above.layer_id)
        if found is not None:
            placed[above.name] = found

    results: list[tuple[LayerInput, PointSet, float]] = []
    ran: dict[str, PointSet] = {}  # this run's results by layer id, for the layers placed around or on them
    for number, layer in enumerate(job.layers):
        started = time.perf_counter()
        span = 0.8 / len(job.layers)
        try:
            painted = painted_points(scene, layer.layer_id)
            blockers, keep = blockers_for(placed, layer.surroundings.keep_away, painted)
            bound = relations.bind(layer, ran)
            steps = relations.nothing() if bound is None else sampler.layer_steps(bound, surfaces, blockers, backend,
                                                                                  keep)
            while True:
                try:
                    fraction = next(steps)
                except StopIteration as done:
                    points = done.value
                    break
                yield 0.1 + span * (number + fraction), rpt_('Layer "{name}" ({number} of {total})').format(
                    name=layer.name, number=number + 1, total=len(job.layers))
        except NoAreaError as error:  # name what it scatters on: the terrain or its Targets
            surface = layer.targets.name if layer.targets is not None else getattr(job.terrain, "name", "")
            raise ScatterError(rpt_('Layer "{name}" on "{surface}": {error}').format(
                name=layer.name, surface=surface, error=error)) from error
        except ValueError as error:
            raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from error
        took = time.perf_counter() - started
        stages[f"sample {layer.name}"] = took
        result = PointSet.of(points, False) if painted is None else PointSet.join(PointSet.of(points, False), painted)
        results.append((layer, result, took))
        placed[layer.name] = result.as_blockers()
        ran[layer.layer_id] = result
        yield 0.1 + 0.8 * (number + 1) / len(job.layers), rpt_("Writing the output")

    started = time.perf_counter()
    _indices(scene, [layer.layer_id for layer in job.layers])
    write_results(scene, [(layer, points) for layer, points, _ in results], job.max_objects)
    stages["write output"] = time.perf_counter() - started
    sampler.finished(scene, job)
    yield 1.0, rpt_("Writing the output")
    return JobResult([layer_report(layer.name, points, took) for layer, points, took in results], stages)


def blockers_for(placed: dict[str, Samples], keep_away: dict[str, float], painted: PointSet | None = None,
                 ) -> tuple[Samples | None, np.ndarray | None]:
    """The earlier layers' points, then the layer's own ``painted`` instances, as blockers, and the distance kept
    from each: the pair rules' (0: none), a painted instance's own radius."""
    if painted is not None:
        placed = {**placed, "": painted.as_blockers()}
    if not placed:
        return None, None
    blockers = Samples(positions=np.concatenate([s.positions for s in placed.values()]),
                       radii=np.concatenate([s.radii for s in placed.values()]))
    keep = np.concatenate([np.full(len(s.radii), keep_away.get(name, 0.0)) for name, s in placed.items()])
    if painted is not None:
        keep[-len(painted):] = painted.radii
    return blockers, keep


def write_results(scene: bpy.types.Scene, results: Sequence[tuple[LayerInput, LayerPoints | PointSet]],
                  max_objects: int) -> None:
    """Replace each layer's output with its points; checks Max Objects for every layer before writing any."""
    for layer, points in results:
        if layer.output != OutputMode.GEOMETRY_NODES and len(points) > max_objects:
            raise ScatterError(rpt_(
                'Layer "{name}" would create {count:,} objects, more than Max Objects ({max_objects:,}): '
                "use the Point Instancer output, raise Max Objects, or a larger radius"
            ).format(name=layer.name, count=len(points), max_objects=max_objects))
    for layer, points in results:
        _write(scene, layer, points if isinstance(points, PointSet) else PointSet.of(points, False))



def layers_from(scene: bpy.types.Scene, index: int) -> list[str]:
    """The ids of layer ``index`` and the enabled layers below it: they keep away from it, so they run again
    with it."""
    layers = scene.strew.layers
    if not 0 <= index < len(layers):
        return []
    return layer_ids.ids_of(scene, [index] + [i for i in range(index + 1, len(layers)) if layers[i].enabled])


def run_to_end(context: bpy.types.Context, layers: list[str] | None = None,
               backend: Backend | None = None, sampler: Sampler | None = None) -> JobResult:
    """Run the whole job at once (headless path)."""
    return run_steps(run(context, layers, backend, sampler))
