"""Tile sets as bit rows: one uint64 word per 64 variants, and per-chunk lookup tables.

A domain (the variants still possible in a cell) is a row of ``W`` uint64 words; variant ``t`` is bit
``t % 64`` of word ``t // 64``. Tables are indexed by *chunks* of ``B`` bits (8 or 16) of that row, so the
union of the rules of all variants in a domain is the OR of ``ceil(T / B)`` table rows instead of a loop
over variants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import fpmath

_BITWISE_OR: np.ufunc = np.bitwise_or  # typed as a ufunc: numpy 2.5's stubs miss reduce()'s overload on Python 3.11

TABLE_BYTES_FOR_16_BIT_CHUNKS = 48 << 20


def words_for(count: int) -> int:
    """The uint64 words of a bit row of ``count`` variants.

    Parameters
    ----------
    count : int
        Variants (T).
    """
    return (count + 63) // 64


def pack(mask: np.ndarray) -> np.ndarray:
    """(..., T) bool -> (..., W) uint64 bit rows.

    Parameters
    ----------
    mask : numpy.ndarray
        (..., T) bool: which variants each row holds.
    """
    mask = np.asarray(mask, dtype=bool)
    count = mask.shape[-1]
    width = words_for(count)
    padded = np.zeros((*mask.shape[:-1], width * 64), dtype=bool)
    padded[..., :count] = mask
    packed = np.packbits(padded, axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)


def unpack(rows: np.ndarray, count: int) -> np.ndarray:
    """(..., W) uint64 -> (..., T) bool.

    Parameters
    ----------
    rows : numpy.ndarray
        (..., W) uint64 bit rows.
    count : int
        Variants (T): the bits kept of each row.
    """
    rows = np.ascontiguousarray(rows, dtype="<u8")
    bits = np.unpackbits(rows.view(np.uint8), axis=-1, bitorder="little")
    return bits[..., :count].astype(bool)


def _doubling(rows: np.ndarray, bits: int, combine: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Table over all ``2**bits`` chunk values: entry ``v`` combines ``rows[j]`` for the set bits j of v."""
    table = np.zeros((1 << bits, *rows.shape[1:]), dtype=rows.dtype)
    for j in range(bits):
        table[1 << j: 2 << j] = combine(table[: 1 << j], rows[j])
    return table


@dataclass(frozen=True)
class ChunkTables:
    """Lookup tables for ``count`` variants with ``bits``-bit chunks.

    ``support[d]`` flattened: for pulling direction ``d``, chunk ``c`` and chunk value ``v``, the bit row
    of variants allowed in a cell whose neighbour in direction ``d`` may be any variant of that chunk value.
    """

    count: int
    width: int
    bits: int
    chunks: int
    chunk_dtype: type
    support: np.ndarray  # (ND * C * 2**bits, W) uint64
    support_offsets: np.ndarray  # (ND, 1, C) int64
    popcount: np.ndarray  # (C * 2**bits,) int64
    weight_sum: np.ndarray  # (C * 2**bits,) float64
    weight_log_sum: np.ndarray  # (C * 2**bits,) float64
    chunk_offsets: np.ndarray  # (C,) int64

    @classmethod
    def build(cls, pull_matrices: list[np.ndarray], weights: np.ndarray) -> ChunkTables:
        """``pull_matrices[d][b, a]``: ``a`` may sit in a cell whose neighbour in direction d is ``b``."""
        count = weights.size
        width = words_for(count)
        directions = len(pull_matrices)
        bits = 16
        chunks = (count + bits - 1) // bits
        if directions * chunks * (1 << bits) * width * 8 > TABLE_BYTES_FOR_16_BIT_CHUNKS:
            bits = 8
            chunks = (count + bits - 1) // bits
        size = 1 << bits
        padded = chunks * bits
        support = np.zeros((directions, chunks, size, width), dtype=np.uint64)
        for d, matrix in enumerate(pull_matrices):
            rows = np.zeros((padded, width), dtype=np.uint64)
            rows[:count] = pack(matrix)
            for c in range(chunks):
                support[d, c] = _doubling(rows[c * bits:(c + 1) * bits], bits, np.bitwise_or)
        w = np.zeros(padded)
        w[:count] = weights
        wlog = np.zeros(padded)
        wlog[:count] = weights * fpmath.log(weights)
        ones = np.zeros(padded, dtype=np.int64)
        ones[:count] = 1

        def sums(values: np.ndarray) -> np.ndarray:
            parts = [_doubling(values[c * bits:(c + 1) * bits], bits, np.add) for c in range(chunks)]
            return np.concatenate(parts)

        popcount, weight_sum, weight_log_sum = sums(ones), sums(w), sums(wlog)
        chunk_offsets = np.arange(chunks, dtype=np.int64) * size
        support_offsets = (np.arange(directions)[:, None, None] * chunks + np.arange(chunks)) * size
        return cls(
            count=count, width=width, bits=bits, chunks=chunks,
            chunk_dtype=np.uint16 if bits == 16 else np.uint8,
            support=support.reshape(-1, width), support_offsets=support_offsets.astype(np.int64),
            popcount=popcount, weight_sum=weight_sum, weight_log_sum=weight_log_sum,
            chunk_offsets=chunk_offsets,
        )

    @property
    def nbytes(self) -> int:
        return int(self.support.nbytes + self.popcount.nbytes * 3)


def flag_table(tables: ChunkTables, variant_flags: np.ndarray) -> np.ndarray:
    """Per chunk value, the OR of the flags of its variants.

    Parameters
    ----------
    tables : ChunkTables
        The rules' chunk layout.
    variant_flags : numpy.ndarray
        (T,) unsigned ints, the flag bits of each variant.
    """
    padded = np.zeros(tables.chunks * tables.bits, dtype=variant_flags.dtype)
    padded[: variant_flags.size] = variant_flags
    parts = [_doubling(padded[c * tables.bits:(c + 1) * tables.bits], tables.bits, np.bitwise_or)
             for c in range(tables.chunks)]
    return np.concatenate(parts)


def flags_of(tables: ChunkTables, table: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per domain row, the OR of the flags of the variants it holds.

    Parameters
    ----------
    tables : ChunkTables
        The rules' chunk layout.
    table : numpy.ndarray
        A :func:`flag_table`.
    rows : numpy.ndarray
        (k, W) uint64 domains.
    """
    chunks: np.ndarray = np.ascontiguousarray(rows).view(tables.chunk_dtype)[:, : tables.chunks]
    return _BITWISE_OR.reduce(table[chunks + tables.chunk_offsets], axis=1)
