"""The symmetry constraint: the grid is its own mirror image across its middle plane(s).

``Symmetry("x")``: cell ``(x, y)`` holds the mirror twin of the tile at ``(W - 1 - x, y)``; ``"y"`` mirrors
``y``; ``"xy"`` both (and so also the half turn about the centre). The twin of a variant is the variant of the
same tile whose sockets are its sockets mirrored (:func:`mirror_twins`): a mirrored tile (``mirror=True``) pairs
``name@r`` with ``name~@-r``, a tile whose labels read the same both ways is its own twin or another of its turns.
A variant without a twin cannot stand in a symmetric grid; on the middle column of an odd width only variants
that are their own twin can. Propagation both ways: a narrowed cell narrows its mirror cell to the twins of what
it still holds (DeBroglie's MirrorXConstraint / MirrorYConstraint).

Twins come from the sockets, never from the names; tiles whose geometry is asymmetric while every label reads
the same both ways are taken as symmetric (the sockets cannot tell).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .bitset import pack, unpack
from .constraints import Constraint, Grid, Narrow, Violation
from .grid_axes import axis_index
from .rules import Rules
from .search import _any_rows
from .sockets import mirror_label, turn_label
from .vocab import MIRROR, TURN, VERTICAL

SYMMETRIES = ("x", "y", "xy")
"""The symmetries a room offers: across the plane x = middle, y = middle, or both."""


def _mirrored_side(side: str, axis: str) -> str:
    """Where ``side`` points after the mirror of ``axis`` (``y``: the x mirror then a half turn)."""
    side = MIRROR[side]
    return TURN[TURN[side]] if axis == "y" else side


def mirrored_sockets(sockets: Mapping[str, str], axis: str,
                     compatible: frozenset[frozenset[str]] = frozenset()) -> dict[str, str]:
    """A variant's sockets after the mirror across ``axis`` (``"x"``: x -> -x; ``"y"``: y -> -y), labels read the
    other way round (:func:`~.sockets.mirror_label`).

    Parameters
    ----------
    sockets : mapping
        Side -> label of the variant (after its turn).
    axis : str
        ``"x"`` or ``"y"``.
    compatible : frozenset of frozenset of str, default frozenset()
        The rules' compatible label pairs (a pair's labels are each other's twin).

    Examples
    --------
    >>> mirrored_sockets({"n": "a", "e": "b", "s": "c", "w": "d~"}, "x")
    {'n': 'a', 'w': 'b', 's': 'c', 'e': 'd'}
    >>> mirrored_sockets({"n": "a", "e": "b", "s": "c", "w": "d"}, "y")
    {'s': 'a', 'e': 'b', 'n': 'c', 'w': 'd'}
    """
    out = {}
    for side, label in sockets.items():
        label = mirror_label(label, side in VERTICAL, compatible)
        if axis == "y" and side in VERTICAL:
            label = turn_label(label, 2)
        out[_mirrored_side(side, axis)] = label
    return out


def mirror_twins(rules: Rules, axis: str) -> np.ndarray:
    """(T,) int: each variant's mirror twin across ``axis`` (``"x"`` or ``"y"``), -1 for none.

    The twin is a variant of the same source tile with the mirrored sockets and passable sides; among several,
    the one whose mirror flag and turn make it the geometric mirror (``name@r`` <-> ``name~@-r``). Parts of big
    tiles have no twin.

    Parameters
    ----------
    rules : Rules
        Socket rules (:func:`~.tile_rules.rules_from_tiles`).
    axis : str
        ``"x"`` or ``"y"``.
    """
    if rules.sockets is None:
        raise ValueError("symmetry: the rules have no sockets to mirror; give the twins of the variants "
                         "(Symmetry(..., twins={axis: array}))")
    if axis not in ("x", "y"):
        raise ValueError(f"symmetry: mirror across 'x' or 'y', got {axis!r}")
    tiles = rules.tiles or tuple(rules.name(v) for v in range(rules.count))
    reflected = rules.reflected or (False,) * rules.count
    rotations = rules.rotations or (0,) * rules.count
    sides = sorted(rules.sockets[0])
    passable = {d: rules.passable_mask(d) for d in rules.directions}
    single = np.ones(rules.count, dtype=bool) if rules.footprints is None else (rules.footprints.size == 1).all(axis=1)
    compat = rules.compatible or frozenset()

    def key(v: int, sockets: Mapping[str, str], ways: frozenset[str]) -> tuple:
        return (tiles[v], tuple(sockets.get(s, "") for s in sides), ways)

    found: dict[tuple, list[int]] = {}
    for v in np.flatnonzero(single).tolist():
        ways = frozenset(d for d in rules.directions if passable[d][v])
        found.setdefault(key(v, rules.sockets[v], ways), []).append(v)
    twins = np.full(rules.count, -1, dtype=np.int64)
    for v in np.flatnonzero(single).tolist():
        ways = frozenset(_mirrored_side(d, axis) for d in rules.directions if passable[d][v])
        candidates = found.get(key(v, mirrored_sockets(rules.sockets[v], axis, compat), ways), [])
        turn = (-rotations[v] + (180 if axis == "y" else 0)) % 360
        ranked = sorted(candidates, key=lambda u: (reflected[u] == reflected[v], rotations[u] != turn, u))
        if ranked:
            twins[v] = ranked[0]
    mutual = twins >= 0
    mutual[mutual] = twins[twins[mutual]] == np.flatnonzero(mutual)
    return np.where(mutual, twins, -1)


def untwinned_tiles(rules: Rules, twins: np.ndarray) -> list[str]:
    """The source tiles none of whose variants has a twin (named in messages).

    Parameters
    ----------
    rules : Rules
        The rules.
    twins : numpy.ndarray
        (T,) int twin of each variant, -1 for none (:func:`mirror_twins`).
    """
    tiles = np.array(rules.tiles or tuple(rules.name(v) for v in range(rules.count)))
    return sorted(set(tiles.tolist()) - set(tiles[twins >= 0].tolist()))


class Symmetry(Constraint):
    """The grid mirrors itself across the ``axes`` (see the module doc).

    Parameters
    ----------
    axes : str
        ``"x"``, ``"y"`` or ``"xy"``.
    twins : mapping, optional
        ``{axis: (T,) int}`` twin of each variant (-1: none) for rules without sockets; default
        :func:`mirror_twins`.
    """

    name = "symmetry"
    searching = True

    def __init__(self, axes: str, twins: Mapping[str, Sequence[int] | np.ndarray] | None = None) -> None:
        if axes not in SYMMETRIES:
            raise ValueError(f"symmetry: use {' | '.join(SYMMETRIES)}, got {axes!r}")
        self.axes = axes
        self.given = dict(twins or {})

    def setup(self, grid: Grid) -> None:
        rules = grid.rules
        index = np.arange(grid.cells).reshape(grid.shape)
        self.mirrors: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (cell map, twin, has twin)
        for axis in self.axes:
            twins = (np.asarray(self.given[axis], dtype=np.int64) if axis in self.given
                     else mirror_twins(rules, axis))
            if twins.shape != (rules.count,):
                raise ValueError(f"symmetry: twins[{axis!r}] must give one variant (or -1) per variant")
            which = axis_index(axis, len(grid.shape), "symmetry")
            cell_map = np.flip(index, axis=which).reshape(-1)
            has = twins >= 0
            grid.narrow(np.arange(grid.cells), pack(has))
            middle = np.flatnonzero(cell_map == np.arange(grid.cells))
            if middle.size:
                grid.narrow(middle, pack(twins == np.arange(rules.count)))
            self.mirrors.append((cell_map, twins, has))
        self.count = rules.count
        self.rules = rules

    def init(self, dom: np.ndarray) -> None:
        self.dom = dom.copy()
        self.pending: list[np.ndarray] = [np.arange(dom.shape[0])]

    def update(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.pending.append(cells)

    def restore(self, cells: np.ndarray, rows: np.ndarray) -> None:
        self.dom[cells] = rows
        self.pending = []

    def check(self) -> Narrow | Violation | None:
        if not self.pending:
            return None
        cells = np.unique(np.concatenate(self.pending))
        for cell_map, twins, has in self.mirrors:
            bits = unpack(self.dom[cells], self.count)
            image = np.zeros_like(bits)
            image[:, twins[has]] = bits[:, has]
            other = cell_map[cells]
            need = self.dom[other] & pack(image)
            lost = _any_rows(need != self.dom[other])
            if lost.any():
                empty = ~_any_rows(need)
                if empty.any():
                    self.pending = []
                    at = int(np.argmax(empty))
                    return Violation(int(other[at]), f"no tile left there mirrors the one at its mirror cell "
                                                     f"(flat cell {int(cells[at])})")
                self.pending = [cells]  # the other mirror is checked on the next call
                return Narrow(other[lost], need[lost])
        self.pending = []
        return None

    def explain(self, violation: Violation) -> str:
        missing = set()
        for _, twins, _ in self.mirrors:
            missing |= set(untwinned_tiles(self.rules, twins))
        named = f" ({', '.join(sorted(missing)[:12])} have no mirror twin)" if missing else ""
        return ("Try: drop the symmetry, tick Mirror on asymmetric tiles so they have twins" + named
                + ", or give the room a width the kit's symmetric tiles can fill.")
