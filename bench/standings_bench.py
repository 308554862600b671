"""Benchmark of a round robin's standings (prints figures, asserts nothing).

Builds three public round robins, of 16 and of 32 players (120 and 496 matches; 32 is the
largest group, ``stages.roundrobin.MAX_PLAYERS``) and of 256 players in 8 groups of
32 (3,968 matches), decides the first half of their rounds (written straight into the
matches' cached results: this measures the reads, not the scoring), then prints for the
public tournament page (tables, cross tables, rounds) and for
``/api/tournaments/N/standings/`` the number of SQL queries per request at 16, 32 and 256
players (goal: the same) and the time of one request.

Run: ``.venv/bin/python bench/standings_bench.py``. It uses a throw-away SQLite file (or
``DATABASE_URL`` if set, e.g. a scratch PostgreSQL database).
"""

from __future__ import annotations

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
    settings.ROOT_URLCONF = "config.urls"  # the pages and the API under /api/
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["*"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _build(players: int, groups: int = 1) -> int:
    """A drawn round robin with its first half of rounds decided; its id."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.db.models import F

    from matches.models import Match, MatchState
    from tournaments.entries import entry_add
    from tournaments.models import Player
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create

    user_model = get_user_model()
    organiser = user_model.objects.create_user(f"org{players}", password="x")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    organiser = user_model.objects.get(pk=organiser.pk)
    tournament = tournament_create(
        by=organiser,
        name=f"Group {players}",
        start_date=datetime.date(2026, 11, 21),
        format="round_robin",
        groups=groups,
    )
    people = Player.objects.bulk_create(
        Player(name=f"Player {players}-{i:03d}") for i in range(players)
    )
    for person in people:
        entry_add(tournament=tournament, player=person, by=organiser)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    half = (players // groups - 1) // 2
    Match.objects.filter(
        tournament=tournament, round__number__lte=half, player2__isnull=False
    ).update(
        state=MatchState.DECIDED,
        winner=F("player1"),
        points1=2,
        points2=1,
        tiebreak1=3,
        tiebreak2=1,
    )
    return tournament.pk


def _measure(client: object, url: str) -> tuple[int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start = time.perf_counter()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), elapsed


def main() -> None:
    _setup()
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.cookies["django_language"] = "en"
    sizes = (16, 32, 256)
    rows: list[tuple[str, list[tuple[int, float]]]] = []
    ids = {n: _build(n, groups=max(1, n // 32)) for n in sizes}
    for name, url in (
        ("tournament page (table, cross table, rounds)", "web:tournament_detail"),
        ("API standings", "/api/tournaments/{}/standings/"),
    ):
        figures = []
        for n in sizes:
            target = url.format(ids[n]) if url.startswith("/") else reverse(url, args=[ids[n]])
            _measure(client, target)  # warm up
            figures.append(_measure(client, target))
        rows.append((name, figures))
    print("players: 16 and 32 in one group, 256 in 8 groups of 32")
    head = " ".join(f"{'queries@' + str(n):>12}" for n in sizes)
    times = " ".join(f"{'ms@' + str(n):>9}" for n in sizes)
    print(f"{'endpoint':46} {head} {times}")
    for name, figs in rows:
        qs = " ".join(f"{q:>12}" for q, _ in figs)
        ms = " ".join(f"{t * 1000:>9.1f}" for _, t in figs)
        print(f"{name:46} {qs} {ms}")


if __name__ == "__main__":
    main()
