"""Swiss pages: the format and its rounds on the new-tournament page,
the start, check-in, pairing, swap (warned, then confirmed) and publishing from the manage
page, and the public page with the pairings, their reasons and the standings, in Swedish
(the default) and English; unpublished pairings stay hidden from the public."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.test_swiss import win_in_games
from tournaments.models import Entry, Round, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return OrganiserFactory.create(username="ordf")


def _create(client: Client, **extra: str) -> Any:
    return client.post(
        reverse("web:tournament_create"),
        {
            "name": "Schweizerkvällen",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "format": "swiss",
            "is_public": "on",
            **extra,
        },
    )


def test_run_a_swiss_from_the_pages_in_swedish(client: Client, organiser: Any) -> None:
    client.force_login(organiser)
    form = client.get(reverse("web:tournament_create")).content.decode()
    assert 'value="swiss"' in form and "Schweizersystem" in form
    assert _create(client, swiss_rounds="3").status_code == 302
    t = Tournament.objects.get(name="Schweizerkvällen")
    assert (t.format, t.swiss_rounds) == ("swiss", 3)
    players = [PlayerFactory.create(name=f"Spelare {i}", rating=1900 - i) for i in range(1, 6)]
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert "Starta schweizerturneringen" in manage and 'value="3, 3, 3"' in manage
    client.post(
        reverse("web:tournament_bracket_generate", args=[t.pk]),
        {"lengths": "3, 3, 3", "draw_seed": "11"},
    )
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and Round.objects.filter(tournament=t).count() == 3

    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert "Incheckning" in manage and "Lotta omgång 1" in manage
    out = Entry.objects.get(tournament=t, player=players[4])
    client.post(reverse("web:swiss_presence", args=[t.pk, out.pk]), {"present": "0"})
    assert Entry.objects.get(pk=out.pk).absent
    response = client.post(reverse("web:swiss_pair", args=[t.pk]), follow=True)
    page = response.content.decode()
    assert "Omgång 1 är lottad" in page and "inte publicerad" in page
    assert "lika poäng (0)" in page and "Byt två spelare" in page

    # The public does not see the unpublished pairing.
    public = Client()
    public.cookies["django_language"] = "sv"
    hidden = public.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "lika poäng" not in hidden and "Ingen omgång är publicerad än" in hidden

    # A swap that makes no rematch goes through; the reason says so.
    swap = reverse("web:swiss_swap", args=[t.pk, 1])
    response = client.post(swap, {"first": players[0].pk, "second": players[1].pk}, follow=True)
    assert "har bytt plats" in response.content.decode()
    assert "parad av en arrangör (byte)" in response.content.decode()
    response = client.post(reverse("web:swiss_publish", args=[t.pk, 1]), follow=True)
    assert "Omgång 1 är publicerad" in response.content.decode()
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        win_in_games(m, m.player1_id or 0, organiser)  # played: a forfeit is no meeting
    client.post(reverse("web:swiss_pair", args=[t.pk]))
    # Swapping two who met in round 1 is warned of and must be confirmed.
    swap = reverse("web:swiss_swap", args=[t.pk, 2])
    first = Match.objects.filter(tournament=t, round__number=1, player2__isnull=False)[0]
    assert first.player1 is not None and first.player2 is not None
    mine, met = first.player1, first.player2  # they met in round 1
    other = Match.objects.get(Q(player1=mine) | Q(player2=mine), tournament=t, round__number=2)
    partner = other.player2 if other.player1_id == mine.pk else other.player1
    assert partner is not None and met is not None
    warned = client.post(swap, {"first": partner.pk, "second": met.pk}).content.decode()
    assert "har redan mötts" in warned and "Byt ändå" in warned
    assert 'name="confirm" value="on"' in warned
    done = client.post(
        swap, {"first": partner.pk, "second": met.pk, "confirm": "on"}, follow=True
    ).content.decode()
    assert "Bekräftat trots" in done

    client.post(reverse("web:swiss_publish", args=[t.pk, 2]))
    page = public.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "Tabell" in page and "Varför denna ordning" in page
    assert "Omgång 2" in page and "Omgång 1" in page and "Varför lottade" in page
    assert "Buchholz" in page and " är före " in page
    assert "frirond" in page


def test_the_public_page_in_english(client: Client, organiser: Any) -> None:
    client.force_login(organiser)
    assert _create(client).status_code == 302
    t = Tournament.objects.get(name="Schweizerkvällen")
    for i in range(4):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"P{i}"))
    client.post(reverse("web:tournament_bracket_generate", args=[t.pk]), {"lengths": "3, 3"})
    client.post(reverse("web:swiss_pair", args=[t.pk]))
    client.post(reverse("web:swiss_publish", args=[t.pk, 1]))
    public = Client()
    public.cookies["django_language"] = "en"
    page = public.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert "equal scores (0)" in page and "Standings" in page and "Round 1" in page
    assert "Buchholz cut 1" in page
