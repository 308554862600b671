"""Shared set-up for the clubs tests: matches played out through the match services, with
their on-commit callbacks (the rating updates) run as a real commit would run them."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from matches import services as match_services
from matches.models import Match, MatchState
from tests.results import won
from tournaments.models import Player

Capture = Callable[..., AbstractContextManager[Any]]


def win(capture: Capture, match: Match, side: str, by: Any, *, outcome: str = "hemspel") -> Match:
    """Enter games won by ``side`` (W = player 1) until the match is decided."""
    match.refresh_from_db()
    number = match.games.filter(voided_at__isnull=True).count() + 1
    while match.state != MatchState.DECIDED:
        with capture(execute=True):
            match_services.game_result_enter(
                match=match, number=number, result=won(side, outcome), by=by
            )
        match.refresh_from_db()
        number += 1
    return match


def win_by(capture: Capture, match: Match, player: Player, by: Any) -> Match:
    match.refresh_from_db()
    return win(capture, match, "W" if match.player1_id == player.pk else "B", by)


def played(
    capture: Capture,
    players: list[Player],
    *,
    organiser: Any,
    referee: Any,
    lengths: list[int],
    name: str = "Cup",
    is_public: bool = True,
    draw_seed: int = 7,
) -> Any:
    """A knockout of ``players`` (seeded in the given order), drawn and played out: the
    upper player (White) wins every match. Returns the tournament."""
    from matches.models import Match
    from tests.factories import EntryFactory, TournamentFactory
    from tournaments.stage_draws import tournament_draw

    tournament = TournamentFactory.create(
        name=name, organisers=[organiser], referees=[referee], is_public=is_public
    )
    for seed, player in enumerate(players, start=1):
        EntryFactory.create(tournament=tournament, player=player, seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=lengths, draw_seed=draw_seed)
    for round_number in range(1, len(lengths) + 1):
        for match in Match.objects.filter(tournament=tournament, round__number=round_number):
            match.refresh_from_db()
            if match.state == MatchState.READY:
                win(capture, match, "W", referee)
    tournament.refresh_from_db()
    return tournament
