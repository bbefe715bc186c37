"""Chunk tasks on a Dask cluster (``pip install 'strew[dask]'``): the same tasks and points as the local pool.

The layer's data is scattered to every worker once (``Client.scatter(..., broadcast=True)``); each chunk
is one task that Dask schedules after the chunks it needs (:mod:`strew.core.chunks`). The workers import
Strew as ``strew``, so they need the package installed (numpy only; no Blender).

Examples
--------
>>> from distributed import LocalCluster
>>> from strew.core.scatter import LayerSpec, scatter_layer
>>> from strew.core.terrain import TerrainLookup
>>> import numpy as np
>>> terrain = TerrainLookup(np.array([[0, 0, 0], [60, 0, 0], [0, 60, 1.0]]), np.array([[0, 1, 2]]))
>>> spec = LayerSpec(min_radius=2.0, seed=4, chunk_size=20.0)
>>> with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
...     with DaskCluster(cluster.scheduler_address) as farm:
...         spread = scatter_layer(terrain, spec, backend=farm)
>>> bool((spread.positions == scatter_layer(terrain, spec).positions).all())
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from types import TracebackType
from typing import Any, TypeVar

from .chunks import worker_lost
from .inputs import bounded

T = TypeVar("T")

TIMEOUT_RANGE = (0.1, 86_400.0)
"""Seconds to wait for the scheduler to answer: from a tenth of a second to a day."""


def check_timeout(timeout: object, name: str = "timeout") -> float:
    """``timeout`` in seconds when it lies in ``TIMEOUT_RANGE``; a one-line ValueError otherwise."""
    return float(bounded(timeout, name, *TIMEOUT_RANGE))


def _connect(address: str, timeout: float) -> Any:
    """A Dask client of the scheduler at ``address``, or a one-line ValueError once ``timeout`` seconds passed.

    The client's own timeout covers opening the connection only: a listener that accepts and never answers would
    hold it forever. So the client is made in a thread this call waits for at most ``timeout`` seconds (a refused
    or unreachable address ends with the same message); a client that comes later is closed at once.
    """
    from distributed import Client

    outcome: list[Any] = []
    lock = threading.Lock()

    def connect() -> None:
        try:
            client: Any = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            client = error
        with lock:
            outcome.append(client)
            late = len(outcome) > 1  # the caller gave up and left its mark first
        if late and not isinstance(client, Exception):
            client.close()

    thread = threading.Thread(target=connect, name="strew-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout)
    with lock:
        if not outcome:
            outcome.append(None)  # gave up: a client made from now on closes itself
    found = outcome[0]
    if found is None or isinstance(found, Exception):
        raise ValueError(f"no Dask scheduler answers at {address!r} within {timeout:g} s: start one "
                         "(`dask scheduler`) or check the address, e.g. tcp://10.0.0.5:8786") from found
    return found


class DaskCluster:
    """A :class:`~strew.core.chunks.Backend` that sends chunk tasks to the Dask scheduler at ``address``.

    Raises ValueError (one line) when Dask is missing or nothing answers at ``address`` within ``timeout``
    seconds.
    """

    def __init__(self, address: str, timeout: float = 10.0) -> None:
        timeout = check_timeout(timeout)
        try:
            import distributed  # noqa: F401
        except ImportError as error:
            raise ValueError("--scheduler needs Dask: pip install 'strew[dask]'") from error
        self.client: Any = _connect(address, timeout)
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self._executor = self.client.get_executor(pure=False)

    def share(self, work: Any) -> Any:
        try:
            return self.client.scatter(work, broadcast=True, hash=False)
        except OSError as error:  # Dask's CommClosedError: the worker went away while the data was on its way
            raise worker_lost(error) from error

    def submit(self, fn: Callable[..., T], handle: Any, *args: Any) -> Future[T]:
        future: Future[T] = self._executor.submit(fn, handle, *args)
        return future

    def release(self, handle: Any) -> None:
        handle.release()

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> DaskCluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
