"""Consolation and double-elimination pages: the format and its option chosen on
the new-tournament page, the draw from the manage page with the default lengths, the
public page with the losers' or consolation bracket and the final drawn under the main
bracket, the match page saying where the winner and the loser go, and the bracket API's
other brackets; in English and Swedish."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from matches.services import game_result_enter
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return OrganiserFactory.create(username="ordf")


def _create(client: Client, format: str, **extra: str) -> Tournament:
    response = client.post(
        reverse("web:tournament_create"),
        {
            "name": f"Klubbkväll {format}",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "format": format,
            **extra,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return Tournament.objects.get(name=f"Klubbkväll {format}")


def _enter_and_draw(client: Client, t: Tournament, n: int, lengths: str) -> None:
    for i in range(1, n + 1):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Spelare {i}"), seed=i)
    response = client.post(
        reverse("web:tournament_bracket_generate", args=[t.pk]),
        {"lengths": lengths, "draw_seed": "5"},
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING


def _win_upper(match: Match, by: Any) -> None:
    game_result_enter(match=match, number=1, result=won("W", "hemspel"), by=by, starter="W")


def test_double_elimination_from_the_form_to_the_losers_bracket(
    client: Client, organiser: Any
) -> None:
    client.cookies["django_language"] = "en"
    client.force_login(organiser)
    form = client.get(reverse("web:tournament_create")).content.decode()
    assert 'value="double_elimination"' in form and "Replay the final if needed" in form
    t = _create(client, "double_elimination", grand_final_reset="on")
    assert t.grand_final_reset
    for i in range(1, 5):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Spelare {i}"), seed=i)
    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    # 4 players: winners' rounds 2, losers' rounds 2, the final and its replay.
    assert 'value="5, 7, 3, 3, 7, 7"' in manage
    client.post(
        reverse("web:tournament_bracket_generate", args=[t.pk]),
        {"lengths": "1, 1, 1, 1, 1, 1", "draw_seed": "5"},
    )
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    t.referees.add(organiser)
    _win_upper(Match.objects.get(tournament=t, code="W1.1"), organiser)
    page = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Winners&#x27; bracket" in page and "Losers&#x27; bracket" in page
    assert "Grand final, replay" in page
    assert 'id="bracket-losers"' in page and 'id="bracket-final"' in page
    losers = page[page.index('id="bracket-losers"') : page.index('id="bracket-final"')]
    assert "Spelare 4" in losers, "the loser of W1.1 stands in the losers' bracket"
    w11 = Match.objects.get(tournament=t, code="W1.1")
    match_page = client.get(reverse("web:match_detail", args=[w11.pk])).content.decode()
    assert "The winner goes on to Winners&#x27; bracket, final." in match_page
    assert "The loser goes to Losers&#x27; bracket, round 1." in match_page
    api = client.get(f"/api/tournaments/{t.pk}/bracket/").json()
    assert [s["key"] for s in api["sections"]] == ["losers", "final"]
    assert api["main_title"] == "Winners' bracket"
    first = api["rounds"][0]["matches"][0]
    assert first["code"] == "W1.1" and first["loser_to"] is not None

    client.cookies["django_language"] = "sv"
    page = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Vinnarträd" in page and "Förlorarträd" in page and "Omspel av finalen" in page
    match_page = client.get(reverse("web:match_detail", args=[w11.pk])).content.decode()
    assert "Förloraren går till Förlorarträd, omgång 1." in match_page


def test_consolation_page_names_the_consolation_and_its_winner(
    client: Client, organiser: Any
) -> None:
    client.cookies["django_language"] = "sv"
    client.force_login(organiser)
    t = _create(client, "consolation")
    assert not t.progressive_consolation
    _enter_and_draw(client, t, 4, "1, 1, 1")
    t.referees.add(referee := UserFactory.create())
    for code in ("M1.1", "M1.2", "C1.1", "M2.1"):
        _win_upper(Match.objects.get(tournament=t, code=code), referee)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    page = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Huvudturnering" in page and "Tröstturnering" in page
    winner = Match.objects.get(tournament=t, code="C1.1").winner
    assert winner is not None
    assert f"Tröstturneringens vinnare: <strong>{winner.name}</strong>" in page
    c11 = Match.objects.get(tournament=t, code="C1.1")
    assert c11.state == MatchState.DECIDED
    match_page = client.get(reverse("web:match_detail", args=[c11.pk])).content.decode()
    assert "Vinnaren vinner tröstturneringen." in match_page


def test_progressive_consolation_is_chosen_on_the_form(client: Client, organiser: Any) -> None:
    client.force_login(organiser)
    t = _create(client, "consolation", progressive_consolation="on")
    assert t.progressive_consolation
    _enter_and_draw(client, t, 8, "1, 1, 1, 1, 1, 1")
    page = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert 'id="bracket-consolation"' in page


def test_the_api_creates_draws_and_shows_a_double_elimination_without_reset() -> None:
    from tests.api.conftest import client_for

    api = client_for(OrganiserFactory.create())
    r = api.post(
        "/api/tournaments/",
        {
            "name": "API dubbel",
            "start_date": "2027-03-06",
            "format": "double_elimination",
            "grand_final_reset": False,
        },
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert (r.json()["format"], r.json()["grand_final_reset"]) == ("double_elimination", False)
    tid = r.json()["id"]
    for i in range(5):
        player = api.post("/api/players/", {"name": f"Spelare {i}"}, format="json").json()
        api.post(f"/api/tournaments/{tid}/entries/", {"player": player["id"]}, format="json")
    # 5 players: winners' rounds 3; losers' rounds 2 to 4 (round 1 is all byes); the final.
    r = api.post(f"/api/tournaments/{tid}/draw/", {"lengths": [1] * 7, "draw_seed": 5})
    assert r.status_code == 201, r.json()
    data = r.json()
    assert [s["key"] for s in data["sections"]] == ["losers", "final"]
    losers, final = data["sections"]
    assert [r["title"] for r in losers["rounds"]] == ["Round 1", "Round 2", "Final"]
    assert [len(r["matches"]) for r in losers["rounds"]] == [2, 1, 1]
    assert [r["matches"][0]["code"] for r in final["rounds"]] == ["GF"]
    codes = [m["code"] for m in data["rounds"][0]["matches"]]
    assert codes == ["W1.1", "W1.2", "W1.3", "W1.4"]
    # one shape for every bracket: the main one's rounds and each section's alike
    every = [*data["rounds"], *(r for section in data["sections"] for r in section["rounds"])]
    assert {tuple(sorted(r)) for r in every} == {("matches", "round", "title")}
    assert [r["title"] for r in data["rounds"]] == ["Quarterfinal", "Semifinal", "Winners' final"]
    # a place the byes emptied is null, so the match keeps its place between its feeders
    assert [m is None for m in losers["rounds"][0]["matches"]] == [False, True]
    assert api.get(f"/api/tournaments/{tid}/bracket/").json() == data


@pytest.mark.parametrize("format", ["double_elimination", "consolation"])
def test_the_bracket_reads_in_the_same_number_of_queries_whatever_the_field(
    client: Client, format: str
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.tournaments.test_elimination_formats import drawn

    counts = []
    for n in (8, 64):
        t, _referee, _players = drawn(n, format)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/api/tournaments/{t.pk}/bracket/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
