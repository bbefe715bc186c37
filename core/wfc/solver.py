"""The WFC solver: observe the lowest-key cell, propagate, backtrack on contradiction, restart, give up.

Loop (as in the seed): pick the undecided cell with the smallest key (minimum entropy by default), collapse
it to one variant drawn by weight, propagate the consequences until nothing changes (:mod:`.search`). On an
empty domain (or a broken constraint) undo to the last decision and ban that choice (backtracking, up to
``max_backtracks`` per attempt; the first attempts get smaller budgets, 50, 100, 200, …), then restart with
fresh randomness (up to ``max_restarts``), then raise :class:`Contradiction`.

:func:`solve_steps` is the one driver: a generator that yields a :class:`Step` between decisions (and between
the phases of the setup) and returns a :class:`SolveResult`; :func:`solve_detailed` and :func:`solve` run it
to the end. A caller with a user interface steps it in time slices and closes it to cancel.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..steps import run_to_end
from .arguments import check_memory, grid_shape, seconds, whole_number
from .big_tiles import WholeTiles, whole_tiles
from .bitset import ChunkTables, pack, unpack
from .checks import periodic_axes
from .connectivity import Connectivity
from .constraints import Constraint, Grid, Violation
from .counts import Counts, count_groups
from .layout import Border, EdgeOnly, Entrances, Fixed, Periodic, bordered_sides
from .rules import Rules
from .search import Deadline, Exhausted, Search, check_deadline, neighbour_table
from .vocab import (
    AXIS,
    DEFAULT_MAX_BACKTRACKS,
    DEFAULT_MAX_RESTARTS,
    DEFAULT_MEMORY_BUDGET,
    DEFAULT_TIME_LIMIT,
    OPPOSITE,
    Heuristic,
)

FixedTiles = Mapping[tuple[int, ...], int | str] | np.ndarray
"""Fixed tiles: ``{cell: variant index or name}``, or an int array of the grid's shape with -1 for free cells."""
BorderValue = str | int | np.ndarray | Sequence[bool]
"""What stands outside one side of the grid: a socket label (socket rules), a variant index or name, or a (T,)
bool mask of the variants allowed along that side."""
BorderSpec = BorderValue | Mapping[str, BorderValue | None]
"""A border: one :data:`BorderValue` for every bordered side, or ``{side: value}``."""
TileCounts = Mapping[str, int | tuple[int, int | None]]
"""``{tile: n}`` or ``{tile: (min, max)}`` by source tile name, ``max`` None for no maximum."""


class Contradiction(RuntimeError):
    """No grid was found: the rules and constraints contradict, or the search budget ran out."""


@dataclass(frozen=True)
class SolveResult:
    """A solved grid and how the search went."""

    grid: np.ndarray
    restarts: int
    backtracks: int
    decisions: int
    seconds: float


@dataclass(frozen=True)
class Step:
    """Where a running solve is: ``phase`` is ``"setup"``, ``"search"`` or ``"done"``; ``fraction`` the share of
    cells decided (0 during the setup); ``attempt`` counts from 1."""

    phase: str
    fraction: float
    decided: int
    cells: int
    attempt: int

    @property
    def text(self) -> str:
        """A short English line, e.g. ``"attempt 1: 1,234 of 2,700 cells decided"``."""
        if self.phase == "setup":
            return f"preparing {self.cells:,} cells"
        return f"attempt {self.attempt}: {self.decided:,} of {self.cells:,} cells decided"


FIRST_BACKTRACK_BUDGET = 50
SCANLINE_AFTER_RESTARTS = 3
CONNECTED_PORTFOLIO = (Heuristic.SCANLINE, Heuristic.GROW)
"""Default heuristics of successive attempts when walkable cells must be connected: scanline grows one
straight front (kits where nearly every tile is walkable); grow floods the walkable region from where it is
and meets forced cells first (caves where walkable floor is sparse, walls that must continue). Neither wins
on every kit, so attempts alternate, scanline first (the cheaper one when both succeed)."""


def default_heuristic(attempt: int, connected: bool) -> Heuristic:
    """The heuristic of an attempt under ``Heuristic.AUTO``: entropy, then scanline from
    ``SCANLINE_AFTER_RESTARTS`` on (entropy thrashes on some sets, e.g. mxgmn's Summer); when walkable cells
    must be connected, ``CONNECTED_PORTFOLIO`` in turn.

    Parameters
    ----------
    attempt : int
        The attempt, 0 first.
    connected : bool
        Walkable cells must form one region.

    Examples
    --------
    >>> [str(default_heuristic(attempt, False)) for attempt in (0, 3)]
    ['ENTROPY', 'SCANLINE']
    """
    if connected:
        return CONNECTED_PORTFOLIO[attempt % len(CONNECTED_PORTFOLIO)]
    return Heuristic.ENTROPY if attempt < SCANLINE_AFTER_RESTARTS else Heuristic.SCANLINE


def _heuristic(value: Heuristic | str | None) -> Heuristic:
    """``value`` as a :class:`~.vocab.Heuristic` (any case; None is ``AUTO``), else a ``ValueError``."""
    try:
        return Heuristic(Heuristic.AUTO if value is None else value)
    except (ValueError, TypeError):
        raise ValueError(f"heuristic: use one of {', '.join(Heuristic)} (any case), got {value!r}") from None


STEP_SECONDS = 0.01


def _constraints(rules: Rules, axes: tuple[bool, ...], border: Any, sides: Sequence[str],
                 entrances: list[tuple[int, ...]], fixed: Any, groups: list, connected: bool,
                 extra: Sequence[Constraint]) -> list[Constraint]:
    """The constraints of one solve in the order they set up: the grid's edges first, then what narrows
    cells, then the caller's own, then the ones kept during the search."""
    out: list[Constraint] = [Periodic(axes)] if any(axes) else []
    out.append(EdgeOnly())
    if rules.footprints is not None:
        out.append(WholeTiles())
    if border is not None:
        out.append(Border(border, sides))
    if entrances:
        out.append(Entrances(entrances))
    if fixed is not None:
        out.append(Fixed(fixed))
    out.extend(extra)
    if groups:
        out.append(Counts(groups))
    if connected:
        out.append(Connectivity())
    return out


def _describe(rules: Rules, shape: tuple[int, ...], failure: tuple[int, np.ndarray, str] | None,
              hint: str = "") -> str:
    if failure is None:
        return ""
    cell, row, reason = failure
    where = tuple(int(v) for v in np.unravel_index(cell, shape)) if cell < math.prod(shape) else "?"
    left = np.flatnonzero(unpack(row, rules.count))
    names = ", ".join(repr(rules.name(int(i))) for i in left[:8]) + (" …" if left.size > 8 else "")
    return (f" Last failure at cell {where}: {reason} (it still had {left.size} variant(s): "
            f"{names or 'none'}).") + (f" {hint}" if hint else "")


def _failure_text(rules: Rules, shape: tuple[int, ...], search: Search | None,
                  chosen: Sequence[Constraint] = ()) -> str:
    """Where the search failed, and what the constraints involved there suggest: the one that failed during
    the search, else those shaping the start that the failure's cell ``touches``."""
    if search is None:
        return ""
    hint = search.hint
    if not hint and search.failure is not None:
        cell = search.failure[0]
        hint = " ".join(text for c in chosen if not c.searching and c.touches(cell)
                        for text in (c.explain(Violation(cell, search.failure[2])),) if text)
    return _describe(rules, shape, search.failure, hint)


def solve_steps(rules: Rules, shape: tuple[int, ...], seed: int = 0, *,
                periodic: bool | Sequence[bool] = False, heuristic: Heuristic | str | None = Heuristic.AUTO,
                fixed: FixedTiles | None = None, border: BorderSpec | None = None,
                border_sides: Sequence[str] | None = None, connected: bool = False,
                entrances: Iterable[Sequence[int]] = (), counts: TileCounts | None = None,
                constraints: Sequence[Constraint] = (),
                max_backtracks: int = DEFAULT_MAX_BACKTRACKS, max_restarts: int = DEFAULT_MAX_RESTARTS,
                time_limit: float = DEFAULT_TIME_LIMIT, memory_budget: int = DEFAULT_MEMORY_BUDGET,
                step_seconds: float = STEP_SECONDS) -> Generator[Step, None, SolveResult]:
    """The solve as a generator: yields a :class:`Step` at least every ``step_seconds`` (between decisions and
    setup phases), returns the :class:`SolveResult`; closing it stops the solve.

    Parameters
    ----------
    rules, shape, seed
        As in :func:`solve`.
    periodic, heuristic, fixed, border, border_sides, connected, entrances, counts, constraints
        As in :func:`solve`.
    max_backtracks, max_restarts, time_limit, memory_budget
        As in :func:`solve`.
    step_seconds : float, default STEP_SECONDS
        The least seconds (>= 0) between two steps yielded during the search (the setup's phases and the
        last step are always yielded).

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[False, True], [True, False]])
    >>> steps = solve_steps(Rules(weights=np.ones(2), allowed={"e": A, "n": A}), (6, 6), seed=0)
    >>> phases = []
    >>> while True:
    ...     try:
    ...         phases.append(next(steps).phase)
    ...     except StopIteration as stop:
    ...         result = stop.value
    ...         break
    >>> phases[0], phases[-1], result.grid.shape
    ('setup', 'done', (6, 6))
    """
    started = time.perf_counter()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: expected a Rules object, not a {type(rules).__name__}")
    shape = grid_shape(rules, shape)
    seed = whole_number("seed", seed)
    max_backtracks = whole_number("max_backtracks", max_backtracks)
    max_restarts = whole_number("max_restarts", max_restarts)
    memory_budget = whole_number("memory_budget", memory_budget, 1)
    time_limit = seconds("time_limit", time_limit)
    if isinstance(step_seconds, bool) or not isinstance(step_seconds, int | float) or not step_seconds >= 0:
        raise ValueError(f"step_seconds: expected a number >= 0, got {step_seconds!r}")
    check_memory(rules, shape, memory_budget)
    entrance_cells: list[tuple[int, ...]] = [tuple(e) for e in entrances]
    constraints = tuple(constraints)
    for extra in constraints:
        if not isinstance(extra, Constraint):
            raise ValueError(f"constraints: expected Constraint objects, got {type(extra).__name__}")
    connected = bool(connected) or bool(entrance_cells)
    picked = _heuristic(heuristic)
    auto = picked is Heuristic.AUTO
    if auto:
        picked = default_heuristic(0, connected)
    axes = periodic_axes(periodic, len(shape))
    sides = bordered_sides(border, border_sides)
    if border is not None and any(axes[AXIS[s]] for s in sides if AXIS.get(s, 9) < len(axes)):
        raise ValueError("border: a periodic axis has no border; set periodic=False on that axis or drop the "
                         "side from border_sides")
    if connected and not rules.walkable_mask().any():
        raise ValueError("connected: the rules have no walkable tile; mark walkable tiles or drop connected")
    cells = math.prod(shape)
    groups = count_groups(rules, counts, cells) if counts else []
    deadline = started + time_limit
    step = Step("setup", 0.0, 0, cells, 0)
    counters = {"decisions": 0, "backtracks": 0, "restarts": 0}
    search: Search | None = None
    chosen: list[Constraint] = []
    yield step
    try:
        neighbours = neighbour_table(shape, rules.directions, deadline)
        yield step
        # A cell pulls from its neighbour in direction d: variant b there allows matrix(opposite d)[b, :].
        tables = ChunkTables.build([rules.matrix(OPPOSITE[d]) for d in rules.directions], rules.weights)
        check_deadline(deadline)
        start = np.empty((cells, tables.width), dtype=np.uint64)
        start[:] = pack(np.ones(rules.count, dtype=bool))
        grid = Grid(rules, shape, neighbours, start, tables)
        chosen = _constraints(rules, axes, border, sides, entrance_cells, fixed, groups, connected, constraints)
        for constraint in chosen:
            constraint.setup(grid)
            check_deadline(deadline)
        search = Search(rules, shape, grid.neighbours, tables, picked, grid.start, deadline)
        search.constraints = [c for c in chosen if c.searching]
        if grid.zone is not None:
            search.zone, search.zone_weights = grid.zone, np.stack(grid.zone_weights)
        yield step
        if not search.initial():
            raise Contradiction(
                "the fixed tiles, border, entrances, regions and counts contradict each other or the rules before "
                "any choice." + _failure_text(rules, shape, search, chosen)
                + " Try: move or drop a fixed tile, change the border, a region or the counts, or relax "
                "connectivity."
            )
        rng = np.random.default_rng(seed)
        for restart in range(max_restarts + 1):
            counters["restarts"] = restart
            if auto:
                search.heuristic = default_heuristic(restart, connected)
            # Small budgets first (cheap restarts beat long thrashing), growing to max_backtracks.
            budget = min(max_backtracks, FIRST_BACKTRACK_BUDGET << restart)
            attempt = search.attempt(rng, budget, counters)
            last = -math.inf
            while True:
                try:
                    next(attempt)
                except StopIteration as stop:
                    solved = stop.value
                    break
                now = time.perf_counter()
                if now - last >= step_seconds:
                    last = now
                    decided = search.decided()
                    yield Step("search", decided / cells, decided, cells, restart + 1)
            if solved:
                yield Step("done", 1.0, cells, cells, restart + 1)
                return SolveResult(search.grid(), restart, counters["backtracks"], counters["decisions"],
                                   time.perf_counter() - started)
    except Exhausted:
        raise Contradiction(
            "no grid exists: every choice was tried (complete backtracking search)."
            + _failure_text(rules, shape, search, chosen)
            + " Try: relax a constraint (fixed tiles, border, counts, connectivity) or add tiles."
        ) from None
    except Deadline:
        where = (f"after {counters['restarts']} restart(s) and {counters['backtracks']} backtrack(s)"
                 if counters["decisions"] else "while preparing the grid")
        raise Contradiction(
            f"time_limit={time_limit} s ran out {where}." + _failure_text(rules, shape, search, chosen)
            + f" Try: a larger time_limit, another seed, heuristic={Heuristic.SCANLINE.value!r}, or relax a "
            "constraint."
        ) from None
    raise Contradiction(
        f"no grid found in {max_restarts + 1} attempt(s) with up to {max_backtracks} backtrack(s) each."
        + _failure_text(rules, shape, search, chosen)
        + " Try: a larger max_backtracks or max_restarts, another seed, "
        f"heuristic={Heuristic.SCANLINE.value!r} or {Heuristic.MRV.value!r}, "
        "or relax a constraint (fixed tiles, border, counts, connectivity)."
    )


def solve_detailed(rules: Rules, shape: tuple[int, ...], seed: int = 0, *,
                   periodic: bool | Sequence[bool] = False, heuristic: Heuristic | str | None = Heuristic.AUTO,
                   fixed: FixedTiles | None = None, border: BorderSpec | None = None,
                   border_sides: Sequence[str] | None = None, connected: bool = False,
                   entrances: Iterable[Sequence[int]] = (), counts: TileCounts | None = None,
                   constraints: Sequence[Constraint] = (),
                   max_backtracks: int = DEFAULT_MAX_BACKTRACKS, max_restarts: int = DEFAULT_MAX_RESTARTS,
                   time_limit: float = DEFAULT_TIME_LIMIT,
                   memory_budget: int = DEFAULT_MEMORY_BUDGET) -> SolveResult:
    """Like :func:`solve`, also reporting restarts, backtracks, decisions and seconds.

    Parameters
    ----------
    rules, shape, seed
        As in :func:`solve`.
    periodic, heuristic, fixed, border, border_sides, connected, entrances, counts, constraints
        As in :func:`solve`.
    max_backtracks, max_restarts, time_limit, memory_budget
        As in :func:`solve`.

    Returns
    -------
    SolveResult
        The grid, the restarts and backtracks it took, the decisions made and the seconds spent.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[False, True], [True, False]])
    >>> result = solve_detailed(Rules(weights=np.ones(2), allowed={"e": A, "n": A}), (6, 6), seed=0)
    >>> result.grid.shape, result.restarts
    ((6, 6), 0)
    """
    return run_to_end(solve_steps(
        rules, shape, seed, periodic=periodic, heuristic=heuristic, fixed=fixed, border=border,
        border_sides=border_sides, connected=connected, entrances=entrances, counts=counts, constraints=constraints,
        max_backtracks=max_backtracks, max_restarts=max_restarts, time_limit=time_limit,
        memory_budget=memory_budget, step_seconds=math.inf))


def solve(rules: Rules, shape: tuple[int, ...], seed: int = 0, *,
          periodic: bool | Sequence[bool] = False, heuristic: Heuristic | str | None = Heuristic.AUTO,
          fixed: FixedTiles | None = None, border: BorderSpec | None = None,
          border_sides: Sequence[str] | None = None, connected: bool = False,
          entrances: Iterable[Sequence[int]] = (), counts: TileCounts | None = None,
          constraints: Sequence[Constraint] = (),
          max_backtracks: int = DEFAULT_MAX_BACKTRACKS, max_restarts: int = DEFAULT_MAX_RESTARTS,
          time_limit: float = DEFAULT_TIME_LIMIT, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> np.ndarray:
    """Fill a grid of ``shape`` with variant indices so that every adjacency obeys ``rules``.

    Parameters
    ----------
    rules : Rules
        Explicit, from :func:`rules_from_tiles` or from :func:`load_mxgmn`.
    shape : tuple of int
        ``(X, Y)`` for 2-D rules, ``(X, Y, Z)`` for 3-D rules; the result is indexed ``grid[x, y(, z)]``.
    seed : int, default 0
        Seed of the ``numpy.random.Generator``; the same inputs and seed give the same grid.
    periodic : bool or sequence of bool, default False
        One bool for x and y (they wrap; z never does), or one bool per axis.
    heuristic : Heuristic or str, default Heuristic.AUTO
        Which undecided cell is decided next: a :class:`~.vocab.Heuristic` or its name in any case (None is
        ``AUTO``). ``AUTO``: entropy for the first three attempts, then scanline; when ``connected``, attempts
        alternate between scanline and grow (``CONNECTED_PORTFOLIO``).
    fixed : dict or numpy.ndarray, optional
        ``{cell: variant index or name}``, or an int array of ``shape`` with -1 for free cells.
    border : str, int, array or dict, optional
        What surrounds the grid: a socket label (socket rules), a variant index or name that stands outside,
        or a (T,) bool mask of the variants allowed along the edge; one value for the sides in
        ``border_sides``, or a dict ``{side: value}`` (e.g. ``{"e": "wall", …, "up": "air"}``). None: no
        border (any variant may stand along the edges).
    border_sides : sequence of str, optional
        The sides ``border`` applies to; default the keys of a dict, else the four horizontal sides (add
        ``"up"``/``"down"`` for the top/bottom layer).
    connected : bool, default False
        All cells with a walkable tile form one region (propagated during the search).
    entrances : iterable of cells, default ()
        Cells that must be walkable and joined to that region (implies ``connected``).
    counts : dict, optional
        ``{tile: (min, max)}`` or ``{tile: n}`` by source tile name (all turns and mirrors together; ``max``
        None for no maximum), e.g. ``{"entrance": (1, 1), "stairs": (0, 4)}``.
    constraints : sequence of Constraint, default ()
        More :class:`~.constraints.Constraint` objects of the caller's own (set up after the fixed tiles, kept
        during the search when ``searching``).
    max_backtracks : int, default DEFAULT_MAX_BACKTRACKS
        Undo steps per attempt before a restart (the first attempts get less: 50, 100, 200, …).
    max_restarts : int, default DEFAULT_MAX_RESTARTS
        Restarts before giving up.
    time_limit : float, default DEFAULT_TIME_LIMIT
        Seconds for the whole call, setup included.
    memory_budget : int, default DEFAULT_MEMORY_BUDGET
        Bytes the grid may take (checked before anything is allocated).

    Returns
    -------
    numpy.ndarray
        Int array of ``shape``: the variant index of each cell.

    Raises
    ------
    Contradiction
        When no grid is found (the message says where, which variants, and what to try).
    ValueError
        For bad input (the message names the argument).

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[False, True], [True, False]])          # a checkerboard
    >>> rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A})
    >>> grid = solve(rules, (4, 4), seed=1, periodic=True)
    >>> bool((grid != np.roll(grid, 1, axis=0)).all())
    True
    """
    return solve_detailed(
        rules, shape, seed, periodic=periodic, heuristic=heuristic, fixed=fixed, border=border,
        border_sides=border_sides, connected=connected, entrances=entrances, counts=counts, constraints=constraints,
        max_backtracks=max_backtracks, max_restarts=max_restarts, time_limit=time_limit,
        memory_budget=memory_budget).grid


def regenerate(rules: Rules, grid: np.ndarray, box: Iterable[slice | Sequence[int]], seed: int = 0, *,
               periodic: bool | Sequence[bool] = False, heuristic: Heuristic | str | None = Heuristic.AUTO,
               border: BorderSpec | None = None, border_sides: Sequence[str] | None = None,
               connected: bool = False, entrances: Iterable[Sequence[int]] = (), counts: TileCounts | None = None,
               constraints: Sequence[Constraint] = (),
               max_backtracks: int = DEFAULT_MAX_BACKTRACKS, max_restarts: int = DEFAULT_MAX_RESTARTS,
               time_limit: float = DEFAULT_TIME_LIMIT, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> np.ndarray:
    """Re-solve the cells of ``box`` in an existing ``grid``, keeping every other cell as it is.

    Parameters
    ----------
    rules : Rules
        The rules ``grid`` was solved with.
    grid : numpy.ndarray
        Int array of variant indices, one axis per dimension of the rules.
    box : sequence of slice or (start, stop)
        One per axis (stop exclusive): the cells solved again. The cells outside it are the fixed tiles (so
        there is no ``fixed`` option here).
    seed : int, default 0
        As in :func:`solve`.
    periodic, heuristic, border, border_sides, connected, entrances, counts, constraints
        As in :func:`solve`.
    max_backtracks, max_restarts, time_limit, memory_budget
        As in :func:`solve`.

    Returns
    -------
    numpy.ndarray
        A new grid of ``grid``'s shape.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.ones((2, 2), dtype=bool)
    >>> rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A})
    >>> old = np.zeros((4, 4), dtype=int)
    >>> new = regenerate(rules, old, ((1, 3), (1, 3)), seed=2)
    >>> bool((new[0] == 0).all() and (new[3] == 0).all())
    True
    """
    grid = np.asarray(grid)
    if grid.ndim != rules.dims or grid.dtype.kind not in "iu":
        raise ValueError(f"grid: expected an int array with {rules.dims} axes, got {grid.dtype} {grid.shape}")
    box = tuple(box)
    if len(box) != grid.ndim:
        raise ValueError(f"box: give one slice or (start, stop) per axis ({grid.ndim}), got {box!r}")
    index = tuple(b if isinstance(b, slice) else slice(int(b[0]), int(b[1])) for b in box)
    fixed = grid.astype(np.int64).copy()
    if fixed[index].size == 0:
        raise ValueError(f"box: {box!r} selects no cell of the grid of shape {grid.shape}")
    fixed[index] = -1
    fixed[whole_tiles(rules, grid, fixed < 0)] = -1  # a big tile the box cuts is solved again whole
    return solve(rules, grid.shape, seed, periodic=periodic, heuristic=heuristic, fixed=fixed, border=border,
                 border_sides=border_sides, connected=connected, entrances=entrances, counts=counts,
                 constraints=constraints, max_backtracks=max_backtracks, max_restarts=max_restarts,
                 time_limit=time_limit, memory_budget=memory_budget)
