"""The same chunk tasks on a Dask cluster of several worker processes: the points of one process."""

from __future__ import annotations

import dataclasses
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from distributed import LocalCluster
from test_chunks import ARRAYS, nine_chunk_world

from strew.core.farm import DaskCluster
from strew.core.scatter import LayerSpec, chunk_work, scatter_layer
from strew.core.terrain import TerrainLookup


@pytest.mark.parametrize("by_size", [False, True], ids=["radius", "object size"])
def test_dask_local_cluster_gives_the_points_of_one_process(by_size: bool) -> None:
    terrain, spec, blockers = nine_chunk_world()
    if by_size:  # instances spaced by their prefabs' footprints, scale drawn per place
        spec = dataclasses.replace(spec, footprints=(0.3, 1.1, 2.4))
    alone = scatter_layer(terrain, spec, blockers)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            DaskCluster(cluster.scheduler_address) as farm:
        assert farm.workers == 2
        spread = scatter_layer(terrain, spec, blockers, backend=farm)
        # The layer's data sits on every worker once, before any task: tasks carry only its key.
        handle = farm.share(chunk_work(terrain, spec, blockers))
        holders = farm.client.who_has([handle])[handle.key]
        assert set(holders) == set(farm.client.scheduler_info()["workers"])
        farm.release(handle)
    for name in ARRAYS:
        assert getattr(spread, name).tobytes() == getattr(alone, name).tobytes(), name


def test_a_scheduler_that_does_not_answer_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match=r"no Dask scheduler answers at 'tcp://127\.0\.0\.1:9'") as error:
        DaskCluster("tcp://127.0.0.1:9", timeout=1.0)
    assert "\n" not in str(error.value)


def _silent_listener() -> socket.socket:
    """A port that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    return server


@pytest.mark.parametrize("timeout", [0.5, 2.0])
def test_a_listener_that_never_answers_honours_the_timeout(timeout: float) -> None:
    """In its own process: the client it gave up on is left in a thread there."""
    with _silent_listener() as server:
        port = server.getsockname()[1]
        script = ("import time\nimport distributed\nfrom strew.core.farm import DaskCluster\n"
                  "started = time.monotonic()\ntry:\n"
                  f"    DaskCluster('tcp://127.0.0.1:{port}', timeout={timeout})\n"
                  "except ValueError as error:\n    print(round(time.monotonic() - started, 3), error)\n")
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        whole = time.monotonic() - started
    waited, _, message = done.stdout.strip().partition(" ")
    assert message.startswith(f"no Dask scheduler answers at 'tcp://127.0.0.1:{port}' within {timeout:g} s"), \
        done.stdout + done.stderr[-2000:]
    assert "\n" not in message
    assert float(waited) < timeout + 1.0 and whole < 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_losing_the_only_worker_is_a_one_line_error() -> None:
    """A worker killed mid-run takes the layer's data with it: the run ends in one line, not a CancelledError."""
    dask = str(Path(sys.executable).with_name("dask"))
    address = f"tcp://127.0.0.1:{_free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], **quiet)
    worker = None
    try:
        worker = subprocess.Popen([dask, "worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard"],
                                  **quiet)
        terrain = TerrainLookup(np.array([[0, 0, 0], [600, 0, 0], [600, 600, 0], [0, 600, 0]], dtype=float),
                                np.array([[0, 1, 2], [0, 2, 3]]))
        spec = LayerSpec(min_radius=0.5, chunk_size=100.0)
        with DaskCluster(address, timeout=60.0) as farm:
            deadline = time.monotonic() + 60
            while not farm.client.scheduler_info().get("workers") and time.monotonic() < deadline:
                time.sleep(0.2)
            threading.Timer(2.0, worker.kill).start()
            with pytest.raises(ValueError) as error:
                scatter_layer(terrain, spec, backend=farm)
        assert str(error.value).startswith("a worker stopped before its chunk was done")
        assert "\n" not in str(error.value)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.kill()
                process.wait(timeout=30)
