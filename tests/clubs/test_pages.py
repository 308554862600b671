"""The rating pages: the list per game (by club), a player's history with its SVG chart,
the rating change on the match page, ratings on the player page; Swedish and English;
nothing from private tournaments."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import PlayerRating, RatingEntry
from tests.clubs.helpers import played
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import match_of

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def club_cup(django_capture_on_commit_callbacks: Any) -> Any:
    """Four players of two clubs; a public cup played out (Åsa wins it) and a private
    one (Bo beats Åsa there)."""
    north, south = ClubFactory.create(name="Norrbrädet"), ClubFactory.create(name="Söderbräde")
    names = [("Åsa Öberg", north), ("Bo Ek", south), ("Cilla Ström", north), ("Dan Wu", south)]
    players = [PlayerFactory.create(name=n, club=c) for n, c in names]
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    cup = played(
        django_capture_on_commit_callbacks,
        players,
        organiser=organiser,
        referee=referee,
        lengths=[3, 5],
        name="Vårcupen",
    )
    secret = played(
        django_capture_on_commit_callbacks,
        [players[1], players[0]],
        organiser=organiser,
        referee=referee,
        lengths=[3],
        name="Hemliga cupen",
        is_public=False,
    )
    return {"players": players, "cup": cup, "secret": secret, "north": north, "referee": referee}


def test_the_rating_list_per_game_and_club(client: Client, club_cup: Any) -> None:
    asa, bo, cilla, dan = club_cup["players"]
    page = client.get(reverse("clubs:ratings")).content.decode()
    # Swedish by default (a decimal comma); Åsa won both her matches: first.
    assert "Ratinglista: Bräde" in page and "Alla klubbar" in page
    order = [page.index(p.name) for p in (asa, bo, cilla, dan)]
    assert order[0] == min(order)
    rating = PlayerRating.objects.get(player=asa).rating
    assert rating > 1500 and str(rating).replace(".", ",") in page
    only_north = client.get(reverse("clubs:ratings"), {"club": club_cup["north"].pk})
    text = only_north.content.decode()
    assert asa.name in text and cilla.name in text and bo.name not in text
    assert client.get(reverse("clubs:ratings"), {"game": "chess"}).status_code == 404
    empty = client.get(reverse("clubs:ratings"), {"game": "backgammon"}).content.decode()
    assert asa.name not in empty


def test_the_rating_list_costs_the_same_queries_at_any_size(client: Client, club_cup: Any) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("clubs:ratings")).status_code == 200
        return len(ctx.captured_queries)

    few = queries()
    for i in range(150):
        player = PlayerFactory.create(name=f"Extra {i}")
        PlayerRating.objects.create(game="brade", player=player, rating=1400 + i, matches=1)
    assert queries() == few


def test_the_history_page_draws_the_chart(client: Client, club_cup: Any) -> None:
    asa = club_cup["players"][0]
    client.cookies["django_language"] = "en"
    response = client.get(reverse("clubs:rating_history", args=[asa.pk, "brade"]))
    page = response.content.decode()
    svg = page[page.index("<svg") : page.index("</svg>") + 6]
    root = ET.fromstring(svg)  # well-formed
    circles = root.findall(f".//{SVG}circle")
    assert len(circles) == 3  # the start and two rated matches
    assert root.findtext(f"{SVG}title", "") == "Bräde rating"
    tooltips = [circle.findtext(f"{SVG}title", "") for circle in circles]
    assert tooltips[0] == "Start: 1500.00"
    # Each match's tooltip: its date (today's, in words), then the result and the change.
    assert tooltips[1].endswith(", won against Dan Wu: +17.32, now 1517.32")
    assert tooltips[2].endswith(", won against Bo Ek: +22.23, now 1539.55")
    # Only the public cup's matches: the private loss to Bo is not there.
    assert "Hemliga cupen" not in page and "Vårcupen" in page


def test_the_player_page_shows_the_rating_and_chart(client: Client, club_cup: Any) -> None:
    asa = club_cup["players"][0]
    page = client.get(reverse("web:player_detail", args=[asa.pk])).content.decode()
    rating = PlayerRating.objects.get(player=asa, game="brade")
    assert str(rating.rating).replace(".", ",") in page  # Swedish decimal comma
    assert "<svg" in page and reverse("clubs:rating_history", args=[asa.pk, "brade"]) in page


def test_the_entered_rating_is_labelled_as_such(client: Client, club_cup: Any) -> None:
    """``Player.rating`` (typed in by organisers) is the *entered* rating: under the
    computed one when there is one, alone otherwise; never an unlabelled second rating."""
    asa = club_cup["players"][0]
    asa.rating = 1712
    asa.save(update_fields=["rating"])
    page = client.get(reverse("web:player_detail", args=[asa.pk])).content.decode()
    computed = PlayerRating.objects.get(player=asa, game="brade")
    assert "Angiven rating 1712: talet en arrangör skrev in" in page
    assert page.index(str(computed.rating).replace(".", ",")) < page.index("Angiven rating")
    assert "rating 1712<" not in page and "· rating 1712" not in page
    newcomer = PlayerFactory.create(name="Nils Nybörjare", rating=1500)
    page = client.get(reverse("web:player_detail", args=[newcomer.pk])).content.decode()
    assert "Angiven rating 1500 (inskriven av en arrangör; inga ratade matcher här ännu)" in page
    assert "<svg" not in page


def test_the_match_page_shows_the_rating_change(client: Client, club_cup: Any) -> None:
    final = match_of(club_cup["cup"], 2, 0)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("web:match_detail", args=[final.pk])).content.decode()
    entry = RatingEntry.objects.get(match=final, player=final.winner)
    assert "Rating change" in page
    assert f"+{entry.change}" in page and f"{entry.before} → {entry.after}" in page
    loser = RatingEntry.objects.get(match=final, won=False)
    assert f"\u2212{-loser.change}" in page


def test_a_private_match_shows_no_rating_change(client: Client, club_cup: Any) -> None:
    final = match_of(club_cup["secret"], 1, 0)
    client.force_login(club_cup["referee"])
    client.cookies["django_language"] = "en"
    page = client.get(reverse("web:match_detail", args=[final.pk])).content.decode()
    assert "Rating change" not in page


def test_a_hidden_player_has_no_history_page(client: Client) -> None:
    hidden = PlayerFactory.create()
    from tests.factories import EntryFactory, TournamentFactory

    EntryFactory.create(player=hidden, tournament=TournamentFactory.create(is_public=False))
    url = reverse("clubs:rating_history", args=[hidden.pk, "brade"])
    assert client.get(url).status_code == 404


def test_the_manage_page_seeds_by_rating(client: Client, club_cup: Any) -> None:
    from tests.factories import EntryFactory, TournamentFactory
    from tournaments.models import Entry

    organiser = OrganiserFactory.create()
    draft = TournamentFactory.create(organisers=[organiser])
    for player in club_cup["players"]:
        EntryFactory.create(tournament=draft, player=player)
    client.force_login(organiser)
    manage = client.get(reverse("web:tournament_manage", args=[draft.pk])).content.decode()
    url = reverse("clubs:tournament_seed_by_rating", args=[draft.pk])
    assert url in manage and "Seeda efter rating" in manage
    response = client.post(url, {"count": ""}, follow=True)
    assert "4 spelare är seedade efter rating." in response.content.decode()
    best = PlayerRating.objects.order_by("-rating").first()
    assert best is not None
    assert Entry.objects.get(tournament=draft, player_id=best.player_id).seed == 1
    # Anyone else is refused by the service (a message, nothing changed).
    Entry.objects.filter(tournament=draft).update(seed=None)
    client.force_login(UserFactory.create())
    refused = client.post(url, {}, follow=True).content.decode()
    assert "arrangör" in refused.lower()
    assert not Entry.objects.filter(tournament=draft, seed__isnull=False).exists()
