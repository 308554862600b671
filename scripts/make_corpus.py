"""Write the random-game corpus to ``tests/data/corpus/`` (see ``engine/corpus.py``).

Run once and commit the files: ``.venv/bin/python scripts/make_corpus.py``.
The test ``tests/engine/test_corpus.py`` checks that regenerating gives the same text.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.corpus import CORPUS, CORPUS_DIR


def main() -> None:
    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    for spec in CORPUS:
        text = spec.text()
        spec.path.write_text(text, encoding="utf-8")
        print(f"{spec.path.name}: {spec.games} games, {len(text.encode()):,} bytes")


if __name__ == "__main__":
    main()
