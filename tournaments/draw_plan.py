"""What a draw of a tournament will make before it is made: the default match length of
each round its format's first stage creates for a number of players (so the number of
rounds too). The draw form offers these lengths; the draws themselves
(``services.tournament_bracket_generate`` and the stages' draws it calls) use the same
functions, so the form and the draw cannot disagree.

The stage is asked (``formats.format_for(...).stage``), never the format's key.
"""

from __future__ import annotations

from formats import Stage, format_for
from tournaments import bracket, elimination_draw, round_robin, swiss_rounds
from tournaments.models import Tournament

__all__ = ["draw_lengths"]


def draw_lengths(tournament: Tournament, players: int) -> list[int]:
    """The default length of every round the draw creates for ``players`` players (an
    empty list below two players)."""
    if players < 2:
        return []
    stage = format_for(tournament.format).stage
    if stage == Stage.GROUPS:
        rounds = round_robin.group_round_count(
            players, tournament.groups, double=tournament.double_round
        )
        return round_robin.default_lengths(rounds)
    if stage == Stage.PAIRED:
        rounds = tournament.swiss_rounds or swiss_rounds.default_rounds(players)
        return round_robin.default_lengths(rounds)
    if stage == Stage.ELIMINATION:
        shape = elimination_draw.bracket_shape(tournament, players)
        return elimination_draw.default_lengths(elimination_draw.round_plan(shape))
    return bracket.default_lengths(bracket.round_count(players))
