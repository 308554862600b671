"""A table's standing lines, one source for the round robin's standings
(``matches.group_standings``) and the Swiss's (``matches.swiss_standings``): the players
ranked by the tournament's chain (match points, then ``Tournament.tiebreaks``:
``stages.tiebreaks``), the matches each played and won, and why each player is above the
next.

Decisions where the issue is silent (both tables):
- A tie the whole chain leaves is broken by lots drawn from the tournament's draw seed and
  the tied players (``stages.tiebreaks``): the same tie always draws the same lots, and
  lots stored on the tournament (``Tournament.tiebreak_lots``) are used first.
- A player who withdrew stays in the table with the results they played.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from matches.models import Match, MatchState
from stages.messages import Msg
from stages.tiebreaks import MatchPoints, Result, Standings, explain_order, standings
from tournaments.models import Player, Tournament

__all__ = ["Cell", "StandingLine", "StandingTable", "standing_result", "standing_table"]


@dataclass
class Cell:
    """One cell of a round robin's cross table: the row player's matches against the
    column player (two in a double round robin), from the row player's side."""

    matches: list[Match] = field(default_factory=list)
    me: bool = False  # the diagonal

    def texts(self, player: int) -> list[str]:
        out: list[str] = []
        for m in self.matches:
            if m.state == MatchState.WALKOVER:
                out.append("+" if m.winner_id == player else "−")
            elif m.state == MatchState.DECIDED:
                mine, theirs = (
                    (m.points1, m.points2) if m.player1_id == player else (m.points2, m.points1)
                )
                out.append(f"{mine}–{theirs}")
            else:
                out.append("·")
        return out


@dataclass
class StandingLine:
    place: int
    player: Player
    withdrawn: bool
    played: int
    won: int
    values: list[Decimal | None]
    lot: int | None
    why: Msg | None  # why this player is above the next one
    absent: bool = False  # a Swiss: checked out of the next round
    half_byes: int = 0  # a Swiss: half-point byes taken in the counted rounds
    cells: list[tuple[Cell, list[str]]] = field(default_factory=list)  # a round robin's


@dataclass
class StandingTable:
    chain: tuple[str, ...]
    table: Standings
    lines: list[StandingLine]


def standing_result(match: Match, number: int) -> Result | None:
    """A finished match (or a bye) of round ``number`` as the standings count it; None
    while it is unplayed."""
    assert match.player1_id is not None
    if match.state == MatchState.BYE:
        return Result(round=number, first=match.player1_id, winner=match.player1_id)
    if match.state not in (MatchState.DECIDED, MatchState.WALKOVER):
        return None
    assert match.player2_id is not None
    return Result(
        round=number,
        first=match.player1_id,
        second=match.player2_id,
        winner=match.winner_id,
        played=match.state == MatchState.DECIDED,
        first_points=match.points1,
        second_points=match.points2,
        first_skiljepoang=match.tiebreak1,
        second_skiljepoang=match.tiebreak2,
    )


def standing_table(
    *,
    tournament: Tournament,
    players: Mapping[int, Player],
    results: Sequence[Result],
    matches: Iterable[Match],
    points: MatchPoints,
    withdrawn: Collection[int],
    absent: Collection[int] = (),
    rounds: int | None = None,
    numbers: Mapping[int, int] | None = None,
) -> StandingTable:
    """``players`` (id → player) ranked on ``results`` after ``rounds`` rounds (default:
    the last with a result), scored by ``points``; ``matches`` are the counted matches, of
    which the decided ones and walkovers count as played (and won by their winner).
    ``numbers``: the pairing numbers that rank players level on the whole chain before the
    lots (a format that pairs by its standings, ``stages.tiebreaks.standings``)."""
    chain = ("match_points", *tournament.tiebreaks)
    stored = {int(k): int(v) for k, v in (tournament.tiebreak_lots or {}).items()}
    table = standings(
        players=list(players),
        results=results,
        chain=chain,
        rounds=rounds,
        points=points,
        seed=tournament.draw_seed or 0,
        lots=stored,
        numbers=numbers,
    )
    played: dict[int, int] = dict.fromkeys(players, 0)
    won: dict[int, int] = dict.fromkeys(players, 0)
    for m in matches:
        if m.player2_id is None or m.state not in (MatchState.DECIDED, MatchState.WALKOVER):
            continue
        for me in (m.player1_id, m.player2_id):
            if me in played:
                played[me] += 1
                won[me] += m.winner_id == me
    half_byes: dict[int, int] = {}
    for res in results:
        if res.half:
            half_byes[res.first] = half_byes.get(res.first, 0) + 1
    names = {pk: p.name for pk, p in players.items()}
    order = [row.player for row in table.rows]
    lines = [
        StandingLine(
            place=row.place,
            player=players[row.player],
            withdrawn=row.player in withdrawn,
            played=played[row.player],
            won=won[row.player],
            values=[row.values[key] for key in chain],
            lot=row.lot,
            why=(
                explain_order(table, row.player, order[i + 1], names=names)
                if i + 1 < len(order)
                else None
            ),
            absent=row.player in absent,
            half_byes=half_byes.get(row.player, 0),
        )
        for i, row in enumerate(table.rows)
    ]
    return StandingTable(chain=chain, table=table, lines=lines)
