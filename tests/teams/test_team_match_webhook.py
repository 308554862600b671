"""``team_match.decided``: told once when a team match is first decided (also early),
after the commit, with the team match's score; not again when a correction turns the
result round; a hook that did not ask for it hears nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from matches.models import Game
from matches.services import game_result_correct
from teams.line_ups import line_ups_close
from teams.models import TeamBoard, TeamMatch
from tests.results import won
from tests.teams.league_helpers import Division, division_make, play_board, season_make
from webhooks import sending
from webhooks.models import SUBSCRIBABLE, EventKind, WebhookEvent
from webhooks.sending import Answer
from webhooks.services import hook_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    calls: list[tuple[str, bytes]] = []

    def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
        calls.append((url, body))
        return Answer(200, "", "ok", 1)

    monkeypatch.setattr(sending, "post", post)
    return calls


def _made(division: Division, capture: Any) -> TeamMatch:
    team_match = (
        TeamMatch.objects.filter(tournament=division.tournament)
        .select_related("home", "away", "tournament")
        .order_by("round__number", "number")
        .first()
    )
    assert team_match is not None
    with capture(execute=True):
        line_ups_close(team_match=team_match, by=division.organiser)
    return team_match


def test_the_kind_can_be_subscribed_to() -> None:
    assert "team_match.decided" in SUBSCRIBABLE


def test_a_team_match_decided_early_is_told_once(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    division = division_make(season=season_make(), name="Div", teams=2, boards=3)
    hook_create(
        tournament=division.tournament,
        url="https://scores.example.org/hook",
        events=None,
        by=division.organiser,
    )
    hook_create(  # a hook that did not ask for it hears nothing of it
        tournament=division.tournament,
        url="https://boards.example.org/hook",
        events=["match.decided"],
        by=division.organiser,
    )
    team_match = _made(division, django_capture_on_commit_callbacks)
    boards = list(TeamBoard.objects.filter(team_match=team_match).order_by("board"))
    rng = random.Random(1)
    for board in boards:
        assert board.match is not None
        with django_capture_on_commit_callbacks(execute=True):
            play_board(division, board.match, rng, "referee")
    team_match.refresh_from_db()
    assert team_match.result
    events = WebhookEvent.objects.filter(kind=EventKind.TEAM_MATCH_DECIDED)
    assert events.count() == 1  # the third board decided nothing new
    data = events.get().body["data"]["team_match"]
    assert data["id"] == team_match.pk
    assert data["round"] == 1
    assert data["home"] == {"id": team_match.home_id, "name": team_match.home.name}
    assert team_match.away is not None
    assert data["away"] == {"id": team_match.away.pk, "name": team_match.away.name}
    assert data["result"] == team_match.result
    assert data["decided_early"] is True  # told when two boards of three made it
    assert (data["home_boards"] + data["away_boards"]) == 2
    told = [url for url, body in sent if b"team_match.decided" in body]
    assert told == ["https://scores.example.org/hook"]
    assert any(url == "https://boards.example.org/hook" for url, _body in sent)


def test_a_correction_that_turns_the_result_round_is_no_new_decision(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """The team match stays decided (the other way): ``decided_at`` is kept, nothing new
    is told; the team match's resource (API) has its new result."""
    division = division_make(season=season_make(), name="Div", teams=2, boards=1)
    hook_create(
        tournament=division.tournament,
        url="https://scores.example.org/hook",
        events=["team_match.decided"],
        by=division.organiser,
    )
    team_match = _made(division, django_capture_on_commit_callbacks)
    board = TeamBoard.objects.get(team_match=team_match)
    assert board.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        play_board(division, board.match, random.Random(2), "referee")
    team_match.refresh_from_db()
    before = team_match.result
    game = Game.objects.get(match=board.match, number=1, voided_at__isnull=True)
    board.match.refresh_from_db()
    loser = "B" if board.match.winner_id == board.match.player1_id else "W"  # one game
    with django_capture_on_commit_callbacks(execute=True):
        game_result_correct(
            game=game, result=won(loser, "jan"), by=division.referee, expected_version=1
        )
    team_match.refresh_from_db()
    assert team_match.result != before
    assert WebhookEvent.objects.filter(kind=EventKind.TEAM_MATCH_DECIDED).count() == 1
    assert len([b for _u, b in sent if b"team_match.decided" in b]) == 1
