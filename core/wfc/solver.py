"""The WFC search: observe the lowest-key cell, propagate, backtrack on contradiction, restart, give up.

Loop (as in the seed): pick the undecided cell with the smallest key (minimum entropy by default), collapse
it to one variant drawn by weight, propagate the consequences until nothing changes. On an empty domain
(or a broken connectivity requirement) undo to the last decision and ban that choice (backtracking, up to
``max_backtracks`` per attempt; the first attempts get smaller budgets, 50, 100, 200, …), then restart with
fresh randomness (up to ``max_restarts``), then raise
:class:`Contradiction`.

Propagation is vectorised over the whole frontier: every cell next to a changed cell recomputes its domain as
its old domain AND, for each direction, the union of what the neighbour's remaining variants allow —
bit rows and per-chunk lookup tables (:mod:`.bitset`), no loop over variants or cells.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .bitset import ChunkTables, pack, unpack
from .checks import neighbour_pairs, periodic_axes
from .constraints import ConnectivityCheck, initial_masks
from .heuristics import HEURISTICS, cell_keys
from .rules import OPPOSITE, Rules


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


DEFAULT_MEMORY_BUDGET = 1 << 30
FIRST_BACKTRACK_BUDGET = 50
SCANLINE_AFTER_RESTARTS = 3
CONNECTIVITY_FAILURE = "walkable cells could no longer all be connected"


def _any_rows(rows: np.ndarray) -> np.ndarray:
    """Row-wise any of a (k, W) array (the ufunc directly: no Python wrapper per call)."""
    return np.logical_or.reduce(rows, axis=1) if rows.shape[1] > 1 else rows[:, 0].astype(bool)


class SearchCancelled(Contradiction):
    """The ``progress`` callback returned False."""


class _ExhaustedError(Exception):
    pass


class _Search:
    def __init__(self, rules: Rules, shape: tuple[int, ...], periodic: bool | Sequence[bool], heuristic: str,
                 start: np.ndarray,
                 connected: bool) -> None:
        self.rules = rules
        self.shape = shape
        self.count = rules.count
        cells = int(np.prod(shape))
        self.cells = cells
        directions = rules.directions
        self.neighbours = np.full((len(directions), cells + 1), cells, dtype=np.int64)
        pairs = {}
        for d, direction in enumerate(directions):
            a, b = neighbour_pairs(shape, direction, periodic)
            self.neighbours[d, a] = b
            if direction in ("e", "n", "up"):
                pairs[direction] = (a, b)
        # A cell pulls from its neighbour in direction d: variant b there allows matrix(opposite d)[b, :].
        self.tables = ChunkTables.build([rules.matrix(OPPOSITE[d]) for d in directions], rules.weights)
        self.width = self.tables.width
        self.heuristic = heuristic
        self.start = np.vstack([start, np.full((1, self.width), np.iinfo(np.uint64).max, dtype=np.uint64)])
        self.onehot = pack(np.eye(self.count, dtype=bool))
        self.weights = np.asarray(rules.weights, dtype=np.float64)
        self.rank = self._scan_rank(shape)
        connectivity = ConnectivityCheck(rules, pairs, self.tables) if connected else None
        self.connectivity = connectivity
        self.inexact = False
        self.progress: Callable[[float], object] | None = None
        if connectivity is not None:
            flags = connectivity.variant_flags
            self.same_flags = pack(flags[:, None] == flags[None, :])
        self.failure: tuple[int, np.ndarray, str] | None = None

    @staticmethod
    def _scan_rank(shape: tuple[int, ...]) -> np.ndarray:
        coords = np.indices(shape).reshape(len(shape), -1)
        rank = np.zeros(coords.shape[1], dtype=np.int64)
        for axis in reversed(range(len(shape))):
            rank = rank * shape[axis] + coords[axis]
        return np.append(rank, np.iinfo(np.int64).max)

    # ------------------------------------------------------------------ state
    def reset(self, rng: np.random.Generator) -> None:
        self.dom = self.start.copy()
        self.noise = np.append(rng.random(self.cells) * (1e-6 if self.heuristic == "entropy" else 0.5), 0.0)
        self.keys = np.full(self.cells + 1, np.inf)
        all_cells = np.arange(self.cells)
        self.keys[all_cells] = self._keys(self.dom[:-1], all_cells)
        self.trail: list[tuple[np.ndarray, np.ndarray]] = []
        if self.connectivity is not None:
            self.connectivity.reset(self.dom[:-1])

    def _keys(self, rows: np.ndarray, cells: np.ndarray) -> np.ndarray:
        rows = np.ascontiguousarray(rows)
        return cell_keys(self.heuristic, self.tables, rows, cells, self.noise, self.rank)

    def undo(self, mark: int) -> None:
        restored = []
        while len(self.trail) > mark:
            cells, old = self.trail.pop()
            self.dom[cells] = old
            restored.append(cells)
        if restored:
            cells = np.unique(np.concatenate(restored))
            self.keys[cells] = self._keys(self.dom[cells], cells)
            if self.connectivity is not None:
                self.connectivity.restored(cells, self.dom[cells])

    # ------------------------------------------------------------------ propagation
    def propagate(self, frontier: np.ndarray) -> bool:
        tables = self.tables
        chunk_view: np.ndarray = self.dom.view(tables.chunk_dtype)
        chunks = tables.chunks
        sentinel = self.cells
        while frontier.size:
            around = self.neighbours[:, frontier].reshape(-1)
            # Duplicates are harmless (same old row, same support): dedupe only larger frontiers.
            around = np.unique(around) if around.size > 16 else around[around != sentinel]
            if around.size and around[-1] == sentinel:
                around = around[:-1]
            nbr = self.neighbours[:, around]
            index = chunk_view[nbr, :chunks] + tables.support_offsets
            support = tables.support[index]
            support = np.bitwise_or.reduce(support, axis=2) if chunks > 1 else support[:, :, 0]
            support = np.bitwise_and.reduce(support, axis=0)
            old = self.dom[around]
            new = old & support
            changed = _any_rows(new != old)
            if not changed.any():
                return True
            frontier = around[changed]
            new = new[changed]
            self.trail.append((frontier, old[changed]))
            self.dom[frontier] = new
            if self.connectivity is not None:
                self.connectivity.update(frontier, new)
            self.keys[frontier] = self._keys(new, frontier)
            empty = ~_any_rows(new)
            if empty.any():
                where = int(frontier[np.argmax(empty)])
                self.failure = (where, old[changed][np.argmax(empty)], "no variant fits its neighbours")
                return False
        return True

    def check(self) -> bool:
        if self.connectivity is None or self.connectivity.ok():
            return True
        cell = int(self.connectivity.failed_cells[0]) if self.connectivity.failed_cells.size else 0
        self.failure = (cell, self.dom[cell].copy(), CONNECTIVITY_FAILURE)
        return False

    def assign(self, cell: int, variant: int) -> bool:
        self.trail.append((np.array([cell]), self.dom[cell:cell + 1].copy()))
        self.dom[cell] = self.onehot[variant]
        self.keys[cell] = np.inf
        if self.connectivity is not None:
            self.connectivity.update(np.array([cell]), self.dom[cell:cell + 1])
        return self.propagate(np.array([cell])) and self.check()

    def ban(self, cell: int, variant: int, banned: np.ndarray | None = None) -> bool:
        old = self.dom[cell:cell + 1].copy()
        self.trail.append((np.array([cell]), old))
        self.dom[cell] &= ~(self.onehot[variant] if banned is None else banned)
        cells = np.array([cell])
        self.keys[cell] = self._keys(self.dom[cell:cell + 1], cells)[0]
        if not self.dom[cell].any():
            self.failure = (cell, old[0], "every variant was tried here")
            return False
        if self.connectivity is not None:
            self.connectivity.update(cells, self.dom[cell:cell + 1])
        return self.propagate(cells) and self.check()

    def choose(self, cell: int, rng: np.random.Generator) -> int:
        """A variant of the cell's domain drawn with probability proportional to its weight."""
        bits = np.unpackbits(self.dom[cell].view(np.uint8), bitorder="little")[: self.count]
        cumulative = np.cumsum(self.weights * bits)
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        if pick >= self.count:  # rounding at the very top of the range
            pick = int(np.flatnonzero(bits)[-1])
        return pick

    # ------------------------------------------------------------------ search
    def initial(self) -> bool:
        """Propagate the starting constraints once (independent of randomness)."""
        self.dom = self.start.copy()
        self.trail = []
        self.noise = np.zeros(self.cells + 1)
        self.keys = np.zeros(self.cells + 1)
        if not self.dom[:-1].any(axis=1).all():
            where = int(np.argmin(self.dom[:-1].any(axis=1)))
            self.failure = (where, self.dom[where].copy(), "no variant is allowed here")
            return False
        if self.connectivity is not None:
            self.connectivity.reset(self.dom[:-1])
        ok = self.propagate(np.arange(self.cells)) and self.check()
        self.start = self.dom.copy()
        return ok

    def attempt(self, rng: np.random.Generator, max_backtracks: int, deadline: float, counters: dict) -> bool:
        self.reset(rng)
        self.inexact = False
        stack: list[tuple[int, int, int]] = []
        backtracks = 0
        steps = 0
        while True:
            cell = int(np.argmin(self.keys))
            if self.keys[cell] == np.inf:
                return True
            steps += 1
            if steps & 255 == 0:
                if time.perf_counter() > deadline:
                    raise TimeoutError
                if self.progress is not None and self.progress(
                        float(np.count_nonzero(self.keys == np.inf) - 1) / self.cells) is False:
                    raise SearchCancelled("the progress callback cancelled the search")
            variant = self.choose(cell, rng)
            stack.append((cell, variant, len(self.trail)))
            counters["decisions"] += 1
            ok = self.assign(cell, variant)
            while not ok:
                if not stack:
                    if self.inexact:
                        return False
                    raise _ExhaustedError("exhausted")
                if backtracks >= max_backtracks:
                    return False
                backtracks += 1
                counters["backtracks"] += 1
                if backtracks & 255 == 0 and time.perf_counter() > deadline:
                    raise TimeoutError
                cell, variant, mark = stack.pop()
                self.undo(mark)
                if self.failure is not None and self.failure[2] == CONNECTIVITY_FAILURE:
                    # Variants that look the same to connectivity (walkable, passable sides) would most
                    # likely cut the region again: ban them together (a heuristic, so no unsat proof).
                    self.inexact = True
                    ok = self.ban(cell, variant, self.same_flags[variant])
                else:
                    ok = self.ban(cell, variant)

    def grid(self) -> np.ndarray:
        bits = unpack(self.dom[:-1], self.count)
        return np.argmax(bits, axis=1).reshape(self.shape)


def _describe(rules: Rules, shape: tuple[int, ...], failure: tuple[int, np.ndarray, str] | None) -> str:
    if failure is None:
        return ""
    cell, row, reason = failure
    where = tuple(int(v) for v in np.unravel_index(cell, shape)) if cell < int(np.prod(shape)) else "?"
    left = np.flatnonzero(unpack(row, rules.count))
    names = ", ".join(repr(rules.name(int(i))) for i in left[:8]) + (" …" if left.size > 8 else "")
    return (f" Last failure at cell {where}: {reason} (it still had {left.size} variant(s): "
            f"{names or 'none'}).")


def solve_detailed(rules: Rules, shape: tuple[int, ...], seed: int = 0, *,
                   periodic: bool | Sequence[bool] = False, heuristic: str | None = None, fixed: Any = None,
                   border: Any = None, border_sides: Sequence[str] | None = None, connected: bool = False,
                   entrances: Iterable[Any] = (), max_backtracks: int = 2000, max_restarts: int = 20,
                   time_limit: float = 60.0, memory_budget: int = DEFAULT_MEMORY_BUDGET,
                   progress: Callable[[float], object] | None = None) -> SolveResult:
    """Like :func:`solve`, also reporting restarts, backtracks, decisions and seconds.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[False, True], [True, False]])
    >>> result = solve_detailed(Rules(weights=np.ones(2), allowed={"e": A, "n": A}), (6, 6), seed=0)
    >>> result.grid.shape, result.restarts
    ((6, 6), 0)
    """
    started = time.perf_counter()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: expected a Rules object, not a {type(rules).__name__}")
    shape = tuple(int(s) for s in np.atleast_1d(shape))
    if len(shape) != rules.dims:
        raise ValueError(f"shape: these rules are {rules.dims}-D, so give {rules.dims} sizes, got {shape}")
    if any(s < 1 for s in shape):
        raise ValueError(f"shape: every size must be >= 1, got {shape}")
    entrances = [tuple(e) for e in entrances]
    connected = bool(connected) or bool(entrances)
    switch_to_scanline = heuristic is None and not connected
    if heuristic is None:  # scanline grows one connected front: far fewer dead ends for connectivity
        heuristic = "scanline" if connected else "entropy"
    if heuristic not in HEURISTICS:
        raise ValueError(f"heuristic: use one of {HEURISTICS}, got {heuristic!r}")
    for name, value in (("max_backtracks", max_backtracks), ("max_restarts", max_restarts)):
        if int(value) < 0:
            raise ValueError(f"{name}: must be >= 0, got {value}")
    if not time_limit > 0:
        raise ValueError(f"time_limit: must be > 0 seconds, got {time_limit}")
    axes = periodic_axes(periodic, len(shape))
    if border_sides is not None:
        sides = tuple(border_sides)
    elif isinstance(border, dict):
        sides = tuple(border)
    else:
        sides = ("e", "n", "w", "s")
    axis_of = {"e": 0, "w": 0, "n": 1, "s": 1, "up": 2, "down": 2}
    if border is not None and any(axes[axis_of[s]] for s in sides if s in axis_of and axis_of[s] < len(axes)):
        raise ValueError("border: a periodic axis has no border; set periodic=False on that axis or drop the "
                         "side from border_sides")
    cells = int(np.prod(shape))
    width = (rules.count + 63) // 64
    estimate = cells * (40 * width + 8 * (len(rules.directions) + 6)) + cells * rules.count
    if estimate > memory_budget:
        raise ValueError(
            f"shape: {shape} with {rules.count} variants needs about {estimate / 2**20:.0f} MiB, more than "
            f"memory_budget={memory_budget / 2**20:.0f} MiB; solve a smaller grid (or in boxes with "
            "regenerate) or raise memory_budget"
        )
    if connected and not rules.walkable_mask().any():
        raise ValueError("connected: the rules have no walkable tile; mark walkable tiles or drop connected")
    start = initial_masks(rules, shape, fixed=fixed, border=border,
                          border_sides=border_sides, entrances=entrances)
    search = _Search(rules, shape, axes, heuristic, start, connected)
    if progress is not None and not callable(progress):
        raise ValueError("progress: expected a callable f(fraction_decided) -> bool | None")
    search.progress = progress
    if not search.initial():
        raise Contradiction(
            "the fixed tiles, border and entrances contradict each other or the rules before any choice."
            + _describe(rules, shape, search.failure)
            + " Try: move or drop a fixed tile, change the border, or relax connectivity."
        )
    rng = np.random.default_rng(seed)
    deadline = started + float(time_limit)
    counters = {"decisions": 0, "backtracks": 0}
    for restart in range(int(max_restarts) + 1):
        if switch_to_scanline and restart == SCANLINE_AFTER_RESTARTS:
            search.heuristic = "scanline"  # default heuristic: entropy thrashes on some sets (mxgmn Summer)
        try:
            # Small budgets first (cheap restarts beat long thrashing), growing to max_backtracks.
            budget = min(int(max_backtracks), FIRST_BACKTRACK_BUDGET << restart)
            if search.attempt(rng, budget, deadline, counters):
                return SolveResult(search.grid(), restart, counters["backtracks"], counters["decisions"],
                                   time.perf_counter() - started)
        except _ExhaustedError:
            raise Contradiction(
                "no grid exists: every choice was tried (complete backtracking search)."
                + _describe(rules, shape, search.failure)
                + " Try: relax a constraint (fixed tiles, border, connectivity) or add tiles."
            ) from None
        except TimeoutError:
            raise Contradiction(
                f"time_limit={time_limit} s ran out after {restart} restart(s) and {counters['backtracks']} "
                f"backtrack(s)." + _describe(rules, shape, search.failure)
                + " Try: a larger time_limit, another seed, heuristic='scanline', or relax a constraint."
            ) from None
    raise Contradiction(
        f"no grid found in {int(max_restarts) + 1} attempt(s) with up to {max_backtracks} backtrack(s) each."
        + _describe(rules, shape, search.failure)
        + " Try: a larger max_backtracks or max_restarts, another seed, heuristic='scanline' or 'mrv', "
        "or relax a constraint (fixed tiles, border, connectivity)."
    )


def solve(rules: Rules, shape: tuple[int, ...], seed: int = 0, **options: Any) -> np.ndarray:
    """Fill a grid of ``shape`` with variant indices so that every adjacency obeys ``rules``.

    Parameters
    ----------
    rules : :class:`Rules` (explicit, from :func:`rules_from_tiles` or :func:`load_mxgmn`).
    shape : ``(X, Y)`` for 2-D rules, ``(X, Y, Z)`` for 3-D rules; the result is indexed ``grid[x, y(, z)]``.
    seed : seed of the ``numpy.random.Generator``; same inputs and seed give the same grid.
    periodic : bool (x and y wrap; z never) or one bool per axis.
    heuristic : ``"entropy"``, ``"mrv"`` or ``"scanline"``; default (None): entropy for the first three
        attempts, then scanline; scanline from the start when ``connected`` (one growing front leaves far
        fewer walkable pockets to backtrack out of).
    fixed : ``{cell: variant index or name}`` or an int array of ``shape`` with -1 for free cells.
    border : what surrounds the grid: a socket label (socket rules), a variant index/name that stands
        outside, or a (T,) bool mask of the variants allowed along the edge; one value for the sides in
        ``border_sides`` (default the four horizontal sides; add ``"up"``/``"down"`` for the top/bottom
        layer), or a dict ``{side: value}`` (e.g. ``{"e": "wall", …, "up": "air"}``).
    connected : all cells with a walkable tile form one region (checked during the search).
    entrances : cells that must be walkable and joined to that region (implies ``connected``).
    max_backtracks : undo steps per attempt before a restart; ``max_restarts``: restarts before giving up.
    time_limit : seconds for the whole call; ``memory_budget``: bytes the grid may take.
    progress : optional ``f(fraction_of_cells_decided)`` called every 256 decisions; return False to stop
        (raises :class:`SearchCancelled`, a :class:`Contradiction`).

    Raises
    ------
    Contradiction : when no grid is found (the message says where, which variants, and what to try).
    ValueError : for bad input.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[False, True], [True, False]])          # a checkerboard
    >>> rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A})
    >>> grid = solve(rules, (4, 4), seed=1, periodic=True)
    >>> bool((grid != np.roll(grid, 1, axis=0)).all())
    True
    """
    return solve_detailed(rules, shape, seed, **options).grid


def regenerate(rules: Rules, grid: np.ndarray, box: Any, seed: int = 0, **options: Any) -> np.ndarray:
    """Re-solve the cells of ``box`` in an existing ``grid``, keeping every other cell as it is.

    ``box`` is a tuple of slices or of ``(start, stop)`` pairs, one per axis (stop exclusive).

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
    if "fixed" in options:
        raise ValueError("regenerate: the cells outside the box are the fixed tiles; do not pass fixed")
    box = tuple(box)
    if len(box) != grid.ndim:
        raise ValueError(f"box: give one slice or (start, stop) per axis ({grid.ndim}), got {box!r}")
    index = tuple(b if isinstance(b, slice) else slice(int(b[0]), int(b[1])) for b in box)
    fixed = grid.astype(np.int64).copy()
    if fixed[index].size == 0:
        raise ValueError(f"box: {box!r} selects no cell of the grid of shape {grid.shape}")
    fixed[index] = -1
    return solve(rules, grid.shape, seed, fixed=fixed, **options)
