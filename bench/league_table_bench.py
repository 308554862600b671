"""Benchmark of a league's table (prints figures, asserts nothing).

Builds leagues of 8, 50 and 200 teams, each one division drawn by the site's own draw
(``teams.team_draw``: a double round robin by the Berger tables; 200 teams make 398 rounds
of 100 team matches, 39,800 team matches of 4 boards, the equivalent of 159,200 board
matches), gives every team match a random decided score (written straight into the team
matches' stored scores, as ``teams.team_scores`` keeps them: this measures the table, not
the boards' scoring), then prints, for each size, the median and the worst of 5 builds of
the table as the pages and the API build it (``teams.tables.team_table``: each team's
totals counted by the database from the stored scores, then ranked), with the load average
beside them. Goal: a 200-team league's table built in under 100 ms. (The pure ranking,
``stages.league.league_table``, is the tests' reference, not a path the site takes.)

Run: ``.venv/bin/python bench/league_table_bench.py``. It uses a throw-away SQLite file (or
``DATABASE_URL`` if set, e.g. a scratch PostgreSQL database).
"""

from __future__ import annotations

import os
import random
import statistics
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

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _build(teams: int) -> int:
    """A drawn league of ``teams`` teams, every team match decided; the tournament's id."""
    import datetime

    from django.contrib.auth import get_user_model

    from clubs.models import Season
    from teams.competitions import competition_rules_set, team_entry_add
    from teams.models import Team, TeamMatch
    from teams.team_draw import team_round_count, team_stage_draw
    from tournaments.models import Club, Tournament
    from tournaments.player_names import player_name_key

    organiser = get_user_model().objects.create_user(f"org{teams}", password="x")
    club = Club.objects.create(name=f"Förbundet {teams}")
    season = Season.objects.create(
        club=club,
        name="2027",
        start_date=datetime.date(2027, 1, 1),
        end_date=datetime.date(2027, 12, 31),
    )
    tournament = Tournament.objects.create(
        name=f"Liga {teams}",
        start_date=datetime.date(2027, 1, 1),
        end_date=datetime.date(2027, 12, 31),
        format="league",
        double_round=True,
    )
    tournament.organisers.add(organiser)
    competition_rules_set(tournament=tournament, by=organiser, boards=4)
    for i in range(teams):
        name = f"Lag {i + 1}"
        team = Team.objects.create(
            season=season, club=club, name=name, name_key=player_name_key(name)
        )
        team_entry_add(tournament=tournament, team=team, by=organiser)
    rounds = team_round_count(tournament, teams)
    team_stage_draw(tournament=tournament, by=organiser, lengths=[3] * rounds, draw_seed=1)
    rng = random.Random(teams)
    matches = list(TeamMatch.objects.filter(tournament=tournament))
    for tm in matches:
        home = rng.randint(0, 4)
        tm.home_boards, tm.away_boards = home, 4 - home
        tm.home_points = rng.randint(home, home * 3 + 4)
        tm.away_points = rng.randint(4 - home, (4 - home) * 3 + 4)
        tm.result = "home" if home > 2 else "away" if home < 2 else "draw"
    TeamMatch.objects.bulk_update(
        matches,
        ["home_boards", "away_boards", "home_points", "away_points", "result"],
        batch_size=2000,
    )
    return tournament.pk


def _times(fn: object, repeat: int = 5) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs), max(runs)


def main() -> None:
    _setup()
    from teams.models import TeamMatch
    from teams.tables import team_table
    from tournaments.models import Tournament

    print(f"database: {os.environ['DATABASE_URL'].split(':')[0]}")
    for teams in (8, 50, 200):
        built = time.perf_counter()
        pk = _build(teams)
        built_s = time.perf_counter() - built
        tournament = Tournament.objects.get(pk=pk)
        count = TeamMatch.objects.filter(tournament=tournament).count()
        table = team_table(tournament=tournament)
        assert len(table.rows) == teams
        median, worst = _times(lambda t=tournament: team_table(tournament=t))
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"{teams:4d} teams, {count:6d} team matches (built in {built_s:.1f} s): "
            f"team_table {median:7.1f} ms median, {worst:7.1f} ms worst [load {load}]"
        )


if __name__ == "__main__":
    main()
