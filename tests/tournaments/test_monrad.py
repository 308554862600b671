"""Monrad tournaments through the services, in each of the three games: the start, round 1
by seed (1–2, 3–4, …), each later round paired top-down by score and the standings' order
with the next player not met, no avoidable rematch over simulated tournaments with
withdrawals and players checked out, the bye to the lowest-ranked player without one, and
a whole tournament played to a winner. Monrad is played through the formats' seam only:
the Swiss's rounds, check-in, swaps and standings run it, with its own pairing."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal
from typing import Any

import pytest

from matches.models import Match, MatchState
from matches.round_selectors import tournament_placings
from matches.swiss_progression import (
    entry_presence_set,
    swiss_history,
    swiss_round_pair,
    swiss_round_publish,
)
from matches.swiss_standings import swiss_standings
from stages.swiss import SwissPlayer
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.stages.test_swiss import fewest_rematches
from tests.tournaments.test_swiss import finish_round, pairs_of
from tournaments.entries import entry_withdraw
from tournaments.models import Entry, RoundKind, Tournament, TournamentStatus
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def monrad(
    n: int, *, game: str = "brade", seed: int = 7, **fields: Any
) -> tuple[Tournament, Any, list[Any]]:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser,
        name="Monradkvällen",
        start_date=datetime.date(2026, 11, 26),
        game=game,
        format="monrad",
        **fields,
    )
    # P1 is the highest rated: pairing number 1.
    players = [PlayerFactory.create(name=f"P{i + 1}", rating=2000 - i) for i in range(n)]
    for p in players:
        EntryFactory.create(tournament=tournament, player=p)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=seed)
    tournament.refresh_from_db()
    return tournament, organiser, players


def ids(*players: Any) -> frozenset[int | None]:
    return frozenset(p.pk if p is not None else None for p in players)


@pytest.mark.parametrize("game", ["brade", "backgammon", "kungabrade"])
def test_a_whole_monrad_is_played_to_a_winner(game: str) -> None:
    t, organiser, p = monrad(7, game=game, swiss_rounds=3)
    assert t.status == TournamentStatus.RUNNING and t.tiebreaks  # the paired rounds' chain
    rounds = list(t.rounds.order_by("number"))
    assert [r.kind for r in rounds] == [RoundKind.PAIRED] * 3
    assert not any(r.published for r in rounds)
    for number in (1, 2, 3):
        rnd = swiss_round_pair(tournament=t, by=organiser)
        assert rnd.number == number
        if number == 1:  # by seed: 1–2, 3–4, 5–6, the bye to 7
            assert pairs_of(t, 1) == {
                ids(p[0], p[1]),
                ids(p[2], p[3]),
                ids(p[4], p[5]),
                ids(p[6], None),
            }
        swiss_round_publish(round=rnd, by=organiser)
        finish_round(t, number, organiser)  # the first-named (higher-ranked) player wins
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    placings = tournament_placings(tournament=t)
    assert [pl.first for pl in placings] == list(range(1, 8))
    # P1 won all three: first. Every match is over, no pair met twice.
    assert placings[0].player == p[0]
    matches = list(Match.objects.filter(tournament=t))
    assert all(m.state in (MatchState.WALKOVER, MatchState.BYE) for m in matches)
    pairs = [frozenset((m.player1_id, m.player2_id)) for m in matches if m.player2_id]
    assert len(pairs) == len(set(pairs))


def test_round_two_pairs_each_with_the_next_one_down_not_met() -> None:
    t, organiser, p = monrad(6, swiss_rounds=3)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    swiss_round_publish(round=rnd, by=organiser)
    finish_round(t, 1, organiser)  # P1, P3, P5 win
    swiss_round_pair(tournament=t, by=organiser)
    # Ranked P1, P3, P5 (1 point, level on every tiebreak: by seed), then P2, P4, P6.
    # P1 meets P3; P5 the next one down, P2; P4 has met P3 and meets P6.
    assert pairs_of(t, 2) == {ids(p[0], p[2]), ids(p[4], p[1]), ids(p[3], p[5])}


def test_the_standings_order_players_level_on_points() -> None:
    # After two rounds of random results the leader of the standings (match points, then
    # the tournament's tiebreak chain) meets the first player below it not met yet.
    t, organiser, _ = monrad(8, swiss_rounds=3)
    for number in (1, 2):
        rnd = swiss_round_pair(tournament=t, by=organiser)
        swiss_round_publish(round=rnd, by=organiser)
        finish_round(t, number, organiser, random.Random(number))
    rnd = swiss_round_pair(tournament=t, by=organiser)
    table = swiss_standings(tournament=t)
    history = swiss_history(Match.objects.filter(tournament=t, round__number__lt=rnd.number))
    order = [line.player.pk for line in table.lines]
    top = order[0]
    partner = next(pid for pid in order[1:] if pid not in history.opponents[top])
    assert frozenset((top, partner)) in pairs_of(t, rnd.number)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    t, organiser, p = monrad(5, swiss_rounds=3)
    byes: list[int | None] = []
    for number in (1, 2, 3):
        rnd = swiss_round_pair(tournament=t, by=organiser)
        made = list(Match.objects.filter(round=rnd))
        bye = [m.player1_id for m in made if m.player2_id is None]
        assert len(bye) == 1 and bye[0] not in byes
        byes.append(bye[0])
        assert next(m for m in made if m.player2_id is None).state == MatchState.BYE
        swiss_round_publish(round=rnd, by=organiser)
        finish_round(t, number, organiser)
    assert byes[0] == p[4].pk  # round 1: the lowest seed


SIZES = (2, 3, 4, 5, 6, 7, 8, 9, 11)


def test_fifty_simulated_monrad_tournaments_have_no_avoidable_rematch() -> None:
    rng = random.Random(2611)
    rounds_played = 0
    for index in range(50):
        n = SIZES[index % len(SIZES)]
        rounds = rng.randint(1, n - 1)
        t, organiser, _ = monrad(n, swiss_rounds=rounds, seed=rng.randrange(10**9))
        for number in range(1, rounds + 1):
            for e in Entry.objects.filter(tournament=t):
                if e.withdrawn_at is None and rng.random() < 0.05:
                    entry_withdraw(entry=e, by=organiser)
                elif e.withdrawn_at is None and rng.random() < 0.08:
                    entry_presence_set(entry=e, present=e.absent, by=organiser)
            entries = list(Entry.objects.filter(tournament=t))
            present = {e.player_id for e in entries if e.withdrawn_at is None and not e.absent}
            if len(present) < 2:
                break
            history = swiss_history(list(Match.objects.filter(tournament=t)))
            rnd = swiss_round_pair(tournament=t, by=organiser)
            made = list(Match.objects.filter(round=rnd))
            paired = [pid for m in made for pid in (m.player1_id, m.player2_id) if pid]
            assert sorted(paired) == sorted(present), (index, number)
            field = [
                SwissPlayer(pid, Decimal(0), 0, frozenset(history.opponents.get(pid, set())))
                for pid in sorted(present)
            ]
            rematches = sum(
                m.player2_id is not None
                and m.player2_id in history.opponents.get(m.player1_id or 0, set())
                for m in made
            )
            assert rematches == fewest_rematches(field), (index, number)
            swiss_round_publish(round=rnd, by=organiser)
            finish_round(t, number, organiser, rng)
            rounds_played += 1
    assert rounds_played > 100
