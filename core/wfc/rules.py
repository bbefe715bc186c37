"""Adjacency rules: tile weights and, per direction, which tile may stand next to which.

Directions and axes: ``e`` = +x, ``n`` = +y, ``w`` = -x, ``s`` = -y, ``up`` = +z, ``down`` = -z.
``allowed["e"][a, b]`` is True when tile ``b`` may stand east of tile ``a``; ``w`` and ``s`` (and ``down``)
are the transposes of ``e`` and ``n`` (and ``up``), so only ``e``, ``n`` (and ``up``) are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .vocab import DIRECTIONS_2D, DIRECTIONS_3D, FORWARD, OPPOSITE


@dataclass(frozen=True, eq=False)
class Footprints:
    """Which cells each variant's tile covers, for rules with big tiles (a tile over several cells is one variant
    per covered cell, its *parts*; :mod:`.tile_parts`). Per variant:

    - ``anchor`` (T,) int: the variant of its tile's anchor part (the covered cell lowest in x, y and z);
    - ``offset`` (T, 3) int: its cell less the anchor's ((0, 0, 0) for the anchor part);
    - ``size`` (T, 3) int: the cells its tile covers along x, y, z, after the turn;
    - ``origin`` (T, 3) int: the cell of its tile's origin less the anchor's (where the tile is drawn from).
    """

    anchor: np.ndarray
    offset: np.ndarray
    size: np.ndarray
    origin: np.ndarray

    def subset(self, keep: np.ndarray) -> Footprints:
        """The footprints of the variants ``keep`` (each part's anchor among them)."""
        where = np.full(self.anchor.size, -1, dtype=np.int64)
        where[keep] = np.arange(keep.size)
        anchor = where[self.anchor[keep]]
        if (anchor < 0).any():
            raise ValueError("Rules.subset: keep every part of a big tile with its anchor part")
        return Footprints(anchor, self.offset[keep], self.size[keep], self.origin[keep])


_GIVEN = {**{d: (d, False) for d in FORWARD}, **{OPPOSITE[d]: (d, True) for d in FORWARD}}


@dataclass(frozen=True, eq=False)
class Rules:
    """Weights and adjacency of ``T`` tile variants.

    Parameters
    ----------
    weights : (T,) float array, every weight finite and > 0.
    allowed : mapping with ``"e"`` and ``"n"`` (and ``"up"`` for 3-D) to (T, T) bool arrays;
        ``allowed["e"][a, b]``: ``b`` may stand east (+x) of ``a``; ``allowed["n"][a, b]``: ``b`` north (+y)
        of ``a``; ``allowed["up"][a, b]``: ``b`` above (+z) ``a``.
    names : optional variant names (default ``"0"``, ``"1"``, ...).
    tiles : optional source tile name of each variant (default: the variant name).
    rotations : optional rotation of each variant in degrees (0, 90, 180, 270; counter-clockwise about +z
        seen from above: at 90 the side that faced east faces north).
    reflected : optional, True for variants mirrored (x -> -x) before the rotation (mxgmn ``F`` tiles).
    walkable : optional (T,) bool, tiles a visitor can stand on (used by the connectivity constraint).
    passable : optional mapping direction -> (T,) bool: walkable tiles that let a visitor leave through that
        side. Default: the four horizontal sides of walkable tiles, never up/down.
    edge_only : optional mapping direction -> (T,) bool: variants whose side in that direction fits no tile,
        only the grid's border (a roof's ``sky`` under *Above* = ``sky``); the solver keeps them where that
        side faces the border. A variant with no possible neighbour on a side must be marked here.
    sockets : optional per-variant socket labels after rotation (set by :func:`rules_from_tiles`).
    compatible : optional socket-label compatibility (set by :func:`rules_from_tiles`).
    footprints : optional :class:`Footprints` of big tiles (None: every variant fills one cell).

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[True, True], [True, False]])       # tile 1 never next to tile 1
    >>> rules = Rules(weights=np.ones(2), allowed={"e": A, "n": A})
    >>> rules.count, rules.dims
    (2, 2)
    """

    weights: np.ndarray
    allowed: Mapping[str, np.ndarray]
    names: tuple[str, ...] | None = None
    tiles: tuple[str, ...] | None = None
    rotations: tuple[int, ...] | None = None
    reflected: tuple[bool, ...] | None = None
    walkable: np.ndarray | None = None
    passable: Mapping[str, np.ndarray] | None = None
    edge_only: Mapping[str, np.ndarray] | None = None
    sockets: tuple[Mapping[str, str], ...] | None = None
    compatible: frozenset[frozenset[str]] | None = field(default=None, repr=False)
    footprints: Footprints | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        weights = np.asarray(self.weights, dtype=np.float64)
        if weights.ndim != 1 or weights.size == 0:
            raise ValueError(f"Rules.weights: expected a non-empty 1-D array, got shape {weights.shape}")
        count = weights.size
        bad = ~np.isfinite(weights) | (weights <= 0)
        if bad.any():
            raise ValueError(
                "Rules.weights: every weight must be finite and > 0; bad at "
                f"{self._label(np.flatnonzero(bad))}"
            )
        keys = set(self.allowed)
        if keys not in ({"e", "n"}, {"e", "n", "up"}):
            raise ValueError(
                f"Rules.allowed: give 'e' and 'n' (2-D) or 'e', 'n' and 'up' (3-D); got {sorted(keys)} "
                "(w, s and down are the transposes)"
            )
        allowed = {}
        for key, matrix in self.allowed.items():
            matrix = np.asarray(matrix)
            if matrix.shape != (count, count):
                raise ValueError(f"Rules.allowed[{key!r}]: expected shape ({count}, {count}), "
                                 f"got {matrix.shape}")
            if matrix.dtype != np.bool_:
                if not np.isin(matrix, (0, 1)).all():
                    raise ValueError(f"Rules.allowed[{key!r}]: expected a bool matrix")
                matrix = matrix.astype(bool)
            matrix = matrix.copy()
            matrix.setflags(write=False)
            allowed[key] = matrix
        object.__setattr__(self, "allowed", allowed)
        weights = weights.copy()
        weights.setflags(write=False)
        object.__setattr__(self, "weights", weights)
        for name in ("names", "tiles", "rotations", "reflected", "sockets"):
            value = getattr(self, name)
            if value is not None:
                value = tuple(value)
                if len(value) != count:
                    raise ValueError(f"Rules.{name}: expected {count} entries, got {len(value)}")
                object.__setattr__(self, name, value)
        if self.names is not None and len(set(self.names)) != count:
            raise ValueError("Rules.names: variant names must be unique")
        if self.walkable is not None:
            walkable = np.asarray(self.walkable, dtype=bool).copy()
            if walkable.shape != (count,):
                raise ValueError(f"Rules.walkable: expected shape ({count},), got {walkable.shape}")
            walkable.setflags(write=False)
            object.__setattr__(self, "walkable", walkable)
        if self.passable is not None:
            object.__setattr__(self, "passable", self._side_masks("passable", self.passable))
        if self.edge_only is not None:
            object.__setattr__(self, "edge_only", self._side_masks("edge_only", self.edge_only))
        if self.footprints is not None and self.footprints.anchor.shape != (count,):
            raise ValueError(f"Rules.footprints: expected one entry per variant ({count})")
        self._check_every_side_has_a_partner()

    def _side_masks(self, what: str, given: Mapping[str, Any]) -> dict[str, np.ndarray]:
        out = {}
        for key, value in given.items():
            if key not in self.directions:
                raise ValueError(f"Rules.{what}: unknown direction {key!r}; use {self.directions}")
            value = np.asarray(value, dtype=bool).copy()
            if value.shape != (self.count,):
                raise ValueError(f"Rules.{what}[{key!r}]: expected shape ({self.count},)")
            value.setflags(write=False)
            out[key] = value
        return out

    # ------------------------------------------------------------------ queries
    @property
    def count(self) -> int:
        """Number of tile variants ``T``."""
        return int(self.weights.size)

    @property
    def dims(self) -> int:
        """2 or 3."""
        return 3 if "up" in self.allowed else 2

    @property
    def directions(self) -> tuple[str, ...]:
        return DIRECTIONS_3D if self.dims == 3 else DIRECTIONS_2D

    def matrix(self, direction: str) -> np.ndarray:
        """(T, T) bool: ``matrix(d)[a, b]`` is True when ``b`` may stand next to ``a`` in direction ``d``."""
        if direction not in self.directions:
            raise ValueError(f"direction {direction!r}: use one of {self.directions}")
        key, transpose = _GIVEN[direction]
        matrix = self.allowed[key]
        return matrix.T if transpose else matrix

    def name(self, variant: int) -> str:
        return self.names[variant] if self.names is not None else str(variant)

    def index(self, name: str) -> int:
        """Variant index of a variant name (or of a source tile name whose variant 0 is meant)."""
        names = self.names if self.names is not None else tuple(str(i) for i in range(self.count))
        if name in names:
            return names.index(name)
        if self.tiles is not None and name in self.tiles:
            return self.tiles.index(name)
        raise ValueError(f"no tile variant named {name!r}; known: {', '.join(names[:20])}")

    def anchor_mask(self) -> np.ndarray:
        """(T,) bool: the variants that stand for a whole tile (every variant, without big tiles)."""
        if self.footprints is None:
            return np.ones(self.count, dtype=bool)
        return ~self.footprints.offset.any(axis=1)

    def walkable_mask(self) -> np.ndarray:
        return self.walkable if self.walkable is not None else np.zeros(self.count, dtype=bool)

    def passable_mask(self, direction: str) -> np.ndarray:
        """(T,) bool: walkable tiles a visitor can leave through side ``direction``."""
        walkable = self.walkable_mask()
        if self.passable is not None and direction in self.passable:
            return self.passable[direction] & walkable
        if direction in ("up", "down"):
            return np.zeros(self.count, dtype=bool)
        return walkable

    def subset(self, keep: Sequence[int] | np.ndarray) -> Rules:
        """Rules restricted to the variants ``keep`` (indices), in that order."""
        keep = np.asarray(keep, dtype=np.int64)

        def pick(seq: Sequence[Any] | None) -> tuple[Any, ...] | None:
            return None if seq is None else tuple(seq[i] for i in keep)

        return Rules(
            weights=self.weights[keep],
            allowed={k: m[np.ix_(keep, keep)] for k, m in self.allowed.items()},
            names=pick(self.names), tiles=pick(self.tiles), rotations=pick(self.rotations),
            reflected=pick(self.reflected),
            walkable=None if self.walkable is None else self.walkable[keep],
            passable=None if self.passable is None else {k: v[keep] for k, v in self.passable.items()},
            edge_only=None if self.edge_only is None else {k: v[keep] for k, v in self.edge_only.items()},
            sockets=pick(self.sockets), compatible=self.compatible,
            footprints=None if self.footprints is None else self.footprints.subset(keep),
        )

    # ------------------------------------------------------------------ validation
    def _label(self, indices: Sequence[int] | np.ndarray) -> str:
        return ", ".join(repr(self.name(int(i))) for i in list(indices)[:12]) + (
            " …" if len(indices) > 12 else "")

    def _check_every_side_has_a_partner(self) -> None:
        problems = []
        for direction in self.directions:
            alone = ~self.matrix(direction).any(axis=1)
            if self.edge_only is not None and direction in self.edge_only:
                alone &= ~self.edge_only[direction]
            lonely = np.flatnonzero(alone)
            if lonely.size:
                problems.append(f"{direction}: {self._label(lonely)}")
        if problems:
            raise ValueError(
                "Rules: some tiles have no possible neighbour on a side, so they could never be placed "
                "inside a grid (" + "; ".join(problems) + "). Add a compatible tile or socket for that side, "
                "mark the side edge_only (it then meets only the grid's border), or drop the tile."
            )
