"""200 simulated Swiss tournaments through the services (the Swiss's figures):
random field sizes and numbers of rounds, random results (walkovers, either way), players
checked out and withdrawn at random; in every round each present player is in exactly one
match or the bye, nobody absent or withdrawn is paired, and there is no rematch while a
pairing with fewer exists (the history read back from the database, compared with
``tests.stages.test_swiss.fewest_rematches``). The pure engine's 10,000-tournament
simulation is ``tests/stages/test_swiss.py``; this one checks the site's side: the
history, the presence and the withdrawals it gives the engine."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from matches.models import Match, MatchState
from matches.swiss_progression import (
    entry_presence_set,
    swiss_history,
    swiss_round_pair,
    swiss_round_publish,
)
from stages.swiss import SwissPlayer
from tests.stages.test_swiss import fewest_rematches
from tests.tournaments.test_swiss import finish_round, swiss
from tournaments.entries import entry_withdraw
from tournaments.models import Entry, TournamentStatus

pytestmark = pytest.mark.django_db

SIZES = (2, 3, 4, 5, 6, 7, 8, 9, 11, 12)


def test_two_hundred_simulated_swiss_tournaments_have_no_avoidable_rematch() -> None:
    rng = random.Random(2026)
    rounds_played = 0
    for index in range(200):
        n = SIZES[index % len(SIZES)]
        rounds = rng.randint(1, n - 1)
        t, organiser, _players = swiss(n, swiss_rounds=rounds, seed=rng.randrange(10**9))
        for number in range(1, rounds + 1):
            entries = list(Entry.objects.filter(tournament=t))
            for e in entries:
                if e.withdrawn_at is None and rng.random() < 0.05:
                    entry_withdraw(entry=e, by=organiser)
                elif e.withdrawn_at is None and rng.random() < 0.08:
                    entry_presence_set(entry=e, present=e.absent, by=organiser)
            entries = list(Entry.objects.filter(tournament=t))
            present = {e.player_id for e in entries if e.withdrawn_at is None and not e.absent}
            if len(present) < 2:
                break
            before = list(Match.objects.filter(tournament=t))
            history = swiss_history(before)
            rnd = swiss_round_pair(tournament=t, by=organiser)
            made = list(Match.objects.filter(round=rnd))
            ids = [p for m in made for p in (m.player1_id, m.player2_id) if p is not None]
            assert sorted(ids) == sorted(present), (index, number)
            assert sum(m.player2_id is None for m in made) == len(present) % 2
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
        t.refresh_from_db()
        last = Match.objects.filter(tournament=t, round__number=rounds)
        if last.exists():
            assert t.status == TournamentStatus.FINISHED
            assert not last.exclude(
                state__in=(MatchState.DECIDED, MatchState.WALKOVER, MatchState.BYE)
            ).exists()
    assert rounds_played > 500
