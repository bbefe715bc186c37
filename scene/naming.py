"""Blender's own name order, needed to know which child of a collection "Pick Instance" index i means."""

from __future__ import annotations

import functools


def _natural_casefold_cmp(a: str, b: str) -> int:
    """Mirror of Blender's ``BLI_strcasecmp_natural``: case-insensitive, digit runs compared as numbers."""
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i].isdigit() and b[j].isdigit():
            i_end, j_end = i, j
            while i_end < len(a) and a[i_end].isdigit():
                i_end += 1
            while j_end < len(b) and b[j_end].isdigit():
                j_end += 1
            left, right = int(a[i:i_end]), int(b[j:j_end])
            if left != right:
                return -1 if left < right else 1
            i, j = i_end, j_end
            continue
        left_char, right_char = a[i].lower(), b[j].lower()
        if left_char != right_char:
            return -1 if left_char < right_char else 1
        i += 1
        j += 1
    if (len(a) - i) != (len(b) - j):
        return -1 if (len(a) - i) < (len(b) - j) else 1
    return (a > b) - (a < b)


natural_name_key = functools.cmp_to_key(_natural_casefold_cmp)
