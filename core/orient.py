"""Instance orientation: lean toward the surface normal, turn about the up axis, as Euler XYZ angles.

Blender's Euler XYZ order means the matrix ``R = Rz · Ry · Rx``; the instancer and the objects Strew creates
read these angles directly.

Examples
--------
>>> import numpy as np

from . import fpmath
>>> normals = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]]) / np.array([[1.0], [np.sqrt(2.0)]])
>>> euler = instance_rotations(normals, yaw=np.zeros(2), align=1.0)
>>> np.allclose(rotation_matrices(euler)[1] @ [0, 0, 1], normals[1])
True
"""

from __future__ import annotations

import numpy as np

from . import fpmath


def _check(normals: np.ndarray, yaw: np.ndarray, align: float) -> tuple[np.ndarray, np.ndarray]:
    normals = np.asarray(normals, dtype=np.float64)
    yaw = np.asarray(yaw, dtype=np.float64)
    if normals.ndim != 2 or normals.shape[1] != 3:
        raise ValueError(f"normals must have shape (N, 3), got {normals.shape}")
    if yaw.shape != (len(normals),):
        raise ValueError(f"yaw must have shape ({len(normals)},), got {yaw.shape}")
    if not (0.0 <= align <= 1.0):
        raise ValueError(f"align must be between 0 (upright) and 1 (along the normal), got {align}")
    if not (np.isfinite(normals).all() and np.isfinite(yaw).all()):
        raise ValueError("normals and yaw must be finite (no NaN or inf)")
    return normals, yaw


def rotation_matrices(euler: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotation matrices of Euler XYZ angles (``R = Rz · Ry · Rx``)."""
    rx, ry, rz = np.asarray(euler, dtype=np.float64).T
    (sx, cx), (sy, cy), (sz, cz) = fpmath.sincos(rx), fpmath.sincos(ry), fpmath.sincos(rz)
    out = np.empty((len(rx), 3, 3))
    out[:, 0] = np.stack([cy * cz, sx * sy * cz - cx * sz, cx * sy * cz + sx * sz], axis=1)
    out[:, 1] = np.stack([cy * sz, sx * sy * sz + cx * cz, cx * sy * sz - sx * cz], axis=1)
    out[:, 2] = np.stack([-sy, sx * cy, cx * cy], axis=1)
    return out


def euler_from_matrices(matrices: np.ndarray) -> np.ndarray:
    """Euler XYZ angles (N, 3) of rotation matrices (N, 3, 3); inverse of :func:`rotation_matrices`."""
    m = np.asarray(matrices, dtype=np.float64)
    ry = -fpmath.arcsin(np.clip(m[:, 2, 0], -1.0, 1.0))
    rx = fpmath.arctan2(m[:, 2, 1], m[:, 2, 2])
    rz = fpmath.arctan2(m[:, 1, 0], m[:, 0, 0])
    # Gimbal lock (|cos ry| ~ 0): put the whole turn into rx.
    locked = np.abs(m[:, 2, 0]) > 1.0 - 1e-12
    if locked.any():
        rz[locked] = 0.0
        rx[locked] = fpmath.arctan2(-m[locked, 1, 2], m[locked, 1, 1])
    return np.stack([rx, ry, rz], axis=1)


def _tilt_matrices(angle: np.ndarray, heading: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotations by ``angle`` about the horizontal axis at ``heading`` (radians from +X)."""
    ky, kx = fpmath.sincos(heading)
    s, c = fpmath.sincos(angle)
    t = 1.0 - c
    out = np.empty((len(angle), 3, 3))
    out[:, 0] = np.stack([c + t * kx * kx, t * kx * ky, s * ky], axis=1)
    out[:, 1] = np.stack([t * kx * ky, c + t * ky * ky, -s * kx], axis=1)
    out[:, 2] = np.stack([-s * ky, s * kx, c], axis=1)
    return out


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Stacked 3×3 products written out (bit-identical results, unlike BLAS-backed ``matmul``)."""
    first = a[:, :, 0, None] * b[:, None, 0, :] + a[:, :, 1, None] * b[:, None, 1, :]
    return first + a[:, :, 2, None] * b[:, None, 2, :]


def instance_rotations(normals: np.ndarray, yaw: np.ndarray, align: float,
                       tilt: np.ndarray | None = None, heading: np.ndarray | None = None) -> np.ndarray:
    """Euler XYZ angles that turn each instance by ``yaw`` about +Z, tilt it, then lean it toward its normal.

    ``align`` = 0 keeps instances upright, 1 makes their +Z follow the unit ``normals`` (which must point up
    or sideways: z ≥ 0), values between lean part of the way (the angle is interpolated, not the vector).
    ``tilt`` (radians) with ``heading`` leans each instance away from that up direction, about a horizontal
    axis at ``heading``.
    """
    normals, yaw = _check(normals, yaw, align)
    if (tilt is None) != (heading is None):
        raise ValueError("tilt and heading go together: give both or neither")
    length = fpmath.norm3(normals)[:, None]
    n = normals / np.where(length > 0, length, 1.0)
    cos_full = np.clip(n[:, 2], -1.0, 1.0)
    angle = align * fpmath.arccos(cos_full)
    axis = np.stack([-n[:, 1], n[:, 0], np.zeros(len(n))], axis=1)  # z × n
    axis_length = fpmath.norm3(axis)[:, None]
    axis = np.where(axis_length > 1e-12, axis / np.where(axis_length > 0, axis_length, 1.0), [1.0, 0.0, 0.0])
    # Rodrigues: R = I cosθ + sinθ [k]× + (1 − cosθ) k kᵀ
    sin_angle, cos_angle = fpmath.sincos(angle)
    c, s = cos_angle[:, None, None], sin_angle[:, None, None]
    kx, ky, kz = axis.T
    cross = np.zeros((len(n), 3, 3))
    cross[:, 0, 1], cross[:, 0, 2] = -kz, ky
    cross[:, 1, 0], cross[:, 1, 2] = kz, -kx
    cross[:, 2, 0], cross[:, 2, 1] = -ky, kx
    lean = c * np.eye(3) + s * cross + (1.0 - c) * axis[:, :, None] * axis[:, None, :]
    if tilt is not None and heading is not None:
        tilt, heading = np.asarray(tilt, dtype=np.float64), np.asarray(heading, dtype=np.float64)
        if tilt.shape != yaw.shape or heading.shape != yaw.shape or not np.isfinite(tilt).all():
            raise ValueError(f"tilt and heading must be finite with shape ({len(yaw)},)")
        lean = _product(lean, _tilt_matrices(tilt, heading))
    # lean · Rz(yaw), written out element by element: np.matmul may call BLAS kernels whose rounding depends on
    # memory alignment, and the same inputs must give bit-identical rotations.
    sin_yaw, cos_yaw = fpmath.sincos(yaw)
    cy, sy = cos_yaw[:, None], sin_yaw[:, None]
    turned = np.empty_like(lean)
    turned[:, :, 0] = lean[:, :, 0] * cy + lean[:, :, 1] * sy
    turned[:, :, 1] = lean[:, :, 1] * cy - lean[:, :, 0] * sy
    turned[:, :, 2] = lean[:, :, 2]
    return euler_from_matrices(turned)
