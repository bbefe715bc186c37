"""Brute-force check of a solved grid with big tiles, from the source tiles alone: plain loops over every cell,
footprints turned by hand (not by the solver's part tables)."""

from __future__ import annotations

import itertools

import numpy as np

from strew.core.wfc.sockets import mirror_label, sockets_fit, turn_label

STEP = {"e": (1, 0, 0), "n": (0, 1, 0), "w": (-1, 0, 0), "s": (0, -1, 0), "up": (0, 0, 1), "down": (0, 0, -1)}
UNTURN = {"n": "e", "w": "n", "s": "w", "e": "s", "up": "up", "down": "down"}  # where a side faced before a turn
UNMIRROR = {"e": "w", "w": "e", "n": "n", "s": "s", "up": "up", "down": "down"}


def own_to_room(cell, degrees, mirrored):
    """A tile's own cell, from its origin's cell, after the mirror and the turn (counter-clockwise)."""
    x, y, z = cell
    if mirrored:
        x = -x
    for _ in range(degrees // 90):
        x, y = -y, x
    return x, y, z


def footprint(tile, degrees, mirrored):
    """``{room offset from the anchor: own cell}`` and the anchor's offset from the origin's cell."""
    placed = {own_to_room(c, degrees, mirrored): c for c in itertools.product(*(range(s) for s in tile.size))}
    low = tuple(min(p[a] for p in placed) for a in range(3))
    return {tuple(p[a] - low[a] for a in range(3)): c for p, c in placed.items()}, low


def outer_label(tile, own_cell, room_side, degrees, mirrored, compatible):
    """The label a placed tile shows on ``room_side`` of one of its cells, worked out from the tile alone."""
    side = room_side
    for _ in range(degrees // 90):
        side = UNTURN[side]
    if mirrored:
        side = UNMIRROR[side]
    label = tile.outer_label(own_cell, side)
    vertical = side in ("up", "down")
    if mirrored:
        label = mirror_label(label, vertical, compatible)
    return turn_label(label, degrees // 90) if vertical else label


def check_big_grid(tiles, rules, grid) -> list[str]:
    """Problems of a solved 3-D ``grid``: cells covered zero or several times, parts at the wrong offset of
    their anchor, outer sides of neighbouring tiles that do not fit. Empty when the grid is right."""
    grid = np.asarray(grid)
    by_name = {t.name: t for t in tiles}
    owner = np.full(grid.shape, -1, dtype=np.int64)
    own = {}
    placed = []
    problems = []
    for cell in itertools.product(*(range(s) for s in grid.shape)):
        v = int(grid[cell])
        name = rules.names[v]
        if "#" in name:
            continue  # not an anchor part
        tile = by_name[rules.tiles[v]]
        degrees, mirrored = rules.rotations[v], bool(rules.reflected[v])
        cells, _ = footprint(tile, degrees, mirrored)
        placed.append((cell, tile, degrees, mirrored))
        for offset, own_cell in cells.items():
            at = tuple(c + o for c, o in zip(cell, offset, strict=True))
            if not all(0 <= a < s for a, s in zip(at, grid.shape, strict=True)):
                problems.append(f"{name} at {cell} reaches off the grid at {at}")
                continue
            if owner[at] >= 0:
                problems.append(f"cell {at} is covered twice")
            owner[at] = len(placed) - 1
            own[at] = own_cell
            part = rules.names[int(grid[at])]
            expected = name if offset == (0, 0, 0) else f"{name}#{offset[0]},{offset[1]},{offset[2]}"
            if part != expected:
                problems.append(f"cell {at} holds {part!r}, the part of {name!r} at {cell} there is {expected!r}")
    problems += [f"cell {tuple(c)} belongs to no tile" for c in np.argwhere(owner < 0).tolist()]
    compatible = rules.compatible or frozenset()
    for cell in itertools.product(*(range(s) for s in grid.shape)):
        for side in ("e", "n", "up"):
            other = tuple(c + d for c, d in zip(cell, STEP[side], strict=True))
            if not all(0 <= a < s for a, s in zip(other, grid.shape, strict=True)):
                continue
            if owner[cell] < 0 or owner[other] < 0 or owner[cell] == owner[other]:
                continue
            _, ta, da, ma = placed[owner[cell]]
            _, tb, db, mb = placed[owner[other]]
            back = {"e": "w", "n": "s", "up": "down"}[side]
            a = outer_label(ta, own[cell], side, da, ma, compatible)
            b = outer_label(tb, own[other], back, db, mb, compatible)
            if not sockets_fit(a, b, compatible):
                problems.append(f"{cell} {side} {a!r} does not fit {other} {back} {b!r}")
    return problems
