"""The maximal sampler's output against the literature: saturated random sequential adsorption (RSA).

Density: saturated RSA of disks of diameter r (points at least r apart) covers 0.5470 of the plane (Feder
1980; Hinrichsen, Feder and Jøssang 1986), i.e. 0.5470 / (pi r^2 / 4) = 0.6965 points per r^2. Measured on
tori (``tileable=True``), so there is no border (a border lets more points in along the edges).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from poisson_checks import uncovered_vertices
from scipy.stats import gamma

from strew.core.poisson import PoissonSettings, Samples, sample

RSA_DENSITY = 0.6965


@pytest.mark.parametrize(("size", "seeds"), [(64.0, range(4)), (200.0, range(1))])
def test_density_matches_saturated_rsa_on_a_torus(size: float, seeds: range) -> None:
    settings = [PoissonSettings(size=(size, size), min_radius=1.0, seed=s, tileable=True) for s in seeds]
    counts = [len(sample(s).radii) for s in settings]
    density = float(np.mean(counts)) / (size * size)
    assert abs(density / RSA_DENSITY - 1.0) < 0.01, density


def periodogram(points: np.ndarray, size: float, k_max: int) -> tuple[np.ndarray, np.ndarray]:
    """``|sum exp(-2 pi i k.x)|^2 / N`` on the torus' wave vectors ``k = (m, n) / size`` of one half plane
    (``P(k) = P(-k)``) with ``0 < |(m, n)| <= k_max``: (|(m, n)|, P)."""
    m = np.arange(0, k_max + 1)
    n = np.arange(-k_max, k_max + 1)
    ex = np.exp(-2j * np.pi * np.outer(points[:, 0], m) / size)
    ey = np.exp(-2j * np.pi * np.outer(points[:, 1], n) / size)
    power = np.abs(ex.T @ ey) ** 2 / len(points)
    mm, nn = np.meshgrid(m, n, indexing="ij")
    norm = np.hypot(mm, nn)
    half = ((mm > 0) | ((mm == 0) & (nn > 0))) & (norm <= k_max)
    return norm[half], power[half]


def peak_ratio(sets: list[np.ndarray], size: float, k_max: int) -> tuple[float, float]:
    """(largest periodogram value over its ring's mean, averaged over the sets; the limit an unbiased
    isotropic process stays below with probability 0.999).

    Each wave vector's periodogram value of an unbiased isotropic set is its ring's mean spectrum S(|k|)
    times an exponential variable (a sum of many weakly dependent phases); averaged over the sets it is S
    times Gamma(sets, 1/sets). The limit is the Gamma quantile that all tested wave vectors together pass
    with probability 0.999. Rings with |(m, n)| < 6 (fewer than ~20 wave vectors) are not tested.
    """
    total = sum(periodogram(points, size, k_max)[1] for points in sets)
    norm = periodogram(sets[0][:1], size, k_max)[0]
    mean = total / len(sets)
    ring = np.rint(norm).astype(int)
    ring_mean = np.bincount(ring, weights=mean) / np.maximum(np.bincount(ring), 1)
    tested = ring >= 6
    limit = float(gamma.ppf(1.0 - 1e-3 / tested.sum(), a=len(sets), scale=1.0 / len(sets)))
    return float((mean[tested] / ring_mean[ring[tested]]).max()), limit


# A 100 r torus (above the sizes where grid-phase artefacts used to appear), |k| up to 0.75 / r: the
# wave lengths of a few grid cells.
SPECTRUM = {"size": 100.0, "sets": 4, "k_max": 75}


@functools.cache
def _torus_sets() -> list[np.ndarray]:
    size = SPECTRUM["size"]
    return [
        sample(PoissonSettings(size=(size, size), min_radius=1.0, seed=s, tileable=True)).positions
        for s in range(SPECTRUM["sets"])
    ]


def test_no_spectral_peak_beyond_what_unbiased_sets_show() -> None:
    """A grid artefact (rows along the axes, a density modulation with a period) puts single wave vectors
    far above their ring's mean; an unbiased sampler stays below the limit of ``peak_ratio``."""
    ratio, limit = peak_ratio(_torus_sets(), SPECTRUM["size"], SPECTRUM["k_max"])
    assert ratio < limit, (ratio, limit)


def test_peak_ratio_sees_a_periodic_modulation() -> None:
    """The statistic flags the same sets thinned by a 10% density modulation with a 3-cell period."""
    size = SPECTRUM["size"]
    rng = np.random.default_rng(1)
    thinned = []
    for pts in _torus_sets():
        keep = rng.random(len(pts)) < 0.9 + 0.1 * np.cos(2 * np.pi * pts[:, 0] * 47 / size)
        thinned.append(pts[keep])
    ratio, limit = peak_ratio(thinned, size, SPECTRUM["k_max"])
    assert ratio > limit, (ratio, limit)


@pytest.mark.parametrize("seed", range(6))
def test_exactly_maximal_for_a_constant_radius(seed: int) -> None:
    size = (60.0, 45.0) if seed < 5 else (150.0, 120.0)
    out = sample(PoissonSettings(size=size, min_radius=1.0, seed=seed))
    free = uncovered_vertices(out, size, 1.0)
    assert len(free) == 0, free[:5]


def test_vertex_check_finds_a_gap() -> None:
    """Removing one point opens a gap; the exact check must find it."""
    size = (30.0, 20.0)
    out = sample(PoissonSettings(size=size, min_radius=1.0, seed=3))
    middle = int(np.argmin(np.hypot(*(out.positions - (15.0, 10.0)).T)))
    fewer = Samples(np.delete(out.positions, middle, axis=0), np.delete(out.radii, middle))
    assert len(uncovered_vertices(fewer, size, 1.0)) > 0
