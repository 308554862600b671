"""First load of a large tournament's live pages: server time per request (figures only).

A 256-player knockout being played (its first round half entered) and a 256-player round
robin in 8 groups (its first half of rounds decided): for the tournament page, its bracket
fragment, a match's live part and ``/api/tournaments/N/bracket/`` it prints the queries and
the server time of a cold request (nothing cached: the first after a change of the whole
tournament), of a warm one (the median of ``--repeat`` further requests without
validators, as a new viewer's first load is), of the first request after one match
changed (as after a referee's entry: only what shows that match is built again), and of a
conditional request answered 304.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/scratch .venv/bin/python \\
        bench/first_load_bench.py [--profile URL-NAME]

It uses a throw-away SQLite file unless ``DATABASE_URL`` is set (it is migrated and
emptied first: use a scratch database). The cache is each process's memory, as a gunicorn
worker's without Redis.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="brade-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = "config.urls"  # the pages and the API under /api/
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["*"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)  # a scratch database (module doc)


def _organiser(name: str) -> Any:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    users = get_user_model().objects
    user = users.create_user(name, password="x")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return users.get(pk=user.pk)


def knockout(players: int) -> tuple[int, int]:
    """A drawn, public knockout with half its first round decided: (its id, a match id)."""
    import datetime

    from django.db.models import F

    from matches.models import Match, MatchState
    from tournaments.entries import entry_add
    from tournaments.models import Player
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create

    organiser = _organiser(f"ko{players}")
    tournament = tournament_create(
        by=organiser, name=f"Open {players}", start_date=datetime.date(2026, 11, 28)
    )
    people = Player.objects.bulk_create(Player(name=f"Spelare {i:03d}") for i in range(players))
    for i, person in enumerate(people):
        entry_add(tournament=tournament, player=person, by=organiser, seed=i + 1 if i < 8 else None)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    first = Match.objects.filter(tournament=tournament, round__number=1, player2__isnull=False)
    half = list(first.order_by("slot").values_list("pk", flat=True))
    Match.objects.filter(pk__in=half[: len(half) // 2]).update(
        state=MatchState.DECIDED, winner=F("player1"), points1=2, points2=1
    )
    return tournament.pk, half[-1]


def round_robin(players: int, groups: int) -> tuple[int, int]:
    import datetime

    from django.db.models import F

    from matches.models import Match, MatchState
    from tournaments.entries import entry_add
    from tournaments.models import Player
    from tournaments.stage_draws import tournament_draw
    from tournaments.tournament_setup import tournament_create

    organiser = _organiser(f"rr{players}")
    tournament = tournament_create(
        by=organiser,
        name=f"Groups {players}",
        start_date=datetime.date(2026, 11, 21),
        format="round_robin",
        groups=groups,
    )
    people = Player.objects.bulk_create(Player(name=f"Player {i:03d}") for i in range(players))
    for person in people:
        entry_add(tournament=tournament, player=person, by=organiser)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=1)
    half = (players // groups - 1) // 2
    Match.objects.filter(
        tournament=tournament, round__number__lte=half, player2__isnull=False
    ).update(
        state=MatchState.DECIDED, winner=F("player1"), points1=2, points2=1, tiebreak1=3,
        tiebreak2=1,
    )  # fmt: skip
    match = Match.objects.filter(tournament=tournament, state=MatchState.READY).first()
    assert match is not None
    return tournament.pk, match.pk


def _touch(tournament: int) -> None:
    """A change of the whole tournament: every cached part is built again (cold)."""
    from tournaments.page_versions import tournament_touch

    tournament_touch(tournament_id=tournament)


def _one(client: object, url: str, **headers: str) -> tuple[int, float, int, str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start = time.perf_counter()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - start
    assert response.status_code in (200, 304), (url, response.status_code)
    return len(ctx.captured_queries), elapsed, response.status_code, response.get("ETag", "")


def measure(client: object, tournament: int, match: int, url: str, repeat: int) -> str:
    _touch(tournament)
    queries, cold, _status, tag = _one(client, url)
    warm = [_one(client, url) for _ in range(repeat)]
    from matches.common import matches_touch

    matches_touch(match_ids=[match])  # one match changed, as by an entry
    q_entry, after_entry, _status, tag = _one(client, url)
    q_warm = warm[-1][0]
    ms_warm = statistics.median(t for _, t, _, _ in warm) * 1000
    if tag:
        q304, t304, status, _ = _one(client, url, if_none_match=tag)
        cond = f"{status} {t304 * 1000:6.1f} ms {q304:>2} q"
    else:
        cond = "no ETag"
    return (
        f"cold {cold * 1000:7.1f} ms {queries:>3} q | warm {ms_warm:7.1f} ms {q_warm:>3} q | "
        f"after an entry {after_entry * 1000:7.1f} ms {q_entry:>3} q | conditional {cond}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--profile", help="profile one warm request of this URL (cProfile)")
    args = parser.parse_args()
    _setup()
    from django.test import Client

    client = Client()
    client.cookies["django_language"] = "sv"
    ko, ko_match = knockout(256)
    rr, rr_match = round_robin(256, 8)
    if args.profile:
        import cProfile
        import pstats

        url = args.profile
        client.get(url)
        profiler = cProfile.Profile()
        profiler.enable()
        client.get(url)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
        return
    print(
        f"knockout 256 players: /tournaments/{ko}/; round robin 256 in 8 groups: /tournaments/{rr}/"
    )
    for label, tid, urls in (
        ("knockout 256", ko, [
            ("tournament page", f"/tournaments/{ko}/"),
            ("bracket fragment", f"/tournaments/{ko}/bracket/"),
            ("match page", f"/matches/{ko_match}/"),
            ("match live part", f"/matches/{ko_match}/live/"),
            ("API bracket", f"/api/tournaments/{ko}/bracket/"),
            ("API match", f"/api/matches/{ko_match}/"),
        ]),
        ("round robin 256/8", rr, [
            ("tournament page", f"/tournaments/{rr}/"),
            ("match live part", f"/matches/{rr_match}/live/"),
            ("API bracket", f"/api/tournaments/{rr}/bracket/"),
            ("API standings", f"/api/tournaments/{rr}/standings/"),
        ]),
    ):  # fmt: skip
        for name, url in urls:
            match = ko_match if tid == ko else rr_match
            print(f"{label:18} {name:17} {measure(client, tid, match, url, args.repeat)}")


if __name__ == "__main__":
    main()
