"""What people read cites the rules by what they are ("the Danish federation's rules",
"Dansk Backgammon Forbunds regler"), never by the number of a source file the site does
not ship ("seed 002"). Docstrings and comments may cite the files: developers have them.

Read: every translation, every template and script the site serves, and every string
in the project's Python that is not a docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
FILE_CITED = re.compile(r"\bseed \d{3}\b", re.IGNORECASE)
NOT_SHIPPED = {"tests", "bench", "scripts", "docs"}


def _project_files(pattern: str) -> list[Path]:
    return [
        path
        for path in ROOT.rglob(pattern)
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
        and path.relative_to(ROOT).parts[0] not in NOT_SHIPPED
        and "migrations" not in path.parts
    ]


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def python_strings_citing_files(source: str) -> list[str]:
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and FILE_CITED.search(node.value)
    ]


def test_the_scan_finds_a_cited_file_in_a_string_and_not_in_a_docstring() -> None:
    source = '"""Legal plays (seed 002)."""\n\ndef f():\n    """Seed 002."""\n    # seed 002\n'
    assert python_strings_citing_files(source) == []
    assert python_strings_citing_files(source + '    return "play (seed 002: …)"\n') == [
        "play (seed 002: …)"
    ]


def test_no_translation_cites_a_file() -> None:
    po = polib.pofile(str(ROOT / "locale" / "sv" / "LC_MESSAGES" / "django.po"))
    assert len(po) > 200
    cited = [e.msgid for e in po if FILE_CITED.search(e.msgid) or FILE_CITED.search(e.msgstr)]
    assert cited == []


def test_no_string_a_reader_may_see_cites_a_file() -> None:
    python = _project_files("*.py")
    assert ROOT / "scoresheets" / "messages.py" in python  # the scan reads the site
    cited = {
        str(path.relative_to(ROOT)): found
        for path in python
        if (found := python_strings_citing_files(path.read_text(encoding="utf-8")))
    }
    for pattern in ("*.html", "*.js", "*.txt"):
        for path in _project_files(pattern):
            if FILE_CITED.search(path.read_text(encoding="utf-8")):
                cited[str(path.relative_to(ROOT))] = ["(the file)"]
    assert cited == {}
