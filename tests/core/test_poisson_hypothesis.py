"""Random settings (hypothesis): both methods always give conflict-free sets; maximal leaves no hole."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from poisson_checks import check_basic, conflicts, fillable, wavy_radius

from strew.core.poisson import PoissonSettings, Samples, sample


@st.composite
def poisson_settings(draw: st.DrawFn) -> tuple[PoissonSettings, Samples | None]:
    r_min = draw(st.floats(0.3, 3.0))
    ratio = draw(st.sampled_from([1.0, 1.0, 1.5, 3.0]))
    r_max = r_min * ratio
    tileable = draw(st.booleans())
    low = 2.0 * r_max if tileable else 0.1
    w = draw(st.floats(low, max(low, 40.0 * r_min)))
    h = draw(st.floats(low, max(low, 40.0 * r_min)))
    variable = ratio > 1.0
    masked = draw(st.booleans())
    cx, cy, cr = w * draw(st.floats(0, 1)), h * draw(st.floats(0, 1)), 0.3 * min(w, h)
    blockers = None
    if draw(st.booleans()):
        n = draw(st.integers(1, 20))
        rng = np.random.default_rng(draw(st.integers(0, 2**16)))
        blockers = Samples(rng.random((n, 2)) * (w, h), rng.uniform(0.1, 2.0, n) * r_min)
    chosen = PoissonSettings(
        size=(w, h),
        min_radius=r_min,
        max_radius=r_max,
        radius_at=wavy_radius(0.8 * r_min, 1.2 * r_max, 3.0 * r_max) if variable else None,
        is_allowed=(lambda xy: np.hypot(xy[:, 0] - cx, xy[:, 1] - cy) > cr) if masked else None,
        seed=draw(st.integers(0, 2**31)),
        start_points=draw(st.integers(1, 6)),
        tileable=tileable,
        attempts=draw(st.integers(1, 40)),
        method=draw(st.sampled_from(["maximal", "bridson"])),
    )
    return chosen, blockers


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(poisson_settings())
def test_random_settings_keep_every_guarantee(case: tuple[PoissonSettings, Samples | None]) -> None:
    chosen, blockers = case
    out = sample(chosen, blockers)
    check_basic(out, chosen)
    assert conflicts(out, chosen, blockers) == 0
    again = sample(chosen, blockers)
    np.testing.assert_array_equal(out.positions, again.positions)
    if chosen.method == "maximal":
        holes, allowed = fillable(out, chosen, blockers, probes=20_000)
        exact = chosen.radius_at is None and chosen.is_allowed is None
        assert holes <= (0 if exact else max(2, 1e-4 * allowed))
