"""The documents say what the tree holds: both layout trees (README.md and
docs/architecture.md) name every top-level package, and the packages mypy checks strictly
are one list, in pyproject.toml: the pure ones, which ``tests/test_layers.py`` keeps free of
Django."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.test_layers import PURE_MAY_IMPORT

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("README.md", "docs/architecture.md")


def _packages() -> set[str]:
    return {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in ("tests", "config")
    }


def _tree(doc: str) -> set[str]:
    """The names at the left of a layout tree's lines (``engine/   the rules…``)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z_]+)/ {2,}", text, flags=re.MULTILINE))


@pytest.mark.parametrize("doc", DOCS)
def test_each_layout_tree_names_every_package(doc: str) -> None:
    assert _packages() >= {"engine", "stages", "core", "ratings"}  # the scan finds them
    assert _packages() - _tree(doc) == set()


def test_the_strict_list_is_the_pure_packages() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (strict,) = [o for o in config["tool"]["mypy"]["overrides"] if o.get("disallow_untyped_defs")]
    assert {name.removesuffix(".*") for name in strict["module"]} == set(PURE_MAY_IMPORT)


@pytest.mark.parametrize("doc", [*DOCS, "Makefile", ".ci/run"])
def test_the_documents_point_to_the_one_strict_list(doc: str) -> None:
    """No document keeps a list of its own (it drifted: engine/ alone in one, three
    packages in another, five in pyproject.toml)."""
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    own_lists = [line for line in lines if re.search(r"mypy-strict|strict for `?[a-z]+/", line)]
    assert own_lists == []
    assert any("strict" in line and "pyproject.toml" in line for line in lines)
