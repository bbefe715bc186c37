"""The same chunk tasks on a Dask cluster of several worker processes: the points of one process."""

from __future__ import annotations

import pytest
from distributed import LocalCluster
from strew.core.farm import DaskCluster
from strew.core.scatter import chunk_work, scatter_layer
from test_chunks import ARRAYS, nine_chunk_world


def test_dask_local_cluster_gives_the_points_of_one_process() -> None:
    terrain, spec, blockers = nine_chunk_world()
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
