"""Recording through a player's private link, and what a recorded match leaves behind.

Through a link (opened in the browser: its token kept in the session, as the ``/p/``
pages keep it) a player without an account records their own match where the players
report: the finished game is the link's report, which the opponent confirms, and the
audit rows name the link. Another player's match, a revoked link and a tournament whose
referees enter the results are refused; the link's turns are counted apart from its
reports and still stop a runaway client; a write through a link checks its CSRF token.
A confirmed recorded game is verified by its record; a reset match, or a withdrawn
report, lets the game be recorded again.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from core.errors import PermissionDeniedError
from matches.models import EventKind, Game, GameRecordSubmission, GameReport, MatchEvent
from matches.reports import game_report_confirm, game_report_withdraw
from matches.results import match_reset
from scoresheets.models import LiveGame, LiveTurn
from scoresheets.services import live_start, live_turn_post, posted_content
from tests.api.conftest import client_for
from tests.scoresheets.helpers import Table, random_turn
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments import private_links
from tournaments.models import PrivateLink, PrivateLinkUse, Tournament
from tournaments.private_links import (
    SESSION_KEY,
    RateLimitedError,
    private_link_issue,
    private_link_revoke,
    private_link_token,
    private_link_use,
)

pytestmark = pytest.mark.django_db


def link_client(link: PrivateLink, **kwargs: Any) -> APIClient:
    """A browser that opened ``link`` (its token in the session), signed in as nobody."""
    client = APIClient(**kwargs)
    session = client.session
    session[SESSION_KEY] = {str(link.tournament_id): private_link_token(link)}
    session.save()
    return client


def _setup(results_by: str = "players") -> Any:
    s = drawn(4, lengths=[3, 3], results_by=results_by)
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    first = private_link_issue(tournament=s.tournament, player=one, by=s.organiser)
    second = private_link_issue(tournament=s.tournament, player=two, by=s.organiser)
    return s, match, first, second


def _play_one_game(table: Table) -> None:
    """Black wins the tek and resigns at once: White wins game 1 (uppgivet)."""
    assert table.post("start", dice=[5, 2]).status_code == 201
    resigned = table.post("resign")
    assert resigned.status_code == 201, resigned.content


def test_a_game_recorded_through_a_link_is_its_report_confirmed_through_the_other(
    django_capture_on_commit_callbacks: Any,
) -> None:
    _s, match, first, second = _setup()
    table = Table(link_client(first), match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        started = table.start()
        assert started.status_code == 201, started.content
        _play_one_game(table)
    assert table.state["status"] == "finished"
    report = GameReport.objects.get(match=match)
    assert (report.state, report.reporter_id, report.reported_by_id) == (
        "pending",
        first.player_id,
        None,
    )
    live = LiveGame.objects.get(match=match, number=1)
    assert live.started_by_id is None and live.report_id == report.pk
    assert report.submission_id == live.submission_id is not None
    events = {e.kind: e.data for e in MatchEvent.objects.filter(match=match)}
    assert events[EventKind.REPORT_SUBMITTED]["private_link"] == first.pk
    assert events[EventKind.RECORD_SUBMITTED]["private_link"] == first.pk
    uses = list(PrivateLinkUse.objects.filter(link=first).values_list("action", flat=True))
    assert sorted(uses) == ["record", "turn", "turn"]
    # the second person: the recording player's own link cannot confirm it
    with pytest.raises(PermissionDeniedError):
        game_report_confirm(report=report, by=None, link=first)
    game = game_report_confirm(report=report, by=None, link=second)
    game.refresh_from_db()
    assert (game.winner, game.outcome) == ("W", "uppgivet")
    assert game.verified and game.verified_by_id == live.submission_id
    # the next game through the link: the loser of game 1 starts (R2, S5)
    assert table.start().status_code == 201
    assert (table.state["game_number"], table.state["starter"]) == (2, 1)


def test_a_link_records_only_its_players_own_matches() -> None:
    s, match, first, _second = _setup()
    other = match_of(s.tournament, 1, 1)
    client = link_client(first)
    # another player's match: the link does not count there, so the browser is nobody
    assert Table(client, other.pk).start().status_code == 401
    assert LiveGame.objects.filter(match=other).count() == 0
    with pytest.raises(PermissionDeniedError):
        live_start(match=other, by=None, link=first)
    # the player's own match: recorded
    assert Table(client, match.pk).start().status_code == 201


def test_a_revoked_link_records_nothing_more() -> None:
    s, match, first, _second = _setup()
    table = Table(link_client(first), match.pk)
    assert table.start().status_code == 201
    assert table.post("start", dice=[2, 5]).status_code == 201
    private_link_revoke(link=first, by=s.organiser)
    refused = table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    assert refused.status_code == 401
    assert LiveTurn.objects.filter(match=match).count() == 1
    first.refresh_from_db()
    with pytest.raises(PermissionDeniedError):
        live_turn_post(
            match=match,
            by=None,
            seq=2,
            device=uuid.UUID(int=3),
            content=posted_content(action="play", dice=[6, 4], steps=[[1, 7], [1, 5]]),
            state_of=lambda live: {},
            link=first,
        )


def test_where_referees_enter_the_results_a_link_records_nothing() -> None:
    _s, match, first, _second = _setup(results_by="referees")
    response = Table(link_client(first), match.pk).start()
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "results_by_referees"
    assert not LiveGame.objects.filter(match=match).exists()


def test_a_write_through_a_link_needs_the_pages_csrf_token() -> None:
    _s, match, first, _second = _setup()
    client = link_client(first, enforce_csrf_checks=True)
    response = client.post(f"/api/matches/{match.pk}/live/", {"dice": "entered"}, format="json")
    assert response.status_code == 403
    assert not LiveGame.objects.filter(match=match).exists()


def test_turns_are_counted_apart_from_reports_and_stop_a_runaway_client() -> None:
    _s, match, first, _second = _setup()
    for _ in range(private_links.USES_PER_WINDOW):
        private_link_use(link=first, action="report")
    with pytest.raises(RateLimitedError):
        private_link_use(link=first, action="report")
    table = Table(link_client(first), match.pk)
    assert table.start().status_code == 201  # the reports' allowance is used up: still
    assert table.post("start", dice=[2, 5]).status_code == 201
    recording = PrivateLinkUse.objects.filter(
        link=first, action__in=private_links.RECORDING_ACTIONS
    ).count()
    for _ in range(private_links.TURNS_PER_WINDOW - recording):
        private_link_use(link=first, action="turn")
    stopped = table.post("play", dice=[6, 4], steps=[[1, 7], [1, 5]])
    assert stopped.status_code == 429
    assert stopped.json()["error"]["code"] == "rate_limited"
    assert LiveTurn.objects.filter(match=match).count() == 1


def test_a_reset_match_is_recorded_again_from_game_one() -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk)
    assert table.start().status_code == 201
    _play_one_game(table)  # game 1 counts at once; game 2 starts being recorded
    assert table.state["game_number"] == 2  # started by game 1's loser (S5)
    assert random_turn(table, random.Random(3)).status_code == 201
    assert LiveGame.objects.filter(match=match).count() == 2
    match_reset(match=match, by=s.organiser, reason="wrong players at the table")
    assert not LiveGame.objects.filter(match=match).exists()
    assert not Game.objects.filter(match=match, voided_at__isnull=True).exists()
    again = Table(client_for(s.referee), match.pk)
    assert again.start().status_code == 201
    assert (again.state["game_number"], again.state["seq"], again.state["phase"]) == (
        1,
        0,
        "start",
    )
    _play_one_game(again)
    assert Game.objects.get(match=match, number=1, voided_at__isnull=True).verified
    # the first recording's record is kept as a submitted record of the match
    assert GameRecordSubmission.objects.filter(match=match).count() == 2


def test_a_withdrawn_report_lets_the_game_be_recorded_again() -> None:
    _s, match, first, _second = _setup()
    table = Table(link_client(first), match.pk)
    assert table.start().status_code == 201
    _play_one_game(table)
    waiting = table.start()
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "report_pending"
    report = GameReport.objects.get(match=match)
    game_report_withdraw(report=report, by=None, link=first)
    again = table.start()
    assert again.status_code == 201, again.content
    assert again.json()["game_number"] == 1 and again.json()["phase"] == "start"


def test_a_link_follows_its_board_in_a_private_tournament() -> None:
    _s, match, first, _second = _setup()
    Tournament.objects.filter(pk=first.tournament_id).update(is_public=False)
    client = link_client(first)
    assert client.get(f"/api/matches/{match.pk}/live/").status_code == 404  # nothing yet
    assert Table(client, match.pk).start().status_code == 201
    live = client.get(f"/api/matches/{match.pk}/live/")
    assert live.status_code == 200 and live.json()["game_number"] == 1
    assert APIClient().get(f"/api/matches/{match.pk}/live/").status_code == 404
