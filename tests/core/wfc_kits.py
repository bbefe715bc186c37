"""Socket kits shared by the WFC tests (no solver code here)."""

from __future__ import annotations

import itertools

from strew.core.wfc import SocketTile, rules_from_tiles

ALL_TURNS = (0, 90, 180, 270)


def quadrant_tiles() -> list[SocketTile]:
    """Marching-squares kit: each tile is 4 quadrants (floor 'o' / wall 'x'), labels read counter-clockwise.

    Side labels: e = (SE, NE), n = (NE, NW), w = (NW, SW), s = (SW, SE); facing labels must be mirrors, so
    ("ox", "xo") is a declared compatible pair and "oo" / "xx" fit themselves.
    """
    shapes = {  # quadrants (SW, SE, NE, NW)
        "solid": "xxxx", "floor": "oooo", "corner": "oxxx", "edge": "ooxx", "diagonal": "oxox",
        "inner": "ooox",
    }
    tiles = []
    for name, q in shapes.items():
        sw, se, ne, nw = q
        sockets = {"e": se + ne, "n": ne + nw, "w": nw + sw, "s": sw + se}
        walkable = "o" in q
        passable = tuple(side for side, label in sockets.items() if "o" in label) if walkable else None
        tiles.append(SocketTile(name, sockets, weight=1.0 if name != "floor" else 3.0, rotations=ALL_TURNS,
                                walkable=walkable, passable=passable))
    return tiles


QUADRANT_PAIRS = [("ox", "xo")]


def quadrant_rules():
    return rules_from_tiles(quadrant_tiles(), compatible=QUADRANT_PAIRS)


def stair_tiles() -> list[SocketTile]:
    """A 3-D kit: rooms and rock on every level, a stair (bottom) climbing east to a landing above it."""
    side = {"n": "h", "e": "h", "s": "h", "w": "h"}
    return [
        SocketTile("room", {**side, "up": "lvl", "down": "lvl"}, weight=2.0, walkable=True),
        SocketTile("rock", {**side, "up": "lvl", "down": "lvl"}, weight=1.0),
        SocketTile("stair", {**side, "up": "stair:0", "down": "lvl"}, weight=0.3, rotations=ALL_TURNS,
                   walkable=True, passable=("w", "up")),
        SocketTile("landing", {**side, "up": "lvl", "down": "stair:0"}, weight=0.3, rotations=ALL_TURNS,
                   walkable=True, passable=("e", "down")),
    ]


def stair_rules():
    return rules_from_tiles(stair_tiles())


TURN = {"e": "n", "n": "w", "w": "s", "s": "e", "up": "up", "down": "down"}


def turn_sockets(tile: SocketTile, degrees: int) -> dict[str, str]:
    """Independent re-implementation of the documented rotation convention (for brute-force checks)."""
    out = {}
    for side, label in tile.sockets.items():
        target = side
        for _ in range(degrees // 90):
            target = TURN[target]
        if side in ("up", "down") and label[-2:-1] == ":" and label[-1] in "0123":
            label = f"{label[:-1]}{(int(label[-1]) + degrees // 90) % 4}"
        out[target] = label
    return out


def fits(a: str, b: str, pairs) -> bool:
    paired = set(itertools.chain.from_iterable(pairs))
    if a in paired or b in paired:
        return any({a, b} == set(p) for p in pairs)
    return a == b
