"""The API speaks the request's language (Accept-Language, English by default): a
match's explanation and a game record's verdict, with ``?lang=`` still an override."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import GameRecordSubmission, RecordState
from matches.selectors import match_explanation
from matches.services import game_record_submit, game_result_enter
from tests.api.conftest import client_for
from tests.results import won
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db

# White bears off a checker it does not have (R4), after a legal one.
ILLEGAL = (
    '[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off 20/off\nResult: White hemspel\n"
)


def _explanation(match: Any, lang: str) -> list[str]:
    from matches.models import Game

    games = list(Game.objects.filter(match=match, voided_at__isnull=True).order_by("number"))
    return list(match_explanation(match=match, games=games, lang=lang))


def test_match_explanation_follows_accept_language_and_lang_overrides() -> None:
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    api = client_for(setup.referee)
    url = f"/api/matches/{match.pk}/"
    english, swedish = _explanation(match, "en"), _explanation(match, "sv")
    assert english != swedish
    assert api.get(url).json()["explanation"] == english
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="en").json()["explanation"] == english
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="sv-SE,sv;q=0.9").json()["explanation"] == swedish
    overridden = api.get(url + "?lang=sv", HTTP_ACCEPT_LANGUAGE="en").json()
    assert overridden["explanation"] == swedish
    assert api.get(url + "?lang=de").status_code == 400


def test_a_rejected_records_verdict_follows_accept_language(
    django_capture_on_commit_callbacks: Any,
) -> None:
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=ILLEGAL, by=setup.referee)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.INVALID
    # Stored: English, with the code and parameters beside it.
    assert sub.message.startswith("game 1, line 5: R")
    error = sub.report["error"]
    assert error["code"].startswith("step.") and error["message"] in sub.message
    assert sub.report["verdict"][0]["code"] == "verdict.error_game_line"
    api = client_for(setup.referee)
    url = f"/api/records/{sub.pk}/"
    assert api.get(url).json()["message"] == sub.message
    swedish = api.get(url, HTTP_ACCEPT_LANGUAGE="sv").json()["message"]
    assert swedish.startswith("parti 1, rad 5: R") and swedish != sub.message
