"""Round-robin tournaments: the format chosen at creation, the draw from the
Berger tables with byes, results entered as in a knockout, no advancing, withdrawals, the
standings with the tournament's tiebreak chain and why each player is above the next."""

from __future__ import annotations

import datetime
from itertools import combinations
from typing import Any

import pytest
from django.utils import translation

from core.errors import ValidationError
from matches.group_standings import tournament_standings
from matches.models import Match, MatchState
from matches.round_selectors import tournament_placings
from matches.services import game_result_enter, match_walkover
from matches.stage_text import render
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tournaments.entries import entry_withdraw
from tournaments.models import Entry, Round, RoundKind, Tournament, TournamentStatus
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def group(n: int, *, game: str = "brade", **fields: Any) -> tuple[Tournament, Any, list[Any]]:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser,
        name="Onsdagsgruppen",
        start_date=datetime.date(2026, 11, 25),
        game=game,
        format="round_robin",
        **fields,
    )
    tournament.referees.add(referee := UserFactory.create())
    players = [PlayerFactory.create(name=f"P{i + 1}") for i in range(n)]
    for i, p in enumerate(players):
        EntryFactory.create(tournament=tournament, player=p, seed=i + 1)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=7)
    tournament.refresh_from_db()
    return tournament, referee, players


def win(match: Match, player_id: int, referee: Any, *, big: bool = False) -> None:
    """Decide a best-of-3 bräde match for ``player_id`` in two games."""
    side = "W" if match.player1_id == player_id else "B"
    for number in (1, 2):
        game_result_enter(
            match=match,
            number=number,
            result=won(side, "jan" if big or number == 2 else "hemspel"),
            by=referee,
            starter="W" if number == 1 else None,
        )


def between(t: Tournament, a: Any, b: Any) -> Match:
    return Match.objects.get(tournament=t, player1__in=[a, b], player2__in=[a, b])


def test_knockout_is_the_default_and_a_knockout_has_no_chain() -> None:
    t = tournament_create(
        by=OrganiserFactory.create(), name="Cup", start_date=datetime.date(2026, 11, 25)
    )
    assert (t.format, t.tiebreaks) == ("knockout", [])


def test_draw_makes_every_pair_meet_once_with_one_bye_a_round() -> None:
    t, _, players = group(5)
    rounds = list(Round.objects.filter(tournament=t))
    assert len(rounds) == 5 and {r.kind for r in rounds} == {RoundKind.ROUND_ROBIN}
    assert t.status == TournamentStatus.RUNNING
    pairs = sorted(
        tuple(sorted((m.player1_id or 0, m.player2_id or 0)))
        for m in Match.objects.filter(tournament=t, player2__isnull=False)
    )
    assert pairs == sorted(tuple(sorted((a.pk, b.pk))) for a, b in combinations(players, 2))
    byes = Match.objects.filter(tournament=t, state=MatchState.BYE)
    assert sorted(b.player1_id or 0 for b in byes) == sorted(p.pk for p in players)
    assert [r.name for r in rounds][:2] == ["Round 1", "Round 2"]


def test_double_round_robin_meets_twice_with_the_names_swapped() -> None:
    t, _, (a, b, _c, _d) = group(4, double_round=True)
    assert Round.objects.filter(tournament=t).count() == 6
    ab = Match.objects.filter(tournament=t, player1__in=[a, b], player2__in=[a, b])
    assert sorted((m.player1_id, m.player2_id) for m in ab) == sorted([(a.pk, b.pk), (b.pk, a.pk)])


def test_a_decided_match_feeds_nothing_and_the_last_result_finishes() -> None:
    t, ref, (a, b, c) = group(3)
    win(between(t, a, b), a.pk, ref)
    assert Match.objects.filter(tournament=t, state=MatchState.READY).count() == 2
    win(between(t, a, c), a.pk, ref)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    assert tournament_placings(tournament=t) == []
    win(between(t, b, c), c.pk, ref)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    # Placed by the table once finished: a 2 wins, then b and c on 1 each (game points).
    placings = tournament_placings(tournament=t)
    assert next((p.player, p.first) for p in placings) == (a, 1)
    assert sorted(p.first for p in placings) == [1, 2, 3]


def test_standings_by_match_points_then_game_points_with_reasons() -> None:
    t, ref, (a, b, c, d) = group(4)
    # a beats everyone; b, c, d beat each other in a circle, b by a jan (more points).
    win(between(t, a, b), a.pk, ref)
    win(between(t, a, c), a.pk, ref)
    win(between(t, a, d), a.pk, ref)
    win(between(t, b, c), b.pk, ref, big=True)
    win(between(t, c, d), c.pk, ref)
    win(between(t, d, b), d.pk, ref)
    table = tournament_standings(tournament=t)
    assert [line.player.name for line in table.lines][:2] == ["P1", "P2"]
    first, second = table.lines[0], table.lines[1]
    assert first.values[0] == 3 and first.won == 3 and first.played == 3
    assert first.why is not None and first.why.code == "standing.ahead"
    assert second.why is not None and second.why.code == "standing.ahead_level"
    assert render(first.why) == f"P1 is above {second.player.name} on match points (3 to 1)"
    with translation.override("sv"):
        assert render(first.why).startswith(f"P1 är före {second.player.name} på matchpoäng")
    # the cross table: a's row shows its wins from its own side
    row = table.lines[0]
    texts = [t for _, t in row.cells]
    assert texts[0] == [] and all(cell and cell[0].endswith("–0") for cell in texts[1:])


def test_backgammon_chain_is_points_difference_and_skiljepoang_is_refused() -> None:
    organiser = OrganiserFactory.create()
    t = tournament_create(
        by=organiser,
        name="BG",
        start_date=datetime.date(2026, 11, 25),
        game="backgammon",
        format="round_robin",
    )
    assert t.tiebreaks[0] == "points_difference"
    with pytest.raises(ValidationError):
        tournament_create(
            by=organiser,
            name="BG2",
            start_date=datetime.date(2026, 11, 25),
            game="backgammon",
            format="round_robin",
            tiebreaks=["skiljepoang"],
        )
    with pytest.raises(ValidationError):
        tournament_create(
            by=organiser,
            name="X",
            start_date=datetime.date(2026, 11, 25),
            format="round_robin",
            tiebreaks=["wins", "wins"],
        )


def test_withdrawal_gives_walkovers_for_every_match_left_and_keeps_results() -> None:
    t, ref, (a, b, c, d) = group(4)
    win(between(t, a, b), b.pk, ref)
    entry = Entry.objects.get(tournament=t, player=a)
    entry_withdraw(entry=entry, by=t.organisers.get())
    ab = between(t, a, b)
    assert ab.state == MatchState.DECIDED and ab.winner_id == b.pk
    for other in (c, d):
        m = between(t, a, other)
        assert m.state == MatchState.WALKOVER and m.winner_id == other.pk
    table = tournament_standings(tournament=t)
    withdrawn = next(line for line in table.lines if line.player == a)
    assert withdrawn.withdrawn and withdrawn.values[0] == 0


def test_walkover_counts_a_win_and_no_game_points() -> None:
    t, ref, (a, b) = group(2)
    match_walkover(match=between(t, a, b), winner=b, by=ref)
    table = tournament_standings(tournament=t)
    assert table.lines[0].player == b and table.lines[0].values[:2] == [1, 0]


def test_a_round_robin_takes_at_most_32_players() -> None:
    """33 players are refused with a message naming the limit, and nothing is drawn; 32 are
    drawn (31 rounds of 16 matches)."""
    from stages.roundrobin import MAX_PLAYERS

    with pytest.raises(ValidationError, match="at most 32 players; 33 entered"):
        group(MAX_PLAYERS + 1)
    refused = Tournament.objects.get()
    assert refused.status == TournamentStatus.DRAFT
    assert not Round.objects.filter(tournament=refused).exists()
    tournament, _, _ = group(MAX_PLAYERS)
    assert Round.objects.filter(tournament=tournament).count() == 31
    assert Match.objects.filter(round__tournament=tournament).count() == 31 * 16
