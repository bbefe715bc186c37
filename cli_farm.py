"""``scatter`` options for every core, a Dask cluster and farm tasks, and the ``merge`` command.

:mod:`strew.cli` adds these to its parser and calls them from its ``scatter`` command; the farm recipe and the
job graph are in docs/scatter.md (Large worlds).
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .cli_files import CliError, existing_folder, make_parents, writable_file, writable_folder
from .core.farm import check_timeout
from .core.pool import usable_workers
from .core.worker_choice import AUTO


def add_scatter_options(scatter: argparse.ArgumentParser) -> None:
    scatter.add_argument("--workers", type=int, metavar="N",
                         help="processes sampling chunks at once; 0: auto, per layer one process or one per core, "
                         "whichever is faster (default: the file's setting, auto unless set)")
    scatter.add_argument("--scheduler", metavar="ADDRESS",
                         help="run the chunks on a Dask cluster, e.g. tcp://10.0.0.5:8786 (pip install strew[dask])")
    scatter.add_argument("--scheduler-timeout", type=float, default=10.0, metavar="SECONDS",
                         help="how long to wait for the Dask scheduler to answer (default 10)")
    scatter.add_argument("--plan", metavar="PLAN.json",
                         help="write the farm job graph (tasks and stages) as JSON and stop")
    scatter.add_argument("--chunks", metavar="FIRST:END",
                         help="farm task: compute tasks FIRST..END-1 into --parts (see --plan); no .blend is saved")
    scatter.add_argument("--parts", metavar="DIR", help="folder of the farm tasks' part files")


def add_merge_command(commands: Any, handler: Callable[[argparse.Namespace], int]) -> None:
    merge = commands.add_parser("merge", help="write the part files of farm tasks into a .blend and save it",
                                description="Assemble the points that `scatter --chunks` tasks wrote to --parts "
                                "into the layers' outputs, as one Scatter run would, and save.")
    merge.add_argument("blend", help="the .blend the tasks ran on")
    merge.add_argument("--parts", required=True, metavar="DIR", help="folder of the farm tasks' part files")
    merge.add_argument("-o", "--output", help="where to save the result")
    merge.add_argument("--in-place", action="store_true", help="overwrite the input file")
    merge.set_defaults(handler=handler)


def is_farm_task(args: argparse.Namespace) -> bool:
    """``--plan`` or ``--chunks``: no .blend is saved."""
    return args.plan is not None or args.chunks is not None


def _parse_chunks(text: str) -> tuple[int, int]:
    start, _, stop = text.partition(":")
    try:
        first, end = int(start), int(stop)
    except ValueError:
        raise CliError(f"--chunks {text!r}: write FIRST:END task numbers, e.g. 0:40 (see --plan)") from None
    if not 0 <= first < end:
        raise CliError(f"--chunks {text}: FIRST must be ≥ 0 and below END, e.g. 0:40 (see --plan)")
    return first, end


def check(args: argparse.Namespace) -> None:
    """--workers, --scheduler and the farm options, refused before the file is opened."""
    if args.scheduler is not None and args.workers is not None:
        raise CliError("--workers and --scheduler exclude each other: the Dask cluster decides the workers")
    try:
        check_timeout(args.scheduler_timeout, "--scheduler-timeout")
    except ValueError as error:
        raise CliError(str(error)) from None
    if args.chunks is not None:
        _parse_chunks(args.chunks)
        if args.parts is None:
            raise CliError("--chunks needs --parts DIR: the folder shared by the farm's tasks and the merge")
        args.parts = writable_folder(args.parts, f"--parts {args.parts}")
    if args.plan is not None:
        args.plan = writable_file(args.plan, f"--plan {args.plan}")


def apply(args: argparse.Namespace, settings: Any) -> None:
    """Settings the options change in the opened file (``scene.strew``); more workers than cores are capped, in a
    line that says so."""
    asked = args.workers if args.workers is not None else settings.workers
    usable = AUTO if asked == AUTO else usable_workers(asked)
    if usable < asked:
        shown = f"--workers {asked}" if args.workers is not None else f"the file's Workers setting ({asked})"
        print(f"{shown}: this machine has {usable} cores; using {usable} worker processes")
    if args.workers is not None:
        settings.workers = usable


def run_farm_task(args: argparse.Namespace) -> int:
    """``--plan`` or ``--chunks`` on the opened file."""
    import bpy

    from .scene import scatter_farm, scatter_job

    try:
        job = scatter_farm.prepare(bpy.context)
        if args.plan:
            target = Path(args.plan)
            make_parents(target)
            scatter_farm.replace_whole(target, lambda temporary: temporary.write_text(job.plan()))
            print(f"{len(job.tasks)} tasks in {len(job.stages)} stages; plan written to {target}")
            return 0
        first, end = _parse_chunks(args.chunks)
        if end > len(job.tasks):
            raise CliError(f"--chunks {args.chunks}: this job has {len(job.tasks)} tasks (see --plan)")
        started = time.perf_counter()
        count = scatter_farm.run_tasks(job, first, end, Path(args.parts))
    except scatter_job.ScatterError as error:
        raise CliError(str(error)) from error
    print(f"tasks {first}:{end}: {count:,} instances in {time.perf_counter() - started:.2f} s; parts in {args.parts}")
    return 0


def backend(args: argparse.Namespace) -> contextlib.AbstractContextManager[Any]:
    """The Dask cluster at ``--scheduler`` (closed on exit), or None: the file's Workers setting decides."""
    if args.scheduler is None:
        return contextlib.nullcontext()
    from .core.farm import DaskCluster

    try:
        return DaskCluster(args.scheduler, args.scheduler_timeout)
    except ValueError as error:
        raise CliError(str(error)) from error


def merge_parts(args: argparse.Namespace) -> list[tuple[str, int]]:
    """Write the part files into the opened file's layers; returns (layer, instances)."""
    import bpy

    from .scene import scatter_farm, scatter_job

    parts = existing_folder(args.parts, f"--parts {args.parts}")
    try:
        return scatter_farm.merge(bpy.context, scatter_farm.prepare(bpy.context), parts)
    except scatter_job.ScatterError as error:
        raise CliError(str(error)) from error
