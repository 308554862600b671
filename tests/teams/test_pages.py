"""The teams pages, in Swedish (the default) and in English: a season's teams (a keeper
creates one there), a team's page (the roster in board order with ratings, the captains),
the captain's roster editor (numbers, ↑ and ↓, reserves, add, remove, sort by rating)
and the keepers' page of a team; who gets in."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from teams.models import Team
from teams.rosters import roster_player_add
from tests.factories import UserFactory
from tests.teams.helpers import Squad, boards, squad

pytestmark = pytest.mark.django_db


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def text(html: str) -> str:
    """The page's words, tags dropped and spaces made one."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def on_roster(s: Squad) -> None:
    for player in s.players:  # A 1510, B 1620, C 1480, D 1700: D B A C
        roster_player_add(team=s.team, player=player, by=s.captain)


def test_the_season_page_links_to_its_teams_and_they_are_listed(client: Client) -> None:
    s = squad()
    on_roster(s)
    season = client.get(reverse("clubs:season_detail", args=[s.season.pk])).content.decode()
    teams_url = reverse("teams:season_teams", args=[s.season.pk])
    assert f'href="{teams_url}">Lag</a>' in season
    page = text(client.get(teams_url).content.decode())
    assert "Lag i Säsong 2027" in page
    assert "Lag Klubb Spel Spelare Bord Lag 1 Brädklubben Norr Bräde 4 efter rating" in page
    assert "Nytt lag" not in page  # not a keeper
    english_page = text(english(client).get(teams_url).content.decode())
    assert "Teams of Säsong 2027" in english_page
    assert "Team Club Game Players Boards Lag 1 Brädklubben Norr Bräde 4 by rating" in (
        english_page
    )


def test_a_keeper_creates_a_team_on_the_seasons_teams_page(client: Client) -> None:
    s = squad()
    client.force_login(s.keeper)
    url = reverse("teams:season_teams", args=[s.season.pk])
    form = client.get(url).content.decode()
    assert "Nytt lag" in form and "Laget spelar med klubbens egna spelare." in form
    taken = client.post(url, {"name": "LAG 1", "club": s.club.pk, "game": "brade"})
    assert "Brädklubben Norr har redan ett lag som heter ”LAG 1” i Säsong 2027." in (
        taken.content.decode()
    )
    made = client.post(url, {"name": "Lag 2", "club": s.club.pk, "game": "backgammon"})
    team = Team.objects.get(name="Lag 2")
    assert made["Location"] == reverse("teams:team_edit", args=[team.pk])
    assert team.game == "backgammon"
    outsider = Client()
    outsider.force_login(UserFactory.create())
    assert outsider.post(url, {"name": "Lag 3", "club": s.club.pk}).status_code == 403


def test_a_teams_page_shows_the_boards_reserves_ratings_and_captains(client: Client) -> None:
    s = squad(("1620.5", "1510", None))
    on_roster(s)
    roster_player_add(
        team=s.team,
        player=type(s.players[0]).objects.create(name="Spelare R", club=s.club),
        reserve=True,
        by=s.captain,
    )
    s.captain.first_name, s.captain.last_name = "Karin", "Kapten"
    s.captain.save()
    url = reverse("teams:team_detail", args=[s.team.pk])
    html = client.get(url).content.decode()
    page = text(html)
    assert (
        "Bord Spelare Rating 1 Spelare A 1620,50 2 Spelare B 1510,00 3 Spelare C ingen (1500)"
    ) in page
    assert "Reserver Reserver Bord Spelare Rating 4 Spelare R ingen (1500)" in page
    assert "Borden följer spelarnas rating, högst först" in page
    assert "Lagkaptener Karin Kapten" in page
    assert "<li>Karin Kapten</li>" in html and "<li>kapten</li>" not in html  # no user name
    assert "Ändra spelarlistan" not in page
    page = text(english(client).get(url).content.decode())
    assert "Board Player Rating 1 Spelare A 1620.50" in page
    assert "3 Spelare C none (1500)" in page
    assert "Reserves" in page and "Captains Karin Kapten" in page


def test_only_captains_and_keepers_edit_a_roster(client: Client) -> None:
    s = squad()
    url = reverse("teams:roster_edit", args=[s.team.pk])
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    assert client.post(reverse("teams:roster_by_rating", args=[s.team.pk])).status_code == 403
    for who in (s.captain, s.keeper):
        client.force_login(who)
        assert client.get(url).status_code == 200
        detail = client.get(reverse("teams:team_detail", args=[s.team.pk])).content.decode()
        assert f'href="{url}"' in detail
        assert "<li>kapten</li>" in detail  # the user name, to whom assigns captains by it


def test_the_captain_orders_the_roster_on_the_page(client: Client) -> None:
    s = squad()
    on_roster(s)  # D B A C
    a, b, c, d = s.players
    client.force_login(s.captain)
    url = reverse("teams:roster_edit", args=[s.team.pk])
    page = client.get(url).content.decode()
    assert "Borden följer nu ratingen." in page
    assert 'aria-label="Flytta upp Spelare D"' in page and "disabled" in page

    numbers = {f"board_{p.pk}": n for p, n in ((a, 1), (b, 2), (c, 4), (d, 3))}
    saved = client.post(url, {**numbers, f"reserve_{c.pk}": "on"})
    assert saved["Location"] == url
    assert boards(s.team) == [
        (1, "Spelare A", False),
        (2, "Spelare B", False),
        (3, "Spelare D", False),
        (4, "Spelare C", True),
    ]
    assert "Borden är sparade i din ordning." in client.get(url).content.decode()

    moved = client.post(reverse("teams:roster_move", args=[s.team.pk, d.pk]), {"step": "up"})
    assert moved["Location"] == url
    assert [name for _b, name, _r in boards(s.team)][:3] == ["Spelare A", "Spelare D", "Spelare B"]
    refused = client.post(reverse("teams:roster_move", args=[s.team.pk, c.pk]), {"step": "up"})
    assert (
        "C kan inte flyttas längre åt det hållet"
        in client.get(refused["Location"]).content.decode()
    )

    client.post(reverse("teams:roster_remove", args=[s.team.pk, a.pk]))
    assert [name for _b, name, _r in boards(s.team)] == ["Spelare D", "Spelare B", "Spelare C"]
    client.post(reverse("teams:roster_add", args=[s.team.pk]), {"player": a.pk})
    assert boards(s.team)[2] == (3, "Spelare A", False)  # after the last regular board
    client.post(reverse("teams:roster_by_rating", args=[s.team.pk]))
    s.team.refresh_from_db()
    assert s.team.boards_by_rating
    assert [name for _b, name, _r in boards(s.team)] == [
        "Spelare D",
        "Spelare B",
        "Spelare A",
        "Spelare C",
    ]


@pytest.mark.parametrize(
    ("language", "numbers", "reserve", "message"),
    [
        ("sv", (1, 2, 3, 4), 0, "Reserverna kommer efter de ordinarie borden"),
        ("en", (1, 2, 3, 4), 0, "Reserves come after the regular boards: put every reserve"),
        ("sv", (1, 1, 2, 3), None, "Ge varje spelare ett eget bordsnummer."),
        ("en", (1, 1, 2, 3), None, "Give each player a board number of their own."),
    ],
)
def test_an_order_the_rules_refuse_is_explained_and_nothing_saved(
    client: Client, language: str, numbers: tuple[int, ...], reserve: int | None, message: str
) -> None:
    s = squad()
    on_roster(s)
    before = boards(s.team)
    client.force_login(s.captain)
    if language == "en":
        english(client)
    data = {f"board_{p.pk}": str(n) for p, n in zip(s.players, numbers, strict=True)}
    if reserve is not None:
        data[f"reserve_{s.players[reserve].pk}"] = "on"
    page = client.post(reverse("teams:roster_edit", args=[s.team.pk]), data)
    assert page.status_code == 200
    assert message in page.content.decode()
    assert boards(s.team) == before


def test_the_add_form_offers_the_clubs_players_without_a_team(client: Client) -> None:
    s = squad()
    roster_player_add(team=s.team, player=s.players[0], by=s.captain)
    client.force_login(s.captain)
    page = client.get(reverse("teams:roster_edit", args=[s.team.pk])).content.decode()
    form = page[page.index('id="add-h"') :]
    assert [n for n in ("Spelare A", "Spelare B") if f">{n}</option>" in form] == ["Spelare B"]
    english_page = english(client).get(reverse("teams:roster_edit", args=[s.team.pk]))
    assert "Add a player" in english_page.content.decode()


def test_a_keeper_renames_names_captains_and_deletes_a_team(client: Client) -> None:
    s = squad()
    client.force_login(s.keeper)
    url = reverse("teams:team_edit", args=[s.team.pk])
    assert "Lagkaptener" in client.get(url).content.decode()
    client.post(url, {"name": "Lag Ett"})
    s.team.refresh_from_db()
    assert s.team.name == "Lag Ett"
    captains = reverse("teams:team_captains", args=[s.team.pk])
    unknown = client.post(captains, {"usernames": "kapten nobody"}).content.decode()
    assert "Ingen användare heter “nobody”." in unknown
    other = UserFactory.create(username="vice")
    client.post(captains, {"usernames": "vice, kapten"})
    assert set(s.team.captains.all()) == {other, s.captain}
    gone = client.post(reverse("teams:team_delete", args=[s.team.pk]))
    assert gone["Location"] == reverse("teams:season_teams", args=[s.season.pk])
    assert not Team.objects.exists()


def test_the_keepers_page_is_theirs_alone(client: Client) -> None:
    s = squad()
    client.force_login(s.captain)
    for name in ("team_edit", "team_captains", "team_delete"):
        assert client.post(reverse(f"teams:{name}", args=[s.team.pk])).status_code == 403
    assert Team.objects.filter(pk=s.team.pk).exists()
