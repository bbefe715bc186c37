"""Guide figures for Wave Function Collapse: an mxgmn rule set and a socket kit (see generate.py).

Each grid is solved by ``strew.core.wfc`` and checked against its rules before it is drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from generate import GAP, GRASS, INK, PALE, PANEL, ROAD, SEAM, View, frame
from raster import Canvas, Colour, hex_colour

from strew.core.wfc import Rules, SocketTile, find_violations, load_mxgmn, rules_from_tiles, solve

MXGMN = Path(__file__).resolve().parents[1] / "tests" / "data" / "mxgmn"  # the rule sets the tests use


def side_open(rules: Rules, blank: int) -> dict[str, np.ndarray]:
    """Per direction, which variants have a line leaving that side (the blank tile cannot stand there)."""
    east, north = rules.allowed["e"], rules.allowed["n"]
    return {"e": ~east[:, blank], "w": ~east[blank, :], "n": ~north[:, blank], "s": ~north[blank, :]}


def draw_grid(canvas: Canvas, view: View, grid: np.ndarray, opened: dict[str, np.ndarray],
              background: Callable[[int], Colour], line: Colour, width: float,
              bridges: dict[int, tuple[str, str]] | None = None) -> None:
    """Each cell: its background colour, then a bar from the centre to every open side."""
    cell = view.scale
    step = {"e": (1, 0), "w": (-1, 0), "n": (0, -1), "s": (0, 1)}  # pixel directions (y down)
    for (x, y), variant in np.ndenumerate(grid):
        left, top = view.px(np.array([[x, y + 1]]))[0]
        # Half a pixel of overlap: neighbouring cells leave no light seam between them.
        canvas.rect(left - 0.5, top - 0.5, left + cell + 0.5, top + cell + 0.5, background(int(variant)))
        cx, cy = left + cell / 2, top + cell / 2
        sides = [d for d in ("e", "w", "n", "s") if opened[d][variant]]
        over = (bridges or {}).get(int(variant), ())
        for d in sides:
            if d in over:
                continue
            canvas.line(cx, cy, cx + step[d][0] * cell / 2, cy + step[d][1] * cell / 2, line, width=width)
        for d in over:  # the bridge of a crossing: a gap, then the upper strand
            canvas.line(cx, cy, cx + step[d][0] * cell / 2, cy + step[d][1] * cell / 2, background(int(variant)),
                        width=width * 2.2)
            canvas.line(cx, cy, cx + step[d][0] * cell / 2, cy + step[d][1] * cell / 2, line, width=width)


def fig_wfc_knots(out: Path) -> str:
    rules = load_mxgmn(MXGMN / "Knots.xml")
    shape = (24, 24)
    grid = solve(rules, shape, seed=3)
    assert not find_violations(rules, grid), "Knots grid breaks a rule"
    blank = rules.index("empty 0")
    opened = side_open(rules, blank)
    tiles = rules.tiles or rules.names or ()
    rotations = rules.rotations or (0,) * rules.count
    # A crossing is drawn with one strand on top: the vertical one at rotation 0, the horizontal one at 90.
    bridges = {v: (("n", "s") if rotations[v] in (0, 180) else ("e", "w"))
               for v in range(rules.count) if tiles[v] == "cross"}
    palette = {name: PALE for name in tiles} | {"cross": hex_colour("#fff3e0")}
    canvas = Canvas(PANEL * 3 // 2 + 2 * GAP, PANEL * 3 // 2 + 2 * GAP)
    view = View.fit(0, 0, *shape, GAP, GAP, PANEL * 3 // 2)
    draw_grid(canvas, view, grid, opened, lambda v: palette[tiles[v]], INK, width=3.0,
              bridges=bridges)
    frame(canvas, view)
    canvas.save(out / "wfc_knots.png")
    used = sorted({tiles[v] for v in np.unique(grid)})
    return f"Knots {shape}: {rules.count} variants, tiles used {used}"


def road_kit() -> Rules:
    g, r = "grass", "road"
    tiles = [
        SocketTile("grass", {"n": g, "e": g, "s": g, "w": g}, weight=6.0),
        SocketTile("straight", {"n": r, "e": g, "s": r, "w": g}, weight=2.0, rotations=(0, 90)),
        SocketTile("corner", {"n": r, "e": r, "s": g, "w": g}, rotations=(0, 90, 180, 270)),
        SocketTile("tee", {"n": r, "e": r, "s": g, "w": r}, weight=0.6, rotations=(0, 90, 180, 270)),
        SocketTile("cross", {"n": r, "e": r, "s": r, "w": r}, weight=0.3),
        SocketTile("end", {"n": r, "e": g, "s": g, "w": g}, weight=0.3, rotations=(0, 90, 180, 270)),
    ]
    return rules_from_tiles(tiles)


def fig_wfc_sockets(out: Path) -> str:
    rules = road_kit()
    sockets = rules.sockets or ()
    opened = {d: np.array([s[d] == "road" for s in sockets]) for d in ("e", "w", "n", "s")}
    tile_shape = (12, 12)
    tile = solve(rules, tile_shape, seed=7, periodic=True)
    assert not find_violations(rules, tile, periodic=True), "road tile breaks a rule across its seams"
    copies = 3
    world = np.tile(tile, (copies, copies))
    assert not find_violations(rules, world), "3x3 copies of the road tile break a rule"
    pixels = PANEL * 3 // 2
    canvas = Canvas(pixels + 2 * GAP, pixels + 2 * GAP)
    view = View.fit(0, 0, *world.shape, GAP, GAP, pixels)
    draw_grid(canvas, view, world, opened, lambda v: GRASS, ROAD, width=0.36 * view.scale)
    for k in range(1, copies):
        a = view.px(np.array([[k * tile_shape[0], 0.0], [k * tile_shape[0], world.shape[1]]]))
        b = view.px(np.array([[0.0, k * tile_shape[1]], [world.shape[0], k * tile_shape[1]]]))
        canvas.line(*a[0], *a[1], SEAM, width=1.0, alpha=0.8)
        canvas.line(*b[0], *b[1], SEAM, width=1.0, alpha=0.8)
    frame(canvas, view)
    canvas.save(out / "wfc_roads_tiling.png")
    return f"road kit: {rules.count} variants, periodic {tile_shape} tile repeated 3x3"


FIGURES = (fig_wfc_knots, fig_wfc_sockets)
