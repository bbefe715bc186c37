"""Bad input to the Poisson-disk sampler raises ValueError naming the field and the fix."""

from __future__ import annotations

import math

import numpy as np
import pytest

from strew.core.poisson import PoissonSettings, Samples, sample

OK = {"size": (10.0, 10.0), "min_radius": 1.0}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"min_radius": 0.0}, "min_radius"),
        ({"min_radius": -1.0}, "min_radius"),
        ({"min_radius": math.nan}, "min_radius"),
        ({"min_radius": math.inf}, "min_radius"),
        ({"max_radius": 0.5}, "max_radius"),
        ({"max_radius": math.nan}, "max_radius"),
        ({"size": (0.0, 10.0)}, "size[0]"),
        ({"size": (10.0, -2.0)}, "size[1]"),
        ({"size": (math.inf, 10.0)}, "size[0]"),
        ({"size": (10.0, math.nan)}, "size[1]"),
        ({"size": (10.0,)}, "size"),
        ({"attempts": 0}, "attempts"),
        ({"start_points": 0}, "start_points"),
        ({"method": "poisson"}, "method"),
        ({"seed": -1}, "seed"),
        ({"radius_at": 3.0}, "radius_at"),
        ({"tileable": True, "size": (1.5, 10.0)}, "tileable"),
    ],
)
def test_bad_settings_name_the_field(changes: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        sample(PoissonSettings(**{**OK, **changes}))


def test_budget_says_the_estimate_and_how_to_raise_it() -> None:
    with pytest.raises(ValueError, match=r"about 1,000,000 points.*max_points=1,00\d,\d\d\d or more"):
        sample(PoissonSettings(size=(1000.0, 1000.0), min_radius=1.0, max_points=999_999))
    with pytest.raises(ValueError, match="max_points"):
        sample(PoissonSettings(size=(1e6, 1e6), min_radius=0.01))


@pytest.mark.parametrize("method", ["maximal", "bridson"])
@pytest.mark.parametrize(
    ("field", "fn"),
    [
        ("is_allowed", lambda xy: np.ones(len(xy))),  # floats, not bools
        ("is_allowed", lambda xy: np.ones((len(xy), 1), bool)),  # wrong shape
        ("is_allowed", lambda xy: True),  # a scalar
        ("radius_at", lambda xy: np.ones(len(xy) + 1)),
        ("radius_at", lambda xy: np.ones(len(xy), bool)),
        ("radius_at", lambda xy: np.full(len(xy), np.nan)),
        ("radius_at", lambda xy: np.array(["1"] * len(xy))),
    ],
)
def test_callables_with_wrong_output_name_the_function(method: str, field: str, fn) -> None:
    settings = PoissonSettings(
        size=(10.0, 10.0), min_radius=1.0, max_radius=2.0, method=method, **{field: fn}
    )
    with pytest.raises(ValueError, match=field):
        sample(settings)


@pytest.mark.parametrize(
    ("blockers", "words"),
    [
        (Samples(np.array([[1.0, math.nan]]), np.array([1.0])), "NaN or inf"),
        (Samples(np.array([[1.0, 2.0]]), np.array([math.inf])), "radii"),
        (Samples(np.array([[1.0, 2.0]]), np.array([0.0])), "radii"),
        (Samples(np.array([1.0, 2.0]), np.array([1.0])), r"shape \(B, 2\)"),
        (Samples(np.zeros((3, 2)), np.ones(2)), "blockers.radii"),
    ],
)
def test_bad_blockers_are_named(blockers: Samples, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        sample(PoissonSettings(**OK), blockers=blockers)


def test_empty_blockers_are_fine() -> None:
    out = sample(PoissonSettings(**OK), blockers=Samples(np.zeros((0, 2)), np.zeros(0)))
    assert len(out.radii) > 10


def test_settings_are_frozen() -> None:
    settings = PoissonSettings(**OK)
    with pytest.raises(AttributeError):
        settings.min_radius = 2.0  # type: ignore[misc]
