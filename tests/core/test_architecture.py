"""The layering holds: no import cycle between Strew's modules, and core/ reaches neither Blender nor its side.

The graph comes from the AST of every module (``import_graph``), lazy imports inside functions included: a cycle
hidden in a function body is still a cycle of the design.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from import_graph import cycles, imports

REPO_ROOT = Path(__file__).resolve().parents[2]
BLENDER_MODULES = {"bpy", "mathutils", "gpu", "bmesh", "bpy_extras", "bl_ui", "addon_utils"}


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
    assert graph["pkg.core.pure"] == {"numpy", "typing"}  # TYPE_CHECKING imports never run
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert core_violations(graph, "pkg") == ["pkg.core.bad -> mathutils", "pkg.core.bad -> pkg.scene.job"]
