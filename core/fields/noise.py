"""Seeded 2-D Perlin gradient noise with octaves (fBm), vectorised, values in [0, 1].

The seed picks the permutation table, the gradient directions and a per-octave offset, so a new seed
changes the pattern of groves and clearings, not just which points are placed.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .. import fpmath
from ..inputs import finite_number, integer, positive_number
from .field import Field

TABLE_SIZE = 4096
"""Lattice period in noise cells: the pattern repeats every ``TABLE_SIZE * scale`` world units."""

_PERLIN_MAX = float(np.sqrt(0.5))  # max |value| of 2-D Perlin noise with unit gradients


def _fade(t: NDArray[np.float64]) -> NDArray[np.float64]:
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0)


class PerlinNoise(Field):
    """Fractal Perlin noise in [0, 1] over world xy.

    Parameters
    ----------
    seed : int
        Any integer; each seed gives a different pattern.
    scale : float
        Size of the base octave's noise cells in world units (features about this big). This is a
        wavelength, not a frequency: Blender's Noise Texture "Scale" is ``extent / scale``-like.
    octaves : int
        Layers of detail (>= 1); each is ``lacunarity`` times finer and ``persistence`` times weaker.
    persistence : float
        Amplitude factor per octave, in (0, 1].
    lacunarity : float
        Frequency factor per octave, >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> n = PerlinNoise(seed=42, scale=50.0, octaves=3)
    >>> v = n(np.random.default_rng(0).uniform(0, 1000, (10_000, 2)))
    >>> bool(0.0 <= v.min() and v.max() <= 1.0), round(float(v.mean()), 1)
    (True, 0.5)
    """

    def __init__(
        self, seed: int, scale: float, octaves: int = 1, persistence: float = 0.5, lacunarity: float = 2.0
    ) -> None:
        self.seed = integer(seed, "seed")
        self.scale = positive_number(scale, "scale")
        self.octaves = integer(octaves, "octaves", minimum=1)
        if self.octaves > 16:
            raise ValueError(f"octaves: at most 16 are useful, got {self.octaves}")
        self.persistence = positive_number(persistence, "persistence")
        if self.persistence > 1:
            raise ValueError(f"persistence: must be in (0, 1], got {self.persistence}")
        self.lacunarity = finite_number(lacunarity, "lacunarity")
        if self.lacunarity < 1:
            raise ValueError(f"lacunarity: must be >= 1, got {self.lacunarity}")
        rng = np.random.default_rng([abs(self.seed), int(self.seed < 0), 0x9E1A])
        perm = rng.permutation(TABLE_SIZE).astype(np.intp)
        self._perm = np.concatenate([perm, perm])
        angle = rng.uniform(0.0, 2.0 * np.pi, TABLE_SIZE)
        self._gy, self._gx = fpmath.sincos(angle)
        self._offsets = rng.uniform(0.0, TABLE_SIZE, (self.octaves, 2))

    def _octave(self, x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
        fx, fy = np.floor(x), np.floor(y)
        tx, ty = x - fx, y - fy
        mask = TABLE_SIZE - 1
        ix = fx.astype(np.int64) & mask
        iy = fy.astype(np.int64) & mask
        perm, gx, gy = self._perm, self._gx, self._gy
        row0, row1 = perm[ix], perm[ix + 1]
        h00, h01 = perm[row0 + iy], perm[row0 + iy + 1]
        h10, h11 = perm[row1 + iy], perm[row1 + iy + 1]
        tx1, ty1 = tx - 1.0, ty - 1.0
        n00 = gx[h00] * tx + gy[h00] * ty
        n10 = gx[h10] * tx1 + gy[h10] * ty
        n01 = gx[h01] * tx + gy[h01] * ty1
        n11 = gx[h11] * tx1 + gy[h11] * ty1
        u, v = _fade(tx), _fade(ty)
        nx0 = n00 + u * (n10 - n00)
        nx1 = n01 + u * (n11 - n01)
        return nx0 + v * (nx1 - nx0)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        total = np.zeros(len(xy))
        amplitude, frequency, norm = 1.0, 1.0 / self.scale, 0.0
        for octave in range(self.octaves):
            ox, oy = self._offsets[octave]
            total += amplitude * self._octave(xy[:, 0] * frequency + ox, xy[:, 1] * frequency + oy)
            norm += amplitude
            amplitude *= self.persistence
            frequency *= self.lacunarity
        return np.clip(0.5 + 0.5 * total / (norm * _PERLIN_MAX), 0.0, 1.0)

    def __repr__(self) -> str:
        return (
            f"PerlinNoise(seed={self.seed}, scale={self.scale}, octaves={self.octaves}, "
            f"persistence={self.persistence}, lacunarity={self.lacunarity})"
        )
