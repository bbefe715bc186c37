"""The first thing a fresh worker process runs, by file path, before any Strew module is importable there.

It makes the package importable under the name the parent process uses — ``strew`` with pip, or
``bl_ext.<repository>.strew`` inside Blender, where ``bl_ext`` exists only in Blender's own process — so
tasks and the objects they carry unpickle in the worker as they were pickled. :mod:`strew.core.pool`
passes this file to :func:`runpy.run_path` as the pool's initializer with ``PACKAGE`` and ``ROOT`` set, and
``PRELOAD``: the modules a chunk task unpickles (the sampler, the terrain lookup, the fields), imported at boot,
and ``PARENT``: the pid of the process that started the worker.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import os
import signal
import sys
import threading
import time
import types

RUN_NAME = "__strew_worker__"


def install(package: str, root: str) -> None:
    """Import ``package`` (a dotted name) from the folder ``root``; parent packages become empty stubs."""
    if package in sys.modules:
        return
    try:
        importlib.import_module(package)
        return
    except ImportError:
        pass
    parts = package.split(".")
    for end in range(1, len(parts)):
        name = ".".join(parts[:end])
        if name not in sys.modules:
            stub = types.ModuleType(name)
            stub.__path__ = []
            sys.modules[name] = stub
    spec = importlib.util.spec_from_file_location(package, f"{root}/__init__.py", submodule_search_locations=[root])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {package} from {root}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)


def keep_freed_memory() -> None:
    """Ask glibc to keep freed memory for reuse instead of returning it to the system at once.

    A worker allocates the same large temporaries for every chunk; in a fresh process glibc hands them
    back to the kernel when freed, and faulting the pages in again cost about a third of the worker's
    time (70,000 page faults per million terrain queries, none in a warmed-up process). Elsewhere than
    on glibc this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 32 << 20)  # the largest glibc accepts
    mallopt(m_trim_threshold, 512 << 20)


def die_with_parent(parent: int) -> None:
    """End this worker when ``parent`` (the process that started it, by the pid it passed) ends, even by a
    crash or ``os._exit``.

    A pool's workers wait on a queue whose other end they hold themselves, so they would never see their
    parent go. Linux ends them itself (``PR_SET_PDEATHSIG``); elsewhere a daemon thread looks once a second.
    Either way a parent gone before this call is caught: the parent's pid is the one recorded at its start,
    not the ``getppid()`` of now, which already names the adopting process.
    """
    if sys.platform.startswith("linux"):
        try:
            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            prctl = None
        if prctl is not None:
            pr_set_pdeathsig = 1
            prctl(pr_set_pdeathsig, signal.SIGTERM)
            if os.getppid() != parent:  # the parent went before the request
                os._exit(0)
            return
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="strew-parent-watch", daemon=True).start()


def _watch_parent(parent: int, every: float = 1.0) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def ignore_interrupts() -> None:
    """Leave Ctrl+C to the parent: a terminal sends it to every process of the command, and the parent ends its
    workers itself (a worker's own ``KeyboardInterrupt`` would print a traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def preload(package: str, modules: tuple[str, ...]) -> None:
    """Import the modules every task needs now, while the parent still prepares the work, not at the first task."""
    for name in modules:
        importlib.import_module(f"{package}.{name}")


if __name__ == RUN_NAME:
    ignore_interrupts()
    die_with_parent(globals().get("PARENT", os.getppid()))
    keep_freed_memory()
    install(globals()["PACKAGE"], globals()["ROOT"])
    preload(globals()["PACKAGE"], globals().get("PRELOAD", ()))
