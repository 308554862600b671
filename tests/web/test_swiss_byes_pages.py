"""A Swiss's half-point byes and the taking back of a paired round on the pages, in
Swedish: the organiser sets the rules and gives a player a bye on the manage page, a
signed-in player asks for and cancels their own on the tournament page, the bye shows in
the pairings (manage and public) and in the standings; the unpublished pairing is paired
again and taken back from the manage page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import HalfPointBye, Match, MatchState, RoundEvent
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.test_swiss import win_in_games
from tournaments.models import Entry, Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> tuple[Tournament, Any, list[Any]]:
    import datetime

    organiser = OrganiserFactory.create(username="ordf")
    t = tournament_create(
        by=organiser,
        name="Halvpoängskvällen",
        start_date=datetime.date(2027, 3, 6),
        format="swiss",
        swiss_rounds=3,
    )
    players = [PlayerFactory.create(name=f"Spelare {i}", rating=1900 - i) for i in range(1, 6)]
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    tournament_draw(tournament=t, by=organiser, draw_seed=4)
    t.refresh_from_db()
    return t, organiser, players


def _sv(client: Client) -> Client:
    client.cookies["django_language"] = "sv"
    return client


def test_the_organiser_sets_the_rules_and_gives_a_bye(setup: Any) -> None:
    t, organiser, players = setup
    client = _sv(Client())
    client.force_login(organiser)
    manage = reverse("web:tournament_manage", args=[t.pk])
    page = client.get(manage).content.decode()
    assert "Halvpoängsfrironder" in page and "Ingen halvpoängsfrirond är begärd." in page
    assert 'id="swiss-half-bye-ask"' not in page, "none granted yet: no form to ask"
    done = client.post(
        reverse("web:swiss_half_bye_rules", args=[t.pk]),
        {"allowed": "1", "until": "2"},
        follow=True,
    ).content.decode()
    assert "Halvpoängsfrironderna är sparade." in done
    t.refresh_from_db()
    assert (t.half_point_byes, t.half_point_byes_until) == (1, 2)
    assert 'id="swiss-half-bye-ask"' in done
    assert ">Omgång 2</option>" in done and ">Omgång 3</option>" not in done
    entry = Entry.objects.get(tournament=t, player=players[0])
    given = client.post(
        reverse("web:swiss_half_bye_ask", args=[t.pk]),
        {"entry": entry.pk, "round": "1"},
        follow=True,
    ).content.decode()
    assert "Spelare 1 står över omgång 1 för en halv poäng." in given
    refused = client.post(
        reverse("web:swiss_half_bye_ask", args=[t.pk]),
        {"entry": entry.pk, "round": "2"},
        follow=True,
    ).content.decode()
    assert "har begärt den 1 halvpoängsfrirond" in refused

    paired = client.post(reverse("web:swiss_pair", args=[t.pk]), follow=True).content.decode()
    assert "½ frirond" in paired and "halvpoängsfrirond, begärd i förväg" in paired
    assert "Lotta igen" in paired and "Ta tillbaka lottningen" in paired
    assert ">lottad<" in paired, "the bye's round is paired: no cancel button"

    again = client.post(reverse("web:swiss_repair", args=[t.pk, 1]), follow=True).content.decode()
    assert "Omgång 1 är lottad igen bland spelarna som är incheckade nu." in again
    back = client.post(reverse("web:swiss_unpair", args=[t.pk, 1]), follow=True).content.decode()
    assert "Lottningen av Omgång 1 är tillbakatagen" in back
    assert not Match.objects.filter(tournament=t).exists()
    assert list(RoundEvent.objects.values_list("kind", flat=True)) == ["repaired", "unpaired"]
    bye = HalfPointBye.objects.get()
    cancelled = client.post(
        reverse("web:swiss_half_bye_cancel", args=[t.pk, bye.pk]), follow=True
    ).content.decode()
    assert "Halvpoängsfrironden för Spelare 1 i omgång 1 är ångrad." in cancelled


def test_a_player_asks_for_their_own_bye_and_everyone_sees_it(setup: Any) -> None:
    t, organiser, players = setup
    t.half_point_byes = 1
    t.save()
    user = UserFactory.create(username="spelare2")
    players[1].user = user
    players[1].save()
    detail = reverse("web:tournament_detail", args=[t.pk])
    public = _sv(Client())
    assert "Dina halvpoängsfrironder" not in public.get(detail).content.decode()
    stranger = _sv(Client())
    stranger.force_login(UserFactory.create())
    assert "Dina halvpoängsfrironder" not in stranger.get(detail).content.decode()

    me = _sv(Client())
    me.force_login(user)
    page = me.get(detail).content.decode()
    assert "Dina halvpoängsfrironder" in page and "Du kan stå över 1 omgång" in page
    entry = Entry.objects.get(tournament=t, player=players[1])
    asked = me.post(
        reverse("web:swiss_half_bye_ask", args=[t.pk]),
        {"entry": entry.pk, "round": "2", "back": "page"},
        follow=True,
    )
    assert asked.redirect_chain[-1][0].endswith(f"/tournaments/{t.pk}/#half-byes")
    text = asked.content.decode()
    assert "Omgång 2: du står över för en halv poäng." in text
    assert "Du har begärt alla halvpoängsfrironder" in text
    # Another player's entry is not theirs to ask for.
    other = Entry.objects.get(tournament=t, player=players[2])
    refused = me.post(
        reverse("web:swiss_half_bye_ask", args=[t.pk]),
        {"entry": other.pk, "round": "1", "back": "page"},
        follow=True,
    ).content.decode()
    assert "Bara Spelare 3 eller en arrangör" in refused
    assert HalfPointBye.objects.count() == 1

    for _ in (1, 2):
        rnd = swiss_round_pair(tournament=t, by=organiser)
        swiss_round_publish(round=rnd, by=organiser)
        for m in Match.objects.filter(round=rnd, state=MatchState.READY):
            win_in_games(m, m.player1_id or 0, organiser)
    seen = public.get(detail).content.decode()
    assert "½ frirond" in seen and "halvpoängsfrirond, begärd i förväg" in seen
    assert "1 halvpoängsfrirond" in seen, "the standings mark the bye taken"
    round2 = Match.objects.filter(tournament=t, round__number=2)
    assert players[1].pk not in {pid for m in round2 for pid in (m.player1_id, m.player2_id)}
