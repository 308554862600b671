"""The API speaks the request's language (Accept-Language, English by default; Swedish and
Danish on request): a match's explanation and a game record's verdict, with ``?lang=``
still an override."""

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
    danish = _explanation(match, "da")
    assert english != swedish and danish not in (english, swedish)
    assert api.get(url).json()["explanation"] == english
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="en").json()["explanation"] == english
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="sv-SE,sv;q=0.9").json()["explanation"] == swedish
    overridden = api.get(url + "?lang=sv", HTTP_ACCEPT_LANGUAGE="en").json()
    assert overridden["explanation"] == swedish
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="da-DK,da;q=0.9").json()["explanation"] == danish
    assert api.get(url + "?lang=da", HTTP_ACCEPT_LANGUAGE="sv").json()["explanation"] == danish
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
    danish = api.get(url, HTTP_ACCEPT_LANGUAGE="da").json()["message"]
    assert danish.startswith("parti 1, linje 5: R") and danish != sub.message


def test_refusals_answer_in_the_requests_language_with_a_stable_code() -> None:
    """The API's own refusals (not only the services') are worded through gettext: the
    same ``code`` in every language, the message in the one asked for."""
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    api = client_for(setup.referee)
    stranger = setup.referee.pk + 10_000
    asks: list[tuple[str, str, dict[str, Any], int, str, str, str, str]] = [
        (
            "get",
            f"/api/matches/{match.pk}/?lang=de",
            {},
            400,
            "unknown_language",
            "lang must be one of sv, en, da.",
            "lang måste vara ett av sv, en, da.",
            "lang skal være én af sv, en, da.",
        ),
        (
            "post",
            f"/api/matches/{match.pk}/games/",
            {"number": 1, "winner_player": stranger, "outcome": "jan"},
            400,
            "not_in_match",
            f"Player #{stranger} does not play in this match.",
            f"Spelare #{stranger} spelar inte i den här matchen.",
            f"Spiller #{stranger} spiller ikke i denne kamp.",
        ),
        (
            "post",
            f"/api/matches/{match.pk}/games/",
            {"number": 1, "outcome": "jan"},
            400,
            "no_winner",
            "Say who won: winner (W or B) or winner_player (a player id).",
            "Ange vem som vann: winner (W eller B) eller winner_player (ett spelar-id).",
            "Angiv, hvem der vandt: winner (W eller B) eller winner_player (et spiller-id).",
        ),
        (
            "get",
            "/api/clubs/987654/",
            {},
            404,
            "not_found",
            "No club #987654.",
            "Ingen klubb #987654.",
            "Ingen klub #987654.",
        ),
    ]
    for method, url, body, status, code, english, swedish, danish in asks:
        for header, words in (("en", english), ("sv-SE,sv;q=0.9", swedish), ("da", danish)):
            call = getattr(api, method)
            r = call(url, body, format="json", HTTP_ACCEPT_LANGUAGE=header)
            assert r.status_code == status, (url, r.content)
            assert r["Content-Language"] == header[:2]
            assert r.json()["error"] == {"code": code, "message": words}, url


def test_signing_in_is_asked_for_in_swedish() -> None:
    from rest_framework.test import APIClient

    anonymous = APIClient().post(
        "/api/clubs/", {"name": "Vasa BK"}, format="json", HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert anonymous.status_code == 401
    assert anonymous.json()["error"] == {
        "code": "not_authenticated",
        "message": "Logga in (session) eller skicka en 'Authorization: Token …'-header.",
    }
    half = APIClient().post(
        "/api/token/", {"username": "anna"}, format="json", HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert half.status_code == 400
    assert half.json()["error"] == {
        "code": "credentials_half",
        "message": "Skicka både 'username' och 'password'.",
    }
    nothing = APIClient().post("/api/token/", {}, format="json", HTTP_ACCEPT_LANGUAGE="sv")
    assert nothing.status_code == 400
    assert nothing.json()["error"] == {
        "code": "no_credentials",
        "message": "Skicka 'username' och 'password', eller logga in först.",
    }


def test_signing_in_is_asked_for_in_danish() -> None:
    from rest_framework.test import APIClient

    anonymous = APIClient().post(
        "/api/clubs/", {"name": "Aarhus BK"}, format="json", HTTP_ACCEPT_LANGUAGE="da"
    )
    assert anonymous.status_code == 401
    assert anonymous["Content-Language"] == "da"
    assert anonymous.json()["error"] == {
        "code": "not_authenticated",
        "message": "Log ind (session), eller send en 'Authorization: Token …'-header.",
    }
    half = APIClient().post(
        "/api/token/", {"username": "anna"}, format="json", HTTP_ACCEPT_LANGUAGE="da"
    )
    assert half.json()["error"] == {
        "code": "credentials_half",
        "message": "Send både 'username' og 'password'.",
    }


def test_a_404_from_django_is_worded_in_the_active_language() -> None:
    from django.http import Http404
    from django.utils import translation

    from tournaments.api_base import exception_handler

    for language, words in (
        ("en", "Not found, or not visible to you."),
        ("sv", "Hittades inte, eller är inte synligt för dig."),
        ("da", "Ikke fundet, eller ikke synlig for dig."),
    ):
        with translation.override(language):
            response = exception_handler(Http404(), {})
        assert response is not None and response.status_code == 404
        assert response.data == {"error": {"code": "not_found", "message": words}}
