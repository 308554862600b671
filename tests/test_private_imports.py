"""No module of the site reaches into another module's private names.

A name with a leading underscore is its module's own: another module that needs it
(``from tournaments.entries import _require_organiser``, ``progression._place(...)``)
makes the helper shared in fact but not in name, so nobody changing it knows who else
depends on it. A shared helper is public in the module it belongs to (the tournament
guards are ``tournaments.guards``). Tests and bench scripts may look inside a module
(they test or instrument its parts) and are not scanned.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_SITE = frozenset({"tests", "bench", "scripts", "docs", "locale", "node_modules"})
PACKAGES = frozenset(
    path.name
    for path in ROOT.iterdir()
    if path.is_dir() and (path / "__init__.py").exists() and path.name not in NOT_SITE
)


def _is_module(name: str) -> bool:
    if name.split(".")[0] not in PACKAGES | NOT_SITE:
        return False
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(source: str) -> list[str]:
    """Every private name of a project module that ``source`` imports or reads off an
    imported module, as ``line: module.name``."""
    with warnings.catch_warnings():  # another module's escape warnings are not ours
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    modules: dict[str, str] = {}  # local name -> module
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_module(alias.name):
                    top = alias.name.split(".")[0]
                    modules[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if _is_module(full):
                    modules[alias.asname or alias.name] = full
                elif _private(alias.name) and _is_module(node.module):
                    found.append(f"{node.lineno}: {full}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{node.lineno}: {modules[node.value.id]}.{node.attr}")
    return sorted(set(found))


def test_the_scanner_sees_both_ways_in() -> None:
    source = """
from tournaments.entries import _require_organiser, entry_add
from tournaments import entries as services
from matches import progression as prog
import matches.common


def f(m):
    services._draw_entries(m)
    prog._place(m)
    services.round_lengths(m)
    m._meta  # an object's attribute, not a module's
    return _require_organiser
"""
    assert private_uses(source) == [
        "10: matches.progression._place",
        "2: tournaments.entries._require_organiser",
        "9: tournaments.entries._draw_entries",
    ]


def test_no_site_module_uses_another_modules_private_names() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{use}"
        for package in sorted(PACKAGES)
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for use in private_uses(path.read_text(encoding="utf-8"))
    ]
    assert offending == [], "make the shared helper public where it belongs:\n" + "\n".join(
        offending
    )
