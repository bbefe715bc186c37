"""The Scatter job cut into farm tasks: each task writes one chunk's points to a part file; a merge writes the scene.

Tasks are numbered over the enabled layers, top to bottom, and within a layer phase after phase
(:mod:`strew.core.chunks`). They form *stages* — one per (layer, phase) — and a task needs the part files
of the stages before its own; the tasks of one stage are independent. The points are the same as the
Scatter operator's, whatever the split.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bpy
import numpy as np
from bpy.app.translations import pgettext_rpt as rpt_

from ..core.chunks import ChunkGrid, concat
from ..core.modes import SurfaceMode
from ..core.poisson import Samples
from ..core.scatter import LayerPoints, LayerSpec, chunk_work, place_chunk, sample_chunk, scatter_layer
from ..core.scatter.points import POINT_ARRAYS
from ..core.terrain import TerrainLookup
from . import layer_fields, layer_surface, scatter_job, scatter_spec
from .instances import PointSet
from .layer_inputs import Related
from .layer_points import painted_points
from .scatter_spec import LayerInput

STAMP = "job"
"""The array of a part file that holds the fingerprint of the job that computed it."""
PROBES = 64
"""Fields and heights are looked at on a PROBES × PROBES grid over each layer's terrain for the fingerprint."""


@dataclass(frozen=True)
class Stage:
    """Tasks ``start:stop`` of one layer's phase; they need every task before ``start``."""

    layer: str
    phase: int
    start: int
    stop: int


@dataclass
class FarmJob:
    layers: tuple[LayerInput, ...]
    max_objects: int
    terrains: list[TerrainLookup]  # per layer: the terrain or its Targets, seen from above
    specs: list[LayerSpec]
    grids: list[ChunkGrid]
    painted: list[PointSet | None]  # per layer: the instances painted by hand, kept as the Scatter job keeps them
    tasks: list[tuple[int, int]]  # (layer number, chunk id)
    stages: list[Stage]
    fingerprint: str = ""  # of everything the points depend on; stamped on every part file

    def plan(self) -> str:
        """The job graph as JSON, for a farm submission script."""
        return json.dumps({"tasks": len(self.tasks), "stages": [vars(s) for s in self.stages]}, indent=1)


def prepare(context: bpy.types.Context) -> FarmJob:
    """Read the scene once (terrain, every enabled layer) and number the tasks; raises ScatterError."""
    scene_input = scatter_spec.read(context.scene)
    surfaces = layer_surface.Surfaces(scene_input, context.evaluated_depsgraph_get())
    job = FarmJob(scene_input.layers, scene_input.max_objects, [], [], [], [], [], [])
    for number, layer in enumerate(scene_input.layers):
        if any(isinstance(found, Related) for found in layer.inputs):  # it reads the points of this very run
            raise scatter_job.ScatterError(rpt_(
                'Layer "{name}": farm tasks cannot place a layer around or on another layer; clear its Around and '
                "On Layer or run it without --chunks").format(name=layer.name))
        if layer.surface == SurfaceMode.ALL:
            raise scatter_job.ScatterError(rpt_(
                'Layer "{name}": farm tasks scatter from above only; set its Surface to From Above or run it without '
                "--chunks").format(name=layer.name))
        painted = painted_points(context.scene, layer.layer_id)
        try:
            source = surfaces.fields_source(layer)
            fields = layer_fields.build(layer, source.lookup, source.mesh, surfaces.depsgraph)
            spec = dataclasses.replace(layer.spec, density=fields.density, mask=fields.mask)
            terrain = surfaces.of(layer).lookup
            grid = _planned_grid(terrain, spec, layer, scene_input.layers[:number], painted)
        except ValueError as error:
            raise scatter_job.ScatterError(rpt_('Layer "{name}": {error}').format(name=layer.name, error=error)
                                           ) from error
        phases = [[0]] if spec.tile_size is not None else grid.phases()
        for phase, chunks in enumerate(phases):
            start = len(job.tasks)
            job.tasks += [(number, chunk) for chunk in chunks]
            job.stages.append(Stage(layer.name, phase, start, len(job.tasks)))
        job.terrains.append(terrain)
        job.specs.append(spec)
        job.grids.append(grid)
        job.painted.append(painted)
    job.fingerprint = _fingerprint(job)
    return job


def _fingerprint(job: FarmJob) -> str:
    """A digest of what the job's points depend on: every layer's settings and seed, its density and mask and
    its terrain's heights looked at on a grid, its painted instances (parts of another file or settings differ)."""
    digest = hashlib.sha256()
    for layer, spec, terrain, painted in zip(job.layers, job.specs, job.terrains, job.painted, strict=True):
        plain = {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec) if f.name not in ("density", "mask")}
        digest.update(repr((layer.name, sorted(plain.items()), sorted(layer.surroundings.keep_away.items()))).encode())
        low, high = terrain.bounds.as_array()
        axes = [np.linspace(low[i], high[i], PROBES) for i in (0, 1)]
        xy = np.stack(np.meshgrid(*axes), axis=-1).reshape(-1, 2)
        digest.update(terrain.sample(xy).z.tobytes())
        for field in (spec.density, spec.mask):
            digest.update(b"-" if field is None else np.asarray(field(xy), dtype=np.float64).tobytes())
        if painted is not None:
            digest.update(painted.positions.tobytes() + painted.radii.tobytes())
    return digest.hexdigest()


def _planned_grid(terrain: TerrainLookup, spec: LayerSpec, layer: LayerInput, above: tuple[LayerInput, ...],
                  painted: PointSet | None) -> ChunkGrid:
    """The layer's chunk grid as the Scatter job makes it when the layers above have points: its reach covers
    the farthest pair rule and painted radius (a task checks that its own grid has the same phases)."""
    keeps = [layer.surroundings.keep_away.get(other.name, 0.0) for other in above]
    keeps += [float(painted.radii.max())] if painted is not None else []
    if not keeps:
        return chunk_work(terrain, spec).grid
    far = Samples(positions=np.zeros((1, 2)), radii=np.zeros(1))
    return chunk_work(terrain, spec, far, np.array([max(keeps)])).grid


def _part(parts: Path, number: int, chunk: int) -> Path:
    return parts / f"layer-{number}" / f"chunk-{chunk:05d}.npz"


def _load(parts: Path, job: FarmJob, number: int, chunk: int) -> LayerPoints:
    path = _part(parts, number, chunk)
    stage = next(s for s in job.stages if job.tasks.index((number, chunk)) < s.stop)
    again = rpt_('run the tasks {start}:{stop} (layer "{layer}", phase {phase})').format(
        start=stage.start, stop=stage.stop, layer=stage.layer, phase=stage.phase)
    if not path.is_file():
        raise scatter_job.ScatterError(rpt_("Part file {path} is missing: {again} first").format(
            path=path, again=again))
    try:
        with np.load(path) as data:
            stamp = str(data[STAMP]) if STAMP in data.files else ""
            arrays = {name: data[name] for name in POINT_ARRAYS}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise scatter_job.ScatterError(rpt_("Part file {path} is damaged ({reason}): {again} again").format(
            path=path, reason=reason, again=again)) from None
    if stamp != job.fingerprint:
        raise scatter_job.ScatterError(rpt_(
            "Part file {path} was computed from another seed, other settings or another terrain than this file's: "
            "{again} again on this file, or merge into the file the tasks ran on").format(path=path, again=again))
    return LayerPoints(**arrays)


def _save(parts: Path, job: FarmJob, number: int, chunk: int, points: LayerPoints) -> None:
    path = _part(parts, number, chunk)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {name: getattr(points, name) for name in POINT_ARRAYS}
    arrays[STAMP] = np.array(job.fingerprint)
    replace_whole(path, lambda temporary: np.savez(temporary, **arrays))


UNFINISHED: set[Path] = set()
"""Files being written now (the command line removes them when Ctrl+C ends the process)."""


def replace_whole(path: Path, write: Callable[[Path], object]) -> None:
    """``write`` a file next to ``path``, then put it in ``path``'s place: a reader never sees half a file, and an
    interrupt or an error leaves none behind."""
    temporary = path.with_name(f".{path.name}.partial{path.suffix}")
    UNFINISHED.add(temporary)
    try:
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        UNFINISHED.discard(temporary)


def _layer_points(parts: Path, job: FarmJob, number: int) -> PointSet:
    """A layer's points from its part files, then its painted instances (as the Scatter job writes them)."""
    chunks = [0] if job.specs[number].tile_size is not None else range(job.grids[number].count)
    pieces = [_load(parts, job, number, chunk) for chunk in chunks]
    arrays: dict[str, Any] = {name: np.concatenate([getattr(p, name) for p in pieces]) for name in POINT_ARRAYS}
    sampled = PointSet.of(LayerPoints(**arrays), False)
    painted = job.painted[number]
    return sampled if painted is None else PointSet.join(sampled, painted)


def _blockers(parts: Path, job: FarmJob, number: int) -> tuple[Samples | None, np.ndarray | None]:
    """What the layer keeps away from, with the distances: the layers above, its own painted instances."""
    layer = job.layers[number]
    placed = {job.layers[n].name: _layer_points(parts, job, n).as_blockers() for n in range(number)}
    blockers, keep = scatter_job.blockers_for(placed, layer.surroundings.keep_away, job.painted[number])
    if blockers is None:
        return None, None
    return Samples(blockers.positions[:, :2], blockers.radii), keep


def run_tasks(job: FarmJob, start: int, stop: int, parts: Path) -> int:
    """Compute tasks ``start:stop`` into ``parts``; returns how many points they wrote."""
    written = 0
    blockers_of: dict[int, tuple[Samples | None, np.ndarray | None]] = {}
    for number, chunk in job.tasks[start:stop]:
        if number not in blockers_of:
            blockers_of[number] = _blockers(parts, job, number)
        spec, (blockers, keep) = job.specs[number], blockers_of[number]
        name = job.layers[number].name
        try:
            if spec.tile_size is not None:
                points = scatter_layer(job.terrains[number], spec, blockers, keep=keep)
            else:
                work = chunk_work(job.terrains[number], spec, blockers, keep)
                if work.grid.period != job.grids[number].period:
                    raise scatter_job.ScatterError(rpt_(
                        'Layer "{name}": a layer it keeps away from is empty, so its chunks fall in other phases than '
                        "planned: run it without --chunks, or drop the empty layer's Keep Away rule"
                    ).format(name=name))
                earlier = concat(*(work.grid.window(chunk, _load(parts, job, number, j).as_blockers())
                                   for j in work.grid.needs(chunk)))
                points = place_chunk(work, sample_chunk(work, chunk, earlier))
        except ValueError as error:
            raise scatter_job.ScatterError(rpt_('Layer "{name}": {error}').format(name=name, error=error)) from error
        _save(parts, job, number, chunk, points)
        written += len(points)
    return written


def merge(context: bpy.types.Context, job: FarmJob, parts: Path) -> list[tuple[str, int]]:
    """Write every layer's part files into the scene, as the Scatter job would; returns (layer, count)."""
    results = [(layer, _layer_points(parts, job, number)) for number, layer in enumerate(job.layers)]
    scatter_job.write_results(context.scene, results, job.max_objects)
    return [(layer.name, len(points)) for layer, points in results]
