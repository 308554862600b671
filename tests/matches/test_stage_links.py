"""Every stage's matches move along links stored at the draw: a knockout's as much as an
elimination's, and a stage the site has never seen moves by its plan's links alone."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps

from matches.match_creation import matches_create
from matches.models import Match, MatchState
from matches.services import game_result_enter
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, TournamentFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from tournaments.match_plans import Link, PlannedMatch
from tournaments.models import Round, TournamentStatus

pytestmark = pytest.mark.django_db


def _links(tournament: Any) -> dict[tuple[int, int, bool], tuple[Any, ...]]:
    return {
        (m.round.number, m.slot, m.is_third_place): (
            (m.winner_to.round.number, m.winner_to.slot, m.winner_to.is_third_place)
            if m.winner_to
            else None,
            m.winner_to_upper,
            (m.loser_to.round.number, m.loser_to.slot, m.loser_to.is_third_place)
            if m.loser_to
            else None,
            m.loser_to_upper,
        )
        for m in Match.objects.filter(tournament=tournament).select_related(
            "round", "winner_to__round", "loser_to__round"
        )
    }


def _win(match: Match, player_id: int, referee: Any) -> None:
    game_result_enter(
        match=match,
        number=1,
        result=won("W" if match.player1_id == player_id else "B"),
        by=referee,
        starter="W",
    )


def test_a_knockout_stores_its_links_at_the_draw() -> None:
    s = drawn(8, third_place=True, lengths=[1, 1, 1])
    links = _links(s.tournament)
    for slot in range(4):
        assert links[(1, slot, False)] == ((2, slot // 2, False), slot % 2 == 0, None, True)
    for slot in range(2):  # the semifinals: winner to the final, loser to the third place
        assert links[(2, slot, False)] == (
            (3, 0, False),
            slot % 2 == 0,
            (3, 0, True),
            slot % 2 == 0,
        )
    assert links[(3, 0, False)] == (None, True, None, True)
    assert links[(3, 0, True)] == (None, True, None, True)


def test_a_knockout_moves_its_players_by_the_stored_links() -> None:
    """Bend one link by hand: the winner goes where the link says, not where slot
    arithmetic would put him."""
    s = drawn(4, lengths=[1, 1])
    first, second = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)
    final = match_of(s.tournament, 2, 0)
    Match.objects.filter(pk=first.pk).update(winner_to_upper=False)
    Match.objects.filter(pk=second.pk).update(winner_to_upper=True)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.player1 is not None and second.player2 is not None
    _win(first, first.player1.pk, s.referee)
    _win(second, second.player2.pk, s.referee)
    final.refresh_from_db()
    assert (final.player1_id, final.player2_id) == (second.player2.pk, first.player1.pk)


def test_the_migration_writes_an_old_knockouts_links() -> None:
    """A knockout drawn before the links were stored gets the links the draw writes now,
    and plays on by them."""
    s = drawn(8, third_place=True, lengths=[1, 1, 1])
    expected = _links(s.tournament)
    Match.objects.filter(tournament=s.tournament).update(
        winner_to=None, winner_to_upper=True, loser_to=None, loser_to_upper=True
    )
    assert all(v == (None, True, None, True) for v in _links(s.tournament).values())
    migration = importlib.import_module("matches.migrations.0014_knockout_links")
    migration.knockout_links(apps, None)
    assert _links(s.tournament) == expected
    # Backwards, then forwards again: the same links.
    migration.unlink(apps, None)
    assert all(v == (None, True, None, True) for v in _links(s.tournament).values())
    migration.knockout_links(apps, None)
    assert _links(s.tournament) == expected


def test_a_stage_the_site_has_never_seen_moves_by_its_plans_links() -> None:
    """A ladder (king of the hill): 1 v 2, its winner meets 3, that winner meets 4 — a
    shape no format draws. Its plan's links alone move the players on, and the
    tournament ends when its last match is played."""
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], referees=[organiser])
    players = [PlayerFactory.create(name=f"L{i}") for i in range(4)]
    for p in players:
        EntryFactory.create(tournament=tournament, player=p)
    rounds = [
        Round.objects.create(tournament=tournament, number=n, rounds_after=3 - n, match_length=1)
        for n in (1, 2, 3)
    ]
    plan = [
        PlannedMatch("a", rounds[0], 0, players[0], players[1], winner_to=Link("b", False)),
        PlannedMatch("b", rounds[1], 0, players[2], winner_to=Link("c", True)),
        PlannedMatch("c", rounds[2], 0, None, players[3]),
    ]
    a, b, c = matches_create(tournament=tournament, plan=plan, by=organiser)
    assert (a.state, b.state, c.state) == (MatchState.READY, MatchState.WAITING, MatchState.WAITING)
    tournament.status = TournamentStatus.RUNNING
    tournament.save()
    _win(a, players[1].pk, organiser)
    b.refresh_from_db()
    assert (b.player1_id, b.player2_id, b.state) == (players[2].pk, players[1].pk, "ready")
    _win(b, players[1].pk, organiser)
    c.refresh_from_db()
    assert (c.player1_id, c.player2_id, c.state) == (players[1].pk, players[3].pk, "ready")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    _win(c, players[3].pk, organiser)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_a_bye_in_a_plan_sends_its_player_along_its_link() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser])
    players = [PlayerFactory.create() for _ in range(2)]
    rnd = Round.objects.create(tournament=tournament, number=1, rounds_after=1, match_length=1)
    final = Round.objects.create(tournament=tournament, number=2, rounds_after=0, match_length=1)
    plan = [
        PlannedMatch("bye", rnd, 0, players[0], bye=True, winner_to=Link("f", False)),
        PlannedMatch("f", final, 0, players[1]),
    ]
    bye, f = matches_create(tournament=tournament, plan=plan, by=organiser)
    assert (bye.state, bye.winner_id) == (MatchState.BYE, players[0].pk)
    f.refresh_from_db()
    assert (f.player1_id, f.player2_id, f.state) == (players[1].pk, players[0].pk, "ready")
    assert f.table == 1 and bye.table is None


def test_a_plans_keys_must_differ() -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser])
    rnd = Round.objects.create(tournament=tournament, number=1, rounds_after=0, match_length=1)
    plan = [PlannedMatch("x", rnd, 0), PlannedMatch("x", rnd, 1)]
    with pytest.raises(ValueError, match="keys"):
        matches_create(tournament=tournament, plan=plan, by=organiser)
    assert not Match.objects.filter(tournament=tournament).exists()
