"""Speed of the Swiss pairing (issue 14): prints figures, asserts nothing.

Run: ``cd /work/main && .venv/bin/python bench/pairing_bench.py`` (``--full`` also times
the complete-graph reference, ``method="full"``, up to 512 players; slow).

For each field size a Swiss is played with random results (a coin per match, everyone
present), paired by ``stages.swiss.pair_round`` itself, and the next round is then paired
three times and timed: after 5 rounds (uneven score groups, few rematch constraints) and
after ⌈log2 n⌉ rounds (a full-length Swiss: small top groups, many rematch constraints).
Each row gives the best of the three runs as wall-clock time and as the CPU time of this
process (one core; the machine may be shared, so the CPU time is the steadier figure),
with the pairing's rematches and float pairs. The issue's goal, under 2 s to pair a round
of 1,000 players on one core, is judged on the worst 1,000-player row's CPU time.

The issue also asks for the database queries per standings page at 16 and 256 players
(goal: the same number). Those pages are part of the Django side, which does not exist
yet; that figure joins this bench when the pages do, and until then none is printed.

This bench replaces ``bench/swiss_bench.py`` (round 6 of 64 to 256 players), whose rows
are the "5 played" rows here.
"""

from __future__ import annotations

import math
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stages.swiss import SwissPlayer, SwissRound, pair_round

SEED = 2026
SIZES = (64, 128, 256, 512, 1000, 1001)
GOAL_PLAYERS = 1000
GOAL_SECONDS = 2.0


def field_after(players: int, rounds: int) -> list[SwissPlayer]:
    """The field after ``rounds`` rounds of a Swiss of ``players`` with random results."""
    rng = random.Random(players * 1000 + rounds)
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


def timed(field: list[SwissPlayer], runs: int, method: str) -> tuple[float, float, SwissRound]:
    """Best wall-clock and best CPU seconds of ``runs`` pairings, and the pairing."""
    wall = cpu = math.inf
    result: SwissRound | None = None
    for _ in range(runs):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        result = pair_round(field, seed=SEED, method="full" if method == "full" else "sparse")
        wall = min(wall, time.perf_counter() - start_wall)
        cpu = min(cpu, time.process_time() - start_cpu)
    assert result is not None
    return wall, cpu, result


def main() -> None:
    full = "--full" in sys.argv[1:]
    print(
        f"{'players':>7} {'played':>6} {'groups':>6}  {'wall ms':>8} {'cpu ms':>8}"
        f"  {'rematches':>9} {'floats':>6}" + ("  full-graph cpu ms" if full else "")
    )
    worst = 0.0
    for players in SIZES:
        for played in sorted({5, math.ceil(math.log2(players))}):
            field = field_after(players, played)
            wall, cpu, result = timed(field, 3, "sparse")
            if players == GOAL_PLAYERS:
                worst = max(worst, cpu)
            line = (
                f"{players:>7} {played:>6} {len({p.score for p in field}):>6}  "
                f"{wall * 1000:8.1f} {cpu * 1000:8.1f}  {result.cost.rematches:>9} "
                f"{sum(result.cost.floats):>6}"
            )
            if full and players <= 512:
                _, full_cpu, reference = timed(field, 1, "full")
                same = "same pairing" if reference.pairs == result.pairs else "DIFFERENT"
                line += f"  {full_cpu * 1000:10.1f} ({same})"
            print(line, flush=True)
    verdict = "met" if worst < GOAL_SECONDS else "NOT met"
    print(
        f"goal: a round of {GOAL_PLAYERS} players paired in under {GOAL_SECONDS:g} s on one "
        f"core: {verdict} (worst {worst * 1000:.0f} ms CPU)"
    )


if __name__ == "__main__":
    main()
