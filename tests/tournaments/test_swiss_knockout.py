"""A Swiss feeding a knockout (the knockout seeded by the Swiss standings): the top
k of the standings after the last round, seeded in their order, through
``tournaments.group_stage``; the tournament finishes with the knockout's final."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.errors import ConflictError, ValidationError
from matches.models import Match, MatchState
from matches.round_selectors import tournament_placings
from matches.swiss_standings import swiss_standings
from tests.tournaments.test_swiss import play_round, swiss, win_in_games
from tournaments.group_stage import group_knockout_draw
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db


def test_top_four_of_a_swiss_play_a_knockout_seeded_by_the_standings(client: Any) -> None:
    t, organiser, _players = swiss(8, swiss_rounds=3, group_advance=4)
    rng = random.Random(11)
    play_round(t, organiser, rng)
    with pytest.raises(ConflictError) as early:
        group_knockout_draw(tournament=t, by=organiser)
    assert (
        early.value.code == "groups_unfinished"
        and "2 rounds are still to be paired" in early.value.message
    )
    play_round(t, organiser, rng)
    play_round(t, organiser, rng)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING  # waits for the knockout
    order = [line.player.pk for line in swiss_standings(tournament=t).lines]
    group_knockout_draw(tournament=t, by=organiser, lengths=[3, 3])
    semis = Match.objects.filter(tournament=t, round__kind="knockout", round__rounds_after=1)
    assert {frozenset((m.player1_id, m.player2_id)) for m in semis} == {
        frozenset((order[0], order[3])),
        frozenset((order[1], order[2])),
    }
    page = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "Slutspel efter schweizerrundorna" in page
    for _ in range(2):
        for m in Match.objects.filter(tournament=t, round__kind="knockout", state="ready"):
            win_in_games(m, rng.choice([m.player1_id, m.player2_id]) or 0, organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    placings = tournament_placings(tournament=t)
    assert [(p.first, p.last) for p in placings][:4] == [(1, 1), (2, 2), (3, 4), (3, 4)]
    assert len(placings) == 8 and [(p.first, p.last) for p in placings][4:] == [
        (5, 5),
        (6, 6),
        (7, 7),
        (8, 8),
    ]
    assert all(m.state != MatchState.WAITING for m in Match.objects.filter(tournament=t))


@pytest.mark.parametrize("advance", [1, 33])
def test_a_swiss_sends_two_to_thirty_two_on(advance: int) -> None:
    with pytest.raises(ValidationError) as err:
        swiss(8, start=False, group_advance=advance)
    assert err.value.code == "group_advance"
