"""Referee pages: a result in at most three taps, the match decided at once, conflicts
shown with what the other referee entered, corrections kept as versions."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import GameResult, MatchState
from matches.services import game_result_correct, game_result_enter
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from web.forms.referee import ALL_VALUES, parse_outcome

pytestmark = pytest.mark.django_db


def enter_url(pk: int) -> str:
    return reverse("web:match_enter", args=[pk])


def test_every_button_value_parses() -> None:
    assert len(ALL_VALUES) == 5 + 8
    parsed = parse_outcome("vackert_spel:trappspel+munk")
    assert (parsed.outcome, parsed.pattern, parsed.munk) == (
        "vackert_spel",
        "trappspel",
        True,
    )
    with pytest.raises(ValueError):
        parse_outcome("jan+munk")  # R11: munk only with hemspel and vackert spel


def test_anonymous_redirected_and_strangers_forbidden(client: Client) -> None:
    setup = drawn(2)
    match = match_of(setup.tournament, 1, 0)
    response = client.get(enter_url(match.pk))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(UserFactory.create())
    assert client.get(enter_url(match.pk)).status_code == 403
    assert (
        client.post(enter_url(match.pk), {"number": 1, "winner": "W", "outcome": "jan"}).status_code
        == 403
    )
    assert match.games.count() == 0


def test_two_taps_enter_a_game_and_a_decided_match_shows_who_advances(client: Client) -> None:
    setup = drawn(4, lengths=[3, 3])
    match = match_of(setup.tournament, 1, 0)
    client.force_login(setup.referee)
    page = client.get(enter_url(match.pk)).content.decode()
    # One form: winner radios (tap 1) and outcome buttons that submit (tap 2).
    assert page.count('name="winner"') == 2 and 'value="jan"' in page
    response = client.post(enter_url(match.pk), {"number": 1, "winner": "W", "outcome": "jan"})
    assert response.status_code == 302
    response = client.post(
        enter_url(match.pk), {"number": 2, "winner": "W", "outcome": "hemspel+munk"}, follow=True
    )
    page = response.content.decode()
    match.refresh_from_db()
    assert match.state == MatchState.DECIDED and match.decided_after_game == 2
    assert match.winner == match.player1
    final = match_of(setup.tournament, 2, 0)
    assert match.player1 in (final.player1, final.player2)
    assert reverse("web:match_detail", args=[final.pk]) in page  # "advances to"
    assert 'name="outcome"' not in page  # no more entry once decided
    game = match.games.get(number=2)
    assert (game.outcome, game.munk) == ("hemspel", True)


def test_vackert_spel_in_three_taps(client: Client) -> None:
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    client.force_login(setup.referee)
    client.post(
        enter_url(match.pk),
        {"number": 1, "winner": "B", "outcome": "vackert_spel:dubbelt_kronspel"},
    )
    game = match.games.get()
    assert (game.winner, game.outcome, game.pattern, game.munk) == (
        "B",
        "vackert_spel",
        "dubbelt_kronspel",
        False,
    )


def test_missing_winner_is_a_clear_error(client: Client) -> None:
    setup = drawn(2)
    match = match_of(setup.tournament, 1, 0)
    client.force_login(setup.referee)
    response = client.post(enter_url(match.pk), {"number": 1, "outcome": "jan"})
    assert response.status_code == 400
    assert match.games.count() == 0


def test_conflict_shows_what_the_other_referee_entered(client: Client) -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    other = UserFactory.create(username="kerstin")
    setup.tournament.referees.add(other)
    client.force_login(setup.referee)
    client.get(enter_url(match.pk))  # the page shows game 1 ...
    game_result_enter(match=match, number=1, result=won("B", "jan"), by=other)  # ... meanwhile
    response = client.post(enter_url(match.pk), {"number": 1, "winner": "W", "outcome": "hemspel"})
    assert response.status_code == 409
    page = response.content.decode()
    assert "kerstin" in page and "jan" in page
    assert match.games.count() == 1 and match.games.get().winner == "B"


def test_correction_keeps_versions(client: Client) -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    game = game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    client.force_login(setup.referee)
    url = reverse("web:game_correct", args=[game.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert '<input type="hidden" name="version" value="1">' in page.content.decode()
    response = client.post(url, {"number": 1, "version": 1, "winner": "W", "outcome": "sprangjan"})
    assert response.status_code == 302
    game.refresh_from_db()
    match.refresh_from_db()
    assert game.outcome == "sprangjan" and match.points1 == 4
    versions = GameResult.objects.filter(game=game).order_by("version")
    assert [v.outcome for v in versions] == ["jan", "sprangjan"]
    assert [v.confirmed for v in versions] == [False, True]


def test_conflict_message_is_swedish_on_a_swedish_page(client: Client) -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    other = UserFactory.create(username="kerstin")
    setup.tournament.referees.add(other)
    client.force_login(setup.referee)
    game_result_enter(match=match, number=1, result=won("B", "jan"), by=other)
    response = client.post(enter_url(match.pk), {"number": 1, "winner": "W", "outcome": "hemspel"})
    assert response.status_code == 409
    assert response["Content-Language"] == "sv"
    page = response.content.decode()
    black = players_of(match)[1].name
    assert f"Parti 1 har redan förts in av kerstin: {black} vinner med jan. Ladda om" in page
    assert "was entered already" not in page


def test_a_stale_correction_shows_the_current_result_and_overwrites_nothing(
    client: Client,
) -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    other = UserFactory.create(username="kerstin")
    setup.tournament.referees.add(other)
    game = game_result_enter(
        match=match, number=1, result=won("W", "jan"), starter="W", by=setup.referee
    )
    client.force_login(setup.referee)
    url = reverse("web:game_correct", args=[game.pk])
    client.get(url)  # the page shows version 1 ...
    game_result_correct(  # ... while kerstin corrects it
        game=game, result=won("B", "hemspel"), by=other, expected_version=1
    )
    client.cookies["django_language"] = "en"
    response = client.post(url, {"number": 1, "version": 1, "winner": "W", "outcome": "sprangjan"})
    assert response.status_code == 409
    page = response.content.decode()
    assert 'class="conflict"' in page
    assert "Someone else corrected this game first." in page
    black = players_of(match)[1].name
    assert (
        f"Game 1 was changed by kerstin since you loaded it: it is now {black} wins by hemspel"
        in page
    )
    # The form now names the current version, so a second press is deliberate.
    assert '<input type="hidden" name="version" value="2">' in page
    versions = GameResult.objects.filter(game=game).order_by("version")
    assert [(v.outcome, v.confirmed) for v in versions] == [("jan", False), ("hemspel", True)]


def test_a_correction_without_the_version_field_is_refused(client: Client) -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    game = game_result_enter(
        match=match, number=1, result=won("W", "jan"), starter="W", by=setup.referee
    )
    client.force_login(setup.referee)
    url = reverse("web:game_correct", args=[game.pk])
    response = client.post(url, {"number": 1, "winner": "W", "outcome": "sprangjan"})
    assert response.status_code == 400
    assert GameResult.objects.filter(game=game).count() == 1


def test_a_game_after_the_decision_says_the_match_is_decided(client: Client) -> None:
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    client.force_login(setup.referee)
    client.get(enter_url(match.pk))  # the page shows game 2 ...
    for number in (1, 2):  # ... while another referee's entries decide the match 2–0
        game_result_enter(match=match, number=number, result=won("W", "jan"), by=setup.referee)
    client.cookies["django_language"] = "en"
    response = client.post(enter_url(match.pk), {"number": 3, "winner": "B", "outcome": "jan"})
    assert response.status_code == 409
    page = response.content.decode()
    assert "The match is decided; no more games are entered." in page
    assert "The match was decided after game 2" in page
    assert "Someone else entered this game first." not in page
    assert match.games.count() == 2
