"""Each event kind is made once per change, after the commit, and never for a change
that was rolled back; a tournament's events go only to its own hooks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.db import transaction

from engine.errors import IllegalPlayError
from matches import records
from matches.models import Game
from matches.services import game_record_submit, game_result_correct, match_walkover
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from tests.matches.fakes import FakeReplay
from tests.matches.test_results import enter
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tests.tournaments.test_swiss import swiss
from webhooks import sending
from webhooks.models import EventKind, Webhook, WebhookDelivery, WebhookEvent
from webhooks.sending import Answer
from webhooks.services import hook_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    """Every delivery answered 200 at once, without the network."""
    calls: list[tuple[str, bytes]] = []

    def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
        calls.append((url, body))
        return Answer(200, "", "ok", 1)

    monkeypatch.setattr(sending, "post", post)
    return calls


def hooked(setup: Setup, url: str = "https://scores.example.org/hook") -> Webhook:
    return hook_create(tournament=setup.tournament, url=url, events=None, by=setup.organiser)


def kinds(tournament: Any = None) -> Counter[str]:
    events = WebhookEvent.objects.all()
    if tournament is not None:
        events = events.filter(tournament=tournament)
    return Counter(events.values_list("kind", flat=True))


def test_games_entered_corrected_match_decided_and_tournament_finished_once_each(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    hook = hooked(s)
    m = match_of(s.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        enter(m, 1, "W hemspel", s.referee, starter="W")
    assert kinds() == {EventKind.GAME_ENTERED: 1}
    with django_capture_on_commit_callbacks(execute=True):
        enter(m, 2, "W jan", s.referee)
    assert kinds() == {
        EventKind.GAME_ENTERED: 2,
        EventKind.MATCH_DECIDED: 1,
        EventKind.TOURNAMENT_FINISHED: 1,  # the final of a two-player knockout
    }
    decided = WebhookEvent.objects.get(kind=EventKind.MATCH_DECIDED)
    data = decided.body["data"]
    assert data["match"]["id"] == m.pk and data["winner"] == m.player1_id
    assert data["after_game"] == 2 and data["walkover"] is False
    assert data["match"]["player1"]["name"] == players_of(m)[0].name
    game = Game.objects.get(match=m, number=1, voided_at__isnull=True)
    with django_capture_on_commit_callbacks(execute=True):
        game_result_correct(game=game, result=won("W", "jan"), by=s.referee, expected_version=1)
    assert kinds()[EventKind.GAME_CORRECTED] == 1
    corrected = WebhookEvent.objects.get(kind=EventKind.GAME_CORRECTED)
    assert corrected.body["data"]["game"] == 1
    # one delivery per event, each sent once
    assert WebhookDelivery.objects.filter(hook=hook).count() == sum(kinds().values())
    assert len(sent) == sum(kinds().values())
    ids = [
        WebhookEvent.objects.get(pk=e).body["id"]
        for e in WebhookEvent.objects.values_list("pk", flat=True)
    ]
    assert len(set(ids)) == len(ids)


def test_a_walkover_decides_the_match(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(4, lengths=[3, 3])
    hooked(s)
    m = match_of(s.tournament, 1, 0)
    winner, _loser = players_of(m)
    with django_capture_on_commit_callbacks(execute=True):
        match_walkover(match=m, winner=winner, by=s.referee)
    assert kinds() == {EventKind.MATCH_DECIDED: 1}
    data = WebhookEvent.objects.get().body["data"]
    assert data["walkover"] is True and data["winner"] == winner.pk


def test_nothing_is_sent_for_a_rolled_back_change(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    hooked(s)
    m = match_of(s.tournament, 1, 0)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        enter(m, 1, "W hemspel", s.referee, starter="W")
        enter(m, 2, "W jan", s.referee)
        raise RuntimeError("rolled back")
    assert kinds() == {} and sent == []
    assert not Game.objects.filter(match=m).exists()


def test_a_tournament_without_hooks_makes_no_events(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    other = drawn(2, lengths=[3])
    hooked(other)
    m = match_of(s.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        enter(m, 1, "W hemspel", s.referee, starter="W")
    assert kinds() == {} and sent == []


def test_a_private_tournaments_events_go_only_to_its_own_hooks(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    private = drawn(2, lengths=[3], is_public=False)
    public = drawn(2, lengths=[3])
    hooked(private, "https://private.example.org/hook")
    hooked(public, "https://public.example.org/hook")
    with django_capture_on_commit_callbacks(execute=True):
        enter(match_of(private.tournament, 1, 0), 1, "W hemspel", private.referee, starter="W")
    assert [url for url, _body in sent] == ["https://private.example.org/hook"]


def test_hooks_get_only_the_kinds_they_asked_for(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    hook_create(
        tournament=s.tournament,
        url="https://scores.example.org/decided",
        events=[EventKind.MATCH_DECIDED],
        by=s.organiser,
    )
    m = match_of(s.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        enter(m, 1, "W hemspel", s.referee, starter="W")
        enter(m, 2, "W jan", s.referee)
    assert kinds() == {EventKind.MATCH_DECIDED: 1}
    assert len(sent) == 1


def test_a_swiss_round_published_once(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    tournament, organiser, _players = swiss(4)
    hook_create(tournament=tournament, url="https://s.example.org/", events=None, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = swiss_round_pair(tournament=tournament, by=organiser)
    assert kinds() == {}
    with django_capture_on_commit_callbacks(execute=True):
        swiss_round_publish(round=rnd, by=organiser)
    assert kinds() == {EventKind.ROUND_PUBLISHED: 1}
    data = WebhookEvent.objects.get().body["data"]
    assert data["round"]["number"] == 1 and len(data["matches"]) == 2


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeReplay:
    replay = FakeReplay()
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: replay(text))
    return replay


TEXT = '[White "P001"]\n[Black "P002"]\nGame 1\nTek: 2-5\n'


def test_a_record_verified_and_one_rejected(
    sent: list[Any], fake: FakeReplay, django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    hook_create(
        tournament=s.tournament,
        url="https://s.example.org/",
        events=[EventKind.RECORD_VERIFIED, EventKind.RECORD_REJECTED],
        by=s.organiser,
    )
    m = match_of(s.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        enter(m, 1, "W hemspel", s.referee, starter="W")
    fake.results = ["W hemspel"]
    with django_capture_on_commit_callbacks(execute=True):
        good = game_record_submit(match=m, text=TEXT, by=s.referee)
    assert kinds() == {EventKind.RECORD_VERIFIED: 1}
    fake.results = []
    fake.error = IllegalPlayError("R5.3: White may not make a band on point 7", game=1, line=9)
    with django_capture_on_commit_callbacks(execute=True):
        bad = game_record_submit(match=m, text=TEXT, by=s.referee)
    assert kinds() == {EventKind.RECORD_VERIFIED: 1, EventKind.RECORD_REJECTED: 1}
    rejected = WebhookEvent.objects.get(kind=EventKind.RECORD_REJECTED).body["data"]
    assert rejected["record"]["id"] == bad.pk and "R5.3" in rejected["record"]["message"]
    verified = WebhookEvent.objects.get(kind=EventKind.RECORD_VERIFIED).body["data"]
    assert verified["record"]["id"] == good.pk and verified["match"]["id"] == m.pk
