"""Every property a panel draws by name exists on Strew's registered settings (a typo would break the panel)."""

from __future__ import annotations

import ast
from pathlib import Path

import bpy
from conftest import REPO_ROOT


def _drawn_property_names() -> set[tuple[str, str]]:
    """(file, property name) of every literal name passed to layout.prop / prop_search / template_ID."""
    found = set()
    for path in sorted((REPO_ROOT / "panels").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"prop", "prop_search", "template_ID"}
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and not node.args[1].value.startswith("[")
            ):
                found.add((path.name, node.args[1].value))
    return found


def _strew_property_names() -> set[str]:
    names: set[str] = set()
    for cls in bpy.types.PropertyGroup.__subclasses__():
        if "strew" in cls.__module__:
            names |= {prop.identifier for prop in cls.bl_rna.properties}
    return names


def test_panels_draw_only_existing_properties() -> None:
    known = _strew_property_names()
    assert {"min_radius", "terrain", "weight"} <= known  # the registry is read
    missing = sorted((file, name) for file, name in _drawn_property_names() if name not in known)
    assert missing == [], f"panels draw properties that do not exist: {missing}"


def test_panel_files_are_scanned() -> None:
    files = {file for file, _ in _drawn_property_names()}
    assert {"scatter.py", "rooms.py"} <= files
    assert Path(REPO_ROOT / "panels" / "scatter.py").is_file()
