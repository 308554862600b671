"""Shared set-up for tournament and match tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matches.models import Match
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Player, Tournament
from tournaments.stage_draws import tournament_draw


@dataclass
class Setup:
    tournament: Tournament
    organiser: Any
    referee: Any
    players: list[Player]  # players[i] has seed i + 1 when seeded


def drawn(
    n: int,
    *,
    seeded: int | None = None,
    third_place: bool = False,
    lengths: Sequence[int] | None = None,
    draw_seed: int = 12345,
    **tournament_fields: Any,
) -> Setup:
    """A tournament of ``n`` players (the first ``seeded`` seeded 1, 2, …), bracket drawn."""
    organiser = OrganiserFactory.create()
    referee = UserFactory.create()
    tournament = TournamentFactory.create(
        organisers=[organiser],
        referees=[referee],
        third_place_match=third_place,
        **tournament_fields,
    )
    seeded = n if seeded is None else seeded
    players = [PlayerFactory.create(name=f"P{i + 1:03d}") for i in range(n)]
    for i, player in enumerate(players):
        EntryFactory.create(
            tournament=tournament, player=player, seed=i + 1 if i < seeded else None
        )
    tournament_draw(tournament=tournament, by=organiser, lengths=lengths, draw_seed=draw_seed)
    tournament.refresh_from_db()
    return Setup(tournament, organiser, referee, players)


def match_of(tournament: Tournament, round_number: int, slot: int, third: bool = False) -> Match:
    return Match.objects.select_related("round", "tournament", "player1", "player2").get(
        tournament=tournament, round__number=round_number, slot=slot, is_third_place=third
    )


def players_of(match: Match) -> tuple[Player, Player]:
    """Both players of a match that has them."""
    assert match.player1 is not None and match.player2 is not None
    return match.player1, match.player2
