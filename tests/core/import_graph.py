"""The import graph of a package, read from the AST of its files (nothing is imported or run).

``imports(root, package)`` maps each module to the modules it imports: package modules by their dotted name
(``from .x import y`` resolves to ``package.x.y`` when that is a module, else to ``package.x``) and outside
modules by their top-level name (``bpy``). Every import counts: at the top, inside functions (lazy) and under
``if TYPE_CHECKING:`` (a type-only import is still a dependency of the design).
"""

from __future__ import annotations

import ast
from pathlib import Path

SKIP = {"tests", "bench", "docs", "dist", "build"}


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package rooted at ``root`` (a folder holding ``__init__.py``), by dotted name."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[0] in SKIP or parts[0].startswith("."):
            continue
        if not all((root.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(len(parts))):
            continue  # a script folder (no __init__.py on the way), not part of the package
        dotted = ".".join((package, *parts))
        names[dotted.removesuffix(".__init__")] = path
    return names


def imports(root: Path, package: str) -> dict[str, set[str]]:
    """Module → imported modules, for every module of the package (see the module docstring)."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.add(alias.name if alias.name in modules else alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                    source = f"{base}.{node.module}" if node.module else base
                else:
                    source = node.module or ""
                if source not in modules and not source.startswith(package + "."):
                    found.add(source.split(".")[0])
                    continue
                for alias in node.names:
                    found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source)
        found.discard(name)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (each an import cycle), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative (no recursion limit on deep graphs)
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in graph), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)
