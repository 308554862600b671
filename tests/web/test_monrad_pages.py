"""Monrad's pages: the format on the new-tournament page, the start, pairing and publishing
from the manage page in the format's own words, and the public page with the pairings,
their reasons and the standings, in Swedish and English — the Swiss's pages, reached
through the formats' seam with nothing of their own."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from matches.services import match_walkover
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return OrganiserFactory.create(username="monrad")


def _language(client: Client, code: str) -> Client:
    client.cookies["django_language"] = code
    return client


def _create_and_start(client: Client, players: int) -> Tournament:
    response = client.post(
        reverse("web:tournament_create"),
        {
            "name": "Monradkvällen",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "format": "monrad",
            "swiss_rounds": "2",
            "is_public": "on",
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Monradkvällen")
    for i in range(1, players + 1):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Spelare {i}"))
    return t


def test_run_a_monrad_from_the_pages_in_swedish(client: Client, organiser: Any) -> None:
    _language(client, "sv")
    client.force_login(organiser)
    form = client.get(reverse("web:tournament_create")).content.decode()
    assert 'value="monrad"' in form and "Monrad (omgång 1 efter seedning" in form
    t = _create_and_start(client, 5)
    assert (t.format, t.swiss_rounds) == ("monrad", 2)
    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert "Starta Monradturneringen" in manage and 'value="3, 3"' in manage
    started = client.post(
        reverse("web:tournament_bracket_generate", args=[t.pk]),
        {"lengths": "3, 3", "draw_seed": "11"},
        follow=True,
    ).content.decode()
    assert "Monradturneringen har startat (lottningsfrö 11)" in started
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    assert "Monradomgångar" in started and "Lotta omgång 1" in started

    paired = client.post(reverse("web:swiss_pair", args=[t.pk]), follow=True).content.decode()
    assert "Omgång 1 är lottad" in paired and "lika poäng (0)" in paired
    client.post(reverse("web:swiss_publish", args=[t.pk, 1]))
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        assert m.player1 is not None
        match_walkover(match=m, winner=m.player1, by=organiser)
    public = _language(Client(), "sv")
    page = public.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Omgång 1" in page and "Tabell" in page and "frirond" in page
    # The standings rank players level on every tiebreak by pairing number, and say so;
    # each pair's reason names the places it was made from.
    assert "lottningsnummer, lottning." in page
    assert "plats 1 och 2 i tabellen: lika poäng (0)" in page
    assert "på lottningsnummer (1 mot 3)" in page


def test_the_monrad_pages_in_english(client: Client, organiser: Any) -> None:
    _language(client, "en")
    client.force_login(organiser)
    t = _create_and_start(client, 4)
    client.post(reverse("web:tournament_bracket_generate", args=[t.pk]), {"lengths": "3, 3"})
    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert "Monrad rounds" in manage and "Swiss rounds" not in manage
    client.post(reverse("web:swiss_pair", args=[t.pk]))
    client.post(reverse("web:swiss_publish", args=[t.pk, 1]))
    public = _language(Client(), "en")
    page = public.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "equal scores (0)" in page and "Standings" in page and "Round 1" in page
    assert "places 1 and 2 in the standings: equal scores (0)" in page
    assert "pairing number, drawing of lots." in page
    api = public.get(f"/api/tournaments/{t.pk}/swiss/")
    assert api.status_code == 200
    standings = public.get(f"/api/tournaments/{t.pk}/standings/")
    assert standings.status_code == 200
