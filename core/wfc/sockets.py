"""Rules from socket tiles: each side of a tile carries a label, rotations make variants.

Conventions (also in docs/wfc.md):

- Sides ``n e s w`` (+y, +x, -y, -x) and, for 3-D kits, ``up`` / ``down`` (+z, -z).
- Two tiles fit across a side when the facing labels are **equal**, or when the pair of labels is declared
  **compatible** (``compatible=[("door_l", "door_r")]``: a side labelled ``door_l`` fits a facing side
  labelled ``door_r``, in either order). A label that appears in any declared pair is *asymmetric*: it then
  fits only its declared partners, not itself (declare ``("x", "x")`` to allow both). Read horizontal profiles
  counter-clockwise around the tile; a mirrored profile is then the partner label.
- An **unset** socket (``""`` or ``None``) is the label "open/nothing": it fits only another unset socket.
- Rotations: quarter turns counter-clockwise about +z seen from above, in degrees; at 90 the side that faced
  east faces north. ``rotations=(0, 90, 180, 270)`` allows all; variants whose rotated sockets coincide are
  merged (a cross yields 1 variant, a corridor 2, a corner 4). The tile's weight is split evenly among its
  distinct variants.
- Mirrors (``mirror=True``): a tile also yields variants mirrored ``x -> -x`` before the turn (east and west
  swap; ``Rules.reflected`` marks them). A mirrored side reads its profile the other way round, so its label
  becomes the label's **mirror twin**: ``x`` <-> ``x~`` (the Detect Sockets convention: ``m<hash>`` and
  ``m<hash>~``), or the partner of the one asymmetric compatible pair that holds it (``door_l`` <-> ``door_r``);
  any other label is symmetric and stays. An oriented vertical label ``x:k`` becomes ``x~:(-k mod 4)`` (the
  mirror of a profile turned k times is the mirrored profile turned -k times), so a mirrored stair fits a
  mirrored landing; unoriented vertical labels stay.
- Vertical labels with an orientation end in ``":k"`` (k = 0..3 quarter turns); a variant turned by ``r``
  quarter turns carries ``":(k + r) % 4"``. Labels without the suffix do not turn (e.g. ``"floor"``).
  A stair whose top exit faces east may carry ``up="stair:0"`` and the landing above ``down="stair:0"``;
  their 90° variants carry ``"stair:1"`` and still fit each other, but never a landing turned otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .vocab import MIRROR, OFFSETS, ROTATIONS, SIDES_2D, SIDES_3D, TURN, VERTICAL

_ORIENTED = re.compile(r"^(.*):([0-3])$")
MIRROR_SUFFIX = "~"
UNSET_NOTE = "an unset socket ('' or None) fits only another unset socket"


def as_label(value: object) -> str:
    """A socket value as its label: None is unset, ``""``.

    Parameters
    ----------
    value : object
        A label, or None.
    """
    return "" if value is None else str(value)


def turn_label(label: str, quarter_turns: int) -> str:
    """A vertical label turned by ``quarter_turns`` (only labels ending in ``":k"`` change).

    Parameters
    ----------
    label : str
        A vertical socket label.
    quarter_turns : int
        Quarter turns counter-clockwise seen from above.

    Examples
    --------
    >>> turn_label("stair:1", 2), turn_label("floor", 1)
    ('stair:3', 'floor')
    """
    match = _ORIENTED.match(label)
    if not match:
        return label
    return f"{match.group(1)}:{(int(match.group(2)) + quarter_turns) % 4}"


def sockets_fit(a: object, b: object, compatible: frozenset[frozenset[str]] | None = None) -> bool:
    """Do facing socket labels ``a`` and ``b`` fit? (equal, or a declared compatible pair; see module doc).

    Parameters
    ----------
    a, b : object
        The facing labels (None is unset, ``""``).
    compatible : frozenset of frozenset of str, optional
        Declared compatible label pairs (see the module doc).
    """
    a, b = as_label(a), as_label(b)
    if compatible:
        paired = set().union(*compatible)
        if a in paired or b in paired:
            return frozenset((a, b)) in compatible
    return a == b


def mirror_label(label: str, vertical: bool, compatible: frozenset[frozenset[str]] = frozenset()) -> str:
    """The label a side carries after the mirror ``x -> -x`` (see the module doc).

    Parameters
    ----------
    label : str
        The side's label.
    vertical : bool
        The side is ``up`` or ``down``.
    compatible : frozenset of frozenset of str, default frozenset()
        Declared compatible label pairs (see the module doc).

    Examples
    --------
    >>> mirror_label("m1a2b3c4d", vertical=False), mirror_label("wall", vertical=False)
    ('m1a2b3c4d~', 'wall')
    >>> mirror_label("door_l", False, frozenset({frozenset(("door_l", "door_r"))}))
    'door_r'
    >>> mirror_label("stair:1", vertical=True)
    'stair~:3'
    """
    if vertical:
        match = _ORIENTED.match(label)
        if not match:
            return label
        return f"{_twin(match.group(1))}:{(-int(match.group(2))) % 4}"
    partners = [next(iter(pair - {label})) for pair in compatible if label in pair and len(pair) == 2]
    if len(partners) > 1:
        raise ValueError(f"mirror: label {label!r} is in several compatible pairs {sorted(partners)}, so its "
                         "mirror twin is ambiguous; keep one pair or drop strew_mirror from the tile")
    if partners:
        return partners[0]
    if label.endswith(MIRROR_SUFFIX) or re.match(r"^m[0-9a-f]{8}$", label):
        return _twin(label)
    return label


def _twin(label: str) -> str:
    return label[: -len(MIRROR_SUFFIX)] if label.endswith(MIRROR_SUFFIX) else label + MIRROR_SUFFIX


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{what}: expected a number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class SocketTile:
    """A tile of a kit.

    Parameters
    ----------
    name : unique tile name (the source object on the Blender side).
    sockets : mapping of labels for ``n e s w`` (all four required, ``""``/None = unset) and optionally
        ``up``/``down``.
    weight : relative frequency (> 0), split evenly among the tile's distinct variants.
    rotations : allowed turns in degrees, a subset of (0, 90, 180, 270).
    walkable : a visitor can stand on this tile (connectivity constraint).
    passable : sides a visitor can leave through (default: the four horizontal sides when walkable); stairs
        add ``"up"`` (bottom piece) or ``"down"`` (the landing above).
    mirror : also use the tile mirrored ``x -> -x`` (sockets reflected, see the module doc).
    size : cells the tile covers along its own x, y and z (a 2 x 2 hall, a stair two storeys high); its origin is
        the centre of the bottom face of its first cell (lowest x, y, z), the others lie towards +x, +y, +z.
    cell_sockets : for a big tile, ``{(i, j, k): {side: label}}``: the labels of the outer sides of its covered
        cell ``(i, j, k)`` (counted from its first cell); a side not given there carries ``sockets[side]``.

    Examples
    --------
    >>> corner = SocketTile("corner", {"n": "road", "e": "road", "s": "grass", "w": "grass"},
    ...                     rotations=(0, 90, 180, 270))
    >>> corner.name
    'corner'
    """

    name: str
    sockets: Mapping[str, str | None]
    weight: float = 1.0
    rotations: tuple[int, ...] = (0,)
    walkable: bool = False
    passable: tuple[str, ...] | None = None
    mirror: bool = False
    size: tuple[int, int, int] = (1, 1, 1)
    cell_sockets: Mapping[tuple[int, int, int], Mapping[str, str | None]] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"SocketTile.name: expected a non-empty string, got {self.name!r}")
        what = f"SocketTile {self.name!r}"
        if not isinstance(self.sockets, Mapping):
            raise ValueError(f"{what}.sockets: expected a mapping side -> label such as "
                             f"{{'n': 'wall', 'e': '', 's': 'wall', 'w': ''}}, got {self.sockets!r}")
        unknown = set(self.sockets) - set(SIDES_3D)
        if unknown:
            raise ValueError(f"{what}.sockets: unknown sides {sorted(map(str, unknown))}; use {SIDES_3D}")
        missing = [s for s in SIDES_2D if s not in self.sockets]
        if missing:
            raise ValueError(f"{what}.sockets: missing sides {missing} (give '' for an unset socket; "
                             f"{UNSET_NOTE})")
        bad_labels = {k: v for k, v in self.sockets.items() if v is not None and not isinstance(v, str)}
        if bad_labels:
            raise ValueError(f"{what}.sockets: labels must be strings, got {bad_labels!r}")
        weight = _number(self.weight, f"{what}.weight")
        if not np.isfinite(weight) or weight <= 0:
            raise ValueError(f"{what}.weight: must be finite and > 0, got {self.weight!r}")
        given = self.rotations
        if isinstance(given, str | bytes) or not isinstance(given, Iterable):
            raise ValueError(f"{what}.rotations: expected a sequence of turns such as (0, 90), got {given!r}")
        rotations = tuple(given)
        if not rotations or any(isinstance(r, bool) or r not in ROTATIONS for r in rotations):
            raise ValueError(f"{what}.rotations: use a non-empty subset of {ROTATIONS}, got {given!r}")
        object.__setattr__(self, "weight", weight)
        object.__setattr__(self, "rotations", tuple(sorted({int(r) for r in rotations})))
        object.__setattr__(self, "sockets", {k: as_label(v) for k, v in self.sockets.items()})
        for flag in ("walkable", "mirror"):
            if not isinstance(getattr(self, flag), bool | np.bool_):
                raise ValueError(f"{what}.{flag}: expected True or False, got {getattr(self, flag)!r}")
            object.__setattr__(self, flag, bool(getattr(self, flag)))
        if self.passable is not None:
            if isinstance(self.passable, str) or not isinstance(self.passable, Iterable):
                raise ValueError(f"{what}.passable: expected a sequence of sides, got {self.passable!r}")
            bad = set(self.passable) - set(SIDES_3D)
            if bad:
                raise ValueError(f"{what}.passable: unknown sides {sorted(map(str, bad))}; use {SIDES_3D}")
            object.__setattr__(self, "passable", tuple(self.passable))
        self._check_size(what)

    def _check_size(self, what: str) -> None:
        """``size``: three whole numbers >= 1; ``cell_sockets``: outer sides of covered cells only."""
        size = self.size
        if (isinstance(size, str) or not isinstance(size, Iterable) or len(tuple(size)) != 3
                or any(isinstance(c, bool) or not isinstance(c, int | np.integer) or c < 1 for c in tuple(size))):
            raise ValueError(f"{what}.size: give three whole numbers >= 1 (cells along x, y, z), got {size!r}")
        whole = tuple(int(c) for c in size)
        size = (whole[0], whole[1], whole[2])
        object.__setattr__(self, "size", size)
        given = self.cell_sockets or {}
        if not isinstance(given, Mapping):
            raise ValueError(f"{what}.cell_sockets: expected {{(i, j, k): {{side: label}}}}, got {given!r}")
        cells: dict[tuple[int, int, int], dict[str, str]] = {}
        for cell, labels in given.items():
            try:
                i, j, k = (int(c) for c in cell)
            except (TypeError, ValueError):
                raise ValueError(f"{what}.cell_sockets: a cell is three whole numbers (i, j, k), got {cell!r}"
                                 ) from None
            if not all(0 <= c < s for c, s in zip((i, j, k), size, strict=True)):
                raise ValueError(f"{what}.cell_sockets: cell {(i, j, k)} is not one of its {size} cells")
            if not isinstance(labels, Mapping) or set(labels) - set(SIDES_3D):
                raise ValueError(f"{what}.cell_sockets[{(i, j, k)}]: expected {{side: label}} with sides {SIDES_3D}")
            for side in labels:
                step = OFFSETS[side]
                if all(0 <= c + d < s for c, d, s in zip((i, j, k), step, size, strict=True)):
                    raise ValueError(f"{what}.cell_sockets[{(i, j, k)}]: side {side} lies inside the tile (it meets "
                                     "its own next cell); give labels to its outer sides only")
            cells[(i, j, k)] = {side: as_label(v) for side, v in labels.items()}
        object.__setattr__(self, "cell_sockets", cells or None)

    @property
    def big(self) -> bool:
        """The tile covers more than one cell."""
        return self.size != (1, 1, 1)

    def outer_label(self, cell: tuple[int, int, int], side: str) -> str:
        """The label of an outer side of one of its cells (its ``cell_sockets`` entry, else ``sockets[side]``)."""
        own = (self.cell_sockets or {}).get(cell, {})
        return as_label(own[side] if side in own else self.sockets.get(side, ""))

    def passable_sides(self) -> tuple[str, ...]:
        if not self.walkable:
            return ()
        return self.passable if self.passable is not None else SIDES_2D


def turned(tile: SocketTile, degrees: int, sides: Sequence[str], mirrored: bool = False,
           compatible: frozenset[frozenset[str]] = frozenset()) -> tuple[dict[str, str], tuple[str, ...]]:
    """Sockets and passable sides of ``tile`` (mirrored ``x -> -x`` first if asked) turned by ``degrees``
    counter-clockwise.

    Parameters
    ----------
    tile : SocketTile
        The source tile.
    degrees : int
        0, 90, 180 or 270.
    sides : sequence of str
        The sides to turn (``SIDES_2D`` or ``SIDES_3D``).
    mirrored : bool, default False
        Mirror the tile first.
    compatible : frozenset of frozenset of str, default frozenset()
        Declared compatible label pairs (see the module doc).
    """
    quarter = degrees // 90
    sockets: dict[str, str] = {}
    passable = []
    for side in sides:
        label = as_label(tile.sockets.get(side, ""))
        target = side
        if mirrored:
            target = MIRROR[target]
            label = mirror_label(label, side in VERTICAL, compatible)
        for _ in range(quarter):
            target = TURN[target]
        sockets[target] = turn_label(label, quarter) if side in VERTICAL else label
        if side in tile.passable_sides():
            passable.append(target)
    return sockets, tuple(sorted(passable))


def variant_name(tile: str, degrees: int, mirrored: bool) -> str:
    """``"name"``, ``"name@90"``, ``"name~"``, ``"name~@90"``.

    Parameters
    ----------
    tile : str
        The source tile's name.
    degrees : int
        Its turn.
    mirrored : bool
        Whether it is mirrored.
    """
    base = tile + (MIRROR_SUFFIX if mirrored else "")
    return base if degrees == 0 else f"{base}@{degrees}"
