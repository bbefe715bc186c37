"""The names a preset's layers take when it loads, and the keep-away rules that follow them."""

from __future__ import annotations

from typing import Any


class Names:
    """Unique layer names: ``name``, or ``name 2``, ``name 3`` … when a layer of that name exists (outputs are
    named by layer); each base name remembers the number it reached, so thousands of equal names stay fast."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.next: dict[str, int] = {}

    def unique(self, name: str) -> str:
        candidate, number = name, self.next.get(name, 2)
        while candidate in self.taken:
            candidate, number = f"{name} {number}", number + 1
        self.next[name] = number
        self.taken.add(candidate)
        return candidate


def with_rules_renamed(values: dict[str, Any], above: dict[str, str], everywhere: dict[str, str]) -> dict[str, Any]:
    """``values`` whose keep-away rules and Around / On Layer links name the preset's layers as this load named
    them: each names an earlier layer, so the nearest preset layer of that name above this one, else the preset's
    layer of it."""

    def renamed(rule: dict[str, Any]) -> dict[str, Any]:
        if "layer" not in rule:
            return rule
        return {**rule, "layer": above.get(rule["layer"], everywhere.get(rule["layer"], rule["layer"]))}

    out = dict(values)
    if values.get("keep_away_rules"):
        out["keep_away_rules"] = [renamed(rule) for rule in values["keep_away_rules"]]
    for link in LINKS:  # Around and On Layer name an earlier layer the same way
        if isinstance(values.get(link), dict):
            out[link] = renamed(values[link])
    return out


LINKS = ("around", "on_layer")
"""A layer's settings that name one earlier layer (``properties.layer_relations``)."""
