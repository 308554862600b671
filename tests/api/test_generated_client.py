"""A client nobody here wrote runs a club evening: a schema change that breaks clients fails.

The Python client is generated at test time by openapi-python-client (a generator from
PyPI, pinned in requirements-dev.txt) from the live ``/api/schema/`` of a running site,
into a temporary directory (nothing generated is kept in the repository; no network:
the schema is read from the test server, and the generator's formatting hooks are off).
The generator must not report a single problem with the schema.

Then one club evening goes through the generated functions only, as the organiser and
the referee would: a token, a tournament, its players and entries, the draw, every
result (and one correction with ``If-Match``), the bracket and the placings; then a
round robin for the standings. Each answer is read back through the generated models,
so a field the schema promises and the site does not send (or a list shaped otherwise)
fails here, as it would for a club's own scripts.
"""

from __future__ import annotations

import datetime
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_python_client import MetaType, generate
from openapi_python_client.config import Config, ConfigFile

from tests.factories import OrganiserFactory, UserFactory

PACKAGE = "brade_arena_client"


def _generate(schema_url: str, where: Path) -> list[str]:
    """Generate the client package from the schema at ``schema_url`` into ``where``;
    return the generator's problems (errors and warnings), as text."""
    source = where / "schema.json"
    source.write_bytes(httpx.get(schema_url, timeout=30).raise_for_status().content)
    config = Config.from_sources(
        # A CSV body (the entries import) and the files (CSV, ZIP, PDF exports) are raw
        # bytes: the generator's own way for a content type it has no model for, as its
        # documentation advises.
        ConfigFile(
            package_name_override=PACKAGE,
            post_hooks=[],
            content_type_overrides={
                "text/csv": "application/octet-stream",
                "application/zip": "application/octet-stream",
                "application/pdf": "application/octet-stream",
            },
        ),
        MetaType.NONE,
        source,
        "utf-8",
        overwrite=True,
        output_path=where / PACKAGE,
    )
    problems = generate(config=config)
    return [f"{p.level}: {p.header}: {p.detail}" for p in problems]


@pytest.fixture
def generated(live_server: Any, tmp_path: Path) -> Iterator[Any]:
    """The generated package, imported; forgotten again afterwards."""
    problems = _generate(f"{live_server.url}/api/schema/?format=json", tmp_path)
    assert problems == []
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(f"{PACKAGE}.models")
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _api(name: str) -> Any:
    """A generated operation's module, e.g. ``tournaments.tournaments_create``."""
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def _call(operation: str, expected: int, **kwargs: Any) -> Any:
    """Call a generated operation; the status must be ``expected`` and the answer parse
    into the operation's own model (not its ``Error``)."""
    response = _api(operation).sync_detailed(**kwargs)
    assert response.status_code == expected, (operation, response.status_code, response.content)
    assert response.parsed is not None, operation
    assert type(response.parsed).__name__ != "Error", (operation, response.content)
    return response.parsed


def _token(pkg: Any, base_url: str, username: str) -> Any:
    models = pkg.models
    anonymous = pkg.Client(base_url=base_url, raise_on_unexpected_status=True)
    out = _call(
        "token.token_create",
        201,
        client=anonymous,
        body=models.ApiTokenInput(username=username, password="pw"),
    )
    assert out.username == username
    return pkg.AuthenticatedClient(
        base_url=base_url, token=out.token, prefix="Token", raise_on_unexpected_status=True
    )


def _play_every_match(pkg: Any, ref: Any, tournament: int) -> int:
    """Enter every game of every ready match (player 1 wins each by jan) until none is
    ready; return the number of matches played."""
    models = pkg.models
    played = 0
    while True:
        page = _call(
            "matches.matches_list",
            200,
            client=ref,
            tournament=tournament,
            state=models.MatchesListState("ready"),
        )
        if not page.results:
            return played
        for match in page.results:
            number = 1
            while True:
                _call(
                    "matches.matches_games_create",
                    201,
                    client=ref,
                    id=match.id,
                    body=models.GameListInput(
                        number=number,
                        winner_player=match.player1.id,
                        outcome=models.OutcomeEnum.JAN,
                    ),
                )
                detail = _call("matches.matches_retrieve", 200, client=ref, id=match.id)
                if detail.match.state == models.MatchStateEnum.DECIDED:
                    played += 1
                    break
                number += 1


@pytest.mark.django_db(transaction=True)
def test_a_club_evening_through_a_generated_client(generated: Any, live_server: Any) -> None:
    pkg = generated
    models = pkg.models
    OrganiserFactory.create(username="arrangor")
    referee = UserFactory.create(username="domare")
    api = _token(pkg, live_server.url, "arrangor")
    ref = _token(pkg, live_server.url, "domare")

    tournaments = _call("tournaments.tournaments_list", 200, client=api)
    assert tournaments.count == 0 and tournaments.results == []
    tournament = _call(
        "tournaments.tournaments_create",
        201,
        client=api,
        body=models.TournamentListInput(name="Klubbkväll", start_date=datetime.date(2026, 11, 25)),
    )
    assert tournament.my_roles == ["organiser", "referee"]
    assert tournament.status == "draft"
    staff = _call(
        "tournaments.tournaments_staff_update",
        200,
        client=api,
        id=tournament.id,
        body=models.TournamentStaffInput(referees=[referee.pk]),
    )
    assert [r.username for r in staff.referees] == ["domare"]
    # An organiser of a tournament may add clubs and players.
    club = _call("clubs.clubs_create", 201, client=api, body=models.ClubListInput(name="Vasa BK"))

    names = ["Anna", "Bertil", "Cecilia", "David", "Eva", "Fredrik"]
    players = []
    for seed, name in enumerate(names, start=1):
        player = _call(
            "players.players_create",
            201,
            client=api,
            body=models.PlayerListInput(name=name, club=club.id),
        )
        players.append(player.id)
        _call(
            "tournaments.tournaments_entries_create",
            201,
            client=api,
            id=tournament.id,
            body=models.EntryListInput(player=player.id, seed=seed if seed <= 2 else None),
        )
    entries = _call("tournaments.tournaments_entries_list", 200, client=api, id=tournament.id)
    assert sorted(e.player.name for e in entries.results) == sorted(names)

    bracket = _call(
        "tournaments.tournaments_draw_create",
        201,
        client=api,
        id=tournament.id,
        body=models.TournamentDrawInput(lengths=[1, 1, 3], draw_seed=7),
    )
    assert [len(r.matches) for r in bracket.rounds] == [4, 2, 1]

    # Two first-round matches (the top seeds have byes), two semi-finals, the final.
    assert _play_every_match(pkg, ref, tournament.id) == 5

    bracket = _call("tournaments.tournaments_bracket_retrieve", 200, client=api, id=tournament.id)
    final = bracket.rounds[-1].matches[0]
    assert final.state == "decided" and final.winner == final.player1.id

    # The referee corrects the final's first game (a hemspel, not a jan) with If-Match.
    game = _call("matches.matches_games_retrieve", 200, client=ref, id=final.id, number=1)
    corrected = _call(
        "matches.matches_games_update",
        200,
        client=ref,
        id=final.id,
        number=1,
        if_match=game.etag,
        body=models.GameCorrectInput(
            winner_player=game.winner_player, outcome=models.OutcomeEnum.HEMSPEL
        ),
    )
    assert corrected.outcome == "hemspel" and corrected.version == game.version + 1
    # The old version again: refused with the current state, as the schema says.
    stale = _api("matches.matches_games_update").sync_detailed(
        client=ref,
        id=final.id,
        number=1,
        if_match=game.etag,
        body=models.GameCorrectInput(
            winner_player=game.winner_player, outcome=models.OutcomeEnum.JAN
        ),
    )
    assert stale.status_code == 409 and type(stale.parsed).__name__ == "Error"

    placings = _call("tournaments.tournaments_placings_list", 200, client=api, id=tournament.id)
    # 6 players: two first-round losers share 5–6 (not 5–8: two lines were byes)
    assert [p.label for p in placings] == ["1", "2", "3–4", "3–4", "5–6", "5–6"]
    assert placings[0].player.id == final.player1.id
    detail = _call("tournaments.tournaments_retrieve", 200, client=api, id=tournament.id)
    assert detail.status == "finished"

    # The evening's second part: a round robin of four, read by its standings.
    group = _call(
        "tournaments.tournaments_create",
        201,
        client=api,
        body=models.TournamentListInput(
            name="Klubbkväll, grupp",
            start_date=datetime.date(2026, 11, 25),
            format_=models.FormatEnum("round_robin"),
        ),
    )
    _call(
        "tournaments.tournaments_staff_update",
        200,
        client=api,
        id=group.id,
        body=models.TournamentStaffInput(referees=[referee.pk]),
    )
    for player_id in players[:4]:
        _call(
            "tournaments.tournaments_entries_create",
            201,
            client=api,
            id=group.id,
            body=models.EntryListInput(player=player_id),
        )
    _call(
        "tournaments.tournaments_draw_create",
        201,
        client=api,
        id=group.id,
        body=models.TournamentDrawInput(draw_seed=3),
    )
    assert _play_every_match(pkg, ref, group.id) == 6  # each of four meets the other three
    standings = _call("tournaments.tournaments_standings_retrieve", 200, client=api, id=group.id)
    assert standings.rounds == standings.finished_rounds == 3
    assert [row.place for row in standings.rows] == [1, 2, 3, 4]
    assert sorted(row.player.id for row in standings.rows) == sorted(players[:4])
    assert sum(row.won for row in standings.rows) == 6
    assert all(row.played == 3 for row in standings.rows)

    # The evening's files, fetched through the generated client as a program would.
    results = _call(
        "tournaments.tournaments_exports_results_retrieve",
        200,
        client=api,
        id=tournament.id,
        fmt=models.TournamentsExportsResultsRetrieveFmt("csv"),
    )
    text = results.payload.read().decode("utf-8")
    assert text.startswith("\ufeffMatch id;Round;") and text.count("\r\n") == 1 + 7
    archive = _call(
        "tournaments.tournaments_exports_archive_retrieve", 200, client=ref, id=tournament.id
    )
    assert archive.payload.read().startswith(b"PK")  # a ZIP file
    sheets = _call(
        "tournaments.tournaments_rounds_score_sheets_retrieve",
        200,
        client=ref,
        id=group.id,
        number=1,
    )
    assert sheets.payload.read().startswith(b"%PDF")


@pytest.mark.django_db(transaction=True)
def test_a_league_night_through_a_generated_client(generated: Any, live_server: Any) -> None:
    """A league night through the generated functions only: the season keeper makes two
    teams with their rosters and captains, the organiser a league of two boards, its
    rules and teams, the draw; each captain gives a line-up (the other's hidden until both
    are in); the referee enters the boards, the home team winning both; the team match is
    decided and the table, JSON and CSV, says so."""
    from django.contrib.auth.models import Permission

    pkg = generated
    models = pkg.models
    OrganiserFactory.create(username="arrangor")
    keeper = UserFactory.create(username="sekreterare")
    keeper.user_permissions.add(Permission.objects.get(codename="change_season"))
    referee = UserFactory.create(username="domare")
    captain_ids = [UserFactory.create(username=f"kapten{i}").pk for i in (1, 2)]
    api = _token(pkg, live_server.url, "arrangor")
    secretary = _token(pkg, live_server.url, "sekreterare")
    ref = _token(pkg, live_server.url, "domare")
    captains = [_token(pkg, live_server.url, f"kapten{i}") for i in (1, 2)]
    # an organiser of a tournament may add clubs and players: the league first
    league = _call(
        "tournaments.tournaments_create",
        201,
        client=api,
        body=models.TournamentListInput(
            name="Ligan, omgång 1",
            start_date=datetime.date(2027, 2, 1),
            format_=models.FormatEnum("league"),
        ),
    )
    club = _call("clubs.clubs_create", 201, client=api, body=models.ClubListInput(name="Vasa BK"))
    season = _call(
        "seasons.seasons_create",
        201,
        client=secretary,
        body=models.SeasonCreateInput(
            club=club.id,
            name="Ligan 2027",
            start_date=datetime.date(2027, 1, 1),
            end_date=datetime.date(2027, 12, 31),
        ),
    )
    teams, rosters = [], []
    for i in (1, 2):
        team = _call(
            "seasons.seasons_teams_create",
            201,
            client=secretary,
            id=season.id,
            body=models.TeamCreateInput(name=f"Vasa {i}"),
        )
        _call(
            "teams.teams_captains_update",
            200,
            client=secretary,
            id=team.id,
            body=models.CaptainsInput(captains=[captain_ids[i - 1]]),
        )
        roster = []
        for board in (1, 2):
            player = _call(
                "players.players_create",
                201,
                client=api,
                body=models.PlayerListInput(name=f"Spelare {i}{board}", club=club.id),
            )
            _call(
                "teams.teams_players_create",
                201,
                client=secretary,
                id=team.id,
                body=models.PlayerAddInput(player=player.id),
            )
            roster.append(player.id)
        teams.append(team)
        rosters.append(roster)

    _call(
        "tournaments.tournaments_staff_update",
        200,
        client=api,
        id=league.id,
        body=models.TournamentStaffInput(referees=[referee.pk]),
    )
    rules = _call(
        "tournaments.tournaments_team_rules_partial_update",
        200,
        client=api,
        id=league.id,
        body=models.RulesInput(boards=2),
    )
    assert rules.boards == 2
    for team in teams:
        _call(
            "tournaments.tournaments_team_entries_create",
            201,
            client=api,
            id=league.id,
            body=models.EntryInput(team=team.id),
        )
    _call(
        "tournaments.tournaments_draw_create",
        201,
        client=api,
        id=league.id,
        body=models.TournamentDrawInput(lengths=[1], draw_seed=5),
    )
    fixtures = _call("tournaments.tournaments_team_matches_list", 200, client=api, id=league.id)
    assert len(fixtures) == 1
    fixture = fixtures[0]
    home = 0 if fixture.home.id == teams[0].id else 1
    for side in (home, 1 - home):
        _call(
            "team_matches.team_matches_line_ups_create",
            200,
            client=captains[side],
            id=fixture.id,
            body=models.LineUpInput(team=teams[side].id, players=rosters[side]),
        )
        if side == home:  # the away captain does not see the home line-up yet
            seen = _call(
                "team_matches.team_matches_retrieve", 200, client=captains[1 - home], id=fixture.id
            )
            assert not seen.boards_made
            given = {line.team: line for line in seen.line_ups}
            assert given[teams[home].id].given and given[teams[home].id].hidden
            assert given[teams[home].id].players == []
    detail = _call("team_matches.team_matches_retrieve", 200, client=ref, id=fixture.id)
    assert detail.boards_made and [b.board for b in detail.boards] == [1, 2]
    for board in detail.boards:
        assert board.match is not None and board.home is not None
        _call(
            "matches.matches_games_create",
            201,
            client=ref,
            id=board.match,
            body=models.GameListInput(
                number=1, winner_player=board.home.id, outcome=models.OutcomeEnum.JAN
            ),
        )
    table = _call("tournaments.tournaments_team_table_retrieve", 200, client=api, id=league.id)
    assert [(r.team.id, r.match_points, r.board_points) for r in table.rows] == [
        (teams[home].id, 2, 2),
        (teams[1 - home].id, 0, 0),
    ]
    decided = _call("team_matches.team_matches_retrieve", 200, client=api, id=fixture.id)
    assert decided.result == models.ResultEnum("home")
    csv = _call("tournaments.tournaments_team_table_csv_retrieve", 200, client=api, id=league.id)
    assert csv.payload.read().decode("utf-8").count("\r\n") == 1 + 2
