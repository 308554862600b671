"""Ratings stored in the database: prints figures, asserts nothing.

1. The time to rebuild the bräde ratings from N decided matches stored in the database
   (``clubs.rating_services.ratings_rebuild``: read the matches, rate them, write every
   history row and rating), then a second rebuild that finds nothing to write (what
   ``manage.py ratings rebuild`` costs after correct incremental updates). Goal: under
   10 s for 100,000 matches.
2. The SQL queries of the rating list page (``/ratings/``) and of a rating-history page at
   100 and at 10,000 rated players (goal: the same number).

The matches are written with ``bulk_create`` (one public tournament, one round, one
``match_decided`` event per match), not played through the services: the services'
speed is ``bench/web_bench.py``'s; this measures the ratings.

Run: ``.venv/bin/python bench/clubs_bench.py [--matches 100000]``. It uses a throw-away
SQLite file (or ``DATABASE_URL`` if set, e.g. a scratch PostgreSQL database).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="brade-clubs-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["*"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _matches(count: int, players: int, seed: int = 15) -> None:
    import datetime

    from django.utils import timezone

    from matches.models import EventKind, Match, MatchEvent, MatchState
    from tournaments.models import Player, Round, Tournament

    rnd = random.Random(seed)
    people = Player.objects.bulk_create(
        [Player(name=f"Spelare {i:05d}") for i in range(players)], batch_size=2000
    )
    tournament = Tournament.objects.create(
        name="Bench", start_date=datetime.date(2026, 1, 1), end_date=datetime.date(2026, 12, 31)
    )
    round_ = Round.objects.create(tournament=tournament, number=1, match_length=3)
    rows = []
    for slot in range(count):
        a, b = rnd.sample(people, 2)
        length = rnd.randrange(1, 26, 2)
        rows.append(
            Match(
                tournament=tournament,
                round=round_,
                slot=slot,
                player1=a,
                player2=b,
                winner=a if rnd.random() < 0.5 else b,
                length=length,
                state=MatchState.DECIDED,
                decided_after_game=length,
                decided_early=rnd.random() < 0.3,
            )
        )
    made = Match.objects.bulk_create(rows, batch_size=2000)
    start = timezone.now() - datetime.timedelta(days=365)
    MatchEvent.objects.bulk_create(
        [MatchEvent(match=m, kind=EventKind.MATCH_DECIDED, data={}) for m in made],
        batch_size=2000,
    )
    # Spread the decision times over a year, in a shuffled order.
    times = sorted(start + datetime.timedelta(seconds=rnd.randrange(365 * 86400)) for _ in made)
    rnd.shuffle(times)
    events = list(MatchEvent.objects.filter(kind=EventKind.MATCH_DECIDED).order_by("pk"))
    for event, when in zip(events, times, strict=True):
        event.at = when
    MatchEvent.objects.bulk_update(events, ["at"], batch_size=2000)


def _queries(path: str) -> int:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.get(path)  # warm: sessions, content types
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(ctx.captured_queries)


def _ratings(players: int) -> None:
    """``players`` rated players, written directly (the histories stay as rebuilt)."""
    from decimal import Decimal

    from clubs.models import PlayerRating
    from tournaments.models import Player

    PlayerRating.objects.all().delete()
    have = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    if len(have) < players:
        made = Player.objects.bulk_create(
            [Player(name=f"Extra {i:05d}") for i in range(players - len(have))], batch_size=2000
        )
        have += [p.pk for p in made]
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(game="brade", player_id=pk, rating=Decimal(1200 + i % 700), matches=1)
            for i, pk in enumerate(have[:players])
        ],
        batch_size=2000,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    args = parser.parse_args()
    _setup()
    from clubs.models import RatingEntry
    from clubs.rating_services import ratings_rebuild

    began = time.perf_counter()
    _matches(args.matches, args.players)
    print(f"setup: {args.matches:,} decided matches written in {time.perf_counter() - began:.1f} s")

    began = time.perf_counter()
    first = ratings_rebuild(game="brade")
    took = time.perf_counter() - began
    print(
        f"rebuild from the database: {first.matches:,} matches, {first.players:,} players, "
        f"{first.entries_written:,} history rows written in {took:.2f} s (goal < 10 s)"
    )
    began = time.perf_counter()
    again = ratings_rebuild(game="brade")
    took = time.perf_counter() - began
    print(
        f"rebuild again (nothing to change): {again.entries_written} rows written in {took:.2f} s"
    )

    player = RatingEntry.objects.values_list("player_id", flat=True).first()
    for count in (100, 10_000):
        _ratings(count)
        history = f"/players/{player}/ratings/brade/"
        print(
            f"queries at {count:>6,} rated players: /ratings/ {_queries('/ratings/')}, "
            f"{history} {_queries(history)}"
        )


if __name__ == "__main__":
    main()
