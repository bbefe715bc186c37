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

from .rules import Rules
from .vocab import FORWARD, MIRROR, OPPOSITE, ROTATIONS, SIDES_2D, SIDES_3D, TURN, VERTICAL

_ORIENTED = re.compile(r"^(.*):([0-3])$")
MIRROR_SUFFIX = "~"
UNSET_NOTE = "an unset socket ('' or None) fits only another unset socket"


def _label(value: object) -> str:
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
    a, b = _label(a), _label(b)
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
        object.__setattr__(self, "sockets", {k: _label(v) for k, v in self.sockets.items()})
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
        label = _label(tile.sockets.get(side, ""))
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


def rules_from_tiles(tiles: Iterable[SocketTile], compatible: Iterable[tuple[str, str]] = (),
                     dims: int | None = None, border_labels: Mapping[str, Iterable[str]] | None = None) -> Rules:
    """Rules of all rotated variants of socket tiles.

    Parameters
    ----------
    tiles : iterable of SocketTile
        The kit, with unique names.
    compatible : iterable of (str, str), default ()
        Label pairs that fit each other (see the module doc).
    dims : int, optional
        2 or 3; default 3 when any tile has an ``up`` or ``down`` socket, else 2.
    border_labels : mapping, optional
        ``{side: labels}``: what faces the grid's border on each side. A socket that fits no tile but fits one
        of these labels is kept: its variant may stand only where that side faces the border
        (``rules.edge_only``), e.g. a roof whose ``up`` socket ``sky`` meets only the room's *Above* = ``sky``.

    Notes
    -----
    Variant names are ``"name"`` for rotation 0 and ``"name@90"`` etc. (``"name~"``, ``"name~@90"`` for
    mirrored ones); ``rules.tiles``, ``rules.rotations`` and ``rules.reflected`` give the source tile, the turn
    and the mirror of each variant, ``rules.sockets`` the turned labels.

    Examples
    --------
    >>> road = SocketTile("road", {"n": "road", "e": "grass", "s": "road", "w": "grass"}, rotations=(0, 90))
    >>> grass = SocketTile("grass", {"n": "grass", "e": "grass", "s": "grass", "w": "grass"})
    >>> rules = rules_from_tiles([road, grass])
    >>> rules.names
    ('road', 'road@90', 'grass')
    """
    tiles = list(tiles)
    if not tiles:
        raise ValueError("rules_from_tiles: no tiles given")
    names = [t.name for t in tiles]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"rules_from_tiles: duplicate tile names {duplicates}")
    pairs = []
    for given in compatible:
        pair = tuple(given)
        if len(pair) != 2:
            raise ValueError(f"compatible: expected pairs of labels, got {pair!r}")
        pairs.append(frozenset(_label(p) for p in pair))
    compat = frozenset(pairs)
    if dims is None:
        dims = 3 if any(("up" in t.sockets or "down" in t.sockets) for t in tiles) else 2
    if dims not in (2, 3):
        raise ValueError(f"dims: 2 or 3, got {dims}")
    sides = SIDES_3D if dims == 3 else SIDES_2D

    v_names, v_tiles, v_rot, v_mirror, v_sockets, v_pass, v_weight, v_walk = [], [], [], [], [], [], [], []
    for tile in tiles:
        seen: dict[tuple, tuple[int, bool]] = {}
        for mirrored in (False, True) if tile.mirror else (False,):
            for degrees in tile.rotations:
                sockets, passable = turned(tile, degrees, sides, mirrored, compat)
                signature = (mirrored, tuple(sockets[s] for s in sides), passable)
                if signature not in seen:
                    seen[signature] = (degrees, mirrored)
        for degrees, mirrored in seen.values():
            sockets, passable = turned(tile, degrees, sides, mirrored, compat)
            v_names.append(variant_name(tile.name, degrees, mirrored))
            v_tiles.append(tile.name)
            v_rot.append(degrees)
            v_mirror.append(mirrored)
            v_sockets.append(sockets)
            v_pass.append(passable)
            v_weight.append(tile.weight / len(seen))
            v_walk.append(tile.walkable)
    if len(set(v_names)) != len(v_names):
        raise ValueError("rules_from_tiles: a tile name collides with a variant name ('name@90', 'name~')")

    labels = sorted({s for sock in v_sockets for s in sock.values()} | {p for pair in compat for p in pair})
    lid = {label: i for i, label in enumerate(labels)}
    fit = np.array([[sockets_fit(a, b, compat) for b in labels] for a in labels], dtype=bool)
    allowed = {}
    facing = {key: (key, OPPOSITE[key]) for key in FORWARD}
    for key in FORWARD[:dims]:
        mine, theirs = facing[key]
        ia = np.array([lid[s[mine]] for s in v_sockets])
        ib = np.array([lid[s[theirs]] for s in v_sockets])
        allowed[key] = fit[ia[:, None], ib[None, :]]
    outside = {side: [_label(b) for b in labels] for side, labels in (border_labels or {}).items()}
    problems = []
    edge_only = {}
    for key in FORWARD[:dims]:
        mine, theirs = facing[key]
        for side, lonely in ((mine, ~allowed[key].any(axis=1)), (theirs, ~allowed[key].any(axis=0))):
            edge_only[side] = np.zeros(len(v_names), dtype=bool)
            for i in np.flatnonzero(lonely):
                if any(sockets_fit(v_sockets[i][side], label, compat) for label in outside.get(side, ())):
                    edge_only[side][i] = True
                else:
                    problems.append(f"{v_names[i]!r} side {side} socket {v_sockets[i][side]!r}")
    if problems:
        faced = "; ".join(f"{side}: {', '.join(map(repr, labels))}" for side, labels in outside.items() if labels)
        raise ValueError(
            "rules_from_tiles: these sockets fit no facing socket of any tile variant"
            + (f" nor the border labels ({faced})" if faced else " and there is no border") +
            ", so the tiles could never be placed: " + "; ".join(problems[:20]) + (" …" if len(problems) > 20 else "")
            + f". Add a tile with a matching socket, declare a compatible pair ({UNSET_NOTE}) or set that "
            "side's border label."
        )
    passable_masks = {d: np.array([d in p for p in v_pass]) for d in sides}
    return Rules(
        weights=np.array(v_weight), allowed=allowed, names=tuple(v_names), tiles=tuple(v_tiles),
        rotations=tuple(v_rot), reflected=tuple(v_mirror), walkable=np.array(v_walk, dtype=bool),
        passable=passable_masks, sockets=tuple(v_sockets),
        edge_only={side: mask for side, mask in edge_only.items() if mask.any()} or None,
        compatible=compat,
    )
