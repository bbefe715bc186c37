"""The Scatter job: scene → arrays → ``core.scatter`` → Blender data, shared by the operator and the CLI.

The job computes every layer first and touches the scene only at the end, so an error or a cancel (ESC)
leaves the user's scene exactly as it was.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.chunks import Backend
from ..core.poisson import Samples
from ..core.pool import ProcessPool
from ..core.scatter import LayerPoints, LayerSpec, scatter_layer_steps
from ..core.terrain import TerrainLookup
from . import layer_fields
from .instancer import OUTPUT_COLLECTION, OWNER, Placement, prefabs_of, write_objects, write_point_instancer
from .ownership import LAYER_KEY, is_owned, owned_collection, remove_owned
from .terrain import read_mesh


class ScatterError(Exception):
    """A problem with the user's settings or scene; the message says what to change."""


@dataclass
class LayerReport:
    name: str
    count: int
    seconds: float


@dataclass
class JobResult:
    reports: list[LayerReport]
    stages: dict[str, float]


def _check_layer(layer: bpy.types.PropertyGroup, max_objects: int) -> None:
    name = rpt_('Layer "{name}"').format(name=layer.name)

    def fail(template: str, **values: object) -> ScatterError:
        return ScatterError(rpt_(template).format(layer=name, **values))

    if layer.collection is None:
        raise fail("{layer} has no collection: pick the collection whose objects it should place")
    prefabs = prefabs_of(layer.collection)
    if not prefabs:
        raise fail('{layer}: collection "{collection}" is empty; add the objects to place',
                   collection=layer.collection.name)
    if sum(p.weight for p in prefabs) <= 0:
        raise fail('{layer}: every object in "{collection}" has weight 0; give one a weight > 0',
                   collection=layer.collection.name)
    if not (math.isfinite(layer.min_radius) and layer.min_radius > 0):
        raise fail("{layer}: Min Radius must be greater than 0")
    if layer.max_radius < layer.min_radius:
        raise fail("{layer}: Max Radius ({max_radius:g}) is smaller than Min Radius ({min_radius:g}); "
                   "raise Max Radius or lower Min Radius", max_radius=layer.max_radius, min_radius=layer.min_radius)
    if layer.scale_max < layer.scale_min:
        raise fail("{layer}: Scale Max is smaller than Scale Min")
    if layer.use_height_range and layer.height_max < layer.height_min:
        raise fail("{layer}: Max Height is below Min Height")
    if layer.density_mode == 'IMAGE' and layer.density_image is None:
        raise fail("{layer}: density is set to Image but no image is picked")
    if layer.density_mode == 'VERTEX_GROUP' and not layer.density_vertex_group:
        raise fail("{layer}: density is set to Vertex Group but no group is named")
    if layer.density_low > layer.density_high:
        raise fail("{layer}: density Low is above High")


def validate(scene: bpy.types.Scene, layers: list[bpy.types.PropertyGroup]) -> bpy.types.Object:
    """Check the settings before anything runs; returns the terrain object."""
    settings = scene.strew
    terrain = settings.terrain
    if terrain is None:
        raise ScatterError(rpt_("No terrain: pick a mesh object as the terrain in the Scatter panel"))
    if terrain.type != 'MESH':
        raise ScatterError(rpt_('Terrain "{name}" is a {kind}, not a mesh: pick a mesh object').format(
            name=terrain.name, kind=terrain.type.lower()))
    if not layers:
        raise ScatterError(rpt_("No enabled layer: add a layer (+) or enable one"))
    names = [layer.name for layer in layers]
    if len(set(names)) != len(names):
        raise ScatterError(rpt_('Two layers have the same name: rename one (each layer writes "Strew <name>")'))
    for layer in layers:
        _check_layer(layer, settings.max_objects)
    return terrain


def layer_spec(layer: bpy.types.PropertyGroup, settings: bpy.types.PropertyGroup, fields: layer_fields.LayerFields,
               ) -> LayerSpec:
    prefabs = prefabs_of(layer.collection)
    return LayerSpec(
        min_radius=layer.min_radius,
        max_radius=max(layer.max_radius, layer.min_radius),
        seed=layer.seed,
        start_points=layer.start_points,
        keep_away=layer.keep_away,
        density=fields.density,
        mask=fields.mask,
        max_slope=min(layer.max_slope, math.pi / 2),  # stored as float32: may exceed π/2 by 4e-8
        height_range=(layer.height_min, layer.height_max) if layer.use_height_range else None,
        align=layer.align_to_normal,
        random_yaw=layer.random_yaw,
        scale_range=(layer.scale_min, layer.scale_max),
        prefab_weights=tuple(p.weight for p in prefabs),
        tile_size=layer.tile_size if layer.use_tile else None,
        tile_keep=layer.tile_keep,
        chunk_size=settings.chunk_size,
    )


def existing_points(scene: bpy.types.Scene, layer_name: str) -> Samples | None:
    """Points Strew wrote earlier for ``layer_name`` (what the user sees), used as blockers for later layers."""
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER, create=False)
    if output is None:
        return None
    for obj in output.objects:
        if is_owned(obj, OWNER) and obj.get(LAYER_KEY) == layer_name and obj.type == 'MESH':
            mesh = obj.data
            count = len(mesh.vertices)
            co = np.empty(count * 3)
            mesh.vertices.foreach_get("co", co)
            world = co.reshape(-1, 3) @ np.array(obj.matrix_world)[:3, :3].T + np.array(obj.matrix_world)[:3, 3]
            radii = np.empty(count, dtype=np.float32)
            mesh.attributes["strew_radius"].data.foreach_get("value", radii)
            return Samples(positions=world[:, :2], radii=radii.astype(np.float64))
    for child in output.children:
        if is_owned(child, OWNER) and child.get(LAYER_KEY) == layer_name:
            objs = [o for o in child.objects if is_owned(o, OWNER)]
            if not objs:
                return None
            xy = np.array([o.matrix_world.translation[:2] for o in objs], dtype=np.float64)
            radii = np.array([float(o.get("strew_radius", 0.0)) for o in objs])
            return Samples(positions=xy, radii=radii)
    return None


def clear_layer_output(scene: bpy.types.Scene, layer_name: str | None = None) -> int:
    """Remove what Strew wrote for one layer (or all layers); returns how many objects went."""
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER, create=False)
    if output is None:
        return 0

    def wanted(block: bpy.types.ID) -> bool:
        return is_owned(block, OWNER) and (layer_name is None or block.get(LAYER_KEY) == layer_name)

    removed = 0
    for child in [c for c in output.children if wanted(c)]:
        removed += remove_owned(list(child.objects), OWNER)
        bpy.data.batch_remove([child])
    wrappers = [c for c in bpy.data.collections if wanted(c) and c.name.startswith("Strew Prefab ")]
    if wrappers:
        bpy.data.batch_remove(wrappers)
    removed += remove_owned([o for o in output.objects if wanted(o)], OWNER)
    if layer_name is None and not output.objects and not output.children:
        bpy.data.batch_remove([output])
    return removed


def _write(scene: bpy.types.Scene, layer: bpy.types.PropertyGroup, points: LayerPoints, max_objects: int) -> None:
    clear_layer_output(scene, layer.name)
    output = owned_collection(scene, OUTPUT_COLLECTION, OWNER)
    placement = Placement(points.positions, points.rotations, points.scales, points.prefab_index, points.radii)
    if layer.output_mode == 'GEOMETRY_NODES':
        write_point_instancer(output, layer.name, layer.collection, placement)
    else:
        collection = write_objects(output, layer.name, prefabs_of(layer.collection), placement,
                                   linked_duplicates=layer.output_mode == 'DUPLICATES')
        for obj, radius in zip(collection.objects, points.radii.tolist(), strict=True):
            obj["strew_radius"] = radius


Progress = Callable[[float, str], None]


def run(
    context: bpy.types.Context, layer_indices: list[int] | None = None, progress: Progress | None = None,
    backend: Backend | None = None,
) -> Generator[float, None, JobResult]:
    """Generator running the Scatter job; yields fractions done (the modal operator steps it, ESC closes it).

    When it finishes, ``StopIteration.value`` is a :class:`JobResult`. Raises :class:`ScatterError` on bad
    settings before anything changed. Chunks run on ``backend`` (e.g. a Dask cluster) if given, else in a
    process pool of the scene's *Workers* (closed when the job ends, however it ends).
    """
    pool = None
    if backend is None and context.scene.strew.workers > 1:
        try:
            pool = backend = ProcessPool(context.scene.strew.workers)
        except ValueError:  # no interpreter to spawn workers from: the same points, in this process
            pool = None
    try:
        return (yield from _run(context, layer_indices, progress, backend))
    finally:
        if pool is not None:
            pool.close()


def _run(
    context: bpy.types.Context, layer_indices: list[int] | None, progress: Progress | None, backend: Backend | None,
) -> Generator[float, None, JobResult]:
    scene = context.scene
    settings = scene.strew
    indices = list(range(len(settings.layers))) if layer_indices is None else layer_indices
    layers = [settings.layers[i] for i in indices if layer_indices is not None or settings.layers[i].enabled]
    terrain_object = validate(scene, layers)
    stages: dict[str, float] = {}

    started = time.perf_counter()
    groups = tuple({name for layer in layers for name in layer_fields.vertex_groups_needed(layer)})
    try:
        mesh = read_mesh(terrain_object, context.evaluated_depsgraph_get(), groups)
    except ValueError as error:
        raise ScatterError(str(error)) from error
    stages["read mesh"] = time.perf_counter() - started
    yield 0.05

    started = time.perf_counter()
    try:
        terrain = TerrainLookup(mesh.vertices, mesh.triangles)
    except ValueError as error:
        raise ScatterError(rpt_('Terrain "{name}": {error}').format(name=terrain_object.name, error=error)) from error
    stages["lookup build"] = time.perf_counter() - started
    yield 0.1

    # Blockers: layers above the first computed one, as they stand in the scene now.
    first = indices[0] if indices else 0
    blockers: Samples | None = None
    for earlier in settings.layers[:first]:
        if earlier.enabled:
            blockers = _merge_samples(blockers, existing_points(scene, earlier.name))

    results: list[tuple[bpy.types.PropertyGroup, LayerPoints, float]] = []
    for number, layer in enumerate(layers):
        started = time.perf_counter()
        span = 0.8 / len(layers)
        try:
            fields = layer_fields.build(layer, terrain, mesh, context.evaluated_depsgraph_get())
            steps = scatter_layer_steps(terrain, layer_spec(layer, settings, fields), blockers, backend)
            while True:
                try:
                    fraction = next(steps)
                except StopIteration as done:
                    points = done.value
                    break
                yield 0.1 + span * (number + fraction)
        except ValueError as error:
            raise ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)) from error
        took = time.perf_counter() - started
        stages[f"sample {layer.name}"] = took
        results.append((layer, points, took))
        blockers = _merge_samples(blockers, points.as_blockers())
        yield 0.1 + 0.8 * (number + 1) / len(layers)

    started = time.perf_counter()
    write_results(scene, [(layer, points) for layer, points, _ in results])
    stages["write output"] = time.perf_counter() - started
    yield 1.0
    return JobResult([LayerReport(layer.name, len(points), took) for layer, points, took in results], stages)


def write_results(scene: bpy.types.Scene, results: list[tuple[bpy.types.PropertyGroup, LayerPoints]]) -> None:
    """Replace each layer's output with its points; checks Max Objects for every layer before writing any."""
    settings = scene.strew
    for layer, points in results:
        if layer.output_mode != 'GEOMETRY_NODES' and len(points) > settings.max_objects:
            raise ScatterError(rpt_(
                'Layer "{name}" would create {count:,} objects, more than Max Objects ({max_objects:,}): '
                "use the Point Instancer output, raise Max Objects, or a larger radius"
            ).format(name=layer.name, count=len(points), max_objects=settings.max_objects))
    for layer, points in results:
        _write(scene, layer, points, settings.max_objects)


def _merge_samples(a: Samples | None, b: Samples | None) -> Samples | None:
    if a is None:
        return b
    if b is None:
        return a
    return Samples(positions=np.concatenate([a.positions, b.positions]), radii=np.concatenate([a.radii, b.radii]))


def run_to_end(context: bpy.types.Context, layer_indices: list[int] | None = None,
               backend: Backend | None = None) -> JobResult:
    """Run the whole job at once (headless path)."""
    job = run(context, layer_indices, backend=backend)
    while True:
        try:
            next(job)
        except StopIteration as stop:
            return stop.value
