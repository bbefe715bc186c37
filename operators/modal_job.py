"""Run a job generator from a modal operator: one step per timer tick, a progress bar, ESC to cancel.

A job is a generator that yields fractions done and returns its result; it changes the scene only in its last
step (or undoes its own partial work when closed), so ESC leaves the scene as it was. The same generator runs
to the end in ``execute()`` for scripts and background mode.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import bpy


class ModalJob(bpy.types.Operator):
    """Base of operators that run a job: call :meth:`start_job` from ``invoke``; subclasses set the class
    attributes (it is never registered itself)."""

    job_error: type[Exception] = Exception
    cancel_message = "Cancelled; the scene is unchanged"
    timer_step = 0.01

    _timer = None
    _job: Generator[float, None, Any] | None = None

    def report_done(self, result: Any) -> None:
        raise NotImplementedError

    def start_job(self, context: bpy.types.Context, job: Generator[float, None, Any]) -> set[str]:
        self._job = job
        wm = context.window_manager
        wm.progress_begin(0, 100)
        self._timer = wm.event_timer_add(self.timer_step, window=context.window)
        wm.modal_handler_add(self)
        return {'RUNNING_MODAL'}

    def finish_job(self, context: bpy.types.Context) -> None:
        wm = context.window_manager
        if self._timer is not None:
            wm.event_timer_remove(self._timer)
            self._timer = None
        wm.progress_end()
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
        try:
            fraction = next(self._job)
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
        context.window_manager.progress_update(int(fraction * 100))
        return {'RUNNING_MODAL'}
