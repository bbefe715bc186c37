"""Poisson-disk sampling of a rectangle: exact minimum distances, maximal coverage, variable radius.

Two points *conflict* when they are closer than the larger of their two radii. :func:`sample` returns a
set without conflicts (also against optional ``blockers``), inside ``[0, w) x [0, h)`` (a torus when
``tileable``). ``method="maximal"`` (default) also guarantees that no allowed place is left where one more
point would fit; ``method="bridson"`` is Bridson's growth from active points (the classic look, may leave
small gaps).

Example
-------
>>> from strew.core.poisson import PoissonSettings, sample
>>> s = sample(PoissonSettings(size=(20.0, 10.0), min_radius=1.0, seed=7))
>>> s.positions.shape[1], bool((s.radii == 1.0).all())
(2, True)
"""

from __future__ import annotations

from .bridson import grow_bridson
from .budget import BYTES_PER_POINT, check_budget
from .maximal import fill_maximal
from .placed import new_state
from .settings import METHODS, MaskFn, PoissonSettings, RadiusFn, Samples, validate, validate_blockers


def sample(settings: PoissonSettings, blockers: Samples | None = None) -> Samples:
    """Sample points with no two closer than the larger of their radii.

    Parameters
    ----------
    settings
        See :class:`PoissonSettings`.
    blockers
        Existing points that take part in the distance test (any radius) but are not returned.

    Returns
    -------
    Samples
        ``positions`` (N, 2) float64 inside ``[0, w) x [0, h)``, ``radii`` (N,) float64 in
        ``[min_radius, max_radius]``.

    Examples
    --------
    >>> import numpy as np
    >>> s = sample(PoissonSettings(size=(30.0, 30.0), min_radius=0.5, max_radius=1.5,
    ...                            radius_at=lambda xy: 0.5 + xy[:, 0] / 30.0, seed=3))
    >>> bool(((s.radii >= 0.5) & (s.radii <= 1.5)).all())
    True
    """
    validate(settings)
    check_budget(settings)
    blocker_xy, blocker_r = validate_blockers(blockers)
    state = new_state(settings, blocker_xy, blocker_r)
    if settings.method == "maximal":
        fill_maximal(state)
    else:
        grow_bridson(state)
    positions, radii = state.result()
    return Samples(positions=positions, radii=radii)


__all__ = [
    "BYTES_PER_POINT",
    "METHODS", "MaskFn", "PoissonSettings", "RadiusFn", "Samples", "sample", "validate", "validate_blockers",
]
