"""Reads of a round robin: its standings by the tournament's tiebreak chain
(``stages.tiebreaks``), why each player is above the next, and the cross table (who
played whom, the result in each cell).

Three queries whatever the group's size (the entries with their players, the rounds'
numbers and the matches), so the page costs the same for 16 players as for 256
(``bench/standings_bench.py``).

Decisions where the issue is silent:
- A bye in a round robin scores no match points (each player of an odd group has one, so
  it changes no order, and the table shows matches won); a walkover scores a won match
  and no game points (scoring.md S6).
- Game points are the match's cached points: on the tournament's scale for bräde, points
  won for backgammon (``Match.points1``/``points2``); skiljepoäng its cached tiebreak.
- A tie the whole chain leaves is broken by lots drawn from the tournament's draw seed and
  the tied players (``stages.tiebreaks``): the same tie always draws the same lots, and
  lots stored on the tournament (``Tournament.tiebreak_lots``) are used first.
- A player who withdrew stays in the table with the results they played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from matches.models import Match, MatchState
from stages.messages import Msg
from stages.tiebreaks import MatchPoints, Result, Standings, explain_order, standings
from tournaments.models import Entry, Player, Round, RoundKind, Tournament

__all__ = [
    "Cell",
    "GroupStandings",
    "StandingLine",
    "group_tables",
    "open_table_matches",
    "standing_result",
    "tournament_standings",
]

# The rounds a table is made of (a knockout fed by the groups comes after them).
_TABLE_KINDS = (RoundKind.ROUND_ROBIN, RoundKind.PAIRED)

ROUND_ROBIN_POINTS = MatchPoints(win=Decimal(1), bye=Decimal(0))


@dataclass
class Cell:
    """One cell of the cross table: the row player's matches against the column player
    (two in a double round robin), from the row player's side."""

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
    cells: list[tuple[Cell, list[str]]] = field(default_factory=list)


@dataclass
class GroupStandings:
    tournament: Tournament
    chain: tuple[str, ...]
    lines: list[StandingLine]
    rounds: int
    finished_rounds: int
    group: int | None = None  # 0 = group A; None when the round robin is one group

    @property
    def label(self) -> str:
        """The group's name (A, B, …), or "" for a round robin of one group."""
        return "" if self.group is None else chr(ord("A") + self.group)


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


def tournament_standings(*, tournament: Tournament) -> GroupStandings:
    """The round robin's standings now, with the cross table and the reasons (of its only
    group; ``group_tables`` for a round robin in groups)."""
    return group_tables(tournament=tournament)[0]


def group_tables(*, tournament: Tournament) -> list[GroupStandings]:
    """Each group's standings, group A first (one table when the round robin is one
    group). The same three queries however many groups and players: the entries are
    split by ``Entry.group`` and the matches by their first player's group."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player__club"))
    # Only the table's rounds: a knockout the groups feed is not part of them.
    rounds = Round.objects.filter(tournament=tournament, kind__in=_TABLE_KINDS)
    numbers = dict(rounds.values_list("pk", "number"))
    matches = list(
        Match.objects.filter(tournament=tournament, round__kind__in=_TABLE_KINDS).order_by(
            "round__number", "slot"
        )
    )
    if tournament.groups <= 1 or all(e.group is None for e in entries):
        return [_table(tournament, entries, numbers, matches, None)]
    group_of = {e.player_id: e.group for e in entries}
    return [
        _table(
            tournament,
            [e for e in entries if e.group == g],
            numbers,
            [m for m in matches if m.player1_id is not None and group_of.get(m.player1_id) == g],
            g,
        )
        for g in range(tournament.groups)
    ]


def open_table_matches(*, tournament: Tournament) -> int:
    """How many matches of the round robin's (or Swiss) rounds are not finished yet."""
    return (
        Match.objects.filter(tournament=tournament, round__kind__in=_TABLE_KINDS)
        .exclude(state__in=(MatchState.DECIDED, MatchState.WALKOVER, MatchState.BYE))
        .count()
    )


def _table(
    tournament: Tournament,
    entries: list[Entry],
    numbers: dict[int, int],
    matches: list[Match],
    group: int | None,
) -> GroupStandings:
    rounds = len({numbers[m.round_id] for m in matches}) if group is not None else len(numbers)
    players = {e.player_id: e.player for e in entries}
    withdrawn = {e.player_id for e in entries if e.withdrawn_at is not None}
    results = [r for m in matches if (r := standing_result(m, numbers[m.round_id])) is not None]
    chain = ("match_points", *tournament.tiebreaks)
    stored = {int(k): int(v) for k, v in (tournament.tiebreak_lots or {}).items()}
    table: Standings = standings(
        players=list(players),
        results=results,
        chain=chain,
        points=ROUND_ROBIN_POINTS,
        seed=tournament.draw_seed or 0,
        lots=stored,
    )
    names = {pk: p.name for pk, p in players.items()}
    order = [row.player for row in table.rows]
    cells: dict[tuple[int, int], Cell] = {}
    played: dict[int, int] = dict.fromkeys(players, 0)
    won: dict[int, int] = dict.fromkeys(players, 0)
    for m in matches:
        if m.player2_id is None or m.player1_id is None:
            continue
        for me, other in ((m.player1_id, m.player2_id), (m.player2_id, m.player1_id)):
            cells.setdefault((me, other), Cell()).matches.append(m)
            if m.state in (MatchState.DECIDED, MatchState.WALKOVER):
                played[me] += 1
                won[me] += m.winner_id == me
    lines: list[StandingLine] = []
    for i, row in enumerate(table.rows):
        pk = row.player
        why = explain_order(table, pk, order[i + 1], names=names) if i + 1 < len(order) else None
        line = StandingLine(
            place=row.place,
            player=players[pk],
            withdrawn=pk in withdrawn,
            played=played[pk],
            won=won[pk],
            values=[row.values[key] for key in chain],
            lot=row.lot,
            why=why,
        )
        for other in order:
            cell = Cell(me=True) if other == pk else cells.get((pk, other), Cell())
            line.cells.append((cell, cell.texts(pk)))
        lines.append(line)
    finished = {
        numbers[m.round_id]
        for m in matches
        if m.state not in (MatchState.DECIDED, MatchState.WALKOVER, MatchState.BYE)
    }
    done = sum(1 for n in range(1, rounds + 1) if n not in finished)
    return GroupStandings(
        tournament=tournament,
        chain=chain,
        lines=lines,
        rounds=rounds,
        finished_rounds=done,
        group=group,
    )
