"""The big screen: the current round's pairings by table with live results, then the
standings (round robin, Swiss) or the bracket (knockout); the page and its panels answer
304 while nothing changed and show a result once entered; only published rounds; the
tournament page links it for its staff."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from matches.services import game_result_enter
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tests.tournaments.test_round_robin import group, win
from tests.tournaments.test_swiss import swiss
from web.views.screen import PAIRINGS_PER_PANEL, screen_context

pytestmark = pytest.mark.django_db


def _sv() -> Client:
    client = Client()
    client.cookies["django_language"] = "sv"
    return client


def test_a_knockout_screen_shows_the_first_round_by_table_then_the_bracket() -> None:
    s = drawn(8)
    context = screen_context(s.tournament, by=None)
    kinds = [p.kind for p in context["panels"]]
    assert kinds == ["pairings", "bracket"]
    pairings = context["panels"][0].rows
    assert [m.board for m in pairings] == [1, 2, 3, 4]
    bracket = context["panels"][1].rows
    assert [br.round.number for br in bracket] == [1, 2, 3]


def test_a_poll_with_nothing_new_costs_one_query(django_assert_num_queries: Any) -> None:
    s = drawn(4, lengths=[3, 3])
    client = _sv()
    panels_url = reverse("web:tournament_screen_panels", args=[s.tournament.pk])
    tag = client.get(panels_url)["ETag"]
    with django_assert_num_queries(1):  # the tournament's stamp
        assert client.get(panels_url, HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_the_page_shows_a_result_and_answers_304_until_then() -> None:
    s = drawn(4, lengths=[3, 3])
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    client = _sv()
    url = reverse("web:tournament_screen", args=[s.tournament.pk])
    panels_url = reverse("web:tournament_screen_panels", args=[s.tournament.pk])
    first = client.get(url)
    assert first.status_code == 200
    text = first.content.decode()
    assert "Bord" in text and one.name in text and two.name in text
    assert 'http-equiv="refresh"' in text  # the fallback without a working script
    assert panels_url in text
    tag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    panels = client.get(panels_url)
    assert client.get(panels_url, HTTP_IF_NONE_MATCH=panels["ETag"]).status_code == 304

    game_result_enter(match=match, number=1, result=won("W", "jan"), by=s.referee)
    again = client.get(panels_url, HTTP_IF_NONE_MATCH=panels["ETag"])
    assert again.status_code == 200
    row = re.search(r'<tr class="state-playing">.*?</tr>', again.content.decode(), re.S)
    assert row is not None and "spelas" in row.group(0)
    assert "2–0" in row.group(0)  # the match's points: a jan is worth two on this scale


def test_a_round_robin_screen_rotates_pairings_and_standings_pages() -> None:
    t, referee, _players = group(5)
    first_round = Match.objects.filter(round__tournament=t, round__number=1).exclude(
        state=MatchState.BYE
    )
    for m in first_round:
        assert m.player1_id is not None
        win(m, m.player1_id, referee)
    context = screen_context(t, by=None)
    kinds = [p.kind for p in context["panels"]]
    assert kinds == ["pairings", "standings"]
    # Round 1 is played: round 2 is the current one.
    assert context["panels"][0].title == "Round 2"
    standings = context["panels"][1].rows
    assert [line.place for line, _values in standings] == [1, 2, 3, 4, 5]


def test_many_pairings_are_split_into_panels() -> None:
    t, _referee, _players = group(2 * PAIRINGS_PER_PANEL + 2)
    pairings = [p for p in screen_context(t, by=None)["panels"] if p.kind == "pairings"]
    assert [(p.page, p.pages) for p in pairings] == [(1, 2), (2, 2)]
    assert [len(p.rows) for p in pairings] == [PAIRINGS_PER_PANEL, 1]


def test_an_unpublished_swiss_round_is_not_on_the_screen_even_for_its_organiser() -> None:
    t, organiser, players = swiss(6)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    client = Client()
    client.force_login(organiser)
    url = reverse("web:tournament_screen", args=[t.pk])
    text = client.get(url).content.decode()
    outside_standings = re.sub(r'<table class="standings">.*?</table>', "", text, flags=re.S)
    assert players[0].name not in outside_standings
    assert 'class="panel panel-pairings"' not in text
    swiss_round_publish(round=rnd, by=organiser)
    text = client.get(url).content.decode()
    assert 'class="panel panel-pairings"' in text


def test_the_tournament_page_links_the_screen_for_its_staff_only() -> None:
    s = drawn(4)
    url = reverse("web:tournament_detail", args=[s.tournament.pk])
    screen_url = reverse("web:tournament_screen", args=[s.tournament.pk])
    staff = Client()
    staff.force_login(s.organiser)
    assert screen_url in staff.get(url).content.decode()
    referee = Client()
    referee.force_login(s.referee)
    assert screen_url in referee.get(url).content.decode()
    other = Client()
    other.force_login(UserFactory.create())
    assert screen_url not in other.get(url).content.decode()
    assert screen_url not in Client().get(url).content.decode()


def test_a_private_tournament_screen_is_a_404_to_strangers() -> None:
    s = drawn(4, is_public=False)
    url = reverse("web:tournament_screen", args=[s.tournament.pk])
    assert Client().get(url).status_code == 404
    staff = Client()
    staff.force_login(s.organiser)
    assert staff.get(url).status_code == 200


def test_a_game_recorded_move_by_move_shows_as_played_from_its_start() -> None:
    """The recording's start moves the screen's version: the row says "spelas" with the
    match's score at once, not "–" until the game's result."""
    from scoresheets.services import live_start

    s = drawn(4, lengths=[3, 3])
    match = match_of(s.tournament, 1, 0)
    client = _sv()
    panels_url = reverse("web:tournament_screen_panels", args=[s.tournament.pk])
    before = client.get(panels_url)
    row = re.search(r'<tr class="state-ready">.*?</tr>', before.content.decode(), re.S)
    assert row is not None and "spelas" not in row.group(0)
    live_start(match=match, by=s.referee)
    after = client.get(panels_url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    rows = re.findall(r'<tr class="state-ready">.*?</tr>', after.content.decode(), re.S)
    recorded = [r for r in rows if match.player1.name in r]  # type: ignore[union-attr]
    assert recorded and "spelas" in recorded[0] and "0–0" in recorded[0]


def test_a_finished_knockout_ends_on_its_champion() -> None:
    s = drawn(4, lengths=[1, 1])
    for number in (1, 2):
        for m in Match.objects.filter(
            tournament=s.tournament, round__number=number, state=MatchState.READY
        ):
            game_result_enter(
                match=m, number=1, result=won("W", "hemspel"), by=s.referee, starter="W"
            )
    final = Match.objects.get(tournament=s.tournament, round__number=2)
    assert final.winner is not None
    s.tournament.refresh_from_db()
    context = screen_context(s.tournament, by=None)
    first = context["panels"][0]
    assert first.kind == "podium"
    assert [(p.first, p.player) for p in first.rows][:2] == [(1, final.winner), (2, final.loser)]
    page = _sv().get(reverse("web:tournament_screen_panels", args=[s.tournament.pk]))
    html = page.content.decode()
    assert re.search(
        rf'<li class="place-1"><span class="t">1</span> <span class="name">{final.winner.name}',
        html,
    )
