"""Bad and heavy input to the WFC core: one ValueError naming the argument, limits that hold during setup."""

from __future__ import annotations

import time

import numpy as np
import pytest

from strew.core.wfc import Contradiction, Rules, SocketTile, solve, solve_steps

ROAD = {"n": "road", "e": "grass", "s": "road", "w": "grass"}


def free_rules(count: int = 4) -> Rules:
    a = np.ones((count, count), dtype=bool)
    return Rules(weights=np.ones(count), allowed={"e": a, "n": a})


@pytest.mark.parametrize("options, name", [
    ({"time_limit": "1"}, "time_limit"),
    ({"time_limit": float("nan")}, "time_limit"),
    ({"time_limit": True}, "time_limit"),
    ({"seed": 1.5}, "seed"),
    ({"seed": "3"}, "seed"),
    ({"seed": -1}, "seed"),
    ({"max_backtracks": 2.5}, "max_backtracks"),
    ({"max_restarts": None}, "max_restarts"),
    ({"memory_budget": 0}, "memory_budget"),
])
def test_wrong_typed_options_name_the_argument(options, name):
    with pytest.raises(ValueError, match=name):
        solve(free_rules(), (4, 4), **options)


def test_step_seconds_is_checked():
    with pytest.raises(ValueError, match="step_seconds"):
        next(solve_steps(free_rules(), (4, 4), step_seconds=-1))


@pytest.mark.parametrize("shape, match", [
    ((0, 4), "≥ 1"),
    ((4, -3), "≥ 1"),
    ((2.5, 4), "whole numbers"),
    (("4", 4), "whole numbers"),
    ((2**32, 2**32), "memory_budget"),
    ((2**62, 2**62), "memory_budget"),
])
def test_bad_shapes_are_refused_before_any_allocation(shape, match):
    with pytest.raises(ValueError, match=match):
        solve(free_rules(), shape)


def test_time_limit_covers_the_setup():
    started = time.perf_counter()
    with pytest.raises(Contradiction, match=r"time_limit=0\.5"):
        solve(free_rules(), (2900, 2900), time_limit=0.5)
    assert time.perf_counter() - started < 4.0  # the setup alone takes several seconds on a loaded machine


@pytest.mark.parametrize("kwargs, match", [
    ({"sockets": ["n", "e", "s", "w"]}, "sockets: expected a mapping"),
    ({"sockets": {**ROAD, "e": 3}}, "labels must be strings"),
    ({"rotations": 90}, "rotations"),
    ({"rotations": "90"}, "rotations"),
    ({"rotations": (45,)}, "rotations"),
    ({"rotations": (True,)}, "rotations"),
    ({"weight": "abc"}, "weight"),
    ({"weight": [1.0, 2.0]}, "weight"),
    ({"weight": -3}, "weight"),
    ({"walkable": 3}, "walkable"),
    ({"mirror": "yes"}, "mirror"),
    ({"passable": "n"}, "passable"),
    ({"passable": ("north",)}, "passable"),
])
def test_socket_tile_refuses_wrong_types(kwargs, match):
    options = {"sockets": ROAD, **kwargs}
    with pytest.raises(ValueError, match=match):
        SocketTile("a", **options)
