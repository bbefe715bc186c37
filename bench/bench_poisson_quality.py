"""Poisson-disk quality: density against saturated RSA, spectra, pair correlation and anisotropy.

Saturated random sequential adsorption (RSA) of points at least r apart covers 0.5470 of the plane with
disks of diameter r (Feder 1980; Hinrichsen, Feder and Jøssang 1986): 0.6965 points per r². Densities are
measured on tori (``tileable=True``: no border). Spectra and pair correlations are measured on 64 r x 64 r
squares (no wrapping, the same for every method): the radially averaged periodogram
``P(k) = |sum exp(-2 pi i k.x)|^2 / N`` over ``k = (m, n) / 64``, averaged over the sets and over rings of
width 1/64; the pair correlation ``g(d)`` with border correction (pairs counted from points at least 4 r from
the border); the anisotropy of each ring ``10 log10(var P / mean P^2)`` (Lagae and Dutré 2008), whose noise
floor for ``n`` averaged isotropic sets is ``-10 log10(n)`` dB.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

from strew.core.poisson import PoissonSettings, sample

from .bench_poisson import blender_poisson
from .reference_rsa import reference_rsa

TITLE = "Poisson-disk quality (core.poisson)"
RSA_DENSITY = 0.6965
SIDE = 64.0  # square of the spectra and pair correlations, in r
SETS = 4
K_MAX = 192  # |k| up to 3 / r
IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
COLOURS = {"strew maximal": "#1f5fa8", "strew bridson (k = 30)": "#d9822b", "Blender GN Poisson": "#3a9d4f",
           "RSA reference (one dart at a time)": "#555555"}


def _raster():  # docs/raster.py: the project's own PNG drawing (not a package module)
    path = IMAGES.parent / "raster.py"
    spec = importlib.util.spec_from_file_location("docs_raster", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def periodogram(points: np.ndarray, side: float, k_max: int) -> np.ndarray:
    """P on the wave vectors ``(m, n) / side`` with ``m, n`` in ``[-k_max, k_max]`` (rows m, columns n)."""
    steps = np.arange(-k_max, k_max + 1)
    ex = np.exp(-2j * np.pi * np.outer(points[:, 0], steps) / side)
    ey = np.exp(-2j * np.pi * np.outer(points[:, 1], steps) / side)
    return np.abs(ex.T @ ey) ** 2 / len(points)


def ring_stats(power: np.ndarray, k_max: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ring radius in 1/side units, mean P, anisotropy dB) of every ring 1..k_max."""
    steps = np.arange(-k_max, k_max + 1)
    ring = np.rint(np.hypot(*np.meshgrid(steps, steps, indexing="ij"))).astype(int).ravel()
    p = power.ravel()
    count = np.bincount(ring, minlength=k_max + 1)[1 : k_max + 1]
    mean = np.bincount(ring, weights=p, minlength=k_max + 1)[1 : k_max + 1] / count
    square = np.bincount(ring, weights=p * p, minlength=k_max + 1)[1 : k_max + 1] / count
    return np.arange(1, k_max + 1), mean, 10.0 * np.log10((square - mean * mean) / (mean * mean))


def pair_correlation(sets: list[np.ndarray], side: float | None, d_max: float, bins: int) -> np.ndarray:
    """g(d) on ``bins`` bins of ``[0, d_max)``: pairs from points ``d_max`` inside a square of ``side`` (a
    torus of the points' extent when ``side`` is None: every point counts)."""
    counts, centres, density = np.zeros(bins), 0, 0.0
    for pts in sets:
        if side is None:
            extent = float(np.ceil(pts.max()))
            tree, inner, area = cKDTree(pts % extent, boxsize=extent), pts % extent, extent * extent
        else:
            tree, area = cKDTree(pts), side * side
            inner = pts[np.all((pts >= d_max) & (pts <= side - d_max), axis=1)]
        d = cKDTree(inner, boxsize=tree.boxsize).sparse_distance_matrix(tree, d_max, output_type="ndarray")["v"]
        counts += np.histogram(d[d > 0], bins=bins, range=(0.0, d_max))[0]
        centres += len(inner)
        density += len(pts) / area
    density /= len(sets)
    edges = np.linspace(0.0, d_max, bins + 1)
    return counts / (centres * density * math.pi * (edges[1:] ** 2 - edges[:-1] ** 2))


def _densities() -> list[str]:
    rows = ["| torus | sets | points per r² | ÷ 0.6965 | seconds per set |", "|---|---:|---:|---:|---:|"]
    for size, seeds in ((64.0, 8), (200.0, 3), (1000.0, 1)):
        counts, started = [], time.perf_counter()
        for seed in range(seeds):
            torus = PoissonSettings(size=(size, size), min_radius=1.0, seed=seed, tileable=True)
            counts.append(len(sample(torus).radii))
        seconds = (time.perf_counter() - started) / seeds
        density = float(np.mean(counts)) / size**2
        rows.append(f"| {size:g} r | {seeds} | {density:.4f} | {density / RSA_DENSITY:.4f} | {seconds:.2f} |")
    return rows


def _method_sets() -> dict[str, list[np.ndarray]]:
    square = (SIDE, SIDE)
    sets = {
        "strew maximal": [
            sample(PoissonSettings(size=square, min_radius=1.0, seed=s)).positions for s in range(SETS)
        ],
        "strew bridson (k = 30)": [
            sample(PoissonSettings(size=square, min_radius=1.0, seed=s, method="bridson", start_points=16)).positions
            for s in range(SETS)
        ],
    }
    blender: list[np.ndarray] = []
    blender_poisson(SIDE, 1.0, 20.0, SETS, blender)
    sets["Blender GN Poisson"] = blender
    return sets


def _plot(curves: dict[str, tuple[np.ndarray, np.ndarray]], x_max: float, y_max: float, path: Path,
          guide: float | None = None) -> None:
    raster = _raster()
    width, height, margin = 640, 320, 24
    canvas = raster.Canvas(width, height)
    ink = raster.hex_colour("#222222")

    def px(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.column_stack((margin + x / x_max * (width - 2 * margin),
                                height - margin - np.clip(y / y_max, 0, 1.02) * (height - 2 * margin)))

    for tick in range(1, int(x_max) + 1):  # one grid line per 1 / r (spectra) or per r (g)
        canvas.line(*px(np.array([tick, tick]), np.array([0.0, y_max])).ravel(), (0.85, 0.85, 0.85), 1.0)
    if guide is not None:
        canvas.line(*px(np.array([0.0, x_max]), np.array([guide, guide])).ravel(), (0.6, 0.6, 0.6), 1.0)
    canvas.line(margin, height - margin, width - margin, height - margin, ink, 1.5)
    canvas.line(margin, margin, margin, height - margin, ink, 1.5)
    for name, (x, y) in curves.items():
        canvas.polyline(px(x, y), raster.hex_colour(COLOURS[name]), 2.0)
    canvas.save(path)


def run() -> str:
    parts = [__doc__.split("\n\n", 1)[1].strip(), "### Density on tori (r = 1)", "\n".join(_densities())]
    sets = _method_sets()
    spectra: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    rows = [
        "| method | points per set | spectrum peak (at \\|k\\| r) | low-frequency P (\\|k\\| r < 0.25) "
        "| anisotropy 0.5-3 / r: mean, max (dB) | g(d) peak (at d / r) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    bins, d_max = 80, 4.0
    centres = (np.arange(bins) + 0.5) * d_max / bins
    correlations = {}
    for name, group in sets.items():
        power = sum(periodogram(p, SIDE, K_MAX) for p in group) / len(group)
        ring, mean, aniso = ring_stats(power, K_MAX)
        k = ring / SIDE
        spectra[name] = (k, mean)
        band = (k >= 0.5) & (k <= 3.0)
        g = pair_correlation(group, SIDE, d_max, bins)
        correlations[name] = (centres, g)
        peak = 4 + int(mean[4:].argmax())
        rows.append(
            f"| {name} | {np.mean([len(p) for p in group]):,.0f} | {mean[peak]:.2f} ({k[peak]:.2f}) "
            f"| {mean[(k >= 4 / SIDE) & (k < 0.25)].mean():.3f} | {aniso[band].mean():.1f}, {aniso[band].max():.1f} "
            f"| {g.max():.2f} ({centres[g.argmax()]:.2f}) |"
        )
    reference = [reference_rsa(12.0, 1.0, seed) for seed in range(10)]
    g_ref = pair_correlation(reference, None, d_max, bins)
    correlations["RSA reference (one dart at a time)"] = (centres, g_ref)
    rows.append(
        f"| RSA reference (one dart at a time, 12 r tori) | {np.mean([len(p) for p in reference]):,.0f} | – | – | – "
        f"| {g_ref.max():.2f} ({centres[g_ref.argmax()]:.2f}) |"
    )
    floor = -10.0 * math.log10(SETS)
    IMAGES.mkdir(exist_ok=True)
    _plot(spectra, 3.0, 2.0, IMAGES / "poisson_spectrum.png", guide=1.0)
    _plot(correlations, d_max, 4.5, IMAGES / "poisson_pair_correlation.png", guide=1.0)
    parts += [
        f"### Spectrum, pair correlation and anisotropy ({SETS} sets of {SIDE:g} r x {SIDE:g} r each)",
        "\n".join(rows),
        f"Anisotropy noise floor for {SETS} averaged sets: {floor:.1f} dB. Pictures: "
        "`docs/images/poisson_spectrum.png` (P from 0 to 2 against |k| r from 0 to 3, grey line P = 1) and "
        "`docs/images/poisson_pair_correlation.png` (g from 0 to 4.5 against d / r from 0 to 4, grey line g = 1); "
        "blue strew maximal, orange strew bridson, green Blender, grey the RSA reference.",
    ]
    return "\n\n".join(parts) + "\n"
