"""A paired, unpublished Swiss round through every page and file: the tournament page,
its round page, a player's page, the results and placings exports (CSV and JSON), the
archive, the score sheets and a season's standings show it to the tournament's staff and
to nobody else — its own players included — by the one rule of ``matches.visibility``."""

from __future__ import annotations

import datetime
import io
import zipfile
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from clubs.season_services import season_create, season_event_add
from matches.models import Match
from matches.swiss_progression import swiss_round_pair
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    UserFactory,
)
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired() -> dict[str, Any]:
    """A public Swiss of four (all of one club), round 1 paired and not published; one
    player is linked to a user account; the tournament has a referee."""
    organiser, referee, linked = (
        OrganiserFactory.create(),
        UserFactory.create(),
        UserFactory.create(),
    )
    t = tournament_create(
        by=organiser,
        name="Hemliga lottningen",
        start_date=datetime.date(2026, 11, 25),
        format="swiss",
        is_public=True,
    )
    t.referees.add(referee)
    club = ClubFactory.create(name="Lottningsklubben")
    players = [PlayerFactory.create(name=f"Dold{i}", rating=2000 - i, club=club) for i in range(4)]
    players[0].user = linked
    players[0].save()
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    tournament_draw(tournament=t, by=organiser, draw_seed=5)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    return {
        "t": t,
        "club": club,
        "round": rnd,
        "organiser": organiser,
        "referee": referee,
        "player_user": linked,
        "players": players,
        "matches": list(Match.objects.filter(round=rnd).order_by("slot")),
    }


def _clients(s: dict[str, Any]) -> dict[str, tuple[Client, bool]]:
    """Who reads, and whether they see the unpublished round."""
    out: dict[str, tuple[Client, bool]] = {"anonymous": (Client(), False)}
    for who, user, sees in (
        ("outsider", UserFactory.create(), False),
        ("its player", s["player_user"], False),
        ("organiser", s["organiser"], True),
        ("referee", s["referee"], True),
        ("superuser", UserFactory.create(is_superuser=True), True),
    ):
        client = Client()
        client.force_login(user)
        out[who] = (client, sees)
    return out


def test_every_page_and_export_hides_an_unpublished_round_but_from_the_staff(
    paired: dict[str, Any],
) -> None:
    t = paired["t"]
    for who, (client, sees) in _clients(paired).items():
        page = client.get(reverse("web:tournament_detail", args=[t.pk]))
        assert page.status_code == 200, who
        # The pairings' rows: a paired round's matches wait until it is published.
        assert page.content.decode().count('<tr class="state-waiting">') == (2 if sees else 0)

        round_page = client.get(reverse("web:tournament_round", args=[t.pk, 1]))
        assert round_page.status_code == (200 if sees else 404), who

        for fmt in ("csv", "json"):
            results = client.get(reverse("clubs:tournament_results_export", args=[t.pk, fmt]))
            assert results.status_code == 200, who
            text = results.content.decode("utf-8-sig")
            assert ("Dold1" in text) is sees, (who, fmt)
            placings = client.get(reverse("clubs:tournament_placings_export", args=[t.pk, fmt]))
            assert placings.status_code == 200 and "Dold1" not in placings.content.decode()


def test_a_player_page_lists_an_unpublished_match_to_the_staff_only(
    paired: dict[str, Any],
) -> None:
    match = paired["matches"][0]
    player = match.player1
    link = reverse("web:match_detail", args=[match.pk])
    for who, (client, sees) in _clients(paired).items():
        page = client.get(reverse("web:player_detail", args=[player.pk]))
        assert page.status_code == 200, who
        assert (link in page.content.decode()) is sees, who


def test_the_staff_files_hold_the_unpublished_round(paired: dict[str, Any]) -> None:
    """The archive and the score sheets are the staff's: they hold the round (printed
    before publishing, as a club does)."""
    t = paired["t"]
    client = Client()
    client.force_login(paired["referee"])
    archive = client.get(reverse("clubs:tournament_archive", args=[t.pk]))
    assert archive.status_code == 200
    with zipfile.ZipFile(io.BytesIO(archive.content)) as z:
        results = z.read(f"tournament-{t.pk}/results.csv").decode("utf-8-sig")
    assert "Dold1" in results
    sheets = client.get(reverse("clubs:round_score_sheets", args=[t.pk, 1]))
    assert sheets.status_code == 200 and sheets.content.startswith(b"%PDF")


def test_a_season_counts_nobody_for_an_unpublished_pairing(paired: dict[str, Any]) -> None:
    keeper = UserFactory.create()
    keeper.user_permissions.add(Permission.objects.get(codename="change_season"))
    keeper = type(keeper).objects.get(pk=keeper.pk)
    season = season_create(
        club=paired["club"],
        name="Säsong 2026",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        by=keeper,
        tournament_taking_part=2,
    )
    season_event_add(season=season, tournament=paired["t"], by=keeper)
    csv = Client().get(reverse("clubs:season_export", args=[season.pk, "csv"]))
    assert csv.status_code == 200
    assert "Dold" not in csv.content.decode("utf-8-sig")
