"""Which language a response speaks (web/middleware.py): pages are Swedish unless the
language cookie says English or Danish; the API follows the cookie or Accept-Language and
is English when neither names a supported language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from matches.services import game_result_enter
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db

MISSING = "/api/tournaments/999999/"


def test_page_without_cookie_is_swedish_whatever_the_browser_asks() -> None:
    for header in ("", "en-US,en;q=0.9", "da-DK,da;q=0.9"):
        response = Client(HTTP_ACCEPT_LANGUAGE=header).get("/")
        assert response["Content-Language"] == "sv"
        assert "Turneringar" in response.content.decode()


def test_page_with_english_cookie_is_english() -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/")
    assert response["Content-Language"] == "en"
    assert "Tournaments" in response.content.decode()


def test_page_with_danish_cookie_is_danish() -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    response = client.get("/")
    assert response["Content-Language"] == "da"
    assert "Turneringer" in response.content.decode()


@pytest.mark.parametrize("header", ["da", "da-DK,da;q=0.9,en;q=0.8", "de, da;q=0.5"])
def test_api_error_with_accept_language_da_is_danish(header: str) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get(MISSING)
    assert response.status_code == 404
    assert response["Content-Language"] == "da"
    message = response.json()["error"]["message"]
    assert message == "Der er ingen turnering nr. 999999, som du kan se."


def test_api_error_without_accept_language_is_english() -> None:
    response = Client().get(MISSING)
    assert response.status_code == 404
    assert response["Content-Language"] == "en"
    assert response.json()["error"]["message"] == "No tournament #999999 that you can see."


@pytest.mark.parametrize("header", ["sv", "sv-SE,sv;q=0.9,en;q=0.8", "de, sv;q=0.5"])
def test_api_error_with_accept_language_sv_is_swedish(header: str) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get(MISSING)
    assert response.status_code == 404
    assert response["Content-Language"] == "sv"
    assert "Accept-Language" in response["Vary"]
    message = response.json()["error"]["message"]
    assert message == "Det finns ingen turnering nr 999999 som du kan se."


@pytest.mark.parametrize("header", ["de", "*", "sv;q=0, de"])
def test_api_falls_back_to_english_for_languages_it_does_not_have(header: str) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get(MISSING)
    assert response["Content-Language"] == "en"
    assert response.json()["error"]["message"] == "No tournament #999999 that you can see."


def test_api_follows_the_language_cookie_chosen_on_the_pages() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    response = client.get(MISSING)
    assert response["Content-Language"] == "sv"


def test_api_conflict_in_swedish_names_the_result_in_the_readers_words() -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    other = UserFactory.create(username="kerstin")
    setup.tournament.referees.add(other)
    game_result_enter(match=match, number=1, result=won("B", "jan"), by=other)
    token, _ = Token.objects.get_or_create(user=setup.referee)
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/matches/{match.pk}/games/"
    body = {"number": 1, "winner": "W", "outcome": "hemspel"}
    english = client.post(url, body, content_type="application/json")
    swedish = client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="sv")
    assert english.status_code == swedish.status_code == 409
    black = players_of(match)[1].name
    # The result in the reader's words, its winner by name (not the record's "Black jan").
    assert english.json()["error"]["message"].startswith(
        f"Game 1 was entered already by kerstin: {black} wins by jan. Reload the match;"
    )
    assert swedish.json()["error"]["message"] == (
        f"Parti 1 har redan förts in av kerstin: {black} vinner med jan. Ladda om matchen; "
        "rätta partiet om resultatet ska ändras."
    )
    assert swedish.json()["error"]["code"] == english.json()["error"]["code"] == "game_exists"
