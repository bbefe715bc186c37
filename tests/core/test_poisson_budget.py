"""Budgets: jobs are refused before any allocation, in well under a second, with a message saying what to
change; accepted jobs finish within a time bound."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from strew.core.poisson import PoissonSettings, sample
from strew.core.poisson.budget import job_load
from strew.core.poisson.state import SamplerState
from strew.core.scatter import LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup


def _refused_quickly(settings: PoissonSettings, words: str) -> str:
    started = time.perf_counter()
    with pytest.raises(ValueError, match=words) as caught:
        sample(settings)
    assert time.perf_counter() - started < 0.2
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_constant_radius_window_ignores_max_radius() -> None:
    """Without radius_at every point has min_radius: max_radius must not size the neighbour window."""
    wide = PoissonSettings(size=(10.0, 10.0), min_radius=0.01, max_radius=1.0)
    assert job_load(wide) == job_load(PoissonSettings(size=(10.0, 10.0), min_radius=0.01))
    small = PoissonSettings(size=(3.0, 2.0), min_radius=0.05, max_radius=1.0)
    assert SamplerState(small, np.zeros((0, 2)), np.zeros(0)).window == 2
    assert len(sample(small).radii) > 1000


def test_a_wide_radius_range_is_refused_and_says_to_lower_max_radius() -> None:
    message = _refused_quickly(
        PoissonSettings(size=(300.0, 300.0), min_radius=0.1, max_radius=5.0, radius_at=lambda xy: xy[:, 0]),
        "max_points",
    )
    assert "lower max_radius" in message and "max_points=" in message


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"min_radius": 1e-310}, "min_radius"),  # the point estimate overflows to inf
        ({"size": (1e300, 1e300), "min_radius": 1e-300}, "min_radius"),
        ({"size": (1e9, 1e-9)}, "background grid"),  # few points, but a grid of 1.4e9 cells
        ({"max_radius": math.inf}, "max_radius must be finite"),
        ({"max_radius": math.inf, "radius_at": lambda xy: xy[:, 0]}, "max_radius must be finite"),
        ({"max_radius": 1e300, "radius_at": lambda xy: xy[:, 0]}, "lower max_radius"),
        ({"min_radius": 1e-5, "max_radius": 1e308, "radius_at": lambda xy: xy[:, 0]}, "max_points"),
    ],
)
def test_extreme_values_are_refused_with_a_clear_message(changes: dict, words: str) -> None:
    _refused_quickly(PoissonSettings(**{"size": (10.0, 10.0), "min_radius": 1.0, **changes}), words)


def test_chunk_count_is_bounded() -> None:
    vertices = np.array([[0, 0, 0], [300, 0, 0], [300, 300, 5], [0, 300, 5]], dtype=float)
    terrain = TerrainLookup(vertices, np.array([[0, 1, 2], [0, 2, 3]]))
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"90,000 chunks.*chunk_size of at least"):
        scatter_layer(terrain, LayerSpec(min_radius=1.0, chunk_size=1.0))
    assert time.perf_counter() - started < 0.5


TIME_BOUND_S = 30.0  # generous: the machine may be shared; a refused job takes microseconds


@settings(max_examples=15, deadline=None)
@given(
    width=st.floats(0.5, 200.0),  # in units of min_radius
    height=st.floats(0.5, 200.0),
    min_radius=st.floats(0.01, 5.0),
    ratio=st.floats(1.0, 60.0),
    variable=st.booleans(),
    tileable=st.booleans(),
    max_points=st.integers(1_000, 30_000),
)
def test_random_settings_finish_in_time_or_are_refused(
    width: float, height: float, min_radius: float, ratio: float, variable: bool, tileable: bool, max_points: int
) -> None:
    max_radius = min_radius * ratio
    radius_at = (lambda xy: min_radius + (max_radius - min_radius) * 0.5 * (1 + np.sin(xy[:, 0]))) if variable else None
    spec = PoissonSettings(
        size=(width * min_radius, height * min_radius), min_radius=min_radius, max_radius=max_radius,
        radius_at=radius_at, tileable=tileable, max_points=max_points, seed=1,
    )
    started = time.perf_counter()
    try:
        out = sample(spec)
    except ValueError as refused:
        assert time.perf_counter() - started < 0.2, str(refused)
        event("refused")
        return
    event("sampled")
    assert time.perf_counter() - started < TIME_BOUND_S
    assert 0 < len(out.radii) <= max_points
