"""The Swiss keeps the rounds after the one it pairs pairable, through the services: 5
players and 4 rounds of bräde, every match played (no forfeit, no withdrawal, no
half-point bye), end with four different byes and no rematch (``stages.swiss``,
Completion), where the usual criteria alone gave a second bye in round 4."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import EventKind, Match, MatchEvent
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from tests.tournaments.test_swiss import current, swiss, win_in_games

pytestmark = pytest.mark.django_db

# Which player of each match wins, in slot order, round after round: True for the
# first-named (the higher-ranked). With these results the pairing by the usual criteria
# alone gives rounds 1–3 byes to three players whom the two others have both met, and
# round 4 a second bye.
RESULTS = ((True, True), (False, True), (True, True))


def play(t: Any, organiser: Any, number: int, first_wins: tuple[bool, ...]) -> None:
    rnd = swiss_round_pair(tournament=t, by=organiser)
    assert rnd.number == number
    swiss_round_publish(round=rnd, by=organiser)
    games = [m for m in current(t, number) if m.player2_id is not None]
    for m, first in zip(games, first_wins, strict=True):
        winner = m.player1_id if first else m.player2_id
        assert winner is not None
        win_in_games(m, winner, organiser)


def test_five_players_four_rounds_get_four_byes_and_no_rematch() -> None:
    t, organiser, _players = swiss(5, swiss_rounds=4, seed=7)
    for number, first_wins in enumerate(RESULTS, start=1):
        play(t, organiser, number, first_wins)
    swiss_round_pair(tournament=t, by=organiser)
    matches = list(Match.objects.filter(tournament=t).order_by("round__number", "slot"))
    byes = [m.player1_id for m in matches if m.player2_id is None]
    assert len(byes) == 4 and len(set(byes)) == 4
    met = [frozenset((m.player1_id, m.player2_id)) for m in matches if m.player2_id is not None]
    assert len(met) == 8 and len(set(met)) == 8
    # The round the look-ahead changed says so in its reasons.
    codes = {
        e.data["reason"]["code"]
        for e in MatchEvent.objects.filter(match__tournament=t, kind=EventKind.SWISS_PAIRED)
    }
    assert codes & {"swiss.equal_ahead", "swiss.float_ahead", "swiss.bye_ahead"}
