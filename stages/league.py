"""A league of team matches: its fixtures, its table with why each team is above the next,
promotion and relegation between divisions, and the players (teams) a team Swiss pairs.

Fixtures
--------
A league is a round robin of teams, single or double, by the Berger tables
(``stages.roundrobin``, FIDE C.05 Annex 1); the first-named team is the **home** team (it
hosts the match at its club). A double round robin plays the second cycle with home and
away swapped, so every pair of teams meets once at each club. With an odd number of teams
one team sits out each round (no match, no points).

The table
---------
Only decided team matches count (``stages.team_match``). A team scores ``points.win`` (2)
for a team match won, ``points.draw`` (1) for a draw, ``points.loss`` (0) for a loss —
configurable per competition, as the Danish federation's and chess's leagues each set them.
The order: **match points**, then the competition's written chain (:data:`CHAIN_KEYS`;
default :data:`DEFAULT_CHAIN`):

- ``board_points``: boards won;
- ``points_difference``: the points (bräde's games, backgammon's points) won minus lost
  at the boards, walkovers counting none;
- ``points_for``: the points won;
- ``tiebreak_difference``: bräde's skiljepoäng won minus lost at the boards (0 in
  backgammon);
- ``direct_encounter``: among exactly the teams still tied, the match points each earned
  in their team matches against one another; when it splits the tied teams into smaller
  ties, each smaller tie is ranked by its own direct encounter again, then by the rest of
  the chain;

and the **lots** last: the order the caller gives (``lots``: team ids, earlier higher),
drawn once and stored by the site, so a tie surviving the chain is always broken the same
way. Each row says what put it above the next one (:attr:`Row.why`, a chain key,
``"match_points"`` or ``"lots"``), so the page can answer "why this order".

Promotion and relegation
------------------------
Divisions are ordered from the top (index 0). At each boundary between division d and
d + 1 the bottom ``down`` teams of d go down and the top ``up`` teams of d + 1 go up, all
boundaries at once from the season's final tables (:func:`next_divisions`); nobody leaves
the top division upwards or the bottom one downwards. How many go up and down is the
competition's rule; ``up == down`` keeps the divisions' sizes.

A team Swiss
------------
Teams are paired by the site's Swiss engine (``stages.swiss.pair_round``: no rematch, one
bye at most, the same completion rules) as players are: a team's score is its match
points; inside a score group the teams are ranked by board points, then by pairing
number (:func:`swiss_teams`). **Decision** (the sources are silent): a team with the bye
scores a team match won (as the site's individual Swiss scores a bye as a win) and half
the boards as board points (rounded down), so the board tiebreak neither rewards nor
punishes it.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Generic, TypeVar

from stages.roundrobin import Fixture, round_robin
from stages.swiss import SwissPlayer
from stages.team_match import TeamMatchScore

__all__ = [
    "CHAIN_KEYS",
    "DEFAULT_CHAIN",
    "LeagueMatch",
    "MatchPoints",
    "Row",
    "league_fixtures",
    "league_table",
    "next_divisions",
    "swiss_teams",
    "table_rank",
]

T = TypeVar("T", bound=Hashable)

CHAIN_KEYS = (
    "board_points",
    "points_difference",
    "points_for",
    "tiebreak_difference",
    "direct_encounter",
)
DEFAULT_CHAIN: tuple[str, ...] = (
    "board_points",
    "points_difference",
    "points_for",
    "direct_encounter",
)


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """What a team match won, drawn and lost scores (the competition's rule)."""

    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True, slots=True)
class LeagueMatch(Generic[T]):
    """A team match of the table: its home and away teams and its score. A team Swiss's
    bye is ``away=None`` (scored as the module docstring says)."""

    home: T
    away: T | None
    score: TeamMatchScore


@dataclass(slots=True)
class Row(Generic[T]):
    """A team's line of the table. ``why``: what put it above the next row (a chain key,
    ``"match_points"`` or ``"lots"``; ``None`` on the last row)."""

    team: T
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    board_points: int = 0
    points_for: int = 0
    points_against: int = 0
    tiebreak_for: int = 0
    tiebreak_against: int = 0
    place: int = 0
    why: str | None = None
    # direct-encounter match points against each opponent, for the tied groups
    _against: dict[T, int] = field(default_factory=dict, repr=False)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def tiebreak_difference(self) -> int:
        return self.tiebreak_for - self.tiebreak_against


def league_fixtures(teams: Sequence[T], *, double: bool) -> list[list[Fixture[T]]]:
    """The rounds of a league of ``teams`` in their drawn order, the first-named team of
    each fixture at home (module docstring); ``second None`` is the team sitting out."""
    return round_robin(teams, double=double)


def _count(row: Row[T], opponent: T | None, mine: int, theirs: int, points: MatchPoints) -> int:
    row.played += 1
    if mine > theirs:
        row.won += 1
        earned = points.win
    elif mine == theirs:
        row.drawn += 1
        earned = points.draw
    else:
        row.lost += 1
        earned = points.loss
    row.match_points += earned
    if opponent is not None:
        row._against[opponent] = row._against.get(opponent, 0) + earned
    return earned


def league_table(
    teams: Sequence[T],
    matches: Sequence[LeagueMatch[T]],
    *,
    points: MatchPoints = MatchPoints(),
    chain: Sequence[str] = DEFAULT_CHAIN,
    lots: Sequence[T] = (),
    boards: int = 0,
) -> list[Row[T]]:
    """The table of ``teams`` from their team matches (module docstring); undecided team
    matches are left out. ``lots``: the stored lots, earlier higher (teams not in it come
    after, in the order given). ``boards``: the team match's boards, for a bye's board
    points."""
    unknown = [key for key in chain if key not in CHAIN_KEYS]
    if unknown:
        raise ValueError(f"unknown tiebreak {unknown[0]!r}")
    rows: dict[T, Row[T]] = {team: Row(team) for team in teams}
    for match in matches:
        score = match.score
        home = rows.get(match.home)
        if home is None:
            raise ValueError(f"team {match.home!r} is not in the table")
        if match.away is None:  # a team Swiss's bye: a match won, half the boards
            _count(home, None, 1, 0, points)
            home.board_points += boards // 2
            continue
        away = rows.get(match.away)
        if away is None:
            raise ValueError(f"team {match.away!r} is not in the table")
        if not score.decided:
            continue
        _count(home, match.away, score.home_boards, score.away_boards, points)
        _count(away, match.home, score.away_boards, score.home_boards, points)
        home.board_points += score.home_boards
        away.board_points += score.away_boards
        home.points_for += score.home_points
        home.points_against += score.away_points
        away.points_for += score.away_points
        away.points_against += score.home_points
        home.tiebreak_for += score.home_tiebreak
        home.tiebreak_against += score.away_tiebreak
        away.tiebreak_for += score.away_tiebreak
        away.tiebreak_against += score.home_tiebreak
    return table_rank(list(rows.values()), chain=chain, lots=lots)


def table_rank(
    rows: Sequence[Row[T]],
    *,
    chain: Sequence[str] = DEFAULT_CHAIN,
    lots: Sequence[T] = (),
    direct: Callable[[Sequence[T]], Mapping[T, int]] | None = None,
) -> list[Row[T]]:
    """Rank rows already counted (their totals filled in) by match points, the chain and
    the lots (module docstring), setting each row's ``place`` and ``why``. ``direct``: the
    direct-encounter match points of each of a tied group of teams among themselves (by
    default from the rows' own counts, which ``league_table`` fills in), so a caller
    that counted in the database asks only for the tied groups' matches."""
    unknown = [key for key in chain if key not in CHAIN_KEYS]
    if unknown:
        raise ValueError(f"unknown tiebreak {unknown[0]!r}")

    def own_direct(group: Sequence[T]) -> Mapping[T, int]:
        members = set(group)
        return {
            r.team: sum(v for t, v in r._against.items() if t in members)
            for r in rows
            if r.team in members
        }

    among = direct or own_direct
    lot_place = {team: i for i, team in enumerate(lots)}
    given = {row.team: i for i, row in enumerate(rows)}

    def lot(team: T) -> tuple[int, int]:
        return (lot_place.get(team, len(lot_place)), given[team])

    keys = ("match_points", *chain)
    ordered: list[Row[T]] = []
    why: dict[int, str] = {}

    def rank(group: list[Row[T]], at: int) -> None:
        if len(group) == 1:
            ordered.append(group[0])
            return
        if at == len(keys):
            for index, row in enumerate(sorted(group, key=lambda r: lot(r.team))):
                if index > 0:
                    why[id(ordered[-1])] = "lots"
                ordered.append(row)
            return
        key = keys[at]
        if key == "direct_encounter":
            earned = among([r.team for r in group])
            value = {id(r): earned.get(r.team, 0) for r in group}
        else:
            value = {id(r): int(getattr(r, key)) for r in group}
        buckets: dict[int, list[Row[T]]] = defaultdict(list)
        for row in group:
            buckets[value[id(row)]].append(row)
        if len(buckets) == 1:
            rank(group, at + 1)
            return
        for index, (_, bucket) in enumerate(sorted(buckets.items(), key=lambda kv: -kv[0])):
            if index > 0:
                why[id(ordered[-1])] = key
            # a smaller tie after the direct encounter: its own direct encounter again
            rank(bucket, at if key == "direct_encounter" and len(bucket) > 1 else at + 1)

    rank(list(rows), 0)
    for place, row in enumerate(ordered, start=1):
        row.place = place
        row.why = why.get(id(row))
    return ordered


def next_divisions(
    tables: Sequence[Sequence[T]],
    *,
    up: int | Sequence[int],
    down: int | Sequence[int],
) -> list[list[T]]:
    """Next season's divisions from this season's final tables (each division's teams best
    first, the top division first): the module docstring's promotion and relegation.
    ``up[d]``/``down[d]``: how many go up out of division d and down out of it (one number:
    the same at every boundary; the top division's ``up`` and the bottom one's ``down``
    are not used). Each new division lists the teams that stay in their order, then those
    who came down, then those who came up."""
    count = len(tables)
    ups = [up] * count if isinstance(up, int) else list(up)
    downs = [down] * count if isinstance(down, int) else list(down)
    if len(ups) != count or len(downs) != count:
        raise ValueError("one number of teams going up and down per division")
    if any(n < 0 for n in (*ups, *downs)):
        raise ValueError("promotion and relegation cannot be negative")
    tops = [ups[d] if d > 0 else 0 for d in range(count)]
    bottoms = [downs[d] if d + 1 < count else 0 for d in range(count)]
    for index, table in enumerate(tables):
        if tops[index] + bottoms[index] > len(table):
            raise ValueError(
                f"division {index + 1} has {len(table)} teams, fewer than the "
                f"{tops[index] + bottoms[index]} who would leave it"
            )
    staying: list[list[T]] = []
    coming_down: list[list[T]] = [[] for _ in tables]
    coming_up: list[list[T]] = [[] for _ in tables]
    for index, table in enumerate(tables):
        top, bottom = tops[index], bottoms[index]
        staying.append(list(table[top : len(table) - bottom]))
        if top:
            coming_up[index - 1].extend(table[:top])
        if bottom:
            coming_down[index + 1].extend(table[len(table) - bottom :])
    return [staying[i] + coming_down[i] + coming_up[i] for i in range(count)]


def swiss_teams(
    rows: Sequence[Row[int]],
    *,
    opponents: Mapping[int, frozenset[int]],
    had_bye: Mapping[int, bool],
    pairing_numbers: Mapping[int, int],
) -> list[SwissPlayer]:
    """The teams a team Swiss pairs, as the Swiss engine's players (module docstring):
    score the match points, rank by board points then pairing number."""
    by_boards = sorted(rows, key=lambda r: (-r.board_points, pairing_numbers[r.team]))
    rank = {row.team: index for index, row in enumerate(by_boards)}
    return [
        SwissPlayer(
            id=row.team,
            score=Decimal(row.match_points),
            rank=rank[row.team],
            opponents=opponents.get(row.team, frozenset()),
            had_bye=had_bye.get(row.team, False),
        )
        for row in rows
    ]
