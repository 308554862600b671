"""No source file cites an issue number: the tracker is not in the repository, so "issue"
and a number tell a reader nothing. Code, comments, docstrings, templates, tests and
documents say the decision or the reason instead (house style)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {".py", ".html", ".md", ".js", ".css", ".txt", ".toml", ".sh", ".yml", ".yaml", ".po"}
# Hidden folders hold tools' output and installs (.venv, .venv-prod, .git, caches), not ours.
SKIPPED = {"node_modules", "staticfiles"}
# "issue" and a number ("Issue #" too, "issues", no space); not "an issue" or "issued".
CITATION = re.compile(r"\b[Ii]ssues? ?#?\d+")


def _sources() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        hidden = any(part.startswith(".") for part in parts[:-1])
        if hidden or SKIPPED.intersection(parts) or path.suffix not in SOURCES:
            continue
        if not path.is_file():
            continue
        # The corpora's records under tests/data are real files as their programs wrote them;
        # their notes (README.md) are ours.
        if parts[:2] == ("tests", "data") and path.suffix != ".md":
            continue
        found.append(path)
    return found


def test_no_source_file_cites_an_issue_number() -> None:
    citing = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert citing == []


def test_the_scan_sees_a_citation_and_lets_words_be() -> None:
    # The digits apart ({14}), so that this file cites none itself.
    cited = [f"(issue {14})", f"Issue #{3}: x", f"issues {3} and 5", f"see issue{14}"]
    assert all(CITATION.search(text) for text in cited)
    plain = ["an issue with the draw", "issued 2026", "the issue, 4 times", "the issue's author"]
    assert not any(CITATION.search(text) for text in plain)
    assert len(_sources()) > 300 and ROOT / "README.md" in _sources()
