"""Kits for the connectivity tests: a marching-squares level with stairs (as the bench's socket kit) and a cave
kit where only open floor is walkable (no solver code here)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque

import numpy as np
from wfc_kits import ALL_TURNS, QUADRANT_PAIRS, quadrant_tiles

from strew.core.wfc import SocketTile, rules_from_tiles
from strew.core.wfc.bitset import unpack

SHAPES = {"solid": "xxxx", "floor": "oooo", "corner": "oxxx", "edge": "ooxx", "diagonal": "oxox", "inner": "ooox"}


def level_tiles(styles: int = 2) -> list[SocketTile]:
    """Floor/wall quadrant tiles in ``styles`` copies, on levels joined by a stair climbing east to a landing."""
    tiles = []
    for style in range(styles):
        for name, (sw, se, ne, nw) in SHAPES.items():
            sockets = {"e": se + ne, "n": ne + nw, "w": nw + sw, "s": sw + se, "up": "lvl", "down": "lvl"}
            walkable = name != "solid"
            passable = tuple(d for d in "enws" if "o" in sockets[d]) if walkable else None
            tiles.append(SocketTile(f"{name}_{style}", sockets, weight=3.0 if name == "floor" else 1.0,
                                    rotations=ALL_TURNS, walkable=walkable, passable=passable))
    side = {"n": "xx", "s": "xx", "e": "oo", "w": "oo"}
    tiles.append(SocketTile("stair", {**side, "up": "stair:0", "down": "lvl"}, weight=0.5, rotations=ALL_TURNS,
                            walkable=True, passable=("w", "up")))
    tiles.append(SocketTile("landing", {**side, "up": "lvl", "down": "stair:0"}, weight=0.5, rotations=ALL_TURNS,
                            walkable=True, passable=("e", "down")))
    return tiles


def level_rules(styles: int = 2):
    return rules_from_tiles(level_tiles(styles), compatible=[("ox", "xo")])


LEVEL_BORDER = {"e": "xx", "n": "xx", "w": "xx", "s": "xx", "up": "lvl", "down": "lvl"}


def cave_rules():
    """The quadrant kit with only open floor walkable: floor meets rock through edge and corner tiles."""
    tiles = [dataclasses.replace(t, walkable=t.name == "floor", passable=None) for t in quadrant_tiles()]
    return rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)


STEP = {"e": (1, 0, 0), "n": (0, 1, 0), "w": (-1, 0, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}
BACK = {"e": "w", "w": "e", "n": "s", "s": "n", "up": "down", "down": "up"}


def domain_regions_ok(rules, dom: np.ndarray, shape: tuple[int, ...], periodic: tuple[bool, ...]) -> bool:
    """From domains alone (plain loops): can every surely-walkable cell still reach the others through cells
    that may be walkable and passable? (BFS over the cells, written apart from the solver.)"""
    bits = unpack(dom[: int(np.prod(shape))], rules.count)
    walk = rules.walkable_mask()
    sides = rules.directions
    passable = {d: rules.passable_mask(d) for d in sides}
    cells = list(itertools.product(*(range(s) for s in shape)))
    index = {c: i for i, c in enumerate(cells)}
    may = [bool((bits[index[c]] & walk).any()) for c in cells]
    sure = [may[index[c]] and not (bits[index[c]] & ~walk).any() for c in cells]
    starts = [c for c in cells if sure[index[c]]]
    if not starts:
        return True
    seen = {starts[0]}
    queue = deque([starts[0]])
    while queue:
        cell = queue.popleft()
        for d in sides:
            other = []
            for axis, size in enumerate(shape):
                value = cell[axis] + STEP[d][axis]
                if periodic[axis]:
                    value %= size
                elif not 0 <= value < size:
                    break
                other.append(value)
            else:
                o = tuple(other)
                if o in seen or not may[index[o]]:
                    continue
                if (bits[index[cell]] & passable[d]).any() and (bits[index[o]] & passable[BACK[d]]).any():
                    seen.add(o)
                    queue.append(o)
    return all(c in seen for c in starts)
