"""core.trs: matrices to translation, rotation, scale and back, mirrored ones included, checked on random
transforms against the matrices themselves."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.trs import Y_UP, compose, convert_axes, decompose, quaternions, rotation_from_quaternions


def _random_rotations(rng: np.random.Generator, count: int) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(count, 3, 3)))
    q *= np.sign(np.einsum("nii->ni", r))[:, None, :]
    q[np.linalg.det(q) < 0, :, 0] *= -1.0
    return q


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_decompose_then_compose_gives_the_matrix_back(seed: int, mirror: bool) -> None:
    rng = np.random.default_rng(seed)
    count = 64
    rotations = _random_rotations(rng, count)
    scales = rng.uniform(0.05, 20.0, size=(count, 3))
    if mirror:
        scales[:, rng.integers(0, 3)] *= -1.0
    matrices = np.zeros((count, 4, 4))
    matrices[:, :3, :3] = rotations * scales[:, None, :]
    matrices[:, :3, 3] = rng.uniform(-1e4, 1e4, size=(count, 3))
    matrices[:, 3, 3] = 1.0
    t, q, s = decompose(matrices)
    np.testing.assert_allclose(compose(t, q, s), matrices, atol=1e-9 * 2e4)
    np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-12)
    assert (q[:, 3] >= 0).all()
    assert ((s[:, 0] < 0) == mirror).all() and (s[:, 1:] > 0).all()
    assert (np.linalg.det(rotation_from_quaternions(q)) > 0).all()


def test_half_turns_pick_a_stable_branch() -> None:
    half_turns = np.array([np.diag(d) for d in ([1, -1, -1], [-1, 1, -1], [-1, -1, 1], [1, 1, 1])], dtype=float)
    np.testing.assert_allclose(rotation_from_quaternions(quaternions(half_turns)), half_turns, atol=1e-15)


def test_y_up_axes_move_z_to_y_and_y_to_minus_z() -> None:
    lift = np.eye(4)
    lift[:3, 3] = (1.0, 2.0, 3.0)
    np.testing.assert_allclose(convert_axes(lift[None], Y_UP)[0, :3, 3], (1.0, 3.0, -2.0))
