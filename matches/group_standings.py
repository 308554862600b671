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
- Lots and withdrawn players as in every table (``matches.standing_lines``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from matches.models import Match, MatchState
from matches.standing_lines import Cell, StandingLine, standing_result, standing_table
from stages.tiebreaks import MatchPoints
from tournaments.models import Entry, Round, Tournament
from tournaments.round_kinds import TABLE_KINDS

__all__ = [
    "GroupStandings",
    "group_tables",
    "open_table_matches",
    "tournament_standings",
]

ROUND_ROBIN_POINTS = MatchPoints(win=Decimal(1), bye=Decimal(0))


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
    rounds = Round.objects.filter(tournament=tournament, kind__in=TABLE_KINDS)
    numbers = dict(rounds.values_list("pk", "number"))
    matches = list(
        Match.objects.filter(tournament=tournament, round__kind__in=TABLE_KINDS).order_by(
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
        Match.objects.filter(tournament=tournament, round__kind__in=TABLE_KINDS)
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
    ranked = standing_table(
        tournament=tournament,
        players=players,
        results=results,
        matches=matches,
        points=ROUND_ROBIN_POINTS,
        withdrawn=withdrawn,
    )
    order = [line.player.pk for line in ranked.lines]
    cells: dict[tuple[int, int], Cell] = {}
    for m in matches:
        if m.player2_id is None or m.player1_id is None:
            continue
        for me, other in ((m.player1_id, m.player2_id), (m.player2_id, m.player1_id)):
            cells.setdefault((me, other), Cell()).matches.append(m)
    lines: list[StandingLine] = ranked.lines
    for line in lines:
        pk = line.player.pk
        for other in order:
            cell = Cell(me=True) if other == pk else cells.get((pk, other), Cell())
            line.cells.append((cell, cell.texts(pk)))
    finished = {
        numbers[m.round_id]
        for m in matches
        if m.state not in (MatchState.DECIDED, MatchState.WALKOVER, MatchState.BYE)
    }
    done = sum(1 for n in range(1, rounds + 1) if n not in finished)
    return GroupStandings(
        tournament=tournament,
        chain=ranked.chain,
        lines=lines,
        rounds=rounds,
        finished_rounds=done,
        group=group,
    )
