"""The Danish federation's rating list beside FIBS: kept once a club's list chooses it,
shown by the list page, the API and the exports, updated after every match as a rebuild
would give it, and the FIBS list unchanged byte for byte."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import ClubRatingList, PlayerRating, RatingBook, RatingEntry
from clubs.rating_services import club_rating_formula_set, rating_starts_set, ratings_rebuild
from core.errors import PermissionDeniedError, ValidationError
from tests.clubs.helpers import played
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

# The FIBS list of the cups below (Swedish CSV), as the site made it before there was a
# choice of formula: taken from the code before the Danish list was added. The players'
# ids are written <first letter of the name>.
FIBS_CSV = (
    "\ufeffRang;Spelar-id;Spelare;Klubb;Rating;Erfarenhet;Matcher\r\n"
    "1;<D>;Dan Wu;Söderbräde;1617,98;126;2\r\n"
    "2;<Å>;Åsa Öberg;Norrbrädet;1525,61;11;3\r\n"
    "3;<B>;Bo Ek;Söderbräde;1495,15;8;2\r\n"
    "4;<C>;Cilla Ström;Norrbrädet;1482,68;3;1\r\n"
)
# The API's rows and Åsa's history, likewise from the code before (the rows had no
# ``formula`` then: it is the one key they gained).
FIBS_ROWS = [
    ("Dan Wu", 1, "brade", "1617.98", 126, 2),
    ("Åsa Öberg", 2, "brade", "1525.61", 11, 3),
    ("Bo Ek", 3, "brade", "1495.15", 8, 2),
    ("Cilla Ström", 4, "brade", "1482.68", 3, 1),
]
FIBS_HISTORY_OF_ASA = [
    ("Dan Wu", True, "1500.00", "1519.39", "19.39", 0, 3),
    ("Bo Ek", True, "1519.39", "1541.56", "22.17", 3, 5),
    ("Dan Wu", False, "1541.56", "1525.61", "-15.95", 8, 3),
]

# The Danish list of the same matches, worked out by hand from the federation's formula
# (P_upset = 1/(10^(D·√N/2000) + 1); the winner gains N·P, P the loser's chance):
#   Åsa 1500 beats Dan 1620.50 (N 3): D 120.50, 3·P_upset = 1.3206 → the underdog gains
#     3 − 1.32 = 1.68: Åsa 1501.68, Dan 1618.82;
#   Bo 1500 beats Cilla 1500 (N 3): level, ±1.50: Bo 1501.50, Cilla 1498.50;
#   Åsa 1501.68 beats Bo 1501.50 (N 5): D 0.18, 5·P_upset = 2.4994 → ±2.50: Åsa 1504.18,
#     Bo 1499.00;
#   Dan 1618.82 beats Åsa 1504.18 (N 3): D 114.64, 3·P_upset = 1.3293 → ±1.33: Dan
#     1620.15, Åsa 1502.85.
# Experience as for FIBS (Dan brought 120).
DANISH_ROWS = [
    ("Dan Wu", 1, "1620.15", 126, 2),
    ("Åsa Öberg", 2, "1502.85", 11, 3),
    ("Bo Ek", 3, "1499.00", 8, 2),
    ("Cilla Ström", 4, "1498.50", 3, 1),
]


def play_the_cups(capture: Any, players: list[Any]) -> None:
    """A public cup of four (best of 3, then best of 5: the upper player wins each; Åsa
    meets Dan, Bo meets Cilla, Åsa beats Bo in the final) and a second public cup in
    which Dan beats Åsa (best of 3)."""
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    asa, _bo, _cilla, dan = players
    played(capture, players, organiser=organiser, referee=referee, lengths=[3, 5], name="Vår")
    played(capture, [dan, asa], organiser=organiser, referee=referee, lengths=[3], name="Höst")


@pytest.fixture
def four() -> dict[str, Any]:
    north, south = ClubFactory.create(name="Norrbrädet"), ClubFactory.create(name="Söderbräde")
    names = [("Åsa Öberg", north), ("Bo Ek", south), ("Cilla Ström", north), ("Dan Wu", south)]
    players = [PlayerFactory.create(name=n, club=c) for n, c in names]
    keeper = UserFactory.create(is_superuser=True)
    rating_starts_set(game="brade", starts={players[3].pk: (Decimal("1620.50"), 120)}, by=keeper)
    return {"players": players, "north": north, "south": south, "keeper": keeper}


@pytest.fixture(params=["before", "after"])
def both_lists(
    request: Any, four: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """The cups played, the north club's list on the Danish formula: chosen before the
    matches (each rated incrementally in both formulas) or after them (the choice builds
    the Danish list by a rebuild)."""
    if request.param == "before":
        club_rating_formula_set(club=four["north"], formula="danish", by=four["keeper"])
    play_the_cups(django_capture_on_commit_callbacks, four["players"])
    if request.param == "after":
        club_rating_formula_set(club=four["north"], formula="danish", by=four["keeper"])
    return four


def export_csv(client: Client, four: dict[str, Any], **query: str) -> str:
    """A rating list's CSV (Swedish), the players' ids written <first letter of the name>
    so the text does not depend on the database's sequences."""
    url = reverse("clubs:ratings_export", args=["csv"])
    text = client.get(url, query).content.decode("utf-8")
    names = {str(p.pk): f"<{p.name[0]}>" for p in four["players"]}
    lines = []
    for line in text.split("\r\n"):
        cells = line.split(";")
        if len(cells) > 1:
            cells[1] = names.get(cells[1], cells[1])
        lines.append(";".join(cells))
    return "\r\n".join(lines)


def api_rows(**query: Any) -> list[tuple[Any, ...]]:
    data = APIClient().get("/api/ratings/", query).json()
    return [
        (r["player"]["name"], r["rank"], r["game"], r["rating"], r["experience"], r["matches"])
        for r in data["results"]
    ]


# --- the FIBS list stays as it was ------------------------------------------------------


def test_the_fibs_list_alone_is_as_before(
    client: Client, four: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    play_the_cups(django_capture_on_commit_callbacks, four["players"])
    assert export_csv(client, four) == FIBS_CSV
    assert api_rows() == FIBS_ROWS
    assert not RatingEntry.objects.exclude(formula="fibs").exists()


def test_the_fibs_list_is_unchanged_byte_for_byte_beside_the_danish(
    client: Client, both_lists: dict[str, Any]
) -> None:
    assert export_csv(client, both_lists) == FIBS_CSV
    assert export_csv(client, both_lists, formula="fibs", club="") == FIBS_CSV
    assert api_rows() == FIBS_ROWS
    assert {r["formula"] for r in APIClient().get("/api/ratings/").json()["results"]} == {"fibs"}
    asa = both_lists["players"][0]
    history = APIClient().get(f"/api/players/{asa.pk}/ratings/brade/").json()
    assert [
        (
            h["opponent"]["name"],
            h["won"],
            h["before"],
            h["after"],
            h["change"],
            h["experience"],
            h["length"],
        )
        for h in history
    ] == FIBS_HISTORY_OF_ASA


# --- the Danish list ----------------------------------------------------------------------


def test_the_danish_list_has_the_federations_figures(both_lists: dict[str, Any]) -> None:
    rows = api_rows(formula="danish")
    assert [(name, rank, rating, exp, n) for name, rank, _g, rating, exp, n in rows] == (
        DANISH_ROWS
    )
    # Zero-sum: the ratings add up to the starts (Dan's 1620.50 and three times 1500).
    danish = PlayerRating.objects.filter(game="brade", formula="danish")
    assert sum(r.rating for r in danish) == Decimal("6120.50")


def test_the_danish_list_is_what_a_rebuild_gives(both_lists: dict[str, Any]) -> None:
    summary = ratings_rebuild(game="brade")
    assert (summary.entries_written, summary.entries_removed, summary.ratings_written) == (0, 0, 0)
    assert RatingBook.objects.get(game="brade").formulas == ["fibs", "danish"]
    assert RatingEntry.objects.filter(formula="danish").count() == 8  # 4 matches, 2 sides


def test_the_club_list_uses_the_clubs_formula(client: Client, both_lists: dict[str, Any]) -> None:
    north = both_lists["north"]
    page = client.get(reverse("clubs:ratings"), {"club": north.pk}).content.decode()
    assert "Formel: <strong>Danska förbundets rating</strong>" in page
    assert "Ratinglistan för Norrbrädet följer Danska förbundets rating." in page
    assert "1502,85" in page and "1498,50" in page  # Åsa's and Cilla's Danish ratings
    assert "1525,61" not in page  # not Åsa's FIBS rating
    asa = both_lists["players"][0]
    history = reverse("clubs:rating_history", args=[asa.pk, "brade"]) + "?formula=danish"
    assert history in page
    # The other list is a link away, and the API and the export follow the club too.
    assert f"?game=brade&amp;club={north.pk}&amp;formula=fibs" in page
    fibs = client.get(reverse("clubs:ratings"), {"club": north.pk, "formula": "fibs"})
    assert "1525,61" in fibs.content.decode()
    data = APIClient().get("/api/ratings/", {"club": north.pk}).json()
    assert [(r["player"]["name"], r["formula"], r["rating"]) for r in data["results"]] == [
        ("Åsa Öberg", "danish", "1502.85"),
        ("Cilla Ström", "danish", "1498.50"),
    ]
    json_url = reverse("clubs:ratings_export", args=["json"])
    exported = client.get(json_url, {"club": north.pk})
    assert exported["Content-Disposition"].endswith(f'ratings-brade-danish-club-{north.pk}.json"')
    assert exported.json()["formula"] == "danish"


def test_the_site_list_shows_either_formula(client: Client, both_lists: dict[str, Any]) -> None:
    client.cookies["django_language"] = "en"
    page = client.get(reverse("clubs:ratings")).content.decode()
    assert "Formula: <strong>FIBS</strong>" in page and "1617.98" in page
    assert "?game=brade&amp;formula=danish" in page  # the tab to the Danish list
    danish = client.get(reverse("clubs:ratings"), {"formula": "danish"}).content.decode()
    assert "Formula: <strong>Danish Backgammon Federation rating</strong>" in danish
    assert "experience is counted but does not change the figures" in danish
    assert "1620.15" in danish and "1617.98" not in danish
    assert danish.index("Dan Wu") < danish.index("Åsa Öberg") < danish.index("Bo Ek")
    assert danish.index("Bo Ek") < danish.index("Cilla Ström")
    asa = both_lists["players"][0]
    history = client.get(
        reverse("clubs:rating_history", args=[asa.pk, "brade"]), {"formula": "danish"}
    ).content.decode()
    assert "Danish Backgammon Federation rating" in history and "+1.68" in history


def test_a_list_no_club_uses_is_not_there(
    client: Client, four: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    play_the_cups(django_capture_on_commit_callbacks, four["players"])
    assert client.get(reverse("clubs:ratings"), {"formula": "danish"}).status_code == 404
    assert client.get(reverse("clubs:ratings"), {"formula": "elo"}).status_code == 404
    response = APIClient().get("/api/ratings/", {"formula": "danish"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "unknown_formula"
    # Only FIBS is kept, so the page offers no other list.
    assert "formula=" not in client.get(reverse("clubs:ratings")).content.decode()


def test_a_formula_no_longer_chosen_is_no_longer_kept(both_lists: dict[str, Any]) -> None:
    club_rating_formula_set(club=both_lists["north"], formula="fibs", by=both_lists["keeper"])
    assert not PlayerRating.objects.filter(formula="danish").exists()
    assert not RatingEntry.objects.filter(formula="danish").exists()
    assert RatingBook.objects.get(game="brade").formulas == ["fibs"]
    assert api_rows() == FIBS_ROWS


# --- choosing the formula -----------------------------------------------------------------


def test_only_a_clubs_secretary_chooses_the_formula(four: dict[str, Any]) -> None:
    north = four["north"]
    organiser = OrganiserFactory.create()
    with pytest.raises(PermissionDeniedError):
        club_rating_formula_set(club=north, formula="danish", by=organiser)
    with pytest.raises(ValidationError):
        club_rating_formula_set(club=north, formula="elo", by=four["keeper"])
    secretary = UserFactory.create()
    secretary.user_permissions.add(Permission.objects.get(codename="change_season"))
    choice = club_rating_formula_set(club=north, formula="danish", by=secretary)
    assert (choice.formula, choice.set_by) == ("danish", secretary)


def test_the_api_shows_and_sets_a_clubs_formula(four: dict[str, Any]) -> None:
    north = four["north"]
    url = f"/api/clubs/{north.pk}/rating-list/"
    api = APIClient()
    shown = api.get(url).json()
    assert shown["formula"] == {"key": "fibs", "name": "FIBS"}
    assert [f["key"] for f in shown["formulas"]] == ["fibs", "danish"]
    assert shown["can_choose"] is False
    api.force_authenticate(OrganiserFactory.create())
    assert api.put(url, {"formula": "danish"}, format="json").status_code == 403
    api.force_authenticate(four["keeper"])
    set_ = api.put(url, {"formula": "danish"}, format="json", HTTP_ACCEPT_LANGUAGE="sv")
    assert set_.status_code == 200
    assert set_.json()["formula"] == {"key": "danish", "name": "Danska förbundets rating"}
    assert ClubRatingList.objects.get(club=north).formula == "danish"
    assert api.put(url, {"formula": "elo"}, format="json").status_code == 400
    assert APIClient().get("/api/clubs/999999/rating-list/").status_code == 404


def test_the_page_lets_a_secretary_choose_the_formula(client: Client, four: dict[str, Any]) -> None:
    north = four["north"]
    page = reverse("clubs:ratings") + f"?club={north.pk}"
    assert "club-formula-form" not in client.get(page).content.decode()
    client.force_login(four["keeper"])
    assert "club-formula-form" in client.get(page).content.decode()
    url = reverse("clubs:club_rating_formula", args=[north.pk])
    response = client.post(url, {"formula": "danish"})
    assert response.status_code == 302 and response["Location"] == page
    assert ClubRatingList.objects.get(club=north).formula == "danish"
    client.force_login(OrganiserFactory.create())
    client.post(url, {"formula": "fibs"})
    assert ClubRatingList.objects.get(club=north).formula == "danish"


# --- seeding by the Danish list -----------------------------------------------------------


def test_an_organiser_seeds_by_the_danish_list(both_lists: dict[str, Any]) -> None:
    asa, bo, cilla, dan = both_lists["players"]
    organiser = OrganiserFactory.create()
    draft = TournamentFactory.create(organisers=[organiser])
    for player in (asa, bo, cilla, dan):
        EntryFactory.create(tournament=draft, player=player)
    # Make the two lists disagree: Cilla tops the Danish list, Bo the FIBS one.
    PlayerRating.objects.filter(formula="danish", player=cilla).update(rating=Decimal("1700"))
    PlayerRating.objects.filter(formula="fibs", player=bo).update(rating=Decimal("1700"))
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/tournaments/{draft.pk}/seeds/by-rating/"

    def first_seed() -> str:
        return Entry.objects.get(tournament=draft, seed=1).player.name

    assert api.post(url, {"count": 1, "formula": "danish"}, format="json").status_code == 200
    assert first_seed() == "Cilla Ström"
    assert api.post(url, {"count": 1}, format="json").status_code == 200
    assert first_seed() == "Bo Ek"
    refused = api.post(url, {"formula": "elo"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unknown_formula"


def test_the_manage_page_seeds_by_the_danish_list(
    client: Client, both_lists: dict[str, Any]
) -> None:
    _asa, _bo, cilla, _dan = both_lists["players"]
    organiser = OrganiserFactory.create()
    draft = TournamentFactory.create(organisers=[organiser])
    for player in both_lists["players"]:
        EntryFactory.create(tournament=draft, player=player)
    PlayerRating.objects.filter(formula="danish", player=cilla).update(rating=Decimal("1700"))
    client.force_login(organiser)
    manage = client.get(reverse("web:tournament_manage", args=[draft.pk])).content.decode()
    assert '<option value="danish">Danska förbundets rating</option>' in manage
    url = reverse("clubs:tournament_seed_by_rating", args=[draft.pk])
    client.post(url, {"count": "1", "formula": "danish"})
    assert Entry.objects.get(tournament=draft, seed=1).player == cilla


def test_a_formula_kept_without_its_rows_is_built_by_the_next_update(
    four: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    """A club's choice written past the service (a data import, the shell) keeps the
    Danish formula without its rows: the next rated match rebuilds the game rather than
    rate that one match from nothing."""
    asa, bo, cilla, dan = four["players"]
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    played(
        django_capture_on_commit_callbacks,
        [asa, bo, cilla, dan],
        organiser=organiser,
        referee=referee,
        lengths=[3, 5],
    )
    ClubRatingList.objects.create(club=four["north"], formula="danish")
    played(
        django_capture_on_commit_callbacks,
        [dan, asa],
        organiser=organiser,
        referee=referee,
        lengths=[3],
    )
    rows = api_rows(formula="danish")
    assert [(name, rank, rating, exp, n) for name, rank, _g, rating, exp, n in rows] == (
        DANISH_ROWS
    )
