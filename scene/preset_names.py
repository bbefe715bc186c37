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
    """``values`` whose keep-away rules name the preset's layers as this load named them: a rule keeps away from
    an earlier layer, so the nearest preset layer of that name above this one, else the preset's layer of it."""
    rules = values.get("keep_away_rules")
    if not rules:
        return values
    return {**values, "keep_away_rules": [
        {**rule, "layer": above.get(rule["layer"], everywhere.get(rule["layer"], rule["layer"]))}
        if "layer" in rule else rule for rule in rules]}
