"""A solve in a worker process, polled from this one: where it is through a small shared block, stop by a flag.

A window must keep drawing while a room is solved. Stepping the solver in time slices on the window's own
thread makes the solve pay for every redraw between slices (with software OpenGL, most of the time).
:func:`solve_remote` runs the same :class:`~.solver.Step` generator in a worker of a
:class:`~strew.core.pool.ProcessPool` instead and only reads where it is: this process waits idle between
polls. The result is the same grid as in this process (the solver is deterministic); closing the generator
asks the worker to stop at its next step (within ~10 ms) and frees both shared blocks.

Examples
--------
>>> from strew.core.pool import ProcessPool
>>> from strew.core.wfc import SocketTile
>>> from strew.core.wfc.room import RoomSpec, room_problem
>>> floor = SocketTile("floor", {"n": "open", "e": "open", "s": "open", "w": "open"})
>>> wall = SocketTile("wall", {"n": "wall", "e": "wall", "s": "wall", "w": "wall"})
>>> problem = room_problem([floor, wall], [], RoomSpec(size=(8, 6, 1), seed=3))
>>> with ProcessPool(1) as pool:
...     result = run_to_end(solve_remote(problem, pool))
>>> bool((result.grid == problem.run().grid).all())
True
"""

from __future__ import annotations

from collections.abc import Generator
from concurrent.futures import Future, wait
from multiprocessing import shared_memory
from typing import Any, Protocol

import numpy as np

from ..steps import run_to_end
from .solver import SolveResult, Step

POLL = 0.02
"""Seconds between two looks at the worker (this process waits idle meanwhile)."""

PHASES = ("setup", "search", "done")
_STOP, _PHASE, _FRACTION, _DECIDED, _CELLS, _ATTEMPT = range(6)


class Problem(Protocol):
    """What a worker solves: anything with the solver's ``steps()`` (a room problem)."""

    def steps(self) -> Generator[Step, None, SolveResult]: ...


class Stopped(Exception):
    """The worker's solve was asked to stop."""


class StepBoard:
    """Six float64 slots in shared memory: a stop flag, then phase, fraction, decided, cells and attempt."""

    def __init__(self, name: str | None = None) -> None:
        self._memory = shared_memory.SharedMemory(name=name, create=name is None, size=6 * 8)
        self._values: np.ndarray = np.ndarray((6,), dtype=np.float64, buffer=self._memory.buf)
        if name is None:
            self._values[:] = 0.0

    @property
    def name(self) -> str:
        return self._memory.name

    def post(self, step: Step) -> None:
        """Write where the solve is (the worker)."""
        self._values[_PHASE:] = (PHASES.index(step.phase), step.fraction, step.decided, step.cells, step.attempt)

    def read(self) -> Step | None:
        """Where the solve is, or None before its first step."""
        phase, fraction, decided, cells, attempt = self._values[_PHASE:].tolist()
        if cells == 0:
            return None
        return Step(PHASES[int(phase)], fraction, int(decided), int(cells), int(attempt))

    def ask_stop(self) -> None:
        self._values[_STOP] = 1.0

    @property
    def stop_asked(self) -> bool:
        return bool(self._values[_STOP])

    def close(self, unlink: bool) -> None:
        del self._values  # the buffer must not be exported when the block closes
        self._memory.close()
        if unlink:
            self._memory.unlink()


def _solve_in_worker(problem: Problem, board_name: str) -> SolveResult:
    """The worker's side: step the solve, posting each step, until it ends or is asked to stop."""
    board = StepBoard(board_name)
    steps = problem.steps()
    try:
        while not board.stop_asked:
            try:
                board.post(next(steps))
            except StopIteration as done:
                return done.value
        raise Stopped("asked to stop")
    finally:
        steps.close()
        board.close(unlink=False)


class Pool(Protocol):
    """The part of :class:`~strew.core.pool.ProcessPool` used here."""

    def share(self, work: Any) -> Any: ...

    def submit(self, fn: Any, handle: Any, *args: Any) -> Future[Any]: ...

    def release(self, handle: Any) -> None: ...


def solve_remote(problem: Problem, pool: Pool) -> Generator[Step | None, None, SolveResult]:
    """Solve ``problem`` in one of ``pool``'s workers; yields the latest step (None before the first) about every
    :data:`POLL` seconds and returns the :class:`~.solver.SolveResult`. The solver's own errors
    (``Contradiction``, ``ValueError``) come through unchanged.

    Parameters
    ----------
    problem : Problem
        What to solve (a :class:`~.room.RoomProblem`); it is sent to the worker, so it must pickle.
    pool : Pool
        A :class:`~strew.core.pool.ProcessPool` (or anything with its ``share``, ``submit`` and ``release``).
    """
    board = StepBoard()
    handle = pool.share(problem)
    future: Future[SolveResult] | None = None
    try:
        future = pool.submit(_solve_in_worker, handle, board.name)
        while True:
            done, _ = wait([future], timeout=POLL)
            if done:
                return future.result()
            yield board.read()
    finally:
        if future is not None and not future.done():
            board.ask_stop()
        pool.release(handle)
        board.close(unlink=True)


__all__ = ["POLL", "StepBoard", "Stopped", "run_to_end", "solve_remote"]
