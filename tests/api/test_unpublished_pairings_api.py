"""A paired, unpublished Swiss round through every API read: the bracket, the match list
and its filters, a match, a player's matches, the Swiss rounds and the standings show it
to the tournament's staff (organisers, referees, superusers) and to nobody else — not
even the round's own players — by the one rule of ``matches.visibility``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from matches.models import Match
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Round
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired() -> dict[str, Any]:
    """A public Swiss of four, round 1 paired and not published; one player is linked to a
    user account, and the tournament has a referee."""
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
    players = [PlayerFactory.create(name=f"Dold{i}", rating=2000 - i) for i in range(4)]
    players[0].user = linked
    players[0].save()
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    tournament_draw(tournament=t, by=organiser, draw_seed=5)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    superuser = UserFactory.create(is_superuser=True)
    return {
        "t": t,
        "round": rnd,
        "organiser": organiser,
        "referee": referee,
        "superuser": superuser,
        "player_user": linked,
        "players": players,
        "match": Match.objects.filter(round=rnd).order_by("slot").first(),
    }


def _readers(s: dict[str, Any]) -> dict[str, tuple[Any, bool]]:
    """Who reads, and whether they see the unpublished round."""
    return {
        "anonymous": (client_for(None), False),
        "outsider": (client_for(UserFactory.create()), False),
        "its player": (client_for(s["player_user"]), False),
        "organiser": (client_for(s["organiser"]), True),
        "referee": (client_for(s["referee"]), True),
        "superuser": (client_for(s["superuser"]), True),
    }


def _bracket_match_ids(body: dict[str, Any]) -> set[int]:
    ids = {m["id"] for r in body["rounds"] for m in r["matches"]}
    for section in body.get("sections") or []:
        for column in section.get("columns") or section.get("rounds") or []:
            ids.update(m["id"] for m in column.get("matches", []))
    if body.get("third_place"):
        ids.add(body["third_place"]["id"])
    return ids


def test_every_api_read_hides_an_unpublished_round_but_from_the_staff(
    paired: dict[str, Any],
) -> None:
    t, match, players = paired["t"], paired["match"], paired["players"]
    hidden = set(Match.objects.filter(round=paired["round"]).values_list("pk", flat=True))
    assert len(hidden) == 2
    for who, (api, sees) in _readers(paired).items():
        bracket = api.get(f"/api/tournaments/{t.pk}/bracket/")
        assert bracket.status_code == 200, (who, bracket.content)
        assert (_bracket_match_ids(bracket.json()) == hidden) is sees, who
        assert (bool(_bracket_match_ids(bracket.json()))) is sees, who
        assert ("Dold1" in bracket.content.decode()) is sees, who

        listed = api.get(f"/api/matches/?tournament={t.pk}").json()
        assert listed["count"] == (2 if sees else 0), who
        by_round = api.get(f"/api/matches/?tournament={t.pk}&round=1").json()
        assert by_round["count"] == (2 if sees else 0), who
        by_player = api.get(f"/api/matches/?player={players[1].pk}").json()
        assert by_player["count"] == (1 if sees else 0), who

        detail = api.get(f"/api/matches/{match.pk}/")
        assert detail.status_code == (200 if sees else 404), who

        mine = api.get(f"/api/players/{players[0].pk}/matches/").json()
        assert mine["count"] == (1 if sees else 0), who

        swiss = api.get(f"/api/tournaments/{t.pk}/swiss/").json()
        assert bool(swiss["round_list"][0]["pairings"]) is sees, who

        standings = api.get(f"/api/tournaments/{t.pk}/standings/")
        assert standings.status_code == 200, (who, standings.content)
        assert standings.json()["finished_rounds"] == 0

        placings = api.get(f"/api/tournaments/{t.pk}/placings/")
        assert placings.status_code == 200 and placings.json() == [], who


def test_once_published_everyone_sees_the_round(paired: dict[str, Any]) -> None:
    t = paired["t"]
    swiss_round_publish(round=Round.objects.get(pk=paired["round"].pk), by=paired["organiser"])
    for who, (api, _sees) in _readers(paired).items():
        bracket = api.get(f"/api/tournaments/{t.pk}/bracket/").json()
        assert len(_bracket_match_ids(bracket)) == 2, who
        assert api.get(f"/api/matches/{paired['match'].pk}/").status_code == 200, who
