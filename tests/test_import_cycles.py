"""No import circles: the project's modules import each other in one direction.

The graph has an edge from a module to every project module it imports, wherever the
import statement is (also inside a function or under ``TYPE_CHECKING``), and a package
import counts as an import of the module it names (``from matches import tasks`` is an edge
to ``matches.tasks``). Tests and migrations are left out. A strongly connected component of
more than one module is a circle: two modules that need each other are one module, or share
a piece that belongs in a third one both import.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEFT_OUT = {"tests", "migrations", "node_modules", "__pycache__"}

# Circles known and allowed: none. (The list stays, so that a circle that has to be lived
# with for a while is named here, with its reason, and the test fails once it is gone.)
KNOWN_CIRCLES: frozenset[tuple[str, ...]] = frozenset()


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """The project's modules by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if any(part.startswith(".") or part in LEFT_OUT for part in parts):
            continue
        name = ".".join(parts)[: -len(".py")]
        found[name.removesuffix(".__init__")] = path
    return found


def imported_names(source: str) -> set[str]:
    """Every dotted name an import statement of ``source`` may name as a module."""
    names: set[str] = set()
    with warnings.catch_warnings():  # a module's own warnings (escapes) are not this test's
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    return {
        name: {
            other
            for other in imported_names(path.read_text(encoding="utf-8"))
            if other in modules and other != name
        }
        for name, path in modules.items()
    }


def circles(graph: Mapping[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected components of more than one module, each sorted (Tarjan's
    algorithm, iterative: the graph is deeper than Python's recursion allows)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()
    counter = 0
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(graph[start]))))
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(tuple(sorted(component)))
    return found


@cache
def project_circles() -> frozenset[tuple[str, ...]]:
    return frozenset(circles(import_graph(project_modules())))


def test_the_graph_sees_package_imports_and_imports_inside_functions() -> None:
    """The graph is the one the module docstring describes: a package import names its
    module, an import inside a function counts, and a circle of two is found."""
    source = "from matches import tasks\n\ndef f():\n    import web.views.swiss\n"
    assert {"matches", "matches.tasks", "web.views.swiss"} <= imported_names(source)
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == {("a", "b", "c")}


def test_no_import_circles() -> None:
    found = project_circles()
    new = sorted(found - KNOWN_CIRCLES)
    assert not new, "import circles: " + "; ".join(" <-> ".join(c) for c in new)


def test_the_known_circles_are_still_there() -> None:
    """A known circle that is gone leaves the list (so the list cannot go stale)."""
    found = project_circles()
    gone = sorted(KNOWN_CIRCLES - found)
    assert not gone, "no longer circles, take them off KNOWN_CIRCLES: " + "; ".join(
        " <-> ".join(c) for c in gone
    )
