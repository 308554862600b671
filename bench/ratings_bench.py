"""Speed of the ratings library: prints figures, asserts nothing (the goal: under
10 s to rebuild 100,000 matches).

Run: ``cd /work/main && .venv/bin/python bench/ratings_bench.py``
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ratings.chart import ChartPoint, rating_chart_svg
from ratings.ledger import Book, FinishedMatch, PlayerState, rebuild
from ratings.seeding import seeding_order

MATCHES = 100_000
PLAYERS = 1_000
START = datetime(2020, 1, 1, tzinfo=UTC)


def random_matches(count: int, players: int, seed: int = 15) -> list[FinishedMatch]:
    """Both games, bräde lengths 1–25 (odd) with early decisions, backgammon 1–25 points,
    3 % walkovers, shuffled so that rebuild has to sort."""
    rnd = random.Random(seed)
    matches = []
    for id in range(1, count + 1):
        a, b = rnd.sample(range(players), 2)
        brade = rnd.random() < 0.7  # best of n games, else a backgammon match to n points
        game = "brade" if brade else "backgammon"
        n = rnd.randrange(1, 26, 2) if brade else rnd.randint(1, 25)
        early = brade and rnd.random() < 0.3
        matches.append(
            FinishedMatch(
                id=id,
                game=game,
                player_a=a,
                player_b=b,
                winner=rnd.choice((a, b)),
                length=n,
                ended_at=START + timedelta(minutes=id),
                walkover=rnd.random() < 0.03,
                decided_early=early,
                games_played=rnd.randint(1, n) if early else None,
            )
        )
    rnd.shuffle(matches)
    return matches


def main() -> None:
    matches = random_matches(MATCHES, PLAYERS)
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        ledger = rebuild(matches)
        timings.append(time.perf_counter() - start)
    entries = sum(len(h) for b in ledger.books.values() for h in b.histories.values())
    print(
        f"rebuild {MATCHES:,} matches among {PLAYERS:,} players: "
        f"best {min(timings):.2f} s, worst {max(timings):.2f} s of 3 "
        f"({entries:,} history entries)"
    )

    # The incremental path as a service would run it: a book holding only the two players'
    # stored states and the game's last key, then one apply.
    ordered = sorted(matches, key=lambda m: m.order_key)
    last = ordered[-1]
    later = [
        FinishedMatch(
            id=MATCHES + i,
            game="brade",
            player_a=i % PLAYERS,
            player_b=(i + 1) % PLAYERS,
            winner=i % PLAYERS,
            length=7,
            ended_at=last.ended_at + timedelta(minutes=i),
        )
        for i in range(1, 20_001)
    ]
    state = PlayerState(Decimal("1523.45"), 312)
    start = time.perf_counter()
    for match in later:
        book = Book("brade", states={match.player_a: state, match.player_b: state})
        book.apply(match)
    elapsed = time.perf_counter() - start
    print(f"incremental apply (fresh two-player book): {elapsed / len(later) * 1e6:.1f} µs/match")

    players = list(range(PLAYERS))
    ratings = ledger.book("brade").states
    start = time.perf_counter()
    for seed in range(100):
        seeding_order(players, {p: s.rating for p, s in ratings.items()}, seed=seed)
    print(f"seeding_order, {PLAYERS:,} players: {(time.perf_counter() - start) * 10:.2f} ms/call")

    history = max(ledger.book("brade").histories.values(), key=len)
    points = [ChartPoint(e.after, f"{e.ended_at:%Y-%m-%d} {e.after}") for e in history]
    start = time.perf_counter()
    for _ in range(20):
        svg = rating_chart_svg(points, title="Rating", x_caption="Matches")
    print(
        f"rating_chart_svg, {len(points)} points: "
        f"{(time.perf_counter() - start) / 20 * 1e3:.2f} ms/call, {len(svg) / 1024:.0f} KiB"
    )


if __name__ == "__main__":
    main()
