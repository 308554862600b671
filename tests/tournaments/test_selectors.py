"""Selectors: fixed query counts whatever the field size, and what each reader sees."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match, MatchState
from matches.round_selectors import player_matches, tournament_bracket, tournament_placings
from matches.selectors import match_detail
from matches.services import game_result_enter
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of

pytestmark = pytest.mark.django_db


def _play_first_round(s: Setup) -> None:
    for m in Match.objects.filter(tournament=s.tournament, round__number=1, state="ready"):
        game_result_enter(match=m, number=1, result=won("W", "jan"), starter="B", by=s.referee)


def _count(func: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        func()
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_field() -> None:
    small, large = drawn(8, lengths=[1, 1, 1]), drawn(64, lengths=[1] * 6)
    for s in (small, large):
        _play_first_round(s)

    def reads(s: Setup) -> list[int]:
        return [
            _count(
                lambda: [len(r.matches) for r in tournament_bracket(tournament=s.tournament).rounds]
            ),
            _count(lambda: tournament_placings(tournament=s.tournament)),
            _count(lambda: list(player_matches(player=s.players[0]))),
        ]

    assert reads(small) == reads(large)


def test_bracket_shape() -> None:
    s = drawn(5, third_place=True)
    bracket = tournament_bracket(tournament=s.tournament)
    assert [len(r.matches) for r in bracket.rounds] == [4, 2, 1]
    assert bracket.third_place is not None and bracket.third_place.is_third_place


def test_match_detail_explains_and_hides_records_from_the_public() -> None:
    s = drawn(2, lengths=[3])
    m = match_of(s.tournament, 1, 0)
    game_result_enter(match=m, number=1, result=won("W", "jan"), starter="W", by=s.referee)
    public = match_detail(match=m, by=UserFactory.create(), lang="en")
    assert [g.number for g in public.games] == [1]
    assert public.explanation and "P001" in " ".join(public.explanation)
    assert public.events == [] and public.submissions == []
    staff = match_detail(match=m, by=s.referee)
    assert [e.kind for e in staff.events] == ["result_entered"]


def test_match_detail_of_a_bye() -> None:
    s = drawn(3)
    bye = match_of(s.tournament, 1, 0)
    assert bye.state == MatchState.BYE
    assert "bye" in match_detail(match=bye, lang="en").explanation[0]


def test_player_matches_respects_visibility() -> None:
    s = drawn(2, is_public=False)
    player = s.players[0]
    assert list(player_matches(player=player, by=None)) == []
    assert len(player_matches(player=player, by=s.referee)) == 1


@pytest.mark.django_db
def test_entries_seeded_first_then_by_name_then_withdrawn() -> None:
    from django.utils import timezone

    from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
    from tournaments.selectors import tournament_entries

    tournament = TournamentFactory.create()
    for name, seed in (("Åke", None), ("Bo", 2), ("Cilla", None), ("Doris", 1)):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=name), seed=seed
        )
    gone = EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name="Ann"))
    gone.withdrawn_at = timezone.now()
    gone.save()
    names = [e.player.name for e in tournament_entries(tournament=tournament)]
    assert names[:2] == ["Doris", "Bo"] and set(names[2:4]) == {"Åke", "Cilla"}
    assert names[-1] == "Ann"
