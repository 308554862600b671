"""A progressive consolation whose final decides third place: stored on the tournament,
checked by the services, and placing every player from 1 to n (the consolation's winner
third, its final's loser fourth), through the services, the API, the pages and the
placings export."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import ValidationError
from matches.elimination_brackets import match_links
from matches.models import Match, MatchState
from matches.round_selectors import tournament_bracket, tournament_placings
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.test_elimination_formats import drawn, finished, losses, play_out
from tournaments import elimination_draw
from tournaments.format_change import tournament_format_set
from tournaments.models import RoundKind, Tournament
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def _final_of_consolation(t: Tournament) -> Match:
    final = (
        Match.objects.filter(tournament=t, round__kind=RoundKind.CONSOLATION)
        .order_by("-round__number")
        .first()
    )
    assert final is not None
    return final


def _main_final(t: Tournament) -> Match:
    final = (
        Match.objects.filter(tournament=t, round__kind=RoundKind.KNOCKOUT)
        .order_by("-round__number")
        .first()
    )
    assert final is not None
    return final


@pytest.mark.parametrize("n", [*range(3, 33), 48, 64])
def test_every_place_from_one_to_n_once_the_consolation_final_third_and_fourth(n: int) -> None:
    t, referee, players = drawn(
        n,
        "consolation",
        progressive_consolation=True,
        consolation_third_place=True,
        seeded=n // 3,
        draw_seed=n,
    )
    assert t.consolation_third_place
    play_out(t, referee, random.Random(n))
    finished(t)
    placings = tournament_placings(tournament=t)
    assert sorted(p.player.pk for p in placings) == sorted(p.pk for p in players)
    # the places tile 1…n: a shared range is held by exactly as many players as it spans
    ranges = Counter((p.first, p.last) for p in placings)
    covered = sorted(place for first, last in ranges for place in range(first, last + 1))
    assert covered == list(range(1, n + 1))
    for (first, last), count in ranges.items():
        assert count == last - first + 1, (first, last, count)
    by_place = {p.first: p.player.pk for p in placings if p.first == p.last}
    final = _main_final(t)
    assert (by_place[1], by_place[2]) == (final.winner_id, final.loser.pk)  # type: ignore[union-attr]
    if n == 3:  # no consolation match: the semifinal's loser is third alone
        assert not Match.objects.filter(tournament=t, round__kind=RoundKind.CONSOLATION).exists()
        assert [p.first for p in placings] == [1, 2, 3]
        return
    consolation_final = _final_of_consolation(t)
    assert by_place[3] == consolation_final.winner_id
    assert by_place[4] == consolation_final.loser.pk  # type: ignore[union-attr]
    # third place is decided among everyone but the finalists: both semifinal losers
    # played on in the consolation, and the third lost once at most
    semifinal_losers = {
        m.loser.pk  # type: ignore[union-attr]
        for m in Match.objects.filter(
            tournament=t, round__kind=RoundKind.KNOCKOUT, round__rounds_after=1
        ).exclude(state=MatchState.BYE)
    }
    in_consolation = {
        p
        for m in Match.objects.filter(tournament=t, round__kind=RoundKind.CONSOLATION)
        for p in (m.player1_id, m.player2_id)
    }
    assert semifinal_losers <= in_consolation
    assert losses(t)[by_place[3]] == 1


def test_without_the_option_the_consolation_places_nobody() -> None:
    t, referee, _ = drawn(8, "consolation", progressive_consolation=True, draw_seed=8)
    assert not t.consolation_third_place
    play_out(t, referee, random.Random(8))
    placings = tournament_placings(tournament=t)
    assert [(p.first, p.last) for p in placings].count((3, 4)) == 2
    winner = _final_of_consolation(t).winner_id
    assert next(p for p in placings if p.player.pk == winner).first > 2


def test_the_option_needs_a_progressive_consolation() -> None:
    organiser = OrganiserFactory.create()
    common: dict[str, Any] = {
        "by": organiser,
        "name": "Bronsfrågan",
        "start_date": datetime.date(2026, 11, 25),
    }
    with pytest.raises(ValidationError) as simple:
        tournament_create(format="consolation", consolation_third_place=True, **common)
    assert simple.value.code == "consolation_third_place"
    # other formats keep it off, as they keep the progressive consolation off
    knockout = tournament_create(format="knockout", consolation_third_place=True, **common)
    assert not knockout.consolation_third_place
    # changed on a draft: on with the progressive consolation, refused without it
    t = tournament_create(format="consolation", progressive_consolation=True, **common)
    tournament_format_set(tournament=t, by=organiser, consolation_third_place=True)
    t.refresh_from_db()
    assert t.consolation_third_place
    with pytest.raises(ValidationError):
        tournament_format_set(tournament=t, by=organiser, progressive_consolation=False)
    t.refresh_from_db()
    assert t.progressive_consolation and t.consolation_third_place


def test_the_match_page_sentence_and_the_bracket_name_third_place() -> None:
    t, referee, _ = drawn(
        6, "consolation", progressive_consolation=True, consolation_third_place=True
    )
    final = _final_of_consolation(t)
    assert [text for text, _ in match_links(final)] == [
        "The winner takes third place, the loser fourth."
    ]
    play_out(t, referee, random.Random(6))
    (section,) = tournament_bracket(tournament=t).sections
    assert section.winner is not None
    assert section.winner.pk == _final_of_consolation(t).winner_id


def test_api_creates_changes_and_places(client: Client) -> None:
    organiser = OrganiserFactory.create()
    client.force_login(organiser)
    created = client.post(
        "/api/tournaments/",
        {
            "name": "Bronskväll",
            "start_date": "2026-11-25",
            "format": "consolation",
            "consolation_third_place": True,
        },
        content_type="application/json",
    )
    assert created.status_code == 400
    assert created.json()["error"]["code"] == "consolation_third_place"
    created = client.post(
        "/api/tournaments/",
        {
            "name": "Bronskväll",
            "start_date": "2026-11-25",
            "format": "consolation",
            "progressive_consolation": True,
            "consolation_third_place": True,
        },
        content_type="application/json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["progressive_consolation"], body["consolation_third_place"]) == (True, True)
    pk = body["id"]
    off = client.patch(
        f"/api/tournaments/{pk}/", {"consolation_third_place": False}, "application/json"
    )
    assert off.status_code == 200 and off.json()["consolation_third_place"] is False
    on = client.patch(
        f"/api/tournaments/{pk}/", {"consolation_third_place": True}, "application/json"
    )
    assert on.json()["consolation_third_place"] is True
    t = Tournament.objects.get(pk=pk)
    t.referees.add(organiser)
    for i in range(5):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Spelare {i + 1}"))
    rounds = len(elimination_draw.round_plan(elimination_draw.bracket_shape(t, 5)))
    drawn_api = client.post(
        f"/api/tournaments/{pk}/draw/", {"lengths": [1] * rounds}, "application/json"
    )
    assert drawn_api.status_code == 201, drawn_api.json()
    play_out(t, organiser, random.Random(5))
    placings = client.get(f"/api/tournaments/{pk}/placings/").json()
    places = [(row["first"], row["last"]) for row in placings]
    assert places == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
    final = _final_of_consolation(t)
    assert placings[2]["player"]["id"] == final.winner_id
    assert placings[3]["player"]["id"] == final.loser.pk  # type: ignore[union-attr]


def test_organiser_form_page_and_export(client: Client) -> None:
    organiser = OrganiserFactory.create()
    client.force_login(organiser)
    form = client.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert 'name="consolation_third_place"' in form
    assert "Tröstturneringen avgör tredjeplatsen" in form
    fields = {
        "name": "Bronsform",
        "start_date": "2026-11-25",
        "end_date": "2026-11-25",
        "game": "brade",
        "rules": "talisman",
        "scale": "ww",
        "resignation_policy": "capped",
        "results_by": "referees",
        "format": "consolation",
        "consolation_third_place": "on",
        "is_public": "on",
    }
    refused = client.post("/tournaments/new/", fields, HTTP_ACCEPT_LANGUAGE="sv")
    assert refused.status_code == 200
    assert "Bara en progressiv tröstturnering avgör tredjeplatsen" in refused.content.decode()
    made = client.post(
        "/tournaments/new/",
        {**fields, "progressive_consolation": "on"},
        HTTP_ACCEPT_LANGUAGE="sv",
    )
    assert made.status_code == 302
    t = Tournament.objects.get(name="Bronsform")
    assert t.progressive_consolation and t.consolation_third_place
    t2, referee, _ = drawn(
        7, "consolation", progressive_consolation=True, consolation_third_place=True
    )
    play_out(t2, referee, random.Random(7))
    third = _final_of_consolation(t2).winner
    assert third is not None
    page = client.get(f"/tournaments/{t2.pk}/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert f"Tredje plats, tröstturneringens vinnare: <strong>{third.name}</strong>" in page
    export = client.get(reverse("clubs:tournament_placings_export", args=[t2.pk, "json"]))
    rows = [(r["place"], r["place_to"], r["player"]) for r in export.json()["rows"]]
    assert rows[2] == (3, 3, third.name)
    assert [row[:2] for row in rows[:4]] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert len(rows) == 7 and rows[-1][1] == 7
