"""Speed of the Swiss pairing: prints figures, asserts nothing.

Run: ``cd /work/main && .venv/bin/python bench/swiss_bench.py``

For each field size, five rounds are paired and played with random results (a coin per
match), then the sixth round is paired repeatedly and timed. Rematches are then possible
but avoidable, and the score groups are uneven, as in a club Swiss.
"""

from __future__ import annotations

import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stages.swiss import SwissPlayer, SwissRound, pair_round

SEED = 2026


def field_after(players: int, rounds: int) -> list[SwissPlayer]:
    rng = random.Random(players)
    score = dict.fromkeys(range(1, players + 1), Decimal(0))
    met: dict[int, set[int]] = {p: set() for p in score}
    bye = dict.fromkeys(score, False)
    for _ in range(rounds):
        field = [SwissPlayer(p, score[p], p, frozenset(met[p]), bye[p]) for p in score]
        for pair in pair_round(field, seed=SEED).pairs:
            if pair.second is None:
                bye[pair.first] = True
                score[pair.first] += 1
            else:
                met[pair.first].add(pair.second)
                met[pair.second].add(pair.first)
                score[rng.choice((pair.first, pair.second))] += 1
    return [SwissPlayer(p, score[p], p, frozenset(met[p]), bye[p]) for p in score]


def main() -> None:
    for players, repeat in ((64, 20), (65, 20), (128, 10), (129, 10), (256, 3)):
        field = field_after(players, 5)
        result: SwissRound | None = None
        start = time.perf_counter()
        for _ in range(repeat):
            result = pair_round(field, seed=SEED)
        elapsed = (time.perf_counter() - start) / repeat
        assert result is not None
        groups = len({p.score for p in field})
        print(
            f"Swiss round 6, {players:>3} players ({groups} score groups): "
            f"{elapsed * 1000:7.1f} ms/pairing  ({repeat} runs; rematches {result.cost.rematches}, "
            f"float pairs {sum(result.cost.floats)})"
        )


if __name__ == "__main__":
    main()
