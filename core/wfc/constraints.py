"""The one interface of every constraint, as DeBroglie's ``ITileConstraint``.

A constraint is an object the solver knows only through :class:`Constraint`:

- ``setup(grid)`` once per solve, before any search: it may wrap the grid's edges (:class:`Grid`'s
  ``neighbours``), narrow the starting domains (``start``) or refuse bad input with a ``ValueError``;
- during the search (only when ``searching`` is True) ``init`` at the start of each attempt, ``update`` with
  the cells whose domains narrowed, ``restore`` with the cells an undo brought back, and ``check`` — the
  propagation of a change — which answers None (still satisfiable), a :class:`Narrow` to apply, or a
  :class:`Violation`;
- ``explain(violation)`` says in a sentence what the user can change when the solve fails there; a constraint
  that only shapes the start (never ``searching``) is asked too when the failure's cell ``touches`` it.

A constraint may also change how likely each variant is in some cells (``Grid.reweigh``): the solver then draws
a cell's variant with those weights (the entropy heuristic still orders cells by the rules' own weights).

The solver loop never names a constraint: fixed tiles, border, entrances, periodic edges and labels that meet
only the border (:mod:`.layout`), tile counts (:mod:`.counts`) and walkable connectivity
(:mod:`.connectivity`) all plug in the same way, and so does a caller's own (``solve(..., constraints=[…])``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .bitset import ChunkTables
from .rules import Rules


@dataclass
class Grid:
    """What constraints set up against: ``neighbours`` ((D, N + 1) neighbour per direction, N = off the grid;
    periodic edges are links from one side to the other) and ``start`` ((N, W) uint64 starting domains)."""

    rules: Rules
    shape: tuple[int, ...]
    neighbours: np.ndarray
    start: np.ndarray
    tables: ChunkTables
    zone: np.ndarray | None = None
    """(N,) int32: each cell's row of ``zone_weights`` (None: every cell draws with the rules' weights)."""
    zone_weights: list[np.ndarray] = field(default_factory=list)
    """(T,) float64 weights per zone; zone 0 is the rules' own."""

    @property
    def cells(self) -> int:
        return int(self.start.shape[0])

    def narrow(self, cells: np.ndarray, keep: np.ndarray) -> None:
        """AND the (W,) or (k, W) bit rows ``keep`` into the starting domains of ``cells``."""
        self.start[cells] &= keep

    def reweigh(self, cells: np.ndarray, factors: np.ndarray) -> None:
        """Multiply the weights ``cells`` draw their variants with by ``factors`` ((T,), > 0); reweighing a cell
        twice multiplies both factors."""
        if self.zone is None:
            self.zone = np.zeros(self.cells, dtype=np.int32)
            self.zone_weights = [np.asarray(self.rules.weights, dtype=np.float64)]
        cells = np.asarray(cells, dtype=np.int64)
        current = self.zone[cells]
        for old in np.unique(current).tolist():
            self.zone_weights.append(self.zone_weights[old] * np.asarray(factors, dtype=np.float64))
            self.zone[cells[current == old]] = len(self.zone_weights) - 1


@dataclass(frozen=True)
class Narrow:
    """A constraint's answer: keep only ``rows`` ((k, W) uint64, ANDed) in the domains of ``cells``."""

    cells: np.ndarray
    rows: np.ndarray


@dataclass(frozen=True)
class Violation:
    """A constraint's answer: the domains can no longer satisfy it (``cell`` shows where)."""

    cell: int
    reason: str


class Constraint:
    """A rule over the grid (see the module doc); every method has a do-nothing default.

    ``related(variant)`` is the (W,) row of variants to ban together with ``variant`` when backtracking out of
    this constraint's violation (None: just the variant).
    """

    name = "constraint"
    searching = False
    """True when the search must keep the constraint informed (``init``, ``update``, ``restore``, ``check``)."""

    def setup(self, grid: Grid) -> None:
        """Prepare against the grid; may edit ``grid.neighbours`` and narrow ``grid.start``."""

    def init(self, dom: np.ndarray) -> None:
        """Every domain ((N, W) rows) at the start of an attempt."""

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        """The domains of ``cells`` narrowed to ``rows``."""

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        """An undo brought back ``rows`` in ``cells``; the state then is one that passed ``check`` before."""
        self.update(cells, rows)

    def check(self) -> Narrow | Violation | None:
        """Propagate the changes since the last call: None, a narrowing to apply first, or a violation."""
        return None

    def explain(self, violation: Violation) -> str:
        """What to change when the solve fails on ``violation`` (a sentence, or empty)."""
        return ""

    def related(self, variant: int) -> np.ndarray | None:
        return None

    def touches(self, cell: int) -> bool:
        """Whether a failure at flat ``cell`` may come from this constraint (asked of the constraints that only
        shape the start, whose ``explain`` then joins the failure's message)."""
        return False
