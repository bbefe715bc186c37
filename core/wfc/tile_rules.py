"""Rules from socket tiles (:mod:`.sockets`): every distinct turn (and mirror) of every tile a variant, big tiles
one variant per covered cell (:mod:`.tile_parts`), and which variant fits beside which by their labels."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from .rules import Footprints, Rules
from .sockets import UNSET_NOTE, SocketTile, as_label, sockets_fit, turned, variant_name
from .tile_parts import INNER, INNER_PREFIX, distinct_turns, inner_label, part_name
from .vocab import FORWARD, OPPOSITE, SIDES_2D, SIDES_3D


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
    and the mirror of each variant, ``rules.sockets`` the turned labels. A big tile (``SocketTile.size`` other
    than (1, 1, 1)) gives one variant per covered cell and distinct turn (:mod:`.tile_parts`): its anchor part is
    named like a tile's variant, the others ``"hall@90#1,0,0"`` (``rules.footprints`` says which cells each
    covers).

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
        pairs.append(frozenset(as_label(p) for p in pair))
    compat = frozenset(pairs)
    if dims is None:
        dims = 3 if any(("up" in t.sockets or "down" in t.sockets) for t in tiles) else 2
    if dims not in (2, 3):
        raise ValueError(f"dims: 2 or 3, got {dims}")
    sides = SIDES_3D if dims == 3 else SIDES_2D

    v_names: list[str] = []
    v_tiles: list[str] = []
    v_rot: list[int] = []
    v_mirror: list[bool] = []
    v_sockets: list[dict[str, str]] = []
    v_pass: list[tuple[str, ...]] = []
    v_weight: list[float] = []
    v_walk: list[bool] = []
    cells: list[tuple[int, tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]] = []
    for tile in tiles:
        if tile.big:
            if dims == 2 and tile.size[2] > 1:
                raise ValueError(f"rules_from_tiles: tile {tile.name!r} is {tile.size[2]} cells high and the grid is "
                                 "flat (one storey); give it more storeys or take the tile out")
            turns = distinct_turns(tile, sides, compat)
            for turn in turns:
                base, anchor = variant_name(tile.name, turn.degrees, turn.mirrored), len(v_names)
                for part in turn.parts:
                    sockets = {side: inner_label(base, part.offset, side) if label == INNER else label
                               for side, label in part.sockets.items()}
                    v_names.append(part_name(base, part.offset))
                    v_tiles.append(tile.name)
                    v_rot.append(turn.degrees)
                    v_mirror.append(turn.mirrored)
                    v_sockets.append(sockets)
                    v_pass.append(part.passable)
                    v_weight.append(tile.weight / len(turns))
                    v_walk.append(tile.walkable)
                    cells.append((anchor, part.offset, turn.size, turn.origin))
            continue
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
            cells.append((len(v_names) - 1, (0, 0, 0), (1, 1, 1), (0, 0, 0)))
    if len(set(v_names)) != len(v_names):
        raise ValueError("rules_from_tiles: a tile name collides with a variant name ('name@90', 'name~')")

    used = {s for sock in v_sockets for s in sock.values()}
    inner = sorted(s for s in used if s.startswith(INNER_PREFIX))
    labels = sorted((used - set(inner)) | {p for pair in compat for p in pair})
    fit = np.array([[sockets_fit(a, b, compat) for b in labels] for a in labels], dtype=bool)
    if inner:  # inner labels of big tiles fit only themselves
        fit = np.block([[fit, np.zeros((len(labels), len(inner)), bool)],
                        [np.zeros((len(inner), len(labels)), bool), np.eye(len(inner), dtype=bool)]])
        labels += inner
    lid = {label: i for i, label in enumerate(labels)}
    allowed = {}
    facing = {key: (key, OPPOSITE[key]) for key in FORWARD}
    for key in FORWARD[:dims]:
        mine, theirs = facing[key]
        ia = np.array([lid[s[mine]] for s in v_sockets])
        ib = np.array([lid[s[theirs]] for s in v_sockets])
        allowed[key] = fit[ia[:, None], ib[None, :]]
    outside = {side: [as_label(b) for b in labels] for side, labels in (border_labels or {}).items()}
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
        compatible=compat, footprints=_footprints(cells) if any(t.big for t in tiles) else None,
    )


def _footprints(cells: list[tuple[int, tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]]
                ) -> Footprints:
    """The rules' :class:`~.rules.Footprints` from ``(anchor, offset, size, origin)`` per variant."""
    return Footprints(anchor=np.array([c[0] for c in cells], dtype=np.int64),
                      offset=np.array([c[1] for c in cells], dtype=np.int64).reshape(-1, 3),
                      size=np.array([c[2] for c in cells], dtype=np.int64).reshape(-1, 3),
                      origin=np.array([c[3] for c in cells], dtype=np.int64).reshape(-1, 3))
