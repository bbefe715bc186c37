"""Chunk tasks on every core of this machine: a standard-library process pool, the layer data in shared memory.

Workers are *spawned* (fresh interpreters, never forked from Blender) from the Python interpreter that runs
Strew; each one receives a layer's terrain lookup and settings once, as read-only views of one shared
memory block (:mod:`strew.core.shared`), and only chunk ids and nearby points per task. The output is the
same as in one process (see :mod:`strew.core.chunks`).

Examples
--------
>>> import numpy as np
>>> from strew.core.scatter import LayerSpec, scatter_layer
>>> from strew.core.terrain import TerrainLookup
>>> vertices = np.array([[0, 0, 0], [90, 0, 0], [90, 90, 4], [0, 90, 4]], dtype=float)
>>> terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))
>>> spec = LayerSpec(min_radius=2.0, seed=1, chunk_size=30.0)
>>> with ProcessPool(2) as pool:
...     spread = scatter_layer(terrain, spec, backend=pool)
>>> bool((spread.positions == scatter_layer(terrain, spec).positions).all())
True
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import runpy
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, TypeVar

from . import worker_boot
from .shared import SharedHandle, SharedObject

T = TypeVar("T")

PACKAGE = __name__.rsplit(".", 2)[0]
"""The name this process imports Strew by (``strew``, or ``bl_ext.<repository>.strew`` inside Blender)."""
ROOT = str(Path(__file__).resolve().parents[1])
PRELOAD = ("core.scatter", "core.shared", "core.wfc.remote")
"""Modules a worker imports at boot: what the chunk tasks of a layer and a room's solve unpickle."""


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def usable_workers(requested: object) -> int:
    """``requested`` (a count ≥ 1) capped at the cores this process may use: more processes than cores only add
    memory and start-up time (the points are the same for any count)."""
    return min(check_workers(requested), default_workers())


def python_executable() -> str | None:
    """The interpreter to spawn workers from: ``sys.executable``, unless that is Blender's own binary."""
    exe = Path(sys.executable) if sys.executable else None
    if exe is not None and exe.is_file() and not exe.name.lower().startswith("blender"):
        return str(exe)
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"bin/python{version}", "bin/python3", "bin/python", "python.exe"):
        path = Path(sys.prefix) / candidate
        if path.is_file():
            return str(path)
    return None


def check_workers(workers: object) -> int:
    """``workers`` as a count ≥ 1, or a ValueError that says what to pass."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number ≥ 1, got {workers!r}: use 1 for this process only")
    return workers


@contextmanager
def _bare_main() -> Iterator[None]:
    """Workers spawned in this block do not re-run this process's main script.

    A spawned worker normally imports the parent's ``__main__`` again; a ``blender --python script.py``
    pipeline script imports ``bpy``, which a plain Python worker cannot.
    """
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def _run(fn: Callable[..., T], handle: SharedHandle, *args: Any) -> T:
    return fn(handle.open(), *args)


def _ready() -> int:
    """A task that only proves a worker is up (its process id)."""
    return os.getpid()


class ProcessPool:
    """A :class:`~strew.core.chunks.Backend` of ``workers`` processes (default: one per core).

    Processes start at :meth:`start` or at the first task and live until :meth:`close` (or the end of a
    ``with`` block), so the layers of one job — and, through :func:`kept_pool`, the jobs of one session —
    share them. Every shared block is unlinked when its layer ends and on close, whatever happened.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = check_workers(default_workers() if workers is None else workers)
        executable = python_executable()
        if executable is None:
            raise ValueError(f"no Python interpreter next to {sys.executable} to start worker processes from: "
                             "set workers to 1")
        self._executable = executable
        self._executor: ProcessPoolExecutor | None = None
        self._shared: dict[str, SharedObject] = {}

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is not None and getattr(self._executor, "_broken", False):
            self._executor.shutdown(wait=False, cancel_futures=True)  # a worker died: start afresh
            self._executor = None
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            if self._executable != sys.executable:
                context.set_executable(self._executable)
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=runpy.run_path,
                initargs=(worker_boot.__file__, {"PACKAGE": PACKAGE, "ROOT": ROOT, "PRELOAD": PRELOAD,
                                                 "PARENT": os.getpid()}, worker_boot.RUN_NAME),
            )
        return self._executor

    def start(self) -> list[Future[int]]:
        """Spawn every worker now, without waiting for them: they boot (import numpy and the sampler) while
        this process reads the scene and builds the terrain lookup. Returns a future per spawned worker, done
        (with a worker's pid) once a worker is up; [] when the pool runs already."""
        if self.running:
            return []
        with _bare_main():
            pool = self._pool()
            # Each submit finds no idle worker yet and spawns one more, up to ``workers``.
            return [pool.submit(_ready) for _ in range(self.workers)]

    @property
    def running(self) -> bool:
        """Whether the workers are started (a task now pays no start)."""
        return self._executor is not None and not getattr(self._executor, "_broken", False)

    @property
    def pids(self) -> list[int]:
        """Process ids of the running workers."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(processes)

    def share(self, work: Any) -> SharedHandle:
        try:
            shared = SharedObject(work)
        except (TypeError, AttributeError, ValueError) as error:  # pickle's complaints about functions
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ValueError(f"the layer cannot be sent to worker processes ({message}): pass masks and "
                             "densities as module-level functions or Strew fields, or use workers=1") from error
        self._shared[shared.handle.name] = shared
        return shared.handle

    def submit(self, fn: Callable[..., T], handle: SharedHandle, *args: Any) -> Future[T]:
        with _bare_main():  # a submit may spawn a worker
            return self._pool().submit(_run, fn, handle, *args)

    def release(self, handle: SharedHandle) -> None:
        shared = self._shared.pop(handle.name, None)
        if shared is not None:
            shared.close()

    def close(self, at_once: bool = False) -> None:
        """Stop the workers (queued tasks are dropped) and unlink every shared block.

        ``at_once`` (an interrupt) ends the workers' running tasks too instead of waiting for them.
        """
        executor, self._executor = self._executor, None
        try:
            if executor is not None and at_once:
                # No executor.shutdown() here: an interrupt's handler may run while this thread holds the
                # executor's lock (inside submit), and shutdown would wait for that lock forever.
                processes = list((getattr(executor, "_processes", None) or {}).values())
                for process in processes:
                    process.terminate()
                for process in processes:
                    process.join(timeout=2.0)
                    if process.is_alive():
                        process.kill()
                _unlink_semaphores(executor)
            elif executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
        finally:
            for name in list(self._shared):
                self._shared.pop(name).close()

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _unlink_semaphores(executor: ProcessPoolExecutor) -> None:
    """Unlink the named semaphores of ``executor``'s queues now.

    They are unlinked when the queues are collected, which an interrupted process ending with ``os._exit`` may
    never reach (the executor's manager thread still holds them); the resource tracker would then unlink them
    and print a warning about leaked semaphores after the command's one line.
    """
    from multiprocessing import synchronize, util

    names = set()
    for queue in (getattr(executor, "_call_queue", None), getattr(executor, "_result_queue", None)):
        for attribute in ("_rlock", "_wlock", "_sem"):
            lock = getattr(queue, attribute, None)
            name = getattr(getattr(lock, "_semlock", None), "name", None)
            if name is not None:
                names.add(name)
    registry = getattr(util, "_finalizer_registry", {})
    for finalizer in list(registry.values()):
        if getattr(finalizer, "_callback", None) is getattr(synchronize.SemLock, "_cleanup", None) and \
                getattr(finalizer, "_args", (None,))[0] in names:
            finalizer()  # unlinks, tells the tracker and leaves the registry: collected later, nothing runs twice


_KEPT: list[ProcessPool] = []
"""This process's kept pool (at most one)."""
_HOOKED: list[bool] = []


def kept_pool(workers: int) -> ProcessPool:
    """The pool this process keeps for its Scatter runs, with ``workers`` processes.

    The workers stay up between calls, so only the first call pays their start; a call with another count
    stops the kept pool and starts a new one. :func:`close_kept_pool` (also run at exit) stops it.
    """
    workers = check_workers(workers)
    if _KEPT and _KEPT[0].workers == workers:
        return _KEPT[0]
    close_kept_pool()
    pool = ProcessPool(workers)
    if not _HOOKED:
        atexit.register(close_kept_pool)
        _HOOKED.append(True)
    _KEPT.append(pool)
    return pool


def close_kept_pool(at_once: bool = False) -> None:
    """Stop the kept pool's workers (``at_once``: without waiting for their tasks) and unlink its shared blocks
    (nothing happens when there is none)."""
    while _KEPT:
        _KEPT.pop().close(at_once)
