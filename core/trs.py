"""Affine matrices as translation, rotation and scale, the form game engines and exchange formats store.

A mirrored instance (a tile mirrored in the kit, a negative scale) has a matrix of negative determinant. Taking
its rotation as if it were proper turns it upside down; here the mirror goes into the x scale, so the rotation is
always proper and ``T · R · S`` gives the matrix back exactly (up to rounding) — the transform glTF nodes and
EXT_mesh_gpu_instancing, USD's PointInstancer and FBX store.

>>> import numpy as np
>>> mirrored = np.diag([-2.0, 1.0, 1.0, 1.0])
>>> t, q, s = decompose(mirrored[None])
>>> s.round(6).tolist(), (q.round(6) + 0.0).tolist()
([[-2.0, 1.0, 1.0]], [[0.0, 0.0, 0.0, 1.0]])
>>> bool(np.allclose(compose(t, q, s), mirrored[None]))
True
"""

from __future__ import annotations

import numpy as np

Y_UP = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
"""Blender's Z-up axes to glTF's Y-up ones (x, y, z) → (x, z, −y), as Blender's glTF exporter converts them."""


def decompose(matrices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, 4, 4) affine matrices without shear → translations (N, 3), unit quaternions (N, 4) as x, y, z, w, and
    scales (N, 3), the x scale negative where the matrix mirrors."""
    matrices = np.asarray(matrices, dtype=np.float64).reshape(-1, 4, 4)
    linear = matrices[:, :3, :3]
    scales = np.sqrt(np.einsum("nij,nij->nj", linear, linear))
    mirrored = np.linalg.det(linear) < 0.0
    scales[mirrored, 0] *= -1.0
    safe = np.where(scales == 0.0, 1.0, scales)
    rotations = linear / safe[:, None, :]
    return matrices[:, :3, 3].copy(), quaternions(rotations), scales


def compose(translations: np.ndarray, quats: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """The inverse of :func:`decompose`: ``T · R · S`` as (N, 4, 4) matrices."""
    out = np.zeros((len(translations), 4, 4))
    out[:, :3, :3] = rotation_from_quaternions(quats) * np.asarray(scales)[:, None, :]
    out[:, :3, 3] = translations
    out[:, 3, 3] = 1.0
    return out


def quaternions(rotations: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotation matrices → unit quaternions (x, y, z, w) with w ≥ 0, by the largest-diagonal branch
    (stable for every angle)."""
    r = np.asarray(rotations, dtype=np.float64).reshape(-1, 3, 3)
    trace = r[:, 0, 0] + r[:, 1, 1] + r[:, 2, 2]
    candidates = np.stack([
        np.stack([r[:, 2, 1] - r[:, 1, 2], r[:, 0, 2] - r[:, 2, 0], r[:, 1, 0] - r[:, 0, 1], 1.0 + trace], 1),
        np.stack([1.0 + r[:, 0, 0] - r[:, 1, 1] - r[:, 2, 2], r[:, 0, 1] + r[:, 1, 0], r[:, 0, 2] + r[:, 2, 0],
                  r[:, 2, 1] - r[:, 1, 2]], 1),
        np.stack([r[:, 0, 1] + r[:, 1, 0], 1.0 - r[:, 0, 0] + r[:, 1, 1] - r[:, 2, 2], r[:, 1, 2] + r[:, 2, 1],
                  r[:, 0, 2] - r[:, 2, 0]], 1),
        np.stack([r[:, 0, 2] + r[:, 2, 0], r[:, 1, 2] + r[:, 2, 1], 1.0 - r[:, 0, 0] - r[:, 1, 1] + r[:, 2, 2],
                  r[:, 1, 0] - r[:, 0, 1]], 1),
    ], 1)
    keys = np.stack([trace, r[:, 0, 0], r[:, 1, 1], r[:, 2, 2]], 1)
    chosen = candidates[np.arange(len(r)), np.argmax(keys, axis=1)]
    chosen /= np.linalg.norm(chosen, axis=1, keepdims=True)
    return np.where(chosen[:, 3:4] < 0.0, -chosen, chosen)


def rotation_from_quaternions(quats: np.ndarray) -> np.ndarray:
    """Unit quaternions (x, y, z, w) → (N, 3, 3) rotation matrices."""
    x, y, z, w = np.asarray(quats, dtype=np.float64).reshape(-1, 4).T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], 1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], 1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], 1),
    ], 1)


def convert_axes(matrices: np.ndarray, axes: np.ndarray = Y_UP) -> np.ndarray:
    """The same transforms in other axes: ``A · M · A⁻¹`` for each matrix."""
    return axes @ np.asarray(matrices, dtype=np.float64) @ np.linalg.inv(axes)
