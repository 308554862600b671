"""The project's licence (AGPL-3.0-or-later) and every runtime dependency's, read from the
installed packages' own metadata: a dependency under a licence not known to be
compatible fails here until someone looks at it (README, "Licence")."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Licences that may be combined into an AGPL-3.0-or-later work, as the packages write
# them (their ``License-Expression``, ``License`` or trove classifiers).
COMPATIBLE = {
    "BSD",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "BSD 3-Clause",
    "BSD License",
    "New BSD",
    "MIT",
    "MIT License",
    "MIT-CMU",
    "Apache-2.0",
    "Apache License 2.0",
    "Apache Software License",
    "LGPL-3.0-only",
    "LGPL-3.0-or-later",
    "PSF-2.0",
    "PSFL",
    "Python Software Foundation License",
}


def _runtime_requirements() -> list[str]:
    names = []
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(re.split(r"[=\[<>~!; ]", line, maxsplit=1)[0])
    return names


def licences_of(name: str) -> set[str]:
    """The licences a package declares, split at ``OR``/``AND`` of an SPDX expression."""
    meta = importlib.metadata.metadata(name)
    found: set[str] = set()
    expression = meta["License-Expression"] or ""
    found.update(p.strip("() ") for p in re.split(r"\s+(?:OR|AND)\s+", expression) if p.strip())
    text = (meta["License"] or "").strip()
    if text and "\n" not in text and len(text) < 60:
        found.update(p.strip() for p in re.split(r"\s+OR\s+", text))
    for classifier in meta.get_all("Classifier") or []:
        if classifier.startswith("License ::"):
            found.add(classifier.split("::")[-1].strip())
    return found - {"Dual License", "OSI Approved"}


def test_the_project_is_agpl_3_or_later() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("GNU AFFERO GENERAL PUBLIC LICENSE\nVersion 3, 19 November 2007")
    assert "13. Remote Network Interaction" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "AGPL-3.0-or-later"


def test_every_runtime_dependency_has_a_compatible_licence() -> None:
    names = _runtime_requirements()
    assert "Django" in names and len(names) > 20
    problems = {}
    for name in names:
        found = licences_of(name)
        if not found or not found <= COMPATIBLE:
            problems[name] = sorted(found)
    assert problems == {}, "look at these licences, then list them in README's Licence"


def test_an_unknown_licence_is_caught() -> None:
    """The check itself: a copyleft licence the project cannot take is not in the list."""
    assert not {"GPL-2.0-only", "AGPL-1.0", "SSPL-1.0", "CC-BY-NC-4.0"} & COMPATIBLE
