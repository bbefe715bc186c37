"""Blender's own name order, needed to know which child of a collection "Pick Instance" index i means."""

from __future__ import annotations

import functools

_DIGITS = frozenset(b"0123456789")


def _natural_casefold_cmp(left: str, right: str) -> int:
    """Port of Blender's ``BLI_strcasecmp_natural`` (the order of Collection Info's Separate Children).

    Case-insensitive; digit runs compare as numbers, with more leading zeros sorting later on a tie; '.' sorts
    before other characters; a string that ends first sorts first unless a leading-zero tie decided earlier.
    """
    a, b = left.encode(), right.encode()
    i = j = 0
    tiebreaker = 0
    while True:
        if i < len(a) and j < len(b) and a[i] in _DIGITS and b[j] in _DIGITS:
            zeros_a = zeros_b = 0
            while i < len(a) and a[i] == 0x30:
                i, zeros_a = i + 1, zeros_a + 1
            while j < len(b) and b[j] == 0x30:
                j, zeros_b = j + 1, zeros_b + 1
            end_a, end_b = i, j
            while end_a < len(a) and a[end_a] in _DIGITS:
                end_a += 1
            while end_b < len(b) and b[end_b] in _DIGITS:
                end_b += 1
            if end_a - i != end_b - j:
                return 1 if end_a - i > end_b - j else -1
            if a[i:end_a] != b[j:end_b]:
                return 1 if a[i:end_a] > b[j:end_b] else -1
            if tiebreaker == 0 and zeros_a != zeros_b:
                tiebreaker = 1 if zeros_a > zeros_b else -1
            i, j = end_a, end_b
        if i >= len(a) or j >= len(b):
            break
        c1, c2 = chr(a[i]).lower(), chr(b[j]).lower()
        if c1 != c2:
            if c1 == ".":
                return -1
            if c2 == ".":
                return 1
            return -1 if c1 < c2 else 1
        i += 1
        j += 1
    if tiebreaker:
        return tiebreaker
    return (a > b) - (a < b)


natural_name_key = functools.cmp_to_key(_natural_casefold_cmp)
