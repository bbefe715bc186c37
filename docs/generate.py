"""Draw the user guide's figures from ``strew.core`` into ``docs/images/*.png`` (``make docs``).

Every figure is computed by the project itself and its guarantee is checked before it is drawn (a figure
that would show a broken promise stops the script). Only numpy and zlib are needed (see ``raster.py``).
The UI screenshots (``ui_*.png``) come from a GUI session in a real Blender window (``tests/gui``) when one
is available; without one they are kept as they are.

Run: ``python docs/generate.py [--out docs/images]``.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raster import Canvas, Colour, hex_colour

from strew.core.fields import AwayFromPolylines
from strew.core.poisson import PoissonSettings, Samples, sample

HERE = Path(__file__).resolve().parent
PANEL = 300  # pixels per square panel
GAP = 12

INK = hex_colour("#263238")
SEAM = hex_colour("#e53935")
GRASS = hex_colour("#dcedc8")
TREE = hex_colour("#2e7d32")
BUSH = hex_colour("#9e9d24")
WATER = hex_colour("#4fa3e0")
SHORE = hex_colour("#bbdefb")
HOLE = hex_colour("#e53935")
ROAD = hex_colour("#78909c")
PALE = hex_colour("#fafafa")


@dataclass(frozen=True)
class View:
    """Maps the world rectangle ``[x0, x0 + w) x [y0, y0 + h)`` onto a canvas area (world y up)."""

    x0: float
    y0: float
    w: float
    h: float
    left: float
    top: float
    scale: float  # pixels per world unit

    @staticmethod
    def fit(x0: float, y0: float, w: float, h: float, left: float, top: float, pixels: float) -> View:
        return View(x0, y0, w, h, left, top, pixels / max(w, h))

    def px(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        return np.stack([self.left + (xy[:, 0] - self.x0) * self.scale,
                         self.top + (self.y0 + self.h - xy[:, 1]) * self.scale], axis=1)

    def pixel_centres(self, canvas: Canvas) -> tuple[np.ndarray, tuple[slice, slice]]:
        """World xy of every pixel centre in this view's area, and the canvas slices of that area."""
        i0, j0 = round(self.left), round(self.top)
        i1, j1 = round(self.left + self.w * self.scale), round(self.top + self.h * self.scale)
        xs = self.x0 + (np.arange(i0, i1) + 0.5 - self.left) / self.scale
        ys = self.y0 + self.h - (np.arange(j0, j1) + 0.5 - self.top) / self.scale
        gx, gy = np.meshgrid(xs, ys)
        return np.stack([gx.ravel(), gy.ravel()], axis=1), (slice(j0, j1), slice(i0, i1))


def frame(canvas: Canvas, view: View, colour: Colour = INK) -> None:
    corners = view.px(np.array([[view.x0, view.y0], [view.x0 + view.w, view.y0],
                                [view.x0 + view.w, view.y0 + view.h], [view.x0, view.y0 + view.h],
                                [view.x0, view.y0]]))
    canvas.polyline(corners, colour, width=1.0, alpha=0.6)


def draw_points(canvas: Canvas, view: View, samples: Samples, colour: Colour, *, circle: float = 0.5,
                dot: float = 2.0, fill_alpha: float = 0.18) -> None:
    """Dots and circles of ``circle`` x radius: at 0.5 the circles touch but never overlap."""
    centres = view.px(samples.positions)
    for (x, y), r in zip(centres, samples.radii * view.scale * circle, strict=True):
        canvas.disc(x, y, r, colour, alpha=fill_alpha)
        canvas.ring(x, y, r, colour, width=1.0, alpha=0.8)
    for x, y in centres:
        canvas.disc(x, y, dot, colour)


def nearest_distance(points: np.ndarray, queries: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """Distance from each query to its nearest point (brute force in chunks; figure sizes only)."""
    out = np.full(len(queries), np.inf)
    for start in range(0, len(queries), chunk):
        q = queries[start:start + chunk]
        d2 = ((q[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)
        out[start:start + chunk] = np.sqrt(d2.min(axis=1))
    return out


def assert_no_conflict(samples: Samples, extra: Samples | None = None, period: tuple[float, float] | None = None,
                       what: str = "") -> float:
    """Every pair at least the larger radius apart (also against ``extra``, on a torus when ``period``).

    Returns the smallest ratio distance / larger radius (>= 1 when the guarantee holds).
    """
    xy, r = samples.positions, samples.radii
    if extra is not None:
        other_xy, other_r = extra.positions, extra.radii
    else:
        other_xy, other_r = xy, r
    delta = xy[:, None, :] - other_xy[None, :, :]
    if period is not None:
        size = np.asarray(period)
        delta -= size * np.round(delta / size)
    distance = np.hypot(delta[..., 0], delta[..., 1])
    need = np.maximum(r[:, None], other_r[None, :])
    if extra is None:
        np.fill_diagonal(distance, np.inf)
    worst = float((distance / need).min()) if distance.size else math.inf
    if worst < 1.0 - 1e-9:
        raise AssertionError(f"{what}: two points closer than their radius (ratio {worst:.4f})")
    return worst


def fit_more(points: np.ndarray, free: np.ndarray, radius: float) -> np.ndarray:
    """Greedily add points at free places (each at least ``radius`` from every point): the holes' witnesses."""
    added: list[np.ndarray] = []
    while len(free):
        spot = free[0]
        added.append(spot)
        free = free[np.hypot(*(free - spot).T) >= radius]
    return np.array(added).reshape(-1, 2)


# -- figures ----------------------------------------------------------------------------------------------

def fig_radius(out: Path) -> str:
    size = 30.0
    constant = sample(PoissonSettings(size=(size, size), min_radius=1.4, seed=4))

    def radius(xy: np.ndarray) -> np.ndarray:
        return 0.6 + 2.2 * (xy[:, 0] / size) ** 1.5

    variable = sample(PoissonSettings(size=(size, size), min_radius=0.6, max_radius=2.8, radius_at=radius, seed=4))
    assert_no_conflict(constant, what="constant radius")
    assert_no_conflict(variable, what="variable radius")
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    for k, samples in enumerate((constant, variable)):
        view = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        draw_points(canvas, view, samples, TREE if k == 0 else BUSH)
        frame(canvas, view)
    canvas.save(out / "radius_constant_vs_variable.png")
    return f"constant: {len(constant.radii)} points; variable: {len(variable.radii)} points"


def _river(size: float) -> np.ndarray:
    x = np.linspace(-1.0, size + 1.0, 200)
    return np.stack([x, size * 0.5 + 0.22 * size * np.sin(x / size * 2.3 * np.pi) + 0.05 * size * np.sin(x)], axis=1)


def fig_mask(out: Path) -> str:
    size, margin = 40.0, 3.0
    river = _river(size)
    allowed = AwayFromPolylines([river], margin=margin)
    common = dict(size=(size, size), min_radius=1.3, is_allowed=allowed, seed=11)
    bridson_one_start = sample(PoissonSettings(**common, method="bridson", start_points=1))  # type: ignore[arg-type]
    maximal = sample(PoissonSettings(**common))  # type: ignore[arg-type]
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    banks = []
    for k, samples in enumerate((bridson_one_start, maximal)):
        assert allowed(samples.positions).all(), "a point stands in the river's margin"
        assert_no_conflict(samples, what="mask")
        view = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        canvas.rect(view.left, view.top, view.left + PANEL, view.top + PANEL, GRASS)
        line = view.px(river)
        canvas.polyline(line, SHORE, width=2 * margin * view.scale)
        canvas.polyline(line, WATER, width=0.9 * margin * view.scale)
        draw_points(canvas, view, samples, TREE)
        frame(canvas, view)
        river_y = np.interp(samples.positions[:, 0], river[:, 0], river[:, 1])
        banks.append((int((samples.positions[:, 1] > river_y).sum()), int((samples.positions[:, 1] < river_y).sum())))
    canvas.save(out / "mask_river.png")
    return f"(north bank, south bank) points: bridson with one start {banks[0]}, maximal {banks[1]}"


def fig_layers(out: Path) -> str:
    size = 40.0
    trees = sample(PoissonSettings(size=(size, size), min_radius=7.0, seed=2))
    # The bushes see each tree as a blocker with the tree layer's keep-away distance (its canopy).
    keep_away = Samples(trees.positions, np.full(len(trees.radii), 3.0))
    bushes = sample(PoissonSettings(size=(size, size), min_radius=1.0, seed=3), blockers=keep_away)
    assert_no_conflict(trees, what="trees")
    assert_no_conflict(bushes, what="bushes")
    assert_no_conflict(bushes, extra=keep_away, what="bushes against trees")
    canvas = Canvas(PANEL + 2 * GAP, PANEL + 2 * GAP)
    view = View.fit(0, 0, size, size, GAP, GAP, PANEL)
    canvas.rect(view.left, view.top, view.left + PANEL, view.top + PANEL, GRASS)
    centres = view.px(trees.positions)
    for (x, y), r in zip(centres, keep_away.radii * view.scale, strict=True):
        canvas.disc(x, y, r, PALE, alpha=0.55)  # the tree keeps this whole disc free of bushes
        canvas.ring(x, y, r, TREE, width=1.0, alpha=0.5)
    draw_points(canvas, view, bushes, BUSH, dot=1.5)
    for (x, y), r in zip(centres, keep_away.radii * view.scale, strict=True):
        canvas.disc(x, y, 0.5 * r, TREE, alpha=0.85)
    frame(canvas, view)
    canvas.save(out / "layers.png")
    return f"{len(trees.radii)} trees, {len(bushes.radii)} bushes"


def fig_tiling(out: Path) -> str:
    size = 12.0
    tile = sample(PoissonSettings(size=(size, size), min_radius=1.0, max_radius=1.6,
                                  radius_at=lambda xy: 1.0 + 0.6 * (0.5 + 0.5 * np.sin(xy[:, 0] / size * 2 * np.pi)),
                                  tileable=True, seed=5))
    worst = assert_no_conflict(tile, period=(size, size), what="tile across its seams")
    copies = 3
    world = Samples(
        np.concatenate([tile.positions + np.array([i * size, j * size]) for i in range(copies) for j in range(copies)]),
        np.tile(tile.radii, copies * copies),
    )
    assert_no_conflict(world, what="3x3 copies")
    pixels = 2 * PANEL
    canvas = Canvas(pixels + 2 * GAP, pixels + 2 * GAP)
    view = View.fit(0, 0, copies * size, copies * size, GAP, GAP, pixels)
    middle = view.px(np.array([[size, size], [2 * size, 2 * size]]))
    canvas.rect(middle[0, 0], middle[1, 1], middle[1, 0], middle[0, 1], GRASS)
    draw_points(canvas, view, world, TREE, dot=1.8)
    for k in range(1, copies):
        a = view.px(np.array([[k * size, 0.0], [k * size, copies * size]]))
        b = view.px(np.array([[0.0, k * size], [copies * size, k * size]]))
        canvas.line(*a[0], *a[1], SEAM, width=1.0, alpha=0.8)
        canvas.line(*b[0], *b[1], SEAM, width=1.0, alpha=0.8)
    frame(canvas, view)
    canvas.save(out / "tiling_3x3.png")
    return f"{len(tile.radii)} points per tile; closest pair across seams at {worst:.3f} x radius"


def fig_holes(out: Path) -> str:
    size, radius = 30.0, 1.2
    canvas = Canvas(2 * PANEL + 3 * GAP, PANEL + 2 * GAP)
    notes = []
    for k, method in enumerate(("bridson", "maximal")):
        samples = sample(PoissonSettings(size=(size, size), min_radius=radius, method=method, seed=8))
        assert_no_conflict(samples, what=method)
        view = View.fit(0, 0, size, size, GAP + k * (PANEL + GAP), GAP, PANEL)
        xy, _ = view.pixel_centres(canvas)
        free = nearest_distance(samples.positions, xy) >= radius * 1.002  # one more point would fit here
        extra = fit_more(samples.positions, xy[free], radius)
        draw_points(canvas, view, samples, INK, dot=1.6, fill_alpha=0.08)
        for x, y in view.px(extra):
            canvas.disc(x, y, 0.5 * radius * view.scale, HOLE, alpha=0.35)
            canvas.ring(x, y, 0.5 * radius * view.scale, HOLE, width=1.5)
            canvas.disc(x, y, 2.0, HOLE)
        frame(canvas, view)
        notes.append(f"{method}: {len(samples.radii)} points, {len(extra)} more fit ({100 * free.mean():.2f}% of area)")
        if method == "maximal" and free.any():
            raise AssertionError("maximal sampling left room for another point")
    canvas.save(out / "holes_bridson_vs_maximal.png")
    return "; ".join(notes)


FIGURES = (fig_radius, fig_mask, fig_layers, fig_tiling, fig_holes)


def screenshots(out: Path) -> str:
    """The UI pictures (``ui_*.png``): a GUI session in a real Blender window (tests/gui), when there is one."""
    sys.path.insert(0, str(HERE.parent / "tests" / "gui"))
    from launch import MISSING, REPO_ROOT, built_zip, session_command

    archive = built_zip()
    command = session_command("--zip", str(archive), "--out", "tests/gui/out", "--docs",
                              str(out.resolve())) if archive else None
    if command is None:
        return f"kept as they are ({MISSING if archive else 'no dist/strew-*.zip: make build'})"
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=3600)
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else f"session exited with {done.returncode}: {done.stderr[-500:]}"


def every_figure() -> tuple[Callable[[Path], str], ...]:
    """This module's figures, then those of figures_look, figures_curve, figures_relations, figures_wfc and
    figures_constraints (they import this module: loaded here)."""
    from figures_constraints import FIGURES as CONSTRAINT_FIGURES
    from figures_curve import FIGURES as CURVE_FIGURES
    from figures_look import FIGURES as LOOK_FIGURES
    from figures_relations import FIGURES as RELATION_FIGURES
    from figures_wfc import FIGURES as WFC_FIGURES

    return (*FIGURES, *LOOK_FIGURES, *CURVE_FIGURES, *RELATION_FIGURES, *WFC_FIGURES, *CONSTRAINT_FIGURES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=HERE / "images", help="folder for the PNG figures")
    parser.add_argument("--no-screenshots", action="store_true",
                        help="skip the UI screenshots (a session of several minutes in a windowed Blender)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for figure in every_figure():
        started = time.perf_counter()
        note = figure(args.out)
        print(f"{figure.__name__:<18} {time.perf_counter() - started:6.2f} s  {note}")
    if not args.no_screenshots:
        started = time.perf_counter()
        note = screenshots(args.out)
        print(f"{'screenshots':<18} {time.perf_counter() - started:6.2f} s  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
