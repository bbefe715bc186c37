"""Run a job generator from a modal operator: time slices on a timer, progress in the status bar, ESC to cancel.

A job is a generator that yields its progress — a fraction done, or ``(fraction, what is happening)`` — and
returns its result; it changes the scene only in its last step (or undoes its own partial work when closed),
so ESC leaves the scene as it was. The same generator runs to the end in ``execute()`` for scripts and
background mode. Each timer tick runs the job for one time slice (no thread): the interface stays responsive
and the job runs nearly as fast as headless.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any

import bpy
from bpy.app.translations import pgettext_iface as iface_

from ..scene import live_update

Progress = float | tuple[float, str]
"""What a job yields: the fraction done, optionally with a short text of what is happening."""

SLICE_SECONDS = 0.1
"""Time a job runs per timer tick before the window handles its events."""
TIMER_STEP = 0.001
SHOW_EVERY = 0.25
"""The least time between two progress updates in the window."""
SHOW_SHARE = 0.15
"""The largest share of the job's time the window may spend redrawing its progress: a redraw that takes
``t`` seconds (measured after each update) allows the next update only ``t / SHOW_SHARE`` seconds later, so a
slow display (software OpenGL, a loaded machine) costs the job little more than a fast one."""
SHOW_AT_LEAST = 2.0
"""The most time between two progress updates, however slow the display."""


class ModalJob(bpy.types.Operator):
    """Base of operators that run a job: call :meth:`start_job` from ``invoke``; subclasses set the class
    attributes (it is never registered itself)."""

    job_error: type[Exception] = Exception
    cancel_message = "Cancelled; the scene is unchanged"

    _timer = None
    _job: Generator[Progress, None, Any] | None = None
    _shown_at = 0.0
    _show_every = SHOW_EVERY
    _redrawing = False
    _tick_end = 0.0

    def report_done(self, result: Any) -> None:
        raise NotImplementedError

    def start_job(self, context: bpy.types.Context, job: Generator[Progress, None, Any]) -> set[str]:
        self._job = job
        wm = context.window_manager
        wm.progress_begin(0, 100)
        self._timer = wm.event_timer_add(TIMER_STEP, window=context.window)
        wm.modal_handler_add(self)
        live_update.job_started()
        self._show(context, 0.0, "")
        self._shown_at = self._tick_end = time.perf_counter()
        self._redrawing = True
        return {'RUNNING_MODAL'}

    def _show(self, context: bpy.types.Context, fraction: float, text: str) -> None:
        """The cursor progress and a status-bar line such as "Assemble Room: 42% · Attempt 1: …"."""
        percent = int(max(0.0, min(1.0, fraction)) * 100)
        context.window_manager.progress_update(percent)
        if context.workspace is not None:
            line = f"{iface_(self.bl_label)}: {percent}%"
            context.workspace.status_text_set(f"{line} · {text}" if text else line)

    def finish_job(self, context: bpy.types.Context) -> None:
        wm = context.window_manager
        if self._timer is not None:
            wm.event_timer_remove(self._timer)
            self._timer = None
        wm.progress_end()
        live_update.job_finished()
        if context.workspace is not None:
            context.workspace.status_text_set(None)
        if self._job is not None:
            self._job.close()  # an unfinished job has not changed the scene (or undoes its partial work)
            self._job = None

    def modal(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        if event.type == 'ESC':
            self.finish_job(context)
            self.report({'WARNING'}, self.cancel_message)
            return {'CANCELLED'}
        if event.type != 'TIMER' or self._job is None:
            return {'PASS_THROUGH'}
        now = time.perf_counter()
        if self._redrawing:  # the time since the last tick went to drawing the last update
            self._show_every = min(SHOW_AT_LEAST, max(SHOW_EVERY, (now - self._tick_end) / SHOW_SHARE))
            self._redrawing = False
        end = now + SLICE_SECONDS
        progress: Progress = 0.0
        try:
            while time.perf_counter() < end:
                progress = next(self._job)
        except StopIteration as stop:
            self._job = None
            self.finish_job(context)
            self.report_done(stop.value)
            return {'FINISHED'}
        except self.job_error as error:
            self._job = None
            self.finish_job(context)
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        self._tick_end = time.perf_counter()
        if self._tick_end - self._shown_at >= self._show_every:
            fraction, text = progress if isinstance(progress, tuple) else (progress, "")
            self._show(context, fraction, text)
            self._shown_at = self._tick_end
            self._redrawing = True
        return {'RUNNING_MODAL'}
