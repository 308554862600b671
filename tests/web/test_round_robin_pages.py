"""Round-robin pages: the format chosen on the new-tournament page, the draw
from the manage page, and the public table with the cross table, the rounds and why each
player is above the next, in English and Swedish."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from matches.services import match_walkover
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Round, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return OrganiserFactory.create(username="ordf")


def _create(client: Client, **extra: str) -> Any:
    return client.post(
        reverse("web:tournament_create"),
        {
            "name": "Onsdagsgruppen",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "format": "round_robin",
            **extra,
        },
    )


def test_create_a_round_robin_draw_it_and_read_the_table(client: Client, organiser: Any) -> None:
    client.cookies["django_language"] = "en"
    client.force_login(organiser)
    form = client.get(reverse("web:tournament_create")).content.decode()
    assert 'value="round_robin"' in form and "Tiebreak 1" in form
    response = _create(client, tiebreak_1="direct_encounter", tiebreak_2="wins")
    assert response.status_code == 302
    t = Tournament.objects.get(name="Onsdagsgruppen")
    assert (t.format, t.tiebreaks, t.double_round) == (
        "round_robin",
        ["direct_encounter", "wins"],
        False,
    )
    players = [PlayerFactory.create(name=f"Spelare {i}") for i in range(1, 6)]
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert "Draw the round robin" in manage and 'value="3, 3, 3, 3, 3"' in manage
    client.post(
        reverse("web:tournament_bracket_generate", args=[t.pk]),
        {"lengths": "3, 3, 3, 3, 3", "draw_seed": "5"},
    )
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and Round.objects.filter(tournament=t).count() == 5
    first = Match.objects.filter(tournament=t, state=MatchState.READY).first()
    assert first is not None and first.player2 is not None
    referee = UserFactory.create()
    t.referees.add(referee)
    match_walkover(match=first, winner=first.player2, by=referee)
    page = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Standings" in page and "Who played whom" in page and "Round 5" in page
    assert f"{first.player2.name} is above" in page and "on match points (1 to 0)" in page
    assert ">+</a>" in page and ">−</a>" in page
    assert 'id="bracket-h"' not in page and 'id="placings-h"' not in page
    client.cookies["django_language"] = "sv"
    swedish = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Tabell" in swedish and "Vem mötte vem" in swedish
    assert f"{first.player2.name} är före" in swedish and "på matchpoäng (1 mot 0)" in swedish


def test_the_form_refuses_a_tiebreak_twice_and_skiljepoang_in_backgammon(
    client: Client, organiser: Any
) -> None:
    client.cookies["django_language"] = "en"
    client.force_login(organiser)
    page = _create(client, tiebreak_1="wins", tiebreak_2="wins").content.decode()
    assert "A tiebreak is given twice in the chain." in page
    page = _create(client, game="backgammon", tiebreak_1="skiljepoang").content.decode()
    assert "this game has none" in page
    assert not Tournament.objects.exists()
