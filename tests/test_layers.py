"""The apps' layers: ``core`` below everything, ``tournaments`` below ``matches``.

``matches`` imports ``tournaments`` (a match belongs to a tournament's round); the other
way round goes through ``tournaments.matchplay``, the port ``matches`` registers at
start-up. ``core`` (errors, roles) imports no app of the project. Every import counts,
also one inside a function or under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "matches", "web", "clubs", "games", "engine", "backgammon", "scoring")


def imported_modules(source: str) -> set[str]:
    """Every module a Python source imports, wherever the import statement is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _imports_of(package: str) -> dict[str, set[str]]:
    return {
        str(path.relative_to(ROOT)): imported_modules(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _offending(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path} imports {module}"
        for path, modules in _imports_of(package).items()
        for module in sorted(modules)
        if module.split(".")[0] in forbidden
    ]


def test_the_scanner_sees_imports_anywhere_in_a_module() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from matches.models import Match\n"
        "def f():\n    import matches.services\n    from matches import errors\n"
    )
    assert {"matches.models", "matches.services", "matches", "matches.errors"} <= (
        imported_modules(source)
    )


def test_tournaments_imports_nothing_from_matches_or_above() -> None:
    assert _offending("tournaments", ("matches", "web")) == []


@pytest.mark.parametrize("package", ["core"])
def test_core_imports_no_app(package: str) -> None:
    assert _offending(package, APPS) == []
