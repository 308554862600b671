"""Public pages: tournament list, bracket (and its live partial), match, player, glossary."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import MatchState
from matches.services import game_result_enter, match_walkover
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db


def test_tournament_list_shows_public_not_private(client: Client) -> None:
    TournamentFactory.create(name="Öppna cupen")
    TournamentFactory.create(name="Hemliga cupen", is_public=False)
    page = client.get(reverse("web:tournament_list")).content.decode()
    assert "Öppna cupen" in page and "Hemliga cupen" not in page


def test_private_tournament_is_404_for_strangers_and_visible_to_staff(client: Client) -> None:
    setup = drawn(4, is_public=False)
    url = reverse("web:tournament_detail", args=[setup.tournament.pk])
    assert client.get(url).status_code == 404
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 404
    client.force_login(setup.referee)
    assert client.get(url).status_code == 200
    match = match_of(setup.tournament, 1, 0)
    client.logout()
    assert client.get(reverse("web:match_detail", args=[match.pk])).status_code == 404


def test_bracket_has_rounds_as_columns_with_scores_and_marks(client: Client) -> None:
    setup = drawn(6, lengths=[3, 3, 3])  # 8 slots: seeds 1 and 2 get byes
    match = next(
        m
        for m in setup.tournament.matches.filter(round__number=1).order_by("slot")
        if m.state == MatchState.READY
    )
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    game_result_enter(match=match, number=2, result=won("W", "hemspel"), by=setup.referee)
    match.refresh_from_db()
    assert match.state == MatchState.DECIDED and match.decided_early
    other = next(
        m
        for m in setup.tournament.matches.filter(round__number=1).order_by("slot")
        if m.state == MatchState.READY
    )
    p1, _p2 = players_of(other)
    match_walkover(match=other, winner=p1, by=setup.organiser, reason="no show")
    client.cookies["django_language"] = "sv"  # the page's words are checked in Swedish
    page = client.get(reverse("web:tournament_detail", args=[setup.tournament.pk])).content.decode()
    assert page.count('class="round"') == 3
    assert "3–0" in page  # jan (2) + hemspel (1) under ww
    assert "avgjord i förtid" in page
    assert "walkover" in page.lower()
    assert page.count("state-bye") == 2
    # The live partial is the bracket alone and polls while the tournament runs.
    part = client.get(reverse("web:tournament_bracket", args=[setup.tournament.pk])).content
    assert b'hx-trigger="every' in part and b"<html" not in part


def test_ny1_score_shows_plus_and_minus(client: Client) -> None:
    setup = drawn(2, lengths=[3], scale="ny1")
    match = match_of(setup.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    game_result_enter(match=match, number=2, result=won("W", "hemspel"), by=setup.referee)
    page = client.get(reverse("web:tournament_detail", args=[setup.tournament.pk])).content
    assert "3+–0".encode() in page


def test_match_page_lists_games_points_and_explanation(client: Client) -> None:
    setup = drawn(2, lengths=[5])
    match = match_of(setup.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
    game_result_enter(
        match=match, number=2, result=won("B", "hemspel", munk=True), by=setup.referee
    )
    page = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert "jan" in page and "hemspel med munk" in page
    assert "2–2" in page  # points
    # Skiljepoäng: the jan gives 1 to its winner (W), the munk 1 to its loser (W again).
    assert "Skiljepoäng: 2–0" in page
    assert 'class="explain"' in page
    assert reverse("web:match_enter", args=[match.pk]) not in page  # not a referee
    client.force_login(setup.referee)
    page = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert reverse("web:match_enter", args=[match.pk]) in page


def test_player_page_lists_matches(client: Client) -> None:
    setup = drawn(4)
    player = setup.players[0]
    page = client.get(reverse("web:player_detail", args=[player.pk])).content.decode()
    assert setup.tournament.name in page
    assert (
        client.get(reverse("web:player_detail", args=[PlayerFactory.create().pk])).status_code
        == 200
    )


def test_language_switch_and_glossary(client: Client) -> None:
    page = client.get(reverse("web:glossary")).content.decode()
    assert "sprängjan" in page and 'lang="sv"' in page
    response = client.post(reverse("set_language"), {"language": "en", "next": "/words/"})
    assert response.status_code == 302
    page = client.get(reverse("web:glossary")).content.decode()
    assert '<html lang="en">' in page and "Game words" in page


def test_swedish_by_default_whatever_the_browser_says(client: Client) -> None:
    page = client.get(reverse("web:glossary"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content
    assert b'<html lang="sv">' in page
    client.cookies["django_language"] = "en"
    page = client.get(reverse("web:glossary"), HTTP_ACCEPT_LANGUAGE="sv").content
    assert b'<html lang="en">' in page


def _queries(client: Client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_tournament_page_and_bracket_need_the_same_queries_at_any_size(client: Client) -> None:
    counts = []
    for n in (8, 32):
        setup = drawn(n, seeded=4)
        for match in setup.tournament.matches.filter(round__number=1, state=MatchState.READY)[:3]:
            game_result_enter(match=match, number=1, result=won("W", "jan"), by=setup.referee)
        pk = setup.tournament.pk
        counts.append(
            (
                _queries(client, reverse("web:tournament_detail", args=[pk])),
                _queries(client, reverse("web:tournament_bracket", args=[pk])),
            )
        )
    assert counts[0] == counts[1], counts


def test_error_pages_keep_the_site_and_say_why(client: Client) -> None:
    response = client.get("/tournaments/999999/")
    assert response.status_code == 404
    assert "Bräde Arena".encode() in response.content and b"<h1>" in response.content
    setup = drawn(2)
    client.force_login(UserFactory.create())
    match = match_of(setup.tournament, 1, 0)
    response = client.get(reverse("web:match_enter", args=[match.pk]))
    assert response.status_code == 403
    assert b"Bara turneringens domare" in response.content
