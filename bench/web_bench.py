"""Benchmark of the bracket, match and standings endpoints (prints figures, asserts nothing).

Builds two public tournaments, of 16 and of 256 players, plays every first-round
match (about half of all matches), then prints for each endpoint the number of SQL
queries per request at 16 and at 256 players (goal: the same) and the requests per
second served in-process by Django's test client on this machine.

Run: ``.venv/bin/python bench/web_bench.py [--seconds 2]``. It uses a throw-away
SQLite file (or ``DATABASE_URL`` if set, e.g. a scratch PostgreSQL database).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="brade-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = "tests.api.urls"  # the API under /api/, as config/urls.py will
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["*"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _build(players: int) -> tuple[int, int]:
    """A tournament with every first-round match played; (tournament id, a decided match id)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from games.results import ResultValue
    from matches.models import Match, MatchState
    from matches.results import game_result_enter
    from tournaments.entries import entry_add
    from tournaments.models import Player
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create

    user_model = get_user_model()
    organiser = user_model.objects.create_user(f"org{players}", password="x")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = user_model.objects.get(pk=organiser.pk)
    tournament = tournament_create(
        by=organiser, name=f"Bench {players}", start_date=datetime.date(2026, 11, 21)
    )
    people = Player.objects.bulk_create(
        [Player(name=f"Player {players}-{i:03d}") for i in range(players)]
    )
    for i, player in enumerate(people):
        entry_add(tournament=tournament, player=player, seed=i + 1 if i < 8 else None, by=organiser)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    first_round = Match.objects.filter(
        tournament=tournament, round__number=1, state=MatchState.READY
    ).select_related("tournament", "round")
    decided = 0
    for match in first_round:
        for number in (1, 2):
            game_result_enter(
                match=match,
                number=number,
                result=ResultValue(winner=0, outcome="jan"),
                starter="B" if number == 1 else None,
                by=organiser,
            )
        decided = match.pk
    return tournament.pk, decided


def _queries(client: object, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)  # type: ignore[attr-defined]
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


def _rate(client: object, url: str, seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        client.get(url)  # type: ignore[attr-defined]
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per endpoint and size")
    args = parser.parse_args()
    _setup()
    from django.test import Client

    client = Client()
    sizes = (16, 256)
    built = {}
    for size in sizes:
        start = time.perf_counter()
        built[size] = _build(size)
        print(f"built {size} players, first round played in {time.perf_counter() - start:.1f} s")
    endpoints = {
        "bracket": "/api/tournaments/{t}/bracket/",
        "match": "/api/matches/{m}/",
        "standings": "/api/tournaments/{t}/placings/",
    }
    header = ("endpoint", "queries@16", "queries@256", "req/s@16", "req/s@256")
    print("\n{:<10} {:>10} {:>11} {:>9} {:>10}".format(*header))
    for name, pattern in endpoints.items():
        urls = {s: pattern.format(t=built[s][0], m=built[s][1]) for s in sizes}
        queries = {s: _queries(client, urls[s]) for s in sizes}
        rates = {s: _rate(client, urls[s], args.seconds) for s in sizes}
        print(
            f"{name:<10} {queries[16]:>10} {queries[256]:>11} {rates[16]:>9.1f} {rates[256]:>10.1f}"
        )


if __name__ == "__main__":
    main()
