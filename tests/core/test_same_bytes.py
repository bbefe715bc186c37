"""The same layer gives the same bytes in fresh processes, on 1, 2 or 3 workers, and under other interpreters.

``STREW_SAME_BYTES_PYTHONS`` (paths separated by ``os.pathsep``) names further interpreters with numpy to compare
with: ``make test`` passes a Python 3.11 with numpy 1.26, ``make test-compat`` the main Python 3.13 with numpy 2.x.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import same_bytes_job

JOB = Path(same_bytes_job.__file__).resolve()
REPO = JOB.parents[2]
OTHERS = [os.path.abspath(p) for p in os.environ.get("STREW_SAME_BYTES_PYTHONS", "").split(os.pathsep) if p]


def run_job(python: str, workers: int, hash_seed: int) -> dict:
    """The job's report from a fresh ``python`` process, importing this checkout as ``strew``."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "strew").symlink_to(REPO, target_is_directory=True)
        env = {**os.environ, "PYTHONPATH": folder, "PYTHONHASHSEED": str(hash_seed)}
        done = subprocess.run([python, str(JOB), str(workers)], capture_output=True, text=True, env=env,
                              cwd=folder, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def here() -> dict[str, str]:
    digests = same_bytes_job.digests(1)
    assert int(digests["count"]) > 300  # a real layer, not an empty one
    return digests


@pytest.mark.parametrize(("workers", "hash_seed"), [(1, 1), (1, 2), (2, 3), (3, 4)])
def test_fresh_processes_and_worker_counts_give_the_bytes_of_this_process(here, workers, hash_seed) -> None:
    report = run_job(sys.executable, workers, hash_seed)
    assert report["digests"] == here


@pytest.mark.skipif(not OTHERS, reason="no other interpreter named in STREW_SAME_BYTES_PYTHONS (make test names one)")
@pytest.mark.parametrize("python", OTHERS or ["none"])
def test_other_interpreters_and_numpy_versions_give_the_same_bytes(here, python) -> None:
    report = run_job(python, 2, 5)
    assert report["digests"] == here, f"Python {report['python']} with numpy {report['numpy']} differs"
