"""Live update: re-scatter the layers whose inputs changed, a short pause after the last change.

One :class:`LiveUpdate` per scene (keyed by ``session_uid``, so a renamed scene keeps it) owns what it saw last
(:class:`~.live_watch.Watch`), its timer, the run in progress and the :class:`~.job_cache.JobCache` that live
runs re-use. ``on_depsgraph_update`` (a ``depsgraph_update_post`` handler) only notes the first layer whose
inputs changed; it never writes (a write there would trigger it again). Every change pushes the scene's timer
back (the debounce); when the pause is over, it re-runs that layer and every enabled layer below it (they keep
away from it) through the job behind the Scatter button, stepped in short slices from the timer so the
interface stays responsive. The job writes only in its last step, so a new change simply drops an unfinished
run. While a Scatter or Tile Rooms job runs (:func:`job_started` / :func:`job_finished`, the one interface of
the modal jobs), the update waits. Strew's own output never counts as a change, so a live run does not trigger
itself. A run that fails keeps its message in :attr:`LiveUpdate.problem`, which the Scatter panel shows.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator
from typing import Any

import bpy
from bpy.app.handlers import persistent

from ..properties import hooks
from . import layer_ids, scatter_job
from .job_cache import JobCache
from .live_cache import CachedSampler
from .live_watch import Watch, snapshot

DELAY = 0.5  # seconds of quiet after the last change before the layers re-scatter
SLICE = 0.05  # seconds of work per timer call while a re-scatter runs (the interface stays responsive)


class LiveUpdate:
    """The live update of one scene: what it saw, what waits, what runs, what went wrong."""

    def __init__(self, scene: bpy.types.Scene) -> None:
        self.uid = scene.session_uid
        self.watch = Watch()
        self.cache = JobCache()
        self.pending: int | None = None  # first layer to re-scatter at the end of the pause
        self.problem: str | None = None  # why the last run failed, until the next one
        self._run: _Run | None = None
        self._timer = self._on_timer  # one bound method, so the timer can be found again

    # -- what the handler and the property hooks call -----------------------------------------------------------
    def start_watching(self, scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None = None) -> None:
        """Take the current settings and sources as the reference (Live Update switched on, a file loaded)."""
        self.watch.start(scene, depsgraph)

    def note(self, scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> None:
        """Note what a depsgraph update changed and push the re-scatter back by :data:`DELAY`. A run still
        computing is dropped (it has not written yet) and starts again after the pause."""
        first = self.watch.first_changed(scene, depsgraph)
        if first is None and not self.watch.repainted:
            return
        if self._run is not None:
            running = self._run.first_index(scene)
            if running is not None:
                first = running if first is None else min(first, running)
            self._drop_run()
        if first is not None:
            self.pending = first if self.pending is None else min(first, self.pending)
        if bpy.app.timers.is_registered(self._timer):
            bpy.app.timers.unregister(self._timer)
        bpy.app.timers.register(self._timer, first_interval=DELAY)

    @property
    def scheduled(self) -> bool:
        """Whether a re-scatter waits for its pause to end or is still computing."""
        return bpy.app.timers.is_registered(self._timer)

    def flush(self) -> bool:
        """Run the waiting re-scatter to the end now, without the pause (scripts, tests); False while a modal
        job runs."""
        if _jobs_running:
            return False
        if bpy.app.timers.is_registered(self._timer):
            bpy.app.timers.unregister(self._timer)
        while self._run is not None or self._start():
            if self._step(math.inf):
                break
        return True

    def stop(self) -> None:
        """Forget everything: no timer, no run, nothing cached."""
        if bpy.app.timers.is_registered(self._timer):
            bpy.app.timers.unregister(self._timer)
        self._drop_run()
        self.pending = None
        self.cache.clear()

    # -- the run ------------------------------------------------------------------------------------------------
    def _scene(self) -> bpy.types.Scene | None:
        return next((scene for scene in bpy.data.scenes if scene.session_uid == self.uid), None)

    def _drop_run(self) -> None:
        if self._run is not None:
            self._run.job.close()  # the job writes only in its last step: the scene is as it was
            self._run = None

    def _start(self) -> bool:
        """Begin the waiting re-scatter; False when there is nothing to do."""
        scene = self._scene()
        if scene is None or scene != bpy.context.scene:
            return False  # another scene is shown: its update waits until it is the current one again
        first, self.pending = self.pending, None
        if not scene.strew.live_update:
            self.watch.repainted = False
            return False
        repainted = self.watch.repaint_first(scene)
        if repainted is not None:
            first = repainted if first is None else min(first, repainted)
        if first is None:
            return False
        layers = scatter_job.layers_from(scene, first)
        if not layers:
            return False
        self._run = _Run(scene, layers, scatter_job.run(bpy.context, layers, sampler=CachedSampler(self.cache)))
        return True

    def _step(self, seconds: float) -> bool:
        """Advance the running re-scatter for about ``seconds``; True when it is over (done or refused). A run
        whose layer was removed ends without writing; the layers of it that are left start again."""
        assert self._run is not None
        deadline = time.perf_counter() + seconds
        try:
            while time.perf_counter() < deadline:
                next(self._run.job)
        except StopIteration:
            self.watch.snapshot = self._run.seen  # a change made while it ran is still a change
            self._run = None
            self._set_problem(None)
            return True
        except scatter_job.LayerGone:
            self.pending, self._run = self._run.first_index(self._run.scene), None
            return self.pending is None
        except scatter_job.ScatterError as error:
            self._run = None
            self._set_problem(str(error))
            return True
        return False

    def _set_problem(self, problem: str | None) -> None:
        if problem != self.problem:
            self.problem = problem
            _redraw_sidebars()

    def _on_timer(self) -> float | None:
        """Steps the re-scatter in slices so the interface stays responsive; waits while a modal job runs
        (dropping its own unfinished run, which the modal job supersedes)."""
        if _jobs_running:
            self._drop_run()
            return DELAY
        if self._run is None and not self._start():
            return None
        return None if self._step(SLICE) else 0.0


class _Run:
    """A live re-scatter in progress: the job generator, stepped from the timer in short slices, and the ids of
    the layers it runs (the list may change under it)."""

    def __init__(self, scene: bpy.types.Scene, layers: list[str],
                 job: Generator[tuple[float, str], None, Any]) -> None:
        self.scene, self.layers, self.job = scene, layers, job
        self.seen = snapshot(scene.strew)  # the settings the job reads when it starts

    def first_index(self, scene: bpy.types.Scene) -> int | None:
        """Where the first of the run's layers that is still there stands now, or None."""
        return next((index for layer_id in self.layers if (index := layer_ids.index_of(scene, layer_id)) is not None),
                    None)


def _redraw_sidebars() -> None:
    """The Scatter panel shows the problem: redraw the 3D views' sidebars (none headless)."""
    window_manager = bpy.context.window_manager
    for window in getattr(window_manager, "windows", ()):
        for area in window.screen.areas:
            if area.type == 'VIEW_3D':
                area.tag_redraw()


_SERVICES: dict[int, LiveUpdate] = {}
_jobs_running = 0


def service(scene: bpy.types.Scene) -> LiveUpdate:
    """The scene's live update (made on first use)."""
    found = _SERVICES.get(scene.session_uid)
    if found is None:
        found = _SERVICES[scene.session_uid] = LiveUpdate(scene)
    return found


def problem(scene: bpy.types.Scene) -> str | None:
    """Why the scene's last live run failed, or None."""
    found = _SERVICES.get(scene.session_uid)
    return None if found is None else found.problem


def job_started() -> None:
    """A modal job began: live updates wait until :func:`job_finished`."""
    global _jobs_running
    _jobs_running += 1


def job_finished() -> None:
    global _jobs_running
    _jobs_running = max(0, _jobs_running - 1)


def scheduled() -> bool:
    """Whether any scene's re-scatter waits for its pause or is still computing."""
    return any(live.scheduled for live in _SERVICES.values())


def flush() -> bool:
    """Run every waiting re-scatter to the end now (scripts, tests); False while a modal job runs."""
    return all([live.flush() for live in list(_SERVICES.values())])


@persistent
def on_depsgraph_update(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> None:
    """Hand the update to the scene's live update when Live Update is on (never writes anything)."""
    settings = getattr(scene, "strew", None)
    if settings is not None and settings.live_update:
        service(scene).note(scene, depsgraph)


def _switched(scene: bpy.types.Scene) -> None:
    """The Live Update setting changed: take the scene as it is now as the reference."""
    if scene.strew.live_update:
        service(scene).start_watching(scene)


@persistent
def on_load(_file: str) -> None:
    """Forget the previous file: what the loaded one holds is the reference (other scenes than the current
    one take theirs at their first update)."""
    forget()
    scene = bpy.context.scene
    settings = getattr(scene, "strew", None) if scene is not None else None
    if settings is not None and settings.live_update:
        service(scene).start_watching(scene)


def forget() -> None:
    """Stop and drop every scene's live update."""
    for live in _SERVICES.values():
        live.stop()
    _SERVICES.clear()


_HANDLERS = ((bpy.app.handlers.depsgraph_update_post, on_depsgraph_update), (bpy.app.handlers.load_post, on_load))


def register() -> None:
    for handlers, handler in _HANDLERS:
        if handler not in handlers:
            handlers.append(handler)
    if _switched not in hooks.LIVE_UPDATE_SWITCHED:
        hooks.LIVE_UPDATE_SWITCHED.append(_switched)


def unregister() -> None:
    for handlers, handler in _HANDLERS:
        if handler in handlers:
            handlers.remove(handler)
    if _switched in hooks.LIVE_UPDATE_SWITCHED:
        hooks.LIVE_UPDATE_SWITCHED.remove(_switched)
    forget()
