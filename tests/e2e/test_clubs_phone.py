"""The clubs pages fit a phone and a desktop: the rating list, a rating history
with its chart, a season's standings and rules, the results import, a new season and a
season's editing page; in Swedish, with the long names of tests/e2e/test_phone_layout.py.
Screenshots: test-output/screenshots/``phone-clubs-*.png``, ``desktop-clubs-*.png``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from clubs.models import EventKind, PlayerRating
from clubs.season_services import season_create, season_event_add
from tests.e2e.conftest import login, shoot
from tests.e2e.test_phone_layout import DESKTOP, PHONE, USERNAME, _check, _swedish, club_day

pytestmark = pytest.mark.django_db(transaction=True)


def _pages(day: Any) -> dict[str, str]:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=USERNAME)
    user.user_permissions.add(Permission.objects.get(codename="change_season"))
    user = get_user_model().objects.get(pk=user.pk)
    season = season_create(
        club=day.decided.player1.club,
        name="Säsongen 2026 i Sundsvalls Brädsällskap med klubbkvällar och mästerskap",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        by=user,
        tournament_taking_part=2,
        tournament_match_won=3,
        tournament_placings={"1": 10, "2": 6, "3": 4, "5": 2},
        club_night_taking_part=1,
        club_night_match_won=1,
    )
    season_event_add(season=season, tournament=day.running, by=user)
    season_event_add(season=season, tournament=day.draft, by=user, kind=EventKind.CLUB_NIGHT)
    rated = PlayerRating.objects.order_by("-rating").first()
    assert rated is not None, "the decided match was rated after its commit"
    club = day.decided.player1.club_id
    return {
        "clubs-ratings": "/ratings/",
        "clubs-ratings-club": f"/ratings/?game=brade&club={club}",
        "clubs-history": f"/players/{rated.player_id}/ratings/brade/",
        "clubs-player": f"/players/{rated.player_id}/",
        "clubs-match": f"/matches/{day.decided.pk}/",
        "clubs-seasons": "/seasons/",
        "clubs-season": f"/seasons/{season.pk}/",
        "clubs-import": f"/seasons/{season.pk}/import/",
        "clubs-season-new": "/seasons/new/",
        "clubs-season-edit": f"/seasons/{season.pk}/edit/",
    }


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_clubs_pages_fit(live_server: Any, new_page: Any, size: str) -> None:
    day = club_day()
    pages = _pages(day)
    base = live_server.url
    page = new_page(*(PHONE if size == "phone" else DESKTOP))
    _swedish(page, base)
    login(page, base, USERNAME)
    problems: list[str] = []
    for name, path in pages.items():
        problems += _check(page, base, name, path, size)
    assert problems == [], "\n".join(problems)
    # The chart is drawn and scaled to the column: no wider than the screen.
    page.goto(base + pages["clubs-history"])
    box = page.locator("svg.rating-chart").bounding_box()
    assert box is not None and 0 < box["width"] <= page.viewport_size["width"]
    assert page.locator("svg.rating-chart circle").count() == 2  # the start and one match
    # In print the chart keeps its lines black on white (no script, no colours).
    page.emulate_media(media="print")
    shoot(page, f"{size}-clubs-history-print")
