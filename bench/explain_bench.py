"""Time to explain a match (``scoring.explain.explain``) by its length: prints figures,
asserts nothing.

For every length the slowest of a few openings (no game yet, after a hemspel, after a
jan, after a sprängjan; all three scales) is printed. ``explain`` gives coded messages;
their wording at the edge (``matches.explain_text``) is not timed here. Lengths past
``MAX_MATCH_LENGTH`` (25) are refused by ``match_state``; their states are built with
``dataclasses.replace`` to show how the cost grows, since ``explain`` itself has no bound.

``--compare`` also times the example search the explanation used before (enumerating
every multiset of game wins, ``tests/scoring/test_explain_cost.py``) up to 101 games.

Run: ``cd /work/main && .venv/bin/python bench/explain_bench.py [--compare]``
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.types import Outcome
from scoring import explain as explain_module
from scoring.explain import explain
from scoring.match import MAX_MATCH_LENGTH, MatchState, match_state
from scoring.scales import Scale

LENGTHS = (1, 11, 25, 51, 101, 201)
OPENINGS: tuple[tuple[str, ...], ...] = ((), ("W hemspel",), ("W jan",), ("W sprängjan",))


def state_at(length: int, scale: Scale, opening: tuple[str, ...]) -> MatchState | None:
    outcomes = [Outcome.from_text(t) for t in opening]
    if length <= MAX_MATCH_LENGTH:
        state = match_state(length=length, scale=scale, outcomes=outcomes)
    else:
        state = match_state(length=MAX_MATCH_LENGTH, scale=scale, outcomes=outcomes)
        state = dataclasses.replace(state, length=length, remaining=length - state.completed)
    return state if state.winner is None else None


def best_of(repeat: int, func: Callable[[], object]) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def slowest_explanation(length: int, repeat: int) -> tuple[float, str]:
    worst, where = 0.0, ""
    for scale in Scale:
        for opening in OPENINGS:
            state = state_at(length, scale, opening)
            if state is None:
                continue
            took = best_of(repeat, partial(explain, state))
            if took > worst:
                worst, where = took, f"{scale.value}, {', '.join(opening) or 'start'}"
    return worst, where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", action="store_true", help="also time the old search")
    args = parser.parse_args()

    print(f"explain(), slowest opening per length (bound: best of {MAX_MATCH_LENGTH})")
    print(f"{'length':>7}  {'time':>10}  slowest case")
    for length in LENGTHS:
        took, where = slowest_explanation(length, repeat=5)
        note = "" if length <= MAX_MATCH_LENGTH else "  (past the bound; built directly)"
        print(f"{length:>7}  {took * 1e3:>7.2f} ms  {where}{note}")

    if args.compare:
        from tests.scoring.test_explain_cost import brute_fewest_wins

        print("\nthe old search (enumerating game-win multisets), the start of a W&W match:")
        for length in (1, 11, 25, 51, 101):
            state = state_at(length, Scale.WW, ())
            assert state is not None
            new = best_of(3, partial(explain, state))
            original = explain_module._fewest_wins
            explain_module._fewest_wins = brute_fewest_wins  # type: ignore[assignment]
            try:
                old = best_of(1, partial(explain, state))
            finally:
                explain_module._fewest_wins = original  # type: ignore[assignment]
            print(f"{length:>7}  old {old * 1e3:>9.2f} ms   new {new * 1e3:>7.2f} ms")


if __name__ == "__main__":
    main()
