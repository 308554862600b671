"""The API of a Swiss: created with its rounds and chain, started through
the draw endpoint, players checked out, rounds paired, swapped (409 with the warnings until
confirmed) and published by organisers only; unpublished pairings hidden from the public;
the standings with the values and why each player is above the next."""

from __future__ import annotations

import pytest

from matches.models import Match, MatchState
from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.test_swiss import win_in_games
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_a_swiss_through_the_api() -> None:
    organiser = OrganiserFactory.create()
    api = client_for(organiser)
    created = api.post(
        "/api/tournaments/",
        {"name": "Schweizern", "start_date": "2026-12-01", "format": "swiss", "swiss_rounds": 3},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["swiss_rounds"] == 3
    assert body["tiebreaks"][:3] == ["game_points", "skiljepoang", "buchholz_cut1"]
    t = Tournament.objects.get(pk=body["id"])
    players = [PlayerFactory.create(name=f"S{i}", rating=1800 - i) for i in range(5)]
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    started = api.post(f"/api/tournaments/{t.pk}/draw/", {"draw_seed": 3}, format="json")
    assert started.status_code == 201, started.content

    outsider = client_for(UserFactory.create())
    anon = client_for(None)
    last = Entry.objects.get(tournament=t, player=players[4])
    assert (
        outsider.post(
            f"/api/entries/{last.pk}/presence/", {"present": False}, format="json"
        ).status_code
        == 403
    )
    out = api.post(f"/api/entries/{last.pk}/presence/", {"present": False}, format="json")
    assert out.status_code == 200 and out.json() == {"id": last.pk, "present": False}

    assert outsider.post(f"/api/tournaments/{t.pk}/swiss/pair/").status_code == 403
    paired = api.post(f"/api/tournaments/{t.pk}/swiss/pair/")
    assert paired.status_code == 201, paired.content
    data = paired.json()
    first = data["round_list"][0]
    assert first["paired"] and not first["published"] and data["absent"] == [last.pk]
    assert len(first["pairings"]) == 2
    assert first["pairings"][0]["reason"]["code"] == "swiss.equal"
    # A second press: the round before is not published yet.
    again = api.post(f"/api/tournaments/{t.pk}/swiss/pair/")
    assert again.status_code == 409

    hidden = anon.get(f"/api/tournaments/{t.pk}/swiss/").json()
    assert hidden["round_list"][0]["pairings"] == [] and not hidden["round_list"][0]["paired"]
    assert anon.get(f"/api/matches/?tournament={t.pk}").json()["count"] == 0

    # S0–S2 and S1–S3: swapping S1 and S2 makes no rematch in round 1.
    swap = api.post(
        f"/api/tournaments/{t.pk}/swiss/rounds/1/swap/",
        {"first": players[1].pk, "second": players[2].pk},
        format="json",
    )
    assert swap.status_code == 200, swap.content
    reasons = {p["reason"]["code"] for p in swap.json()["round_list"][0]["pairings"]}
    assert reasons == {"swiss.swapped"}

    assert outsider.post(f"/api/tournaments/{t.pk}/swiss/rounds/1/publish/").status_code == 403
    published = api.post(f"/api/tournaments/{t.pk}/swiss/rounds/1/publish/")
    assert published.status_code == 200 and published.json()["round_list"][0]["published"]
    public = anon.get(f"/api/tournaments/{t.pk}/swiss/", HTTP_ACCEPT_LANGUAGE="sv").json()
    assert len(public["round_list"][0]["pairings"]) == 2
    assert public["round_list"][0]["pairings"][0]["reason"]["text"] == "parad av en arrangör (byte)"

    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        win_in_games(m, m.player1_id or 0, organiser)  # played: a forfeit is no meeting
    assert api.post(f"/api/entries/{last.pk}/presence/", {"present": True}).status_code == 200
    paired = api.post(f"/api/tournaments/{t.pk}/swiss/pair/").json()
    second = paired["round_list"][1]["pairings"]
    # Five players: the bye, to the lowest-ranked player without one (S4, back again).
    assert second[-1]["player2"] is None and second[-1]["player1"]["id"] == players[4].pk
    # A rematch needs confirmation: after the swap, S0 met S1 (and S2 met S3) in round 1.
    s0 = next(p for p in second if players[0].pk in (p["player1"]["id"], p["player2"]["id"]))
    partner = s0["player2"]["id"] if s0["player1"]["id"] == players[0].pk else s0["player1"]["id"]
    swap = api.post(
        f"/api/tournaments/{t.pk}/swiss/rounds/2/swap/",
        {"first": partner, "second": players[1].pk},
        format="json",
    )
    assert swap.status_code == 409, swap.content
    assert swap.json()["error"]["code"] == "swap_warnings"
    assert partner != players[1].pk
    assert any("S0" in w and "S1" in w for w in swap.json()["error"]["warnings"])

    standings = anon.get(f"/api/tournaments/{t.pk}/standings/", HTTP_ACCEPT_LANGUAGE="sv")
    assert standings.status_code == 200, standings.content
    table = standings.json()
    assert table["chain"][:2] == ["match_points", "game_points"]
    assert table["rounds"] == 3 and table["finished_rounds"] == 1
    assert table["rows"][0]["values"]["match_points"] == "1"
    assert " är före " in table["rows"][0]["why"]["text"]


def test_swiss_endpoints_refuse_another_format() -> None:
    organiser = OrganiserFactory.create()
    api = client_for(organiser)
    created = api.post(
        "/api/tournaments/", {"name": "Cup", "start_date": "2026-12-01"}, format="json"
    ).json()
    assert api.get(f"/api/tournaments/{created['id']}/swiss/").status_code == 400
