"""Speed of the scoring library: prints figures, asserts nothing.

Run: ``cd /work/main && .venv/bin/python bench/scoring_bench.py``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.types import Outcome
from scoring.explain import explain
from scoring.match import match_state

GAMES = [Outcome.from_text(t) for t in ("W hemspel", "B jan", "W hemspel munk", "B uppgivet")]
GAMES += [Outcome.from_text(t) for t in ("B hemspel", "W vackert trappspel", "B hemspel")]


def per_call(label: str, repeat: int, func: object) -> None:
    assert callable(func)
    start = time.perf_counter()
    for _ in range(repeat):
        func()
    elapsed = time.perf_counter() - start
    print(f"{label:<45} {elapsed / repeat * 1e6:8.1f} µs/call  ({repeat} calls)")


def main() -> None:
    per_call(
        "match_state, best of 7, 7 games (ww)",
        20_000,
        lambda: match_state(length=7, outcomes=GAMES),
    )
    per_call(
        "match_state, best of 7, 7 games (ny1)",
        20_000,
        lambda: match_state(length=7, scale="ny1", outcomes=GAMES),
    )
    state = match_state(length=7, outcomes=GAMES[:4])
    per_call("explain (open, coded)", 5_000, lambda: explain(state))
    from scoring.scales import Scale
    from tests.scoring.test_exhaustive import walk

    for n in (5, 7):
        start = time.perf_counter()
        result = walk(n, (Scale.WW, Scale.NY1))
        print(f"exhaustive S4 walk n={n} ww+ny1: {time.perf_counter() - start:.2f} s, {result}")


if __name__ == "__main__":
    main()
