"""A round's darts resolved in time order keep exactly what throwing them one at a time keeps."""

from __future__ import annotations

import numpy as np
import pytest

from strew.core.poisson import PoissonSettings
from strew.core.poisson.darts import resolve_in_time_order
from strew.core.poisson.state import SamplerState


def _one_at_a_time(x: np.ndarray, y: np.ndarray, r: np.ndarray, period: tuple[float, float] | None) -> np.ndarray:
    kept: list[int] = []
    for i in range(x.size):
        dx, dy = x[i] - x[kept], y[i] - y[kept]
        if period is not None:
            dx = np.abs(dx) % period[0]
            dy = np.abs(dy) % period[1]
            dx, dy = np.minimum(dx, period[0] - dx), np.minimum(dy, period[1] - dy)
        if not (np.hypot(dx, dy) < np.maximum(r[i], r[kept])).any():
            kept.append(i)
    return np.array(kept, dtype=np.int64)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    ("variable", "tileable", "size"),
    [
        (False, False, (23.0, 17.0)),
        (True, False, (23.0, 17.0)),  # a wide window: the darts are listed in buckets
        (False, True, (23.0, 17.0)),
        (True, True, (23.0, 17.0)),  # buckets that wrap around
        (True, True, (8.0, 7.0)),  # a torus too small for 3 x 3 buckets: the window of cells
        (True, False, (4.0, 3.0)),  # a few darts: every pair
    ],
)
def test_time_order_equals_sequential(seed: int, variable: bool, tileable: bool, size: tuple[float, float]) -> None:
    rng = np.random.default_rng(seed)
    settings = PoissonSettings(
        size=size, min_radius=1.0, max_radius=3.0 if variable else None,
        radius_at=(lambda xy: 1.0 + xy[:, 0] / 12.0) if variable else None, tileable=tileable,
    )
    st = SamplerState(settings, np.zeros((0, 2)), np.zeros(0))
    n = int(4 * size[0] * size[1])  # several darts per cell: long chains of conflicts
    x, y = rng.random(n) * size[0], rng.random(n) * size[1]
    r = rng.uniform(1.0, 3.0, n) if variable else None
    got = resolve_in_time_order(st, x, y, r, st.cell_of(x, y))
    want = _one_at_a_time(x, y, np.full(n, 1.0) if r is None else r, size if tileable else None)
    np.testing.assert_array_equal(got, want)
    assert (st.dart_count == 0).all()  # the per-cell lists are cleared for the next round
