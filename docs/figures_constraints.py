"""Guide figures for the solver's constraints: each one beside the same map without it (see generate.py).

The maps come from one marching-squares kit seen from above (each tile is four quadrants of floor or rock;
the side labels list two quadrants, so a corner fits a corner). Every grid is solved by ``strew.core.wfc`` and
checked against its rules and the constraint it shows before it is drawn: the pictures cannot show what the
solver did not do.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from generate import GAP, PANEL, SEAM, View, frame
from raster import Canvas, Colour, hex_colour

from strew.core.wfc import Paths, Rules, SocketTile, find_violations, rules_from_tiles, solve, walkable_components
from strew.core.wfc.big_tiles import placed_tiles
from strew.core.wfc.grow import grow, grown_box, walls_to_resolve
from strew.core.wfc.layout import Region
from strew.core.wfc.max_run import MaxRun
from strew.core.wfc.separation import Separation
from strew.core.wfc.set_pieces import piece_clash, piece_variant
from strew.core.wfc.symmetry import Symmetry, mirror_twins

ROCK = hex_colour("#5d4037")
LEDGE = hex_colour("#d7ccc8")  # floor quadrants of tiles that are not open floor
MARK = hex_colour("#fdd835")
TINT = hex_colour("#1e88e5")
REGIONS = tuple(hex_colour(c) for c in ("#81c784", "#4fc3f7", "#ffb74d", "#ba68c8", "#f06292", "#aed581",
                                        "#4db6ac", "#ff8a65", "#9575cd", "#e6ee9c", "#90a4ae", "#ffd54f"))
SHAPES = {"solid": "xxxx", "floor": "oooo", "corner": "oxxx", "edge": "ooxx", "diagonal": "oxox", "inner": "ooox"}
"""Quadrants (SW, SE, NE, NW) of each tile: o floor, x rock."""
TURNS = (0, 90, 180, 270)
SIZE = (24, 24)
ROCK_BORDER = "xx"


def cave_tiles() -> list[SocketTile]:
    """The kit's tiles: only open floor is walkable (a cave's floor is one region when it is connected)."""
    tiles = []
    for name, (sw, se, ne, nw) in SHAPES.items():
        sockets = {"e": se + ne, "n": ne + nw, "w": nw + sw, "s": sw + se}
        tiles.append(SocketTile(name, sockets, weight=3.0 if name == "floor" else 1.0, rotations=TURNS,
                                walkable=name == "floor"))
    return tiles


def cave_kit(*more: SocketTile) -> Rules:
    """The kit (and ``more`` tiles)."""
    return rules_from_tiles([*more, *cave_tiles()], compatible=[("ox", "xo")])


def quadrants(rules: Rules) -> np.ndarray:
    """(T, 4) bool per variant: floor in its SW, SE, NE, NW quadrant, read from its turned side labels (each
    quadrant is on two sides; a big tile's inner sides say nothing, so the other side tells, else floor)."""
    where = {"sw": (("s", 0), ("w", 1)), "se": (("s", 1), ("e", 0)), "ne": (("e", 1), ("n", 0)),
             "nw": (("n", 1), ("w", 0))}
    rows = []
    for sockets in rules.sockets or ():
        row = []
        for quadrant in ("sw", "se", "ne", "nw"):
            told = [sockets[side][k] for side, k in where[quadrant]
                    if len(sockets[side]) == 2 and set(sockets[side]) <= {"o", "x"}]
            row.append((told or ["o"])[0] == "o")
        rows.append(row)
    return np.array(rows, dtype=bool)


def draw_map(canvas: Canvas, view: View, rules: Rules, grid: np.ndarray) -> None:
    """Each cell's four quadrants; open floor coloured by its walkable region, other floor pale, rock dark."""
    floor = quadrants(rules)
    labels = walkable_components(rules, grid)
    found, sizes = np.unique(labels[labels >= 0], return_counts=True)
    rank = {int(label): k for k, label in enumerate(found[np.argsort(-sizes, kind="stable")])}  # largest first
    regions = np.vectorize(lambda label: rank.get(int(label), -1), otypes=[np.int64])(labels)
    half = view.scale / 2
    offsets = ((0, 1), (1, 1), (1, 0), (0, 0))  # SW, SE, NE, NW in pixel halves (y down)
    for (x, y), variant in np.ndenumerate(grid):
        left, top = view.px(np.array([[x, y + 1]]))[0]
        region = int(regions[x, y])
        for quadrant, (dx, dy) in enumerate(offsets):
            colour = ROCK
            if floor[variant, quadrant]:
                colour = REGIONS[region % len(REGIONS)] if region >= 0 else LEDGE
            x0, y0 = left + dx * half, top + dy * half
            canvas.rect(x0 - 0.5, y0 - 0.5, x0 + half + 0.5, y0 + half + 0.5, colour)


def mark_cells(canvas: Canvas, view: View, cells: list[tuple[int, int]], colour: Colour = MARK) -> None:
    """A ring around each cell (fixed tiles, entrances)."""
    for x, y in cells:
        cx, cy = view.px(np.array([[x + 0.5, y + 0.5]]))[0]
        canvas.ring(cx, cy, view.scale * 0.42, colour, width=2.5)


def tint_box(canvas: Canvas, view: View, low: tuple[int, int], high: tuple[int, int]) -> None:
    """A region's cells (inclusive box) under a light wash with an outline."""
    (x0, y1), (x1, y0) = view.px(np.array([low, [high[0] + 1, high[1] + 1]], dtype=float))
    canvas.rect(x0, y0, x1, y1, TINT, alpha=0.18)
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        canvas.line(*a, *b, TINT, width=2.0)


def pair(out: Path, name: str, rules: Rules | tuple[Rules, Rules], grids: tuple[np.ndarray, np.ndarray],
         decorate: Callable[[Canvas, View], None] | None = None,
         marks: Callable[[Canvas, View, np.ndarray], None] | None = None) -> None:
    """Two maps side by side (without the constraint, with it; ``rules`` for both or for each); ``decorate``
    marks the right one, ``marks`` each one (given its grid)."""
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    both = rules if isinstance(rules, tuple) else (rules, rules)
    for k, grid in enumerate(grids):
        view = View.fit(0, 0, *grid.shape, GAP + k * (PANEL + GAP), GAP, PANEL)
        draw_map(canvas, view, both[k], grid)
        if decorate is not None and k == 1:
            decorate(canvas, view)
        if marks is not None:
            marks(canvas, view, grid)
        frame(canvas, view)
    canvas.save(out / f"{name}.png")


def checked(rules: Rules, grid: np.ndarray, border: str | None = ROCK_BORDER) -> np.ndarray:
    """``grid`` after checking every adjacency and, with a border label, every side facing the border."""
    assert not find_violations(rules, grid), "a map breaks a rule"
    if border is not None:
        sockets = rules.sockets or ()
        edges = {"w": grid[0, :], "e": grid[-1, :], "s": grid[:, 0], "n": grid[:, -1]}
        assert all(sockets[int(v)][side] == border for side, row in edges.items() for v in row), "border broken"
    return grid


def regions_of(rules: Rules, grid: np.ndarray) -> int:
    labels = walkable_components(rules, grid)
    return len(np.unique(labels[labels >= 0]))


def fig_wfc_connected(out: Path) -> str:
    """A cave: a quarter of the cells open floor (a count with a minimum), closed by rock; then one region."""
    rules = cave_kit()
    floor = {"floor": (SIZE[0] * SIZE[1] // 4, None)}
    loose = checked(rules, solve(rules, SIZE, seed=5, border=ROCK_BORDER, counts=floor))
    joined = checked(rules, solve(rules, SIZE, seed=5, border=ROCK_BORDER, counts=floor, connected=True))
    open_cells = int(np.isin(joined, [v for v in range(rules.count) if (rules.tiles or ())[v] == "floor"]).sum())
    assert open_cells >= floor["floor"][0] and regions_of(rules, joined) == 1
    pair(out, "wfc_connected", rules, (loose, joined))
    return f"cave {SIZE}: {regions_of(rules, loose)} floor regions, connected: 1 ({open_cells} open cells)"


def fig_wfc_entrances(out: Path) -> str:
    """Two entrances near opposite walls: both open floor, joined by the floor between them."""
    rules = cave_kit()
    doors = [(1, 5), (SIZE[0] - 2, 18)]
    loose = checked(rules, solve(rules, SIZE, seed=2, border=ROCK_BORDER))
    joined = checked(rules, solve(rules, SIZE, seed=2, border=ROCK_BORDER, entrances=doors))
    labels = walkable_components(rules, joined)
    assert labels[doors[0]] >= 0 and labels[doors[0]] == labels[doors[1]]
    pair(out, "wfc_entrances", rules, (loose, joined), lambda canvas, view: mark_cells(canvas, view, doors))
    return f"entrances {doors} joined"


def fig_wfc_fixed(out: Path) -> str:
    """A plaza of open floor pinned in the middle: the rest grows around it."""
    rules = cave_kit()
    floor = rules.index("floor")
    plaza = [(x, y) for x in range(9, 15) for y in range(9, 15) if abs(x - 11.5) + abs(y - 11.5) < 4]
    loose = checked(rules, solve(rules, SIZE, seed=7, border=ROCK_BORDER))
    pinned = checked(rules, solve(rules, SIZE, seed=7, border=ROCK_BORDER, fixed=dict.fromkeys(plaza, floor)))
    assert all(pinned[cell] == floor for cell in plaza)
    pair(out, "wfc_fixed", rules, (loose, pinned), lambda canvas, view: mark_cells(canvas, view, plaza))
    return f"{len(plaza)} fixed cells"


def fig_wfc_region(out: Path) -> str:
    """A region (a box of cells) that allows every tile but solid rock: a hall inside the caves."""
    rules = cave_kit()
    low, high = (4, 4), (13, 19)
    box = np.zeros(SIZE, dtype=bool)
    box[low[0]: high[0] + 1, low[1]: high[1] + 1] = True
    hall = Region(box, allowed=np.array([name != "solid" for name in rules.tiles or ()]), label="hall")
    loose = checked(rules, solve(rules, SIZE, seed=4, border=ROCK_BORDER))
    weighted = checked(rules, solve(rules, SIZE, seed=4, border=ROCK_BORDER, constraints=[hall]))
    floor = rules.index("floor")
    share = float((weighted[box] == floor).mean())
    assert share > float((loose[box] == floor).mean())
    assert not np.isin(weighted[box], [v for v, name in enumerate(rules.tiles or ()) if name == "solid"]).any()
    pair(out, "wfc_region", rules, (loose, weighted), lambda canvas, view: tint_box(canvas, view, low, high))
    return f"region {low}–{high}: open floor {share:.0%} of its cells"


def fig_wfc_border(out: Path) -> str:
    """The border label: rock all round (a closed map) against open floor all round (a map that goes on)."""
    rules = cave_kit()
    closed = checked(rules, solve(rules, SIZE, seed=9, border=ROCK_BORDER))
    opened = checked(rules, solve(rules, SIZE, seed=9, border="oo"), border="oo")

    def seam(canvas: Canvas, view: View) -> None:
        (x0, y1), (x1, y0) = view.px(np.array([[0.0, 0.0], [float(SIZE[0]), float(SIZE[1])]]))
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            canvas.line(*a, *b, SEAM, width=3.0, alpha=0.8)

    pair(out, "wfc_border", rules, (closed, opened), seam)
    return "border xx (rock) against oo (floor)"


def fig_wfc_big_tiles(out: Path) -> str:
    """Big tiles: a 2 x 2 hall (open floor all round) and a 3 x 2 gallery (a corridor along the seam of its two
    rows, rock above and below, labelled per covered cell), each one tile over several cells, turned like any
    other."""
    floor = {"n": "oo", "e": "oo", "s": "oo", "w": "oo"}
    hall = SocketTile("hall", floor, weight=2.0, walkable=True, size=(2, 2, 1))
    rock = {"n": "xx", "e": "xx", "s": "xx", "w": "xx"}
    sides = {(0, 0, 0): {"s": "xx", "w": "ox"}, (1, 0, 0): {"s": "xx"}, (2, 0, 0): {"s": "xx", "e": "xo"},
             (0, 1, 0): {"n": "xx", "w": "xo"}, (1, 1, 0): {"n": "xx"}, (2, 1, 0): {"n": "xx", "e": "ox"}}
    gallery = SocketTile("gallery", rock, weight=0.5, walkable=True, rotations=(0, 90), size=(3, 2, 1),
                         cell_sockets=sides)
    rules = cave_kit(hall, gallery)
    small = cave_kit()
    plain = checked(small, solve(small, SIZE, seed=6, border=ROCK_BORDER))
    grid = checked(rules, solve(rules, SIZE, seed=6, border=ROCK_BORDER))
    placed = placed_tiles(rules, grid)
    big = [row for row in range(len(placed.variants)) if int(np.prod(placed.sizes[row])) > 1]
    covered = [cell for row in big for cell in placed.covered(row)]
    assert len(covered) == len(set(covered)), "two big tiles share a cell"
    names = rules.tiles or ()
    shapes = {(names[int(placed.variants[row])], tuple(int(c) for c in placed.sizes[row][:2])) for row in big}
    assert shapes <= {("hall", (2, 2)), ("gallery", (3, 2)), ("gallery", (2, 3))}, shapes

    def outline(canvas: Canvas, view: View) -> None:
        for row in big:
            (x, y), (w, h) = placed.cells[row], placed.sizes[row][:2]
            (x0, y1), (x1, y0) = view.px(np.array([[x, y], [x + w, y + h]], dtype=float))
            inset = 2.0
            corners = ((x0 + inset, y0 + inset), (x1 - inset, y0 + inset), (x1 - inset, y1 - inset),
                       (x0 + inset, y1 - inset))
            for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
                canvas.line(*a, *b, MARK, width=2.5)

    pair(out, "wfc_big_tiles", (small, rules), (plain, grid), outline)
    kinds = sorted({name for name, _ in shapes})
    return f"{len(big)} big tiles ({', '.join(kinds)}) over {len(covered)} cells"


def outline_box(canvas: Canvas, view: View, low: tuple[int, int], high: tuple[int, int],
                colour: Colour = MARK) -> None:
    """A box of cells (inclusive) outlined, a little inside its edge."""
    (x0, y1), (x1, y0) = view.px(np.array([low, [high[0] + 1, high[1] + 1]], dtype=float))
    corners = ((x0 + 2, y0 + 2), (x1 - 2, y0 + 2), (x1 - 2, y1 - 2), (x0 + 2, y1 - 2))
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        canvas.line(*a, *b, colour, width=3.0)


def fig_wfc_grow(out: Path) -> str:
    """Grow: a closed 14 x 24 cave, then the same cave grown by 10 columns on +x; the old part (outlined) is kept
    cell for cell and the new caves meet it across the seam. Both drawn at the same scale."""
    rules = cave_kit()
    old_shape = (14, SIZE[1])
    old = checked(rules, solve(rules, old_shape, seed=3, border=ROCK_BORDER))
    size, offset = grown_box((*old_shape, 1), "+X", SIZE[0] - old_shape[0])
    grown = checked(rules, grow(rules, old, size, offset, seed=8, border=ROCK_BORDER, keep_walls=True))
    assert np.array_equal(grown[: old_shape[0]], old), "the old cells changed"
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    for k, grid in enumerate((old, grown)):
        view = View.fit(0, 0, *SIZE, GAP + k * (PANEL + GAP), GAP, PANEL)
        draw_map(canvas, View(0, 0, *grid.shape, view.left, view.top, view.scale), rules, grid)
        shown = View(0, 0, *grid.shape, view.left, view.top, view.scale)
        if k == 1:
            outline_box(canvas, shown, (0, 0), (old_shape[0] - 1, old_shape[1] - 1))
        frame(canvas, shown)
    canvas.save(out / "wfc_grow.png")
    return f"{old_shape[0]} x {old_shape[1]} grown on +X to {size[0]} x {size[1]}: {old.size} old cells kept"


def fig_wfc_grow_walls(out: Path) -> str:
    """Grow a closed cave on +x: with ``keep_walls`` the old rock edge stays as a seam of rock; by default the old
    wall column (tinted) is solved again with the new cells, so the caves run through where the wall stood."""
    rules = cave_kit()
    old_shape = (14, SIZE[1])
    old = checked(rules, solve(rules, old_shape, seed=3, border=ROCK_BORDER))
    size, offset = grown_box((*old_shape, 1), "+X", SIZE[0] - old_shape[0])
    kept = checked(rules, grow(rules, old, size, offset, seed=8, border=ROCK_BORDER, keep_walls=True))
    moved = checked(rules, grow(rules, old, size, offset, seed=8, border=ROCK_BORDER))
    walls = walls_to_resolve(rules, old, size, offset, border=ROCK_BORDER)
    assert walls[-1].all() and not walls[:-1].any(), "only the old east column is solved again"
    assert np.array_equal(kept[: old_shape[0]], old) and np.array_equal(moved[: old_shape[0] - 1], old[:-1])
    seam = old_shape[0] - 1

    def open_quadrants(grid: np.ndarray) -> int:  # floor quadrants on the east half of the old wall column
        floor = quadrants(rules)[grid[seam]]
        return int(floor[:, 1:3].sum())

    def decorate(canvas: Canvas, view: View) -> None:
        tint_box(canvas, view, (seam, 0), (seam, old_shape[1] - 1))

    pair(out, "wfc_grow_walls", rules, (kept, moved), decorate)
    return (f"{int(walls.sum())} wall cells solved again, {int((moved[seam] != old[seam]).sum())} changed; floor "
            f"quadrants on the old wall's outer half: {open_quadrants(kept)} kept, {open_quadrants(moved)} moved")


def fig_wfc_set_pieces(out: Path) -> str:
    """Set pieces: tiles placed by hand (turned corners and edges around a floor, ringed) as fixed cells; the rest
    of the cave is solved around them, every piece's sockets checked against its neighbours first."""
    rules = cave_kit()
    tiles = {tile.name: tile for tile in cave_tiles()}
    hand = [("floor", (7, 7)), ("edge", (7, 6)), ("edge", (8, 7)), ("edge", (7, 8)), ("edge", (6, 7)),
            ("corner", (6, 6)), ("corner", (8, 6)), ("corner", (8, 8)), ("corner", (6, 8)),
            ("inner", (15, 18)), ("diagonal", (16, 14))]
    pieces: list[tuple[tuple[int, int], int]] = []
    for name, cell in hand:  # each piece in the first turn that fits the pieces already placed, as a designer would
        turns = [piece_variant(rules, tiles[name], turn, False) for turn in TURNS]
        fits = [v for v in turns if v is not None and piece_clash(rules, SIZE, [*pieces, (cell, v)]) is None]
        assert fits, f"no turn of {name} fits at {cell}"
        pieces.append((cell, fits[0]))
    fixed = dict(pieces)
    loose = checked(rules, solve(rules, SIZE, seed=11, border=ROCK_BORDER))
    placed = checked(rules, solve(rules, SIZE, seed=11, border=ROCK_BORDER, fixed=fixed))
    assert all(placed[cell] == v for cell, v in fixed.items())
    pair(out, "wfc_set_pieces", rules, (loose, placed), lambda canvas, view: mark_cells(canvas, view, list(fixed)))
    turns = sorted({int((rules.rotations or ())[v]) for v in fixed.values()})
    return f"{len(fixed)} set pieces of {len({name for name, _ in hand})} tiles, turned {turns}"


def closest(cells: list[tuple[int, int]]) -> float:
    """The least straight distance between two of ``cells`` (every pair)."""
    return min((float(np.hypot(a[0] - b[0], a[1] - b[1])) for k, a in enumerate(cells) for b in cells[k + 1:]),
               default=float("inf"))


def fig_wfc_separation(out: Path) -> str:
    """Shrines (open floor tiles of their own, ringed) at least 6 cells apart, against the same count without."""
    shrine = SocketTile("shrine", {"n": "oo", "e": "oo", "s": "oo", "w": "oo"}, weight=1.5, walkable=True)
    rules = cave_kit(shrine)
    names = np.array(rules.tiles or ())
    count = {"shrine": (8, None)}
    loose = checked(rules, solve(rules, SIZE, seed=3, border=ROCK_BORDER, counts=count))
    apart = checked(rules, solve(rules, SIZE, seed=3, border=ROCK_BORDER, counts=count,
                                 constraints=[Separation("shrine", 6)]))
    where = [[(int(x), int(y)) for x, y in np.argwhere(names[grid] == "shrine")] for grid in (loose, apart)]
    assert len(where[1]) >= 8 and closest(where[1]) >= 6 > closest(where[0])
    pair(out, "wfc_separation", rules, (loose, apart),
         marks=lambda canvas, view, grid: mark_cells(canvas, view, [(int(x), int(y)) for x, y in
                                                                   np.argwhere(names[grid] == "shrine")]))
    return (f"{len(where[1])} shrines, closest pair {closest(where[0]):.1f} cells without, "
            f"{closest(where[1]):.1f} with Separation 6")


def runs_over(mask: np.ndarray, length: int) -> list[tuple[int, int]]:
    """The cells of every row in x or y of more than ``length`` True cells in a row, scanned cell by cell."""
    found: set[tuple[int, int]] = set()
    width, depth = mask.shape
    lines = [[(x, y) for x in range(width)] for y in range(depth)] + [[(x, y) for y in range(depth)]
                                                                       for x in range(width)]
    for line in lines:
        run: list[tuple[int, int]] = []
        for cell in [*line, None]:
            if cell is not None and mask[cell]:
                run.append(cell)
                continue
            if len(run) > length:
                found.update(run)
            run = []
    return sorted(found)


def fig_wfc_max_run(out: Path) -> str:
    """Open floor never more than 3 tiles in a row: long halls break into short runs (ringed: the runs of more
    than 3, left)."""
    rules = cave_kit()
    names = np.array(rules.tiles or ())
    loose = checked(rules, solve(rules, SIZE, seed=8, border=ROCK_BORDER))
    short = checked(rules, solve(rules, SIZE, seed=8, border=ROCK_BORDER, constraints=[MaxRun("floor", 3)]))
    over = [runs_over(names[grid] == "floor", 3) for grid in (loose, short)]
    assert over[0] and not over[1]
    pair(out, "wfc_max_run", rules, (loose, short),
         marks=lambda canvas, view, grid: mark_cells(canvas, view, runs_over(names[grid] == "floor", 3)))
    return f"{len(over[0])} cells in runs of open floor longer than 3 without, none with MaxRun 3"


def fig_wfc_symmetry(out: Path) -> str:
    """A cave that mirrors itself across its middle in x (the red line)."""
    rules = cave_kit()
    loose = checked(rules, solve(rules, SIZE, seed=11, border=ROCK_BORDER))
    mirrored = checked(rules, solve(rules, SIZE, seed=11, border=ROCK_BORDER, constraints=[Symmetry("x")]))
    floor = quadrants(rules)  # (T, 4): SW, SE, NE, NW

    def image(grid: np.ndarray) -> np.ndarray:
        q = floor[grid]  # (W, H, 4)
        out = np.zeros((2 * SIZE[0], 2 * SIZE[1]), dtype=bool)
        out[0::2, 0::2], out[1::2, 0::2], out[1::2, 1::2], out[0::2, 1::2] = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
        return out

    assert np.array_equal(image(mirrored), image(mirrored)[::-1]) and not np.array_equal(image(loose),
                                                                                         image(loose)[::-1])
    twins = mirror_twins(rules, "x")
    assert (mirrored[::-1] == twins[mirrored]).all()

    def seam(canvas: Canvas, view: View) -> None:
        (x, y0), (_, y1) = view.px(np.array([[SIZE[0] / 2, 0.0], [SIZE[0] / 2, float(SIZE[1])]]))
        canvas.line(x, y0, x, y1, SEAM, width=3.0, alpha=0.8)

    pair(out, "wfc_symmetry", rules, (loose, mirrored), seam)
    return "symmetry x: every quadrant mirrored across the middle"


PATH_ENDS = ((2, 3), (21, 20))
PATH_SEED = 4


def fig_wfc_paths(out: Path) -> str:
    """Two ringed cells apart in the plain map, joined by a path; connectivity off, so other caves stay sealed."""
    rules = cave_kit()
    a, b = PATH_ENDS
    loose = checked(rules, solve(rules, SIZE, seed=PATH_SEED, border=ROCK_BORDER))
    joined = checked(rules, solve(rules, SIZE, seed=PATH_SEED, border=ROCK_BORDER, constraints=[Paths([PATH_ENDS])]))
    before, after = walkable_components(rules, loose), walkable_components(rules, joined)
    assert not (before[a] >= 0 and before[a] == before[b]), "the plain map joins the ends already"
    assert after[a] >= 0 and after[a] == after[b], "the path's ends are apart"
    assert regions_of(rules, joined) > 1, "no cave left apart: the picture would not show sealed pockets"
    pair(out, "wfc_paths", rules, (loose, joined), lambda canvas, view: mark_cells(canvas, view, [a, b]))
    return f"path {a} – {b} joined; {regions_of(rules, joined) - 1} other region(s) left apart"


FIGURES = (fig_wfc_connected, fig_wfc_entrances, fig_wfc_fixed, fig_wfc_region, fig_wfc_border,
           fig_wfc_big_tiles, fig_wfc_grow, fig_wfc_grow_walls, fig_wfc_set_pieces, fig_wfc_separation, fig_wfc_max_run,
           fig_wfc_symmetry, fig_wfc_paths)
