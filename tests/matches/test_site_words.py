"""What the site itself says of a result, a report or an audit row is stored as a code
and worded when read (``matches.site_words``): a page in Swedish says it in Swedish
though it was stored while English was active, and the other way round; the API keeps
the words beside the code."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from matches import records
from matches.engine_text import submission_text
from matches.models import EventKind, GameReport, GameResult, Match, MatchEvent, RecordState
from matches.services import RECORD_MAX_ATTEMPTS, game_record_submit, game_record_verify
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.matches.fakes import FakeReplay
from tests.scoresheets.helpers import Table
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tests.tournaments.test_admin import staff_client
from tournaments.entries import entry_withdraw
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

RECORDED = {"en": "recorded move by move", "sv": "protokollfört drag för drag"}
WITHDREW = {"en": "the opponent withdrew", "sv": "motståndaren drog sig ur"}
OTHER = {"en": "sv", "sv": "en"}
RECORD = '[White "P001"]\n[Black "P002"]\nGame 1\nTek: 2-5\n'


def _players(match: Match) -> tuple[Any, Any]:
    one, two = players_of(match)
    one.user, two.user = UserFactory.create(), UserFactory.create()
    one.save()
    two.save()
    return one.user, two.user


def _in(language: str, client: Any) -> Any:
    client.cookies["django_language"] = language
    return client


def _recorded_report(language: str) -> tuple[Match, GameReport, Any]:
    """Game 1 recorded move by move by its first player, whose language is ``language``
    (White resigned to: the report waits for the opponent, who is returned)."""
    s = drawn(2, lengths=[3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    recorder, opponent = _players(match)
    table = Table(_in(language, client_for(recorder)), match.pk)
    assert table.start().status_code == 201
    assert table.post("start", dice=[5, 2]).status_code == 201
    assert table.post("resign").status_code == 201
    return match, GameReport.objects.get(match=match), opponent


@pytest.mark.parametrize("stored_in", ["en", "sv"])
def test_a_report_recorded_move_by_move_is_noted_by_code_and_read_in_the_readers_language(
    stored_in: str,
) -> None:
    _match, report, opponent = _recorded_report(stored_in)
    assert (report.site_note, report.note) == ("recorded_live", "")
    read_in = OTHER[stored_in]
    page = Client()
    page.force_login(opponent)
    text = _in(read_in, page).get(reverse("web:report_detail", args=[report.pk]))
    assert RECORDED[read_in] in text.content.decode()
    assert RECORDED[stored_in] not in text.content.decode()
    api = _in(read_in, client_for(opponent)).get(f"/api/reports/{report.pk}/").json()
    assert (api["site_note"], api["note"]) == ("recorded_live", RECORDED[read_in])


def test_the_confirmed_reports_result_keeps_the_code() -> None:
    match, report, opponent = _recorded_report("sv")
    confirmed = client_for(opponent).post(f"/api/reports/{report.pk}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    result = GameResult.objects.get(game__match=match, game__number=1)
    assert (result.site_note, result.note) == ("recorded_live", "")
    (version,) = client_for(opponent).get(f"/api/matches/{match.pk}/games/1/versions/").json()
    assert (version["site_note"], version["note"]) == ("recorded_live", RECORDED["en"])


def test_a_game_recorded_by_the_referee_is_noted_by_code() -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    table = Table(_in("sv", client_for(s.referee)), match.pk)
    assert table.start().status_code == 201
    assert table.post("start", dice=[5, 2]).status_code == 201
    assert table.post("resign").status_code == 201
    result = GameResult.objects.get(game__match=match, game__number=1)
    assert (result.site_note, result.note) == ("recorded_live", "")


def test_games_entered_from_a_referees_record_name_the_record(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    fake = FakeReplay()
    fake.results = ["B hemspel", "W jan", "W hemspel"]
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: fake(text))
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=RECORD, by=s.referee)
    notes = GameResult.objects.filter(game__match=match).values_list("site_note", "note")
    assert list(notes) == [("from_record", "")] * 3
    versions = _in("sv", client_for(s.referee)).get(f"/api/matches/{match.pk}/games/2/versions/")
    (version,) = versions.json()
    assert version["note"] == f"från partiprotokoll nr {sub.pk}"


def _withdrawal(s: Setup, match: Match) -> Any:
    """Player 2 of ``match`` withdraws (no reason given) after the draw."""
    entry = Entry.objects.get(tournament=s.tournament, player=match.player2)
    entry_withdraw(entry=entry, by=s.organiser)
    return match.player1


@pytest.mark.parametrize("read_in", ["en", "sv"])
def test_a_withdrawals_walkover_keeps_the_reason_as_a_code(read_in: str) -> None:
    s = drawn(4, lengths=[3, 3])
    match = match_of(s.tournament, 1, 0)
    _withdrawal(s, match)
    walkover = MatchEvent.objects.get(match=match, kind=EventKind.WALKOVER)
    assert walkover.data["reason_code"] == "opponent_withdrew"
    assert "reason" not in walkover.data
    detail = _in(read_in, client_for(s.organiser)).get(f"/api/matches/{match.pk}/").json()
    (shown,) = [e["data"] for e in detail["events"] if e["kind"] == "walkover"]
    assert (shown["reason_code"], shown["reason"]) == ("opponent_withdrew", WITHDREW[read_in])


def test_a_walkover_waiting_for_an_opponent_who_withdrew_keeps_the_reason_as_a_code() -> None:
    """A finalist who withdrew before their opponent was known gives the walkover once
    the opponent is placed (``matches.progression``)."""
    s = drawn(4, lengths=[3, 3])
    first, second = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)
    finalist = _withdrawal(s, first)  # the walkover sends player 1 to the final
    entry_withdraw(entry=Entry.objects.get(player=finalist), by=s.organiser)
    _withdrawal(s, second)
    final = match_of(s.tournament, 2, 0)
    walkover = MatchEvent.objects.get(match=final, kind=EventKind.WALKOVER)
    assert walkover.data == {"winner": second.player1_id, "reason_code": "opponent_withdrew"}


def test_the_admins_walkover_reset_and_withdrawal_keep_the_reason_as_a_code() -> None:
    s = drawn(4, lengths=[3, 3])
    first, second = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)
    admin = staff_client(s.organiser)
    for action in ("walkover_player1", "reset"):
        chosen = {"action": action, "_selected_action": [first.pk]}
        assert admin.post("/admin/matches/match/", chosen).status_code == 302
    entry = Entry.objects.get(tournament=s.tournament, player=second.player2)
    chosen = {"action": "withdraw", "_selected_action": [entry.pk]}
    assert admin.post("/admin/tournaments/entry/", chosen).status_code == 302
    events = MatchEvent.objects.filter(kind__in=["walkover", "reset", "withdrawal"])
    assert sorted((e.match_id, e.kind, e.data.get("reason_code")) for e in events) == sorted(
        [
            (first.pk, "walkover", "admin"),
            (first.pk, "reset", "admin"),
            (second.pk, "withdrawal", "admin"),
            (second.pk, "walkover", "admin"),
        ]
    )
    assert not [e.data for e in events if "reason" in e.data]


def test_a_record_given_up_on_keeps_its_verdict_as_a_code(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Its attempts all died: the record fails with the verdict's code, read in the
    reader's language (the stored message stays English, as every record's)."""
    settings.GAME_RECORD_LEASE_SECONDS = 0
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=False):
        sub = game_record_submit(match=match, text=RECORD, by=s.referee)

    def dies(text: str) -> Any:
        raise SystemExit("worker killed")

    for _ in range(RECORD_MAX_ATTEMPTS):
        with pytest.raises(SystemExit):
            game_record_verify(submission_id=sub.pk, replay=dies)
    with translation.override("sv"):
        assert game_record_verify(submission_id=sub.pk, replay=FakeReplay()) is None
    sub.refresh_from_db()
    assert sub.state == RecordState.FAILED
    assert sub.report == {"verdict": [{"code": "verdict.gave_up", "params": {"count": 3}}]}
    assert sub.message.startswith("Verification stopped after 3 attempts")
    with translation.override("sv"):
        assert submission_text(sub).startswith("Verifieringen avbröts efter 3 försök")
