"""The admin as an organiser uses it: only their tournaments, actions through services."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Game, Match, MatchState
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.helpers import drawn, match_of
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def staff_client(user: object) -> Client:
    user.is_staff = True  # type: ignore[attr-defined]
    user.save()  # type: ignore[attr-defined]
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_organiser_sees_only_own_tournaments() -> None:
    mine, theirs = drawn(4), drawn(4)
    client = staff_client(mine.organiser)
    page = client.get("/admin/tournaments/tournament/")
    assert page.status_code == 200
    assert mine.tournament.name in page.content.decode()
    assert theirs.tournament.name not in page.content.decode()
    assert (
        client.get(f"/admin/tournaments/tournament/{mine.tournament.pk}/change/").status_code == 200
    )
    other = client.get(f"/admin/tournaments/tournament/{theirs.tournament.pk}/change/")
    assert other.status_code == 302  # admin redirects away from objects you may not see
    assert (
        client.get(f"/admin/matches/match/?tournament__id__exact={mine.tournament.pk}").status_code
        == 200
    )


def test_create_and_draw_in_admin() -> None:
    """The tournament made in the admin is drawn by the admin's action: its matches are
    created and the tournament runs, with the action's message; a tournament without
    entries is refused with the service's reason and stays a draft."""
    organiser = OrganiserFactory.create()
    client = staff_client(organiser)
    client.cookies["django_language"] = "en"
    form = {
        "name": "Admin Cup",
        "start_date": "2026-11-21",
        "end_date": "2026-11-21",
        "venue": "",
        "game": "brade",
        "rules": "talisman",
        "addons": "[]",
        "scale": "ww",
        "resignation_policy": "capped",
        "is_public": "on",
        "results_by": "referees",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "rounds-TOTAL_FORMS": "0",
        "rounds-INITIAL_FORMS": "0",
    }
    response = client.post("/admin/tournaments/tournament/add/", form, follow=True)
    assert response.redirect_chain, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Admin Cup")
    assert list(tournament.organisers.all()) == [organiser]
    draw = {"action": "draw_bracket", "_selected_action": [tournament.pk]}

    refused = client.post("/admin/tournaments/tournament/", draw, follow=True)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.DRAFT
    assert not Match.objects.filter(tournament=tournament).exists()
    assert [str(m) for m in refused.context["messages"]] == [
        "Admin Cup: A knockout needs at least 2 players; 0 entered. Enter more first."
    ]

    for i in range(4):
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name=f"A{i}"))
    drawn_page = client.post("/admin/tournaments/tournament/", draw, follow=True)
    assert [str(m) for m in drawn_page.context["messages"]] == ["Admin Cup: bracket drawn."]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    first = Match.objects.filter(tournament=tournament, round__number=1)
    assert first.count() == 2
    assert all(m.player1_id is not None and m.player2_id is not None for m in first)
    assert Match.objects.filter(tournament=tournament, round__number=2).count() == 1


def test_enter_game_page() -> None:
    s = drawn(2, lengths=[3])
    client = staff_client(s.organiser)
    m = match_of(s.tournament, 1, 0)
    url = f"/admin/matches/match/{m.pk}/enter-game/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"winner": "W", "outcome": "jan", "starter": "B"})
    assert response.status_code == 302
    assert Game.objects.get(match=m).outcome == "jan"
    response = client.post("/admin/matches/match/", {"action": "reset", "_selected_action": [m.pk]})
    assert response.status_code == 302
    m = Match.objects.get(pk=m.pk)
    assert m.state == MatchState.READY and not m.games.filter(voided_at__isnull=True).exists()


def test_enter_game_page_takes_the_familys_result_fields() -> None:
    """Backgammon: cube and what a resignation concedes, no tek; a Crawford double is
    refused with the engine's message. Kungabräde: the game type."""
    s = drawn(2, lengths=[3], game="backgammon")
    client = staff_client(s.organiser)
    m = match_of(s.tournament, 1, 0)
    url = f"/admin/matches/match/{m.pk}/enter-game/"
    page = client.get(url).content.decode()
    assert 'name="cube"' in page and 'name="conceded"' in page and 'name="munk"' not in page
    assert 'name="starter"' not in page and "to 3 points" in page
    response = client.post(url, {"winner": "W", "outcome": "gammon", "cube": "1"})
    assert response.status_code == 302
    game = Game.objects.get(match=m)
    assert (game.outcome, game.cube) == ("gammon", 1)
    # 2–0 in a 3-point match: game 2 is the Crawford game, no doubling in it
    response = client.post(url, {"winner": "B", "outcome": "single", "cube": "2"}, follow=True)
    assert "Crawford" in response.content.decode()
    assert m.games.filter(voided_at__isnull=True).count() == 1
    response = client.post(
        url, {"winner": "B", "outcome": "resign", "cube": "1", "conceded": "gammon"}
    )
    assert response.status_code == 302
    assert Game.objects.get(match=m, number=2).conceded == "gammon"

    k = drawn(2, lengths=[3], game="kungabrade")
    client = staff_client(k.organiser)
    m = match_of(k.tournament, 1, 0)
    url = f"/admin/matches/match/{m.pk}/enter-game/"
    page = client.get(url).content.decode()
    assert 'name="game_type"' in page and 'name="cube"' not in page
    response = client.post(url, {"winner": "B", "outcome": "castle", "game_type": "slagfalt"})
    assert response.status_code == 302
    assert Game.objects.get(match=m).game_type == "slagfalt"
