"""The layering holds: no import cycle between Strew's modules, core/ reaches neither Blender nor its side, and
the Blender side imports one way only: core ← properties ← scene ← demos ← operators ← panels.

The graph comes from the AST of every module (``import_graph``), lazy and type-only imports included: a cycle
hidden in a function body or under ``TYPE_CHECKING`` is still a cycle of the design.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from import_graph import cycles, imports

REPO_ROOT = Path(__file__).resolve().parents[2]
BLENDER_MODULES = {"bpy", "mathutils", "gpu", "bmesh", "bpy_extras", "bl_ui", "addon_utils"}
# Each part of the package, lowest first: a module may import its own part and the parts below it.
LAYERS = ("core", "properties", "scene", "demos", "operators", "panels")
# Modules any part may use, which use nothing of Strew themselves.
BASE = {"version", "registration", "translations"}
# Entry points: they start things (the extension's register, the command line, make demo) and may use anything.
ENTRY = {"", "__main__", "cli", "cli_along", "cli_blend", "cli_export", "cli_farm", "cli_files", "cli_interrupt",
         "cli_relations", "cli_rescatter", "cli_room", "demos.build"}


def layer_of(module: str, package: str) -> int | None:
    """The layer index of a package module (-1 for the base modules), None for an entry point."""
    inner = module.removeprefix(package).removeprefix(".")
    if inner in ENTRY:
        return None
    if inner in BASE:
        return -1
    top = inner.split(".")[0]
    if top not in LAYERS:
        raise AssertionError(f"{module}: put it in one of {LAYERS}, the base modules or the entry points")
    return LAYERS.index(top)


def upward_imports(graph: dict[str, set[str]], package: str) -> list[str]:
    """``module -> import`` for every import from a part to a part above it (or to an entry point)."""
    found = []
    for module, targets in graph.items():
        here = layer_of(module, package)
        if here is None:
            continue
        for target in targets:
            if not (target == package or target.startswith(package + ".")):
                continue
            there = layer_of(target, package)
            if there is None or there > here or (here == -1 and there != -1 and not target.startswith(
                    f"{package}.core")):
                found.append(f"{module} -> {target}")
    return sorted(found)


def core_violations(graph: dict[str, set[str]], package: str) -> list[str]:
    """``module -> import`` for every import from core/ to Blender or to a module outside core/."""
    def inside(module: str, top: str) -> bool:
        return module == top or module.startswith(top + ".")

    core = f"{package}.core"
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items() if inside(module, core)
        for target in targets if target in BLENDER_MODULES or (inside(target, package) and not inside(target, core))
    )


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return imports(REPO_ROOT, "strew")


def test_the_graph_covers_the_package(graph: dict[str, set[str]]) -> None:
    assert {"strew", "strew.cli", "strew.core.scatter.spec", "strew.scene.scatter_job"} <= set(graph)
    assert "strew.core.scatter.spec" in graph["strew.core.scatter"]
    assert "bpy" in graph["strew.scene.scatter_job"]


def test_no_import_cycle_between_strew_modules(graph: dict[str, set[str]]) -> None:
    found = cycles(graph)
    assert not found, "import cycles (break each one):\n" + "\n".join("  " + " <-> ".join(c) for c in found)


def test_core_imports_nothing_from_blender_or_the_blender_side(graph: dict[str, set[str]]) -> None:
    found = core_violations(graph, "strew")
    assert not found, "core/ must stay pure Python + numpy:\n" + "\n".join("  " + line for line in found)


def test_the_blender_side_imports_only_downward(graph: dict[str, set[str]]) -> None:
    found = upward_imports(graph, "strew")
    assert not found, (f"imports against the direction {' <- '.join(LAYERS)} (a property update that must start "
                       "work goes through properties/hooks.py):\n" + "\n".join("  " + line for line in found))


LIVE = {"strew.scene.live_cache", "strew.scene.live_update", "strew.scene.live_watch", "strew.scene.job_cache",
        "strew.scene.object_changes", "strew.scene.terrain_changes", "strew.scene.image_changes",
        "strew.scene.live_fill"}
"""The live update's machinery: the plain Scatter job runs without it."""


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_scatter_job_never_imports_the_live_machinery(graph: dict[str, set[str]]) -> None:
    for start in ("strew.scene.scatter_job", "strew.scene.layer_surface", "strew.scene.layer_inputs"):
        found = reached(graph, start) & LIVE
        assert not found, f"{start} reaches the live update's machinery: {sorted(found)}"


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checks_find_a_synthetic_cycle_and_a_core_import_of_bpy(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from . import b\n",
        "b.py": "def f():\n    from .sub import c\n",  # lazy: still part of the cycle
        "sub/__init__.py": "",
        "sub/c.py": "from ..a import thing\n",
        "core/__init__.py": "",
        "core/pure.py": "import numpy as np\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import bpy\n",
        "core/bad.py": "import mathutils.geometry\nfrom ..scene import job\nfrom . import pure\n",
        "scene/__init__.py": "",
        "scene/job.py": "import bpy\nfrom ..core import pure\n",
        "tests/test_x.py": "from pkg import a\n",  # tests are not part of the package
    })
    graph = imports(root, "pkg")
    assert "pkg.tests.test_x" not in graph
    assert graph["pkg.core.pure"] == {"numpy", "typing", "bpy"}  # a type-only import counts too
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert core_violations(graph, "pkg") == [
        "pkg.core.bad -> mathutils", "pkg.core.bad -> pkg.scene.job", "pkg.core.pure -> bpy"]


def test_the_direction_check_finds_an_upward_import_and_a_type_only_one(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg", {
        "__init__.py": "from . import panels\n",  # the entry point may import anything
        "version.py": "",
        "core/__init__.py": "",
        "properties/__init__.py": "from ..core import x\nfrom .. import version\n",
        "scene/__init__.py": "def f():\n    from ..operators import run\n",  # lazy: still upward
        "operators/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..panels import p\n",
        "panels/__init__.py": "from ..scene import s\nfrom ..properties import t\n",
    })
    assert upward_imports(imports(root, "pkg"), "pkg") == ["pkg.operators -> pkg.panels", "pkg.scene -> pkg.operators"]
