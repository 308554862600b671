"""A championship at several venues, on its pages: each venue's big screen shows its own
matches by its own tables and the tournament's one standings; each venue's wall sheet its
own matches; an unknown venue is a 404; the organiser's venues page creates venues,
scopes referees and moves matches; the match page offers result entry only to a referee
of the match's venue."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from matches.models import Match
from tests.tournaments.test_venues import first_round, split
from tournaments.venues import venue_referee_set
from web.views.screen import screen_context

pytestmark = pytest.mark.django_db


def _sv(user: Any = None) -> Client:
    client = Client()
    client.cookies["django_language"] = "sv"
    if user is not None:
        client.force_login(user)
    return client


def names(matches: list[Match]) -> set[str]:
    return {p.name for m in matches for p in (m.player1, m.player2) if p is not None}


def test_a_venues_screen_shows_its_own_tables_and_the_one_standings() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)], format="round_robin")
    goteborg = s.venues[1]
    everything = screen_context(s.tournament, by=None)
    here = screen_context(s.tournament, by=None, venue=goteborg)
    pairings = [p for p in here["panels"] if p.kind == "pairings"]
    assert len(pairings) == 1
    rows = pairings[0].rows
    assert [(m.venue_id, m.board) for m in rows] == [(goteborg.pk, 1), (goteborg.pk, 2)]
    assert pairings[0].title.endswith("· Göteborg")
    standings = [p for p in here["panels"] if p.kind == "standings"]
    assert standings
    assert sum(len(p.rows) for p in standings) == 8  # every player, not the venue's four
    assert [p.rows for p in standings] == [
        p.rows for p in everything["panels"] if p.kind == "standings"
    ]
    all_rows = [m for p in everything["panels"] if p.kind == "pairings" for m in p.rows]
    assert len(all_rows) == 4


def test_the_screen_page_passes_its_venue_to_the_panels_and_an_unknown_one_is_404() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)], format="round_robin")
    goteborg = s.venues[1]
    url = reverse("web:tournament_screen", args=[s.tournament.pk])
    page = _sv().get(url, {"venue": goteborg.pk}).content.decode()
    panels = reverse("web:tournament_screen_panels", args=[s.tournament.pk])
    assert f'data-src="{panels}?venue={goteborg.pk}"' in page
    assert "Göteborg" in page
    shown = _sv().get(panels, {"venue": goteborg.pk}).content.decode()
    at_goteborg = Match.objects.filter(venue=goteborg, round__number=1).select_related(
        "player1", "player2"
    )
    at_stockholm = Match.objects.filter(venue=s.venues[0], round__number=1).select_related(
        "player1", "player2"
    )
    pairings = shown.split('class="panel panel-standings"')[0]
    assert all(name in pairings for name in names(list(at_goteborg)))
    assert not any(name in pairings for name in names(list(at_stockholm)))
    other = split(4, [("Lund", None)])
    assert _sv().get(url, {"venue": other.venues[0].pk}).status_code == 404
    assert _sv().get(panels, {"venue": "x"}).status_code == 404


def pdf_text(content: bytes) -> str:
    return " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages
    )


def test_a_venues_wall_sheet_lists_its_own_matches_and_tables() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)])
    rows = first_round(s.tournament)
    url = reverse("clubs:round_wall_sheet", args=[s.tournament.pk, 1])
    response = _sv().get(url, {"venue": s.venues[1].pk}, HTTP_ACCEPT_LANGUAGE="sv")
    assert response.status_code == 200
    assert "venue-" in response["Content-Disposition"]
    text = pdf_text(bytes(response.content))
    assert "Göteborg" in text
    at_goteborg = [m for m in rows if m.venue_id == s.venues[1].pk]
    assert all(name in text for name in names(at_goteborg))
    assert not any(name in text for name in names([m for m in rows if m not in at_goteborg]))
    everything = pdf_text(bytes(_sv().get(url).content))
    assert all(name in everything for name in names(rows))
    other = split(4, [("Lund", None)])
    assert _sv().get(url, {"venue": other.venues[0].pk}).status_code == 404


def test_the_wall_sheet_api_takes_a_venue_and_refuses_one_that_is_no_id() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)])
    url = f"/api/tournaments/{s.tournament.pk}/rounds/1/wall-sheet/"
    assert Client().get(url, {"venue": s.venues[0].pk}).status_code == 200
    assert Client().get(url, {"venue": "abc"}).status_code == 400
    # a venue not of the tournament: the API's 400, as any filter naming nothing
    unknown = Client().get(url, {"venue": 999999})
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "invalid"


def test_the_match_page_offers_entry_only_to_a_referee_of_its_venue() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)])
    rows = first_round(s.tournament)
    venue_referee_set(tournament=s.tournament, user=s.referee, venue=s.venues[1], by=s.organiser)
    client = _sv(s.referee)
    enter = reverse("web:match_enter", args=[rows[0].pk])
    assert client.get(enter).status_code == 403
    assert client.get(reverse("web:match_enter", args=[rows[2].pk])).status_code == 200
    page = client.get(reverse("web:match_detail", args=[rows[0].pk])).content.decode()
    assert enter not in page


def test_the_organiser_adds_venues_scopes_a_referee_and_moves_a_match_on_the_page() -> None:
    s = split(8, [])
    client = _sv(s.organiser)
    page = reverse("web:tournament_venues", args=[s.tournament.pk])
    assert _sv(s.referee).get(page).status_code == 404  # organisers only
    assert client.get(page).status_code == 200
    for name in ("Stockholm", "Göteborg"):
        assert client.post(page, {"name": name}).status_code == 302
    stockholm, goteborg = list(s.tournament.venues.order_by("ordering"))
    refused = client.post(page, {"name": "stockholm"})
    assert refused.status_code == 200
    assert "Stockholm" in refused.content.decode()  # the form again, with its error
    first = first_round(s.tournament)
    split_url = reverse("web:round_venues_split", args=[first[0].round_id])
    assert client.post(split_url).status_code == 302
    assert [m.venue_id for m in first_round(s.tournament)] == [stockholm.pk] * 2 + [goteborg.pk] * 2
    client.post(
        reverse("web:tournament_referee_venue", args=[s.tournament.pk]),
        {"user": s.referee.pk, "venue": goteborg.pk},
    )
    assert list(goteborg.referees.all()) == [s.referee]
    client.post(reverse("web:match_venue", args=[first[0].pk]), {"venue": goteborg.pk})
    moved = Match.objects.get(pk=first[0].pk)
    assert (moved.venue_id, moved.table) == (goteborg.pk, 3)
    text = client.get(page).content.decode()
    screen = reverse("web:tournament_screen", args=[s.tournament.pk])
    assert f"{screen}?venue={goteborg.pk}" in text
    assert client.post(reverse("web:venue_delete", args=[goteborg.pk])).status_code == 302
    assert s.tournament.venues.count() == 2  # matches are at it: refused


def test_the_venues_page_names_the_third_place_match_so_not_by_its_round() -> None:
    s = split(4, [("Stockholm", None)], third_place_match=True)
    text = _sv(s.organiser).get(reverse("web:tournament_venues", args=[s.tournament.pk]))
    rows = re.findall(r"<tr>\s*<td data-label=\"Omgång\">([^<]*)</td>", text.content.decode())
    # two semi-finals, the final, and the third-place match under its own name
    assert sorted(rows) == ["Bronsmatch", "Final", "Semifinal", "Semifinal"]
