"""The teams pages fit a phone and a desktop, in Swedish, with the long names Swedish clubs
really have (tests/e2e/test_phone_layout.py); and a captain orders the roster on a phone
at 360 px: ↑ on a board, then a numbered order with a reserve, with no script needed.
Screenshots: test-output/screenshots/``phone-teams-*.png``, ``desktop-teams-*.png``."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from clubs.season_services import season_create
from teams.models import Team, TeamMember
from teams.rosters import roster_player_add
from teams.team_services import team_captains_set, team_create
from tests.clubs.test_seasons import keeper
from tests.e2e.conftest import login, shoot
from tests.e2e.test_phone_layout import CLUBS, DESKTOP, NAMES, PHONE, _check, _swedish
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.teams.helpers import rate

pytestmark = pytest.mark.django_db(transaction=True)

CAPTAIN = "ann-charlotte.gyllenhammar-bjorkqvist"


@dataclass
class League:
    team: Team
    players: list[Any]  # board order by rating: players[0] on board 1


def _league() -> League:
    """A season of a club with a long name, its first team with six players on the roster
    (in rating order, highest first) and a captain who is also a season keeper (so every
    page of a team is theirs to see)."""
    club = ClubFactory.create(name=CLUBS[0])
    by = keeper()
    season = season_create(
        club=club,
        name="Säsongen 2026 i Sundsvalls Brädsällskap med klubbkvällar och mästerskap",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        by=by,
    )
    team = team_create(
        season=season, name="Sundsvalls Brädsällskaps förstalag i division ett norra", by=by
    )
    captain = UserFactory.create(username=CAPTAIN)
    team_captains_set(team=team, captains=[captain], by=by)
    players = []
    for i, name in enumerate(NAMES[:6]):
        player = PlayerFactory.create(name=name, club=club)
        rate(player, f"{1800 - 25 * i}.25")
        roster_player_add(team=team, player=player, by=by)
        players.append(player)
    PlayerFactory.create(name=NAMES[6], club=club)  # not on the roster: the add form lists them
    return League(team, players)


def _names(team: Team) -> list[tuple[str, bool]]:
    return [
        (m.player.name, m.reserve)
        for m in TeamMember.objects.filter(team=team).select_related("player").order_by("board")
    ]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_teams_pages_fit(live_server: Any, new_page: Any, size: str) -> None:
    league = _league()
    captain = get_user_model().objects.get(username=CAPTAIN)
    captain.user_permissions.add(Permission.objects.get(codename="change_season"))
    team = league.team
    pages = {
        "teams-season": f"/seasons/{team.season_id}/teams/",
        "teams-team": f"/teams/{team.pk}/",
        "teams-roster": f"/teams/{team.pk}/roster/",
        "teams-edit": f"/teams/{team.pk}/edit/",
    }
    base = live_server.url
    page = new_page(*(PHONE if size == "phone" else DESKTOP))
    _swedish(page, base)
    login(page, base, CAPTAIN)
    problems: list[str] = []
    for name, path in pages.items():
        problems += _check(page, base, name, path, size)
    assert problems == [], "\n".join(problems)


def test_a_captain_orders_the_roster_on_a_phone(live_server: Any, new_page: Any) -> None:
    league = _league()
    team, players = league.team, league.players
    base = live_server.url
    page = new_page(*PHONE)
    _swedish(page, base)
    login(page, base, CAPTAIN)

    # From the season's page to the team's, to its roster editor.
    page.goto(f"{base}/seasons/{team.season_id}/")
    page.get_by_role("link", name="Lag", exact=True).click()
    page.get_by_role("link", name=team.name).click()
    page.get_by_role("link", name="Ändra spelarlistan").click()
    page.wait_for_url(f"**/teams/{team.pk}/roster/")
    assert page.locator("html").get_attribute("lang") == "sv"
    assert "Borden följer nu ratingen." in page.inner_text("main")

    # ↑ on board 3 swaps it with board 2; the boards no longer follow the ratings.
    page.get_by_role("button", name=f"Flytta upp {players[2].name}").click()
    page.wait_for_load_state()
    assert f"{players[2].name} är flyttad." in page.inner_text("main")
    order = [p.name for p in (players[0], players[2], players[1], *players[3:])]
    assert _names(team) == [(name, False) for name in order]
    assert page.get_by_role("button", name=f"Flytta upp {players[0].name}").is_disabled()
    shoot(page, "phone-teams-roster-moved")

    # The numbered order: the last player to board 1, the first made a reserve at the end.
    page.get_by_label(f"Bord för {players[5].name}").fill("1")
    page.get_by_label(f"Bord för {players[0].name}").fill("9")
    page.get_by_label("Reserv").first.check()  # the first row's: players[0]
    page.get_by_role("button", name="Spara ordningen").click()
    page.wait_for_load_state()
    assert "Borden är sparade i din ordning." in page.inner_text("main")
    assert _names(team) == [
        (players[5].name, False),
        (players[2].name, False),
        (players[1].name, False),
        (players[3].name, False),
        (players[4].name, False),
        (players[0].name, True),
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    shoot(page, "phone-teams-roster-ordered")

    # The team's page shows it: the boards, then the reserve.
    page.get_by_role("link", name="Lagets sida").click()
    rows = page.locator("table.roster")
    regular = rows.nth(0).locator("td.primary").all_inner_texts()
    assert [name.strip() for name in regular] == [
        p.name for p in (players[5], players[2], players[1], players[3], players[4])
    ]
    assert rows.nth(1).locator("td.primary").inner_text().strip() == players[0].name
    assert "Borden står i kaptenens ordning." in page.inner_text("main")
    shoot(page, "phone-teams-team")
