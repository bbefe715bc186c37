"""Workers end with the process that started them, even when it is gone before they finish booting, on Linux
(``PR_SET_PDEATHSIG``) and elsewhere (a thread that watches the recorded parent)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from strew.core import worker_boot


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" not in status.read_text()
    except OSError:
        return False


def _all_end(pids: list[int], within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(map(_alive, pids))


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_end_when_the_parent_goes_before_they_boot(workers: int) -> None:
    """The parent ends right after spawning: the workers boot with the parent already gone."""
    script = (f"import os\nfrom strew.core.pool import kept_pool\npool = kept_pool({workers})\npool.start()\n"
              "print(*pool.pids, flush=True)\nos._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == workers, done.stderr[-2000:]
    assert _all_end(pids)


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_elsewhere_a_thread_watches_the_parent(platform: str) -> None:
    """Without prctl a worker polls for its recorded parent; a middle process starts one and ends."""
    child = (f"import sys, time, runpy\nsys.platform = {platform!r}\n"
             f"boot = runpy.run_path({worker_boot.__file__!r})\n"
             "parent = int(sys.argv[1])\nboot['die_with_parent'](parent)\nprint('watching', flush=True)\n"
             "time.sleep(120)\n")
    middle = ("import os, subprocess, sys\n"
              f"p = subprocess.Popen([sys.executable, '-c', {child!r}, str(os.getpid())], stdout=subprocess.PIPE, "
              "text=True)\nassert p.stdout.readline() == 'watching\\n'\nprint(p.pid, flush=True)\nos._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", middle], capture_output=True, text=True, timeout=120)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 1, done.stderr[-2000:]
    assert _all_end(pids, within=10.0)


def test_a_worker_whose_parent_is_gone_already_ends_at_once() -> None:
    """The parent recorded at spawn is not this process's parent any more: the worker ends before any work."""
    code = (f"import runpy\nboot = runpy.run_path({worker_boot.__file__!r})\nboot['die_with_parent'](1)\n"
            "print('alive')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "alive" not in done.stdout
