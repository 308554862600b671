"""Permission matrix: every role × every endpoint, on a private tournament.

Roles: ``anon`` (not logged in), ``outsider`` (logged in, no role), ``player`` (plays
match A), ``entrant`` (entered, but not in match A), ``referee``, ``organiser``, and
``referee_elsewhere`` / ``organiser_elsewhere`` (roles in *another* tournament).
A private tournament is invisible (404) to everyone without a role in it, so its ids
cannot be probed; visible but not allowed is 403; anonymous writes are 401. Players
follow their tournaments: one entered only in the private tournament is as invisible
as it (404), and only its organiser may change them.

A season's teams are public; the "player" user captains the world's team, so keeps its
roster (``teams.rosters``), while only the season keepers (none of these roles) create,
rename and delete teams and name captains.

Cases one row per operation cannot hold (player edits by registry staff and by the
linked user, the staff list's user names) are in tables of their own below.

The world is built once per module (per test process) inside a transaction rolled back
when the module ends; each test runs in a savepoint within it (pytest-django's ``db``), so
whatever a case writes is undone before the next case. Built per case, it cost about half
a second for each of the ~1,300 cases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

from clubs.models import Season, SeasonEvent
from matches.models import GameRecordSubmission, Match
from matches.reports import game_report_submit
from matches.services import game_result_enter
from teams.competitions import competition_rules_set, team_entry_add
from teams.models import Team, TeamMatch, TeamMember
from teams.team_draw import team_stage_draw
from tests.api.conftest import client_for
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.models import Entry, Player, PlayerInvitation, Round, Tournament, Venue
from tournaments.private_links import (
    SESSION_KEY,
    private_link_issue,
    private_link_revoke,
    private_link_token,
)
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db

ROLES = (
    "anon",
    "outsider",
    "player",
    "entrant",
    "referee",
    "organiser",
    "referee_elsewhere",
    "organiser_elsewhere",
)
VISIBLE = {"player", "entrant", "referee", "organiser"}


@dataclass
class World:
    users: dict[str, Any]
    ids: dict[str, int]


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    with django_db_blocker.unblock(), transaction.atomic():
        yield _world_build()
        transaction.set_rollback(True)


def _world_build() -> World:
    s = drawn(4, lengths=[3, 3], is_public=False)
    t = s.tournament
    a, b = match_of(t, 1, 0), match_of(t, 1, 1)
    player_user, entrant_user = UserFactory.create(), UserFactory.create()
    a1, _ = players_of(a)
    b1, b2 = players_of(b)
    a1.user = player_user
    a1.save()
    b1.user = entrant_user
    b1.save()
    game_result_enter(match=a, number=1, result=won("W", "hemspel"), starter="W", by=s.referee)
    # Its players report results: the entrant reported game 1 of match B,
    # whose opponent has no account, so nobody of the roles below may confirm it.
    Tournament.objects.filter(pk=t.pk).update(results_by="players")
    b = match_of(t, 1, 1)
    report = game_report_submit(match=b, number=1, result=won("W", "jan"), by=entrant_user)
    sub = GameRecordSubmission.objects.create(match=a, submitted_by=s.referee, text="Game 1\n")
    Match.objects.filter(pk=a.pk).update(flag="Game 1: the record disagrees")
    elsewhere = drawn(2)
    referee_elsewhere = UserFactory.create()
    elsewhere.tournament.referees.add(referee_elsewhere)
    organiser_elsewhere = OrganiserFactory.create()
    elsewhere.tournament.organisers.add(organiser_elsewhere)
    # A draft private tournament with the same staff and both players entered.
    draft = TournamentFactory.create(
        organisers=[s.organiser], referees=[s.referee], is_public=False, name="Draft"
    )
    entry_d = EntryFactory.create(tournament=draft, player=a.player1)
    EntryFactory.create(tournament=draft, player=b.player1)
    extra = PlayerFactory.create()
    club = ClubFactory.create()
    season = Season.objects.create(
        club=club, name="Säsong", start_date=date(2026, 1, 1), end_date=date(2026, 12, 31)
    )
    SeasonEvent.objects.create(season=season, tournament=t)  # private: counted for nobody
    # A team of the season, captained by the "player" user (a captain need not play for
    # it); one club player on its roster, one not yet.
    team = Team.objects.create(season=season, club=club, name="Lag 1", name_key="lag 1")
    team.captains.add(player_user)
    team_player = PlayerFactory.create(club=club)
    TeamMember.objects.create(team=team, season=season, player=team_player, board=1)
    club_player = PlayerFactory.create(club=club)
    # A webhook of the private tournament; its address is a private one, which a delivery
    # refuses without sending (no traffic leaves the test).
    hook = Webhook.objects.create(tournament=t, url="http://127.0.0.1:9/hook", secret="s" * 64)
    # A public league of the same staff: the world's team (its captain the "player" user)
    # against a second team, one board, drawn; and a draft league with both teams entered.
    team2 = Team.objects.create(season=season, club=club, name="Lag 2", name_key="lag 2")
    TeamMember.objects.create(team=team2, season=season, player=PlayerFactory.create(), board=1)
    leagues = []
    for name in ("Ligan", "Ligan (utkast)"):
        league = TournamentFactory.create(
            name=name, format="league", organisers=[s.organiser], referees=[s.referee]
        )
        competition_rules_set(tournament=league, by=s.organiser, boards=1)
        for each in (team, team2):
            team_entry_add(tournament=league, team=each, by=s.organiser)
        leagues.append(league)
    team_stage_draw(tournament=leagues[0], by=s.organiser, lengths=[1], draw_seed=1)
    team_match = TeamMatch.objects.get(tournament=leagues[0])
    venue = Venue.objects.create(tournament=t, name="Hallen")  # no match at it yet
    staff = UserFactory.create(is_staff=True)  # registry staff: may change any player
    staff.user_permissions.add(Permission.objects.get(codename="change_player"))
    users = {
        "anon": None,
        "outsider": UserFactory.create(),
        "player": player_user,
        "entrant": entrant_user,
        "referee": s.referee,
        "organiser": s.organiser,
        "referee_elsewhere": referee_elsewhere,
        "organiser_elsewhere": organiser_elsewhere,
        "staff": staff,
    }
    # An organiser's invitation of the unentered player to the outsider's account.
    invitation = PlayerInvitation.objects.create(
        player=extra, user=users["outsider"], invited_by=s.organiser
    )
    ids = {
        "t": t.pk,
        "a": a.pk,
        "b": b.pk,
        "b_winner": b.player2_id or 0,
        "sub": sub.pk,
        "round": Round.objects.get(tournament=t, number=2).pk,
        "entry": Entry.objects.get(tournament=t, player=b2).pk,
        "draft": draft.pk,
        "entry_d": entry_d.pk,
        "extra": extra.pk,
        "club": club.pk,
        "player": a.player1_id or 0,  # linked to the "player" user; only in private ones
        "b2": b2.pk,  # linked to nobody, entered only in the private tournament
        "public_player": elsewhere.players[0].pk,  # in a public tournament
        "elsewhere": elsewhere.tournament.pk,
        "referee": s.referee.pk,
        "report": report.pk,
        "season": season.pk,
        "team": team.pk,
        "team_player": team_player.pk,
        "club_player": club_player.pk,
        "invitation": invitation.pk,
        "hook": hook.pk,
        "venue": venue.pk,
        "league": leagues[0].pk,
        "league_draft": leagues[1].pk,
        "team2": team2.pk,
        "team_match": team_match.pk,
    }
    return World(users, ids)


def read(role: str) -> int:
    return 200 if role in VISIBLE else 404


def write(allowed: set[str], ok: int) -> Callable[[str], int]:
    def expected(role: str) -> int:
        if role in allowed:
            return ok
        if role == "anon":
            return 401
        return 403 if role in VISIBLE else 404

    return expected


def records_read(role: str) -> int:
    if role in {"player", "referee", "organiser"}:
        return 200
    return 403 if role in VISIBLE else 404


def report_write(allowed: set[str], ok: int) -> Callable[[str], int]:
    """A report of match B is seen only by B's players (the entrant) and the staff: to
    everyone else it does not exist (404), as a record does not."""

    def expected(role: str) -> int:
        if role in allowed:
            return ok
        if role == "anon":
            return 401
        return 403 if role in {"entrant", "referee", "organiser"} else 404

    return expected


def global_write(allowed: set[str], ok: int) -> Callable[[str], int]:
    def expected(role: str) -> int:
        if role in allowed:
            return ok
        return 401 if role == "anon" else 403

    return expected


def manage_read(role: str) -> int:
    """A read only the organisers may make: the private tournament stays invisible (404)
    to those without a role in it, signed in or not."""
    if role in ORG:
        return 200
    return 403 if role in VISIBLE else 404


def everyone(role: str) -> int:
    return 200


STAFF = {"referee", "organiser"}
ORG = {"organiser"}
ORGANISERS = {"organiser", "organiser_elsewhere"}
CAPTAIN = {"player"}  # captains the world's team

# (name, method, url, body, expected status by role)
ENDPOINTS: list[tuple[str, str, str, dict[str, Any] | None, Callable[[str], int]]] = [
    ("tournament list", "get", "/api/tournaments/", None, everyone),
    (
        "tournament create",
        "post",
        "/api/tournaments/",
        {"name": "New", "start_date": "2026-12-01"},
        global_write(ORGANISERS, 201),
    ),
    ("tournament detail", "get", "/api/tournaments/{t}/", None, read),
    ("tournament update", "patch", "/api/tournaments/{t}/", {"venue": "Hall"}, write(ORG, 200)),
    ("staff read", "get", "/api/tournaments/{t}/staff/", None, read),
    (
        "staff set",
        "put",
        "/api/tournaments/{t}/staff/",
        {"referees": ["{referee}"]},
        write(ORG, 200),
    ),
    ("entries", "get", "/api/tournaments/{t}/entries/", None, read),
    ("entry detail", "get", "/api/entries/{entry}/", None, read),
    ("withdraw", "post", "/api/entries/{entry}/withdraw/", {}, write(ORG, 200)),
    ("bracket", "get", "/api/tournaments/{t}/bracket/", None, read),
    ("placings", "get", "/api/tournaments/{t}/placings/", None, read),
    # The world's tournament is a knockout: those who may see it are told it has no
    # standings (400); a round robin's are read in tests/api/test_round_robin_api.py.
    (
        "standings",
        "get",
        "/api/tournaments/{t}/standings/",
        None,
        lambda role: 400 if role in VISIBLE else 404,
    ),
    # A Swiss's rounds and steps (tests/api/test_swiss_api.py plays one): the
    # world's tournament is a knockout, so those who may see or run it are told it is not a
    # Swiss (400); the steps check the organiser first.
    (
        "swiss rounds",
        "get",
        "/api/tournaments/{t}/swiss/",
        None,
        lambda role: 400 if role in VISIBLE else 404,
    ),
    ("swiss pair", "post", "/api/tournaments/{t}/swiss/pair/", None, write(ORG, 400)),
    (
        "swiss swap",
        "post",
        "/api/tournaments/{t}/swiss/rounds/1/swap/",
        {"first": "{b2}", "second": "{b2}"},
        write(ORG, 400),
    ),
    (
        "swiss publish",
        "post",
        "/api/tournaments/{t}/swiss/rounds/1/publish/",
        None,
        write(ORG, 400),
    ),
    (
        "swiss unpair",
        "post",
        "/api/tournaments/{t}/swiss/rounds/1/unpair/",
        None,
        write(ORG, 400),
    ),
    (
        "swiss repair",
        "post",
        "/api/tournaments/{t}/swiss/rounds/1/repair/",
        None,
        write(ORG, 400),
    ),
    (
        "half-point bye rules",
        "put",
        "/api/tournaments/{t}/swiss/half-byes/rules/",
        {"allowed": 1},
        write(ORG, 400),
    ),
    # The entry's player has no account: only an organiser may ask for them (then: not a
    # Swiss); the bye does not exist, which everyone who may see the tournament is told.
    (
        "half-point bye ask",
        "post",
        "/api/tournaments/{t}/swiss/half-byes/",
        {"entry": "{entry}", "round": 1},
        write(ORG, 400),
    ),
    (
        "half-point bye cancel",
        "delete",
        "/api/tournaments/{t}/swiss/half-byes/999999/",
        None,
        lambda role: 401 if role == "anon" else 404,
    ),
    ("check in", "post", "/api/entries/{entry}/presence/", {"present": False}, write(ORG, 400)),
    ("round", "get", "/api/rounds/{round}/", None, read),
    ("round length", "patch", "/api/rounds/{round}/", {"match_length": 5}, write(ORG, 200)),
    ("match list", "get", "/api/matches/?tournament={t}", None, everyone),
    ("match detail", "get", "/api/matches/{a}/", None, read),
    ("games", "get", "/api/matches/{a}/games/", None, read),
    ("game detail", "get", "/api/matches/{a}/games/1/", None, read),
    (
        "game enter",
        "post",
        "/api/matches/{a}/games/",
        {"number": 2, "winner": "B", "outcome": "hemspel"},
        write(STAFF, 201),
    ),
    (
        "game correct",
        "put",
        "/api/matches/{a}/games/1/",
        {"winner": "B", "outcome": "jan", "version": 1},
        write(STAFF, 200),
    ),
    ("versions", "get", "/api/matches/{a}/games/1/versions/", None, records_read),
    (
        "walkover",
        "post",
        "/api/matches/{b}/walkover/",
        {"winner_player": "{b_winner}"},
        write(STAFF, 200),
    ),
    ("reset", "post", "/api/matches/{a}/reset/", {"reason": "test"}, write(ORG, 200)),
    ("table", "post", "/api/matches/{b}/table/", {"table": 9}, write(ORG, 200)),
    ("match venue", "post", "/api/matches/{b}/venue/", {"venue": "{venue}"}, write(ORG, 200)),
    ("venue list", "get", "/api/tournaments/{t}/venues/", None, read),
    ("venue create", "post", "/api/tournaments/{t}/venues/", {"name": "Nya"}, write(ORG, 201)),
    ("venue detail", "get", "/api/venues/{venue}/", None, read),
    ("venue change", "patch", "/api/venues/{venue}/", {"tables": 4}, write(ORG, 200)),
    ("venue delete", "delete", "/api/venues/{venue}/", None, write(ORG, 204)),
    # The team stage (a public league: everyone reads it; a captain gives their team's
    # line-up, the organisers the rest).
    ("team table", "get", "/api/tournaments/{league}/team-table/", None, everyone),
    ("team table csv", "get", "/api/tournaments/{league}/team-table.csv", None, everyone),
    ("team matches", "get", "/api/tournaments/{league}/team-matches/", None, everyone),
    ("team fixtures csv", "get", "/api/tournaments/{league}/team-matches.csv", None, everyone),
    ("team match", "get", "/api/team-matches/{team_match}/", None, everyone),
    (
        "team line-up",
        "post",
        "/api/team-matches/{team_match}/line-ups/",
        {"team": "{team}", "players": ["{team_player}"]},
        global_write(CAPTAIN | ORG, 200),
    ),
    (
        "team line-ups close",
        "post",
        "/api/team-matches/{team_match}/close/",
        None,
        global_write(ORG, 200),
    ),
    (
        "team round schedule",
        "patch",
        "/api/tournaments/{league}/team-rounds/1/",
        {"date": "2027-03-04", "line_up_deadline": None},
        global_write(ORG, 200),
    ),
    ("team rules", "get", "/api/tournaments/{league_draft}/team-rules/", None, everyone),
    (
        "team rules change",
        "patch",
        "/api/tournaments/{league_draft}/team-rules/",
        {"boards": 2},
        global_write(ORG, 200),
    ),
    ("team entries", "get", "/api/tournaments/{league_draft}/team-entries/", None, everyone),
    (
        "team entry add",
        "post",
        "/api/tournaments/{league_draft}/team-entries/",
        {"team": "{team2}"},
        global_write(ORG, 409),  # entered already: the organiser is heard, and refused
    ),
    (
        "team entry remove",
        "delete",
        "/api/tournaments/{league_draft}/team-entries/{team2}/",
        None,
        global_write(ORG, 204),
    ),
    (
        "flag fall overrule",
        "post",
        "/api/matches/{a}/live/flag/overrule/",
        {"note": "the clock was wrong", "seconds": 60},
        write(STAFF, 409),  # no flag fell in match A: the staff are heard, and refused
    ),
    ("flag clear", "post", "/api/matches/{a}/flag/clear/", {}, write(STAFF, 200)),
    ("analysis", "get", "/api/matches/{a}/analysis/", None, read),
    # a bräde match has no backgammon record to analyse: whoever may ask is told so (409)
    ("analysis ask", "post", "/api/matches/{a}/analysis/", {}, write(VISIBLE, 409)),
    ("records", "get", "/api/matches/{a}/records/", None, records_read),
    (
        "record submit",
        "post",
        "/api/matches/{a}/records/",
        {"text": "Game 1\n"},
        write({"player", "referee", "organiser"}, 202),
    ),
    (
        "record detail",
        "get",
        "/api/records/{sub}/",
        None,
        lambda role: 200 if role in {"player", "referee", "organiser"} else 404,
    ),
    # The players' reports: only a player of the match reports, only the opponent answers
    # (the staff decide by entering the game), the reporter or the staff withdraw.
    ("reports", "get", "/api/matches/{a}/reports/", None, records_read),
    (
        "report submit",
        "post",
        "/api/matches/{a}/reports/",
        {"number": 2, "winner": "B", "outcome": "jan"},
        write({"player"}, 201),
    ),
    (
        "report detail",
        "get",
        "/api/reports/{report}/",
        None,
        lambda role: 200 if role in {"entrant", "referee", "organiser"} else 404,
    ),
    ("report confirm", "post", "/api/reports/{report}/confirm/", {}, report_write(set(), 200)),
    ("report dispute", "post", "/api/reports/{report}/dispute/", {}, report_write(set(), 200)),
    (
        "report withdraw",
        "post",
        "/api/reports/{report}/withdraw/",
        {},
        report_write({"entrant", "referee", "organiser"}, 200),
    ),
    (
        "draft entry add",
        "post",
        "/api/tournaments/{draft}/entries/",
        {"player": "{extra}"},
        write(ORG, 201),  # the draft is visible to its staff and entrants
    ),
    (
        "draft entries import",
        "post",
        "/api/tournaments/{draft}/entries/import/",
        {"csv": "name\nNy Spelare\n"},
        write(ORG, 201),  # the draft is visible to its staff and entrants
    ),
    (
        "draft seed",
        "patch",
        "/api/entries/{entry_d}/",
        {"seed": 1},
        write(ORG, 200),  # the draft is visible to its staff and entrants
    ),
    (
        "draft draw",
        "post",
        "/api/tournaments/{draft}/draw/",
        {},
        write(ORG, 201),  # the draft is visible to its staff and entrants
    ),
    (
        "group knockout draw",
        "post",
        "/api/tournaments/{t}/knockout/",
        {},
        write(ORG, 400),  # the rights: {t} is a knockout, so its organiser gets 400
    ),
    ("player list", "get", "/api/players/", None, everyone),
    ("player detail", "get", "/api/players/{player}/", None, read),
    ("player matches", "get", "/api/players/{player}/matches/", None, read),
    ("player create", "post", "/api/players/", {"name": "Ny"}, global_write(ORGANISERS, 201)),
    # Only the organisers of a tournament the player is in (organiser_elsewhere: 404,
    # as the player is invisible to them; more cases in test_player_edit_rights).
    ("player update", "patch", "/api/players/{b2}/", {"rating": 1500}, write(ORG, 200)),
    # Linking an account to a player: registry staff, or the organiser whose player it
    # is alone, invite (the answer says nothing of the account); only the invited user
    # answers (to everyone else the invitation does not exist).
    (
        "player invite",
        "post",
        "/api/players/{b2}/invitations/",
        {"user": "{referee}"},
        write({"organiser", "staff"}, 202),
    ),
    ("invitation list", "get", "/api/invitations/", None, lambda r: 401 if r == "anon" else 200),
    (
        "invitation accept",
        "post",
        "/api/invitations/{invitation}/accept/",
        None,
        lambda role: {"outsider": 200, "anon": 401}.get(role, 404),
    ),
    (
        "invitation decline",
        "post",
        "/api/invitations/{invitation}/decline/",
        None,
        lambda role: {"outsider": 200, "anon": 401}.get(role, 404),
    ),
    ("club list", "get", "/api/clubs/", None, everyone),
    ("club detail", "get", "/api/clubs/{club}/", None, everyone),
    ("club create", "post", "/api/clubs/", {"name": "BK"}, global_write(ORGANISERS, 201)),
    # Ratings and seasons (clubs): reads are public, but a private tournament's player and
    # match are as invisible here as elsewhere; seasons are changed by season keepers
    # (``clubs.change_season``), none of these roles.
    ("rating list", "get", "/api/ratings/", None, everyone),
    # A club's list's formula is chosen by the clubs' secretaries (the season keepers).
    ("club rating list", "get", "/api/clubs/{club}/rating-list/", None, everyone),
    (
        "club rating list set",
        "put",
        "/api/clubs/{club}/rating-list/",
        {"formula": "danish"},
        global_write(set(), 200),
    ),
    ("player ratings", "get", "/api/players/{player}/ratings/", None, read),
    ("player rating history", "get", "/api/players/{player}/ratings/brade/", None, read),
    ("match rating", "get", "/api/matches/{a}/rating/", None, read),
    (
        "draft seed by rating",
        "post",
        "/api/tournaments/{draft}/seeds/by-rating/",
        {},
        write(ORG, 200),  # the draft is visible to its staff and entrants
    ),
    ("season list", "get", "/api/seasons/", None, everyone),
    (
        "season create",
        "post",
        "/api/seasons/",
        {"club": "{club}", "name": "Ny", "start_date": "2026-01-01", "end_date": "2026-12-31"},
        global_write(set(), 201),
    ),
    ("season detail", "get", "/api/seasons/{season}/", None, everyone),
    (
        "season event add",
        "post",
        "/api/seasons/{season}/events/",
        {"tournament": "{elsewhere}"},
        global_write(set(), 201),
    ),
    (
        "season update",
        "patch",
        "/api/seasons/{season}/",
        {"name": "Ny säsong"},
        global_write(set(), 200),
    ),
    (
        "season event remove",
        "delete",
        "/api/seasons/{season}/events/{t}/",
        None,
        global_write(set(), 204),
    ),
    ("season standings", "get", "/api/seasons/{season}/standings/", None, everyone),
    (
        "season standings file",
        "get",
        "/api/seasons/{season}/standings/export/csv/",
        None,
        everyone,
    ),
    # Teams (teams app): read by everyone; created, renamed, deleted and given captains by
    # the season keepers (none of these roles); a roster kept by the team's captains (the
    # "player" user captains the world's team) and the season keepers.
    ("season teams", "get", "/api/seasons/{season}/teams/", None, everyone),
    (
        "team create",
        "post",
        "/api/seasons/{season}/teams/",
        {"name": "Lag 2"},
        global_write(set(), 201),
    ),
    ("team detail", "get", "/api/teams/{team}/", None, everyone),
    ("team rename", "patch", "/api/teams/{team}/", {"name": "Lag Ett"}, global_write(set(), 200)),
    ("team delete", "delete", "/api/teams/{team}/", None, global_write(set(), 204)),
    ("team captains", "get", "/api/teams/{team}/captains/", None, everyone),
    (
        "team captains set",
        "put",
        "/api/teams/{team}/captains/",
        {"captains": ["{referee}"]},
        global_write(set(), 200),
    ),
    (
        "team player add",
        "post",
        "/api/teams/{team}/players/",
        {"player": "{club_player}"},
        global_write(CAPTAIN, 201),
    ),
    (
        "team player reserve",
        "patch",
        "/api/teams/{team}/players/{team_player}/",
        {"reserve": True},
        global_write(CAPTAIN, 200),
    ),
    (
        "team player remove",
        "delete",
        "/api/teams/{team}/players/{team_player}/",
        None,
        global_write(CAPTAIN, 204),
    ),
    ("team boards", "get", "/api/teams/{team}/boards/", None, everyone),
    (
        "team boards order",
        "put",
        "/api/teams/{team}/boards/",
        {"order": ["{team_player}"]},
        global_write(CAPTAIN, 200),
    ),
    (
        "team boards by rating",
        "post",
        "/api/teams/{team}/boards/by-rating/",
        None,
        global_write(CAPTAIN, 200),
    ),
    ("rating list file", "get", "/api/ratings/export/json/", None, everyone),
    ("results file", "get", "/api/tournaments/{t}/exports/results/csv/", None, read),
    ("placings file", "get", "/api/tournaments/{t}/exports/placings/json/", None, read),
    ("archive", "get", "/api/tournaments/{t}/exports/archive/", None, write(STAFF, 200)),
    (
        "score sheets",
        "get",
        "/api/tournaments/{t}/rounds/1/score-sheets/",
        None,
        write(STAFF, 200),
    ),
    ("wall sheet", "get", "/api/tournaments/{t}/rounds/1/wall-sheet/", None, read),
    # nothing is being recorded at match A: the live board is absent for everyone
    ("live board", "get", "/api/matches/{a}/live/", None, lambda role: 404),
    (
        "live recording start",
        "post",
        "/api/matches/{a}/live/",
        {"dice": "entered"},
        write({"player", "referee", "organiser"}, 409),
    ),
    (
        "live turn",
        "post",
        "/api/matches/{a}/live/turns/",
        {
            "seq": 1,
            "device": "5f0e8c1a-3b7d-4c2e-9a61-2f4b8d9e7c10",
            "action": "start",
            "starter": 0,
        },
        write({"player", "referee", "organiser"}, 404),
    ),
    # Starting ratings are registry staff's (none of these roles).
    (
        "rating starts",
        "post",
        "/api/ratings/starts/",
        {"starts": [{"player": "{extra}", "rating": "1500"}]},
        global_write(set(), 200),
    ),
    (
        "season import",
        "post",
        "/api/seasons/{season}/imports/",
        {"csv": "date;event;player1;player2;winner\n2026-01-01;Cup;A;B;1\n"},
        global_write(set(), 201),
    ),
    # A tournament's webhooks are its organisers' alone.
    ("webhook list", "get", "/api/tournaments/{t}/webhooks/", None, manage_read),
    (
        "webhook create",
        "post",
        "/api/tournaments/{t}/webhooks/",
        {"url": "https://klubben.example.org/hook"},
        write(ORG, 201),
    ),
    ("webhook detail", "get", "/api/tournaments/{t}/webhooks/{hook}/", None, manage_read),
    ("webhook delete", "delete", "/api/tournaments/{t}/webhooks/{hook}/", None, write(ORG, 204)),
    (
        "webhook deliveries",
        "get",
        "/api/tournaments/{t}/webhooks/{hook}/deliveries/",
        None,
        manage_read,
    ),
    ("webhook test", "post", "/api/tournaments/{t}/webhooks/{hook}/test/", None, write(ORG, 202)),
    ("schema", "get", "/api/schema/", None, everyone),
    ("docs", "get", "/api/docs/", None, everyone),
    ("api root", "get", "/api/", None, everyone),
    # Your own token: with a token (or a session) you get it back; anonymous callers are
    # told to send a user name and password (tests/api/test_token.py has those cases).
    ("token get", "post", "/api/token/", {}, lambda role: 400 if role == "anon" else 200),
    ("token revoke", "delete", "/api/token/", None, lambda role: 401 if role == "anon" else 204),
]


def _fill(value: Any, ids: dict[str, int]) -> Any:
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return ids[value[1:-1]]
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("name", "method", "url", "body", "expected"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS]
)
def test_matrix(
    world: World,
    role: str,
    name: str,
    method: str,
    url: str,
    body: dict[str, Any] | None,
    expected: Callable[[str], int],
) -> None:
    client = client_for(world.users[role])
    path = url.format(**world.ids)
    kwargs: dict[str, Any] = {"format": "json"}
    if body is not None:
        kwargs["data"] = _fill(body, world.ids)
    response = getattr(client, method)(path, **kwargs)
    assert response.status_code == expected(role), response.content[:300]
    if response.status_code >= 400:
        assert response.json()["error"]["message"]


@pytest.mark.parametrize("role", ROLES)
def test_lists_hide_private_data(world: World, role: str) -> None:
    client = client_for(world.users[role])
    tournaments = client.get("/api/tournaments/").json()["results"]
    assert (world.ids["t"] in {t["id"] for t in tournaments}) == (role in VISIBLE)
    matches = client.get(f"/api/matches/?tournament={world.ids['t']}").json()
    assert (matches["count"] > 0) == (role in VISIBLE)
    played = client.get(f"/api/players/{world.ids['player']}/matches/")
    if role in VISIBLE:
        assert any(m["tournament"] == world.ids["t"] for m in played.json()["results"])
    else:  # the player is entered only in private tournaments: absent, as they are
        assert played.status_code == 404
    players = {p["id"] for p in client.get("/api/players/?limit=500").json()["results"]}
    assert (world.ids["b2"] in players) == (role in VISIBLE)
    assert (world.ids["player"] in players) == (role in VISIBLE)
    assert {world.ids["public_player"], world.ids["extra"]} <= players  # public, unentered
    assert Match.objects.filter(tournament_id=world.ids["t"]).exists()


def test_guessing_ids_reveals_nothing(world: World) -> None:
    client = client_for(world.users["outsider"])
    private = client.get(f"/api/matches/?tournament={world.ids['t']}")
    missing = client.get("/api/matches/?tournament=987654")
    assert private.status_code == missing.status_code == 200
    assert private.json()["count"] == missing.json()["count"] == 0
    for url, key in (
        ("/api/players/{}/", "b2"),
        ("/api/players/{}/matches/", "b2"),
        ("/api/tournaments/{}/", "t"),
        ("/api/matches/{}/", "a"),
        ("/api/records/{}/", "sub"),
        ("/api/entries/{}/", "entry"),
        ("/api/rounds/{}/", "round"),
    ):
        a = client.get(url.format(world.ids[key]))
        b = client.get(url.format(987654))
        assert a.status_code == b.status_code == 404
        assert a.json()["error"]["code"] == b.json()["error"]["code"]


def test_public_player_does_not_reveal_private_matches(world: World) -> None:
    """A player visible through one public tournament shows the public only that one."""
    public = TournamentFactory.create(is_public=True)
    EntryFactory.create(tournament=public, player_id=world.ids["player"])
    for role in ("anon", "outsider", "organiser_elsewhere"):
        client = client_for(world.users[role])
        assert client.get(f"/api/players/{world.ids['player']}/").status_code == 200
        played = client.get(f"/api/players/{world.ids['player']}/matches/").json()["results"]
        assert not any(m["tournament"] in (world.ids["t"], world.ids["draft"]) for m in played)
        listed = client.get("/api/players/?limit=500").json()["results"]
        assert world.ids["player"] in {p["id"] for p in listed}
    played = client_for(world.users["referee"]).get(f"/api/players/{world.ids['player']}/matches/")
    assert any(m["tournament"] == world.ids["t"] for m in played.json()["results"])


# The scoresheet's endpoints through a player's private link, opened in the browser (its
# token in the session; ``scoresheets.recording_links``), signed in as nobody: the link
# of match A's player records match A (A's game 1 was entered by hand: 409; nothing is
# being recorded: 404); the link of match B's player, or a revoked link, is nobody
# there (401 on writes). (link, method, url, body, status).
LIVE = "/api/matches/{a}/live/"
TURN = {"seq": 1, "device": "5f0e8c1a-3b7d-4c2e-9a61-2f4b8d9e7c10", "action": "start"}
LINK_ROWS: list[tuple[str, str, str, dict[str, Any] | None, int]] = [
    ("own", "get", LIVE, None, 404),
    ("own", "post", LIVE, {"dice": "entered"}, 409),
    ("own", "post", LIVE + "turns/", TURN, 404),
    ("other_match", "get", LIVE, None, 404),
    ("other_match", "post", LIVE, {"dice": "entered"}, 401),
    ("other_match", "post", LIVE + "turns/", TURN, 401),
    ("revoked", "post", LIVE, {"dice": "entered"}, 401),
    ("revoked", "post", LIVE + "turns/", TURN, 401),
]


@pytest.mark.parametrize(
    ("which", "method", "url", "body", "expected"),
    LINK_ROWS,
    ids=[f"{w}-{m}-{u.rsplit('/', 2)[-2]}" for w, m, u, _, _ in LINK_ROWS],
)
def test_live_recording_through_private_links(
    world: World,
    which: str,
    method: str,
    url: str,
    body: dict[str, Any] | None,
    expected: int,
) -> None:
    t = Tournament.objects.get(pk=world.ids["t"])
    organiser = world.users["organiser"]
    a = Match.objects.get(pk=world.ids["a"])
    b = Match.objects.get(pk=world.ids["b"])
    player = a.player1 if which != "other_match" else b.player1
    assert player is not None
    link = private_link_issue(tournament=t, player=player, by=organiser)
    client = APIClient()
    session = client.session
    session[SESSION_KEY] = {str(t.pk): private_link_token(link)}
    session.save()
    if which == "revoked":
        private_link_revoke(link=link, by=organiser)
    kwargs: dict[str, Any] = {"format": "json"}
    if body is not None:
        kwargs["data"] = body
    response = getattr(client, method)(url.format(**world.ids), **kwargs)
    assert response.status_code == expected, response.content[:300]
    assert response.json()["error"]["message"]


# Who may PATCH /api/players/N/ (``players.player_update``): (role, player, body, status).
# "player" is linked to the "player" user and entered only in the private tournaments;
# "public_player" is in a public tournament that "organiser" does not organise.
PLAYER_EDITS: list[tuple[str, str, dict[str, Any], int]] = [
    ("organiser_elsewhere", "b2", {"rating": 1500}, 404),  # cannot see them
    ("organiser_elsewhere", "player", {"name": "X"}, 404),
    ("organiser", "public_player", {"rating": 1500}, 403),  # sees them, not theirs
    ("organiser", "public_player", {"name": "X"}, 403),
    ("organiser", "b2", {"name": "Bo Ny", "rating": 1500}, 200),  # unlinked: all
    ("organiser", "player", {"name": "Nytt Namn"}, 403),  # a linked player's name
    ("organiser", "player", {"rating": 1500, "club": "{club}"}, 200),  # club, rating: yes
    ("referee", "player", {"rating": 1500}, 403),  # referees do not keep players
    ("entrant", "player", {"name": "X"}, 403),  # another player
    ("player", "player", {"name": "Nytt Namn"}, 200),  # the linked user: own name
    ("player", "player", {"rating": 2500}, 403),  # … but not their rating
    ("player", "b2", {"name": "X"}, 403),  # … nor anyone else
    ("staff", "player", {"name": "Nytt Namn"}, 200),  # registry staff: anything
    ("staff", "b2", {"rating": 1500}, 200),  # … and see every player
    ("anon", "public_player", {"rating": 1}, 401),
]


@pytest.mark.parametrize(
    ("role", "player", "body", "expected"),
    PLAYER_EDITS,
    ids=[f"{r}-{p}-{'+'.join(b)}" for r, p, b, _ in PLAYER_EDITS],
)
def test_player_edit_rights(
    world: World, role: str, player: str, body: dict[str, Any], expected: int
) -> None:
    pk = world.ids[player]
    before = Player.objects.values().get(pk=pk)
    response = client_for(world.users[role]).patch(
        f"/api/players/{pk}/", _fill(body, world.ids), format="json"
    )
    assert response.status_code == expected, response.content[:300]
    after = Player.objects.values().get(pk=pk)
    if expected == 200:
        assert response.json()["name"] == after["name"] == body.get("name", before["name"])
        assert after["rating"] == body.get("rating", before["rating"])
    else:
        assert after == before
        assert response.json()["error"]["message"]


def test_player_edit_sending_the_name_back_is_no_change(world: World) -> None:
    """A client may send a whole player back: an unchanged linked name is not refused."""
    pk = world.ids["player"]
    name = Player.objects.get(pk=pk).name
    api = client_for(world.users["organiser"])
    response = api.patch(f"/api/players/{pk}/", {"name": name, "rating": 1700}, format="json")
    assert response.status_code == 200 and response.json()["rating"] == 1700


def test_organiser_cannot_enter_a_player_they_cannot_see(world: World) -> None:
    """Entering a hidden player in one's own tournament would reveal them and make them
    editable: their id is refused as unknown, like a missing one."""
    other = TournamentFactory.create(organisers=[world.users["organiser_elsewhere"]])
    api = client_for(world.users["organiser_elsewhere"])
    hidden = api.post(f"/api/tournaments/{other.pk}/entries/", {"player": world.ids["b2"]})
    missing = api.post(f"/api/tournaments/{other.pk}/entries/", {"player": 987654})
    assert hidden.status_code == missing.status_code == 400
    assert not Entry.objects.filter(tournament=other).exists()
    seen = api.post(f"/api/tournaments/{other.pk}/entries/", {"player": world.ids["extra"]})
    assert seen.status_code == 201


def test_staff_list_shows_user_names_only_to_the_tournament_staff(world: World) -> None:
    """User names are login identifiers: the public sees display names (full name, else
    the linked player's name, else null); the tournament's referees and organisers see
    ids and user names too, as they assign referees by them."""
    referee = world.users["referee_elsewhere"]
    referee.first_name, referee.last_name = "Rut", "Domare"
    referee.save()
    url = f"/api/tournaments/{world.ids['elsewhere']}/staff/"
    for role in ("anon", "outsider", "organiser", "player", "organiser_elsewhere"):
        body = client_for(world.users[role]).get(url).json()
        people = body["organisers"] + body["referees"]
        if role == "organiser_elsewhere":  # an organiser of the public tournament
            assert referee.username in {p["username"] for p in people}
            continue
        assert all(set(p) == {"name"} for p in people), body
        assert {"name": "Rut Domare"} in body["referees"]
        assert referee.username not in str(body)
        assert all(u.username not in str(body) for u in world.users.values() if u)
    # The private tournament's referee (one of its staff) sees the user names.
    private = client_for(world.users["referee"]).get(f"/api/tournaments/{world.ids['t']}/staff/")
    assert world.users["organiser"].username in {
        p["username"] for p in private.json()["organisers"]
    }
    # Linked to a player, no full name: the player's (public) name.
    linked = world.users["player"]
    tournament = Tournament.objects.get(pk=world.ids["elsewhere"])
    tournament.referees.add(linked)
    body = client_for(None).get(url).json()
    assert {"name": Player.objects.get(user=linked).name} in body["referees"]
    assert linked.username not in str(body)


HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def _api_operations(patterns: list[Any], prefix: str = "") -> set[tuple[str, str]]:
    """(route name, method) of every operation the API's URLconf serves."""
    found: set[tuple[str, str]] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found |= _api_operations(pattern.url_patterns, prefix)
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "view_class", None) or getattr(
                pattern.callback, "cls", None
            )
            assert view is not None, pattern
            found |= {(str(pattern.name), m) for m in HTTP_METHODS if hasattr(view, m)}
    return found


@pytest.mark.urls("tests.api.urls")
def test_matrix_covers_every_endpoint(world: World) -> None:
    """Every route × method of the API is in ENDPOINTS, so a new endpoint cannot be added
    without saying who may use it."""
    served = _api_operations(get_resolver("tests.api.urls").url_patterns)
    covered = {
        (str(resolve(url.format(**world.ids).split("?")[0]).url_name), method)
        for _name, method, url, _body, _expected in ENDPOINTS
    }
    assert served - covered == set()  # endpoints nobody wrote a row for
    assert covered == served and len(served) == len(ENDPOINTS)  # one row per operation
