"""Standings with a tiebreak chain chosen per stage, and why A is above B.

Input: the players of a stage, its results (one :class:`Result` per match, bye or walkover,
with the round it belongs to) and the chain of tiebreaks (:data:`TIEBREAK_LIST`, each a
:class:`Tiebreak` object). Output: the
rows in order, each with the value of every tiebreak of the chain, the lots drawn when a
tie survives the whole chain, and :func:`explain_order`: the first tiebreak of the chain
that puts A above B, as a message.

Match points
------------
A won match scores ``points.win`` (1), a lost one 0, a drawn one (a match without a winner;
bräde and backgammon matches always have one, scoring.md S3) half a win. A bye scores
``points.bye`` (a win by default), a walkover won ``points.win`` and lost 0 (S6). A
half-point bye (a Swiss round the player asked to sit out, ``Result.half``) scores half a
win and is a voluntarily unplayed round.

The tiebreaks
-------------
- ``match_points``: the above.
- ``game_points``: the sum of the player's game points over played matches, as the caller
  gives them per match: for bräde the points on the tournament's scale (scoring.md S2), for
  backgammon the points won. Byes and walkovers give none (S6: a walkover is not points).
- ``skiljepoang``: the sum of the player's skiljepoäng (``ww``; for ``ny1`` the caller gives
  each match's number of + minus number of −, which ranks the same, S2).
- ``points_difference``: game points won minus game points lost (backgammon's tiebreak).
- ``direct_encounter``: among exactly the players still tied when it is applied, the match
  points each scored in played matches against the others (a pair that met more than once
  counts the average). If every tied player has met every other, they are ranked by it;
  otherwise only from the top, a player whose score is higher than every other tied
  player could still reach (its score plus a win for each tied player it has not met) is
  placed above them, and the rest stay tied (FIDE Tie-Break Regulations, article 6, as the
  FIDE Technical Commission's TieBreakServer implements it). A player not tied has no value.
- ``buchholz``: the sum of the player's opponents' scores, one per round of the stage;
  ``buchholz_cut1`` leaves out the least significant one.
- ``sonneborn_berger``: the sum of the opponents' scores each weighted by the player's
  result against them (1 a win, ½ a draw, 0 a loss).
- ``wins``: the number of matches won at the board (byes and walkovers are not counted).
- ``pairing_number``: given only by a stage that pairs by its standings (a Monrad,
  ``numbers``): after the chain, the lower pairing number first, as the Monrad's arbiter
  ranks players level on everything (its players see the order they are paired by).
- ``lots``: always last, implicit: a drawing of lots, deterministic from ``seed``.

Match points always come first; the organiser chooses what follows (:data:`CHOOSABLE`).
The default chain (:func:`default_chain`) is the tournament's game's: bräde ranks by game
points on its scale and then skiljepoäng (W&W 1956 and Ny 1, scoring.md S2), backgammon by
points won minus lost; then the direct encounter, Sonneborn–Berger and the number of
wins; the lots last.

Unplayed rounds in Buchholz and Sonneborn–Berger
------------------------------------------------
The FIDE rule of 2023 (Tie-Break Regulations, handbook.fide.com/chapter/TieBreakRegulations2023,
article 16, "unplayed rounds"; checked against the FIDE Technical Commission's reference
code, TEC-FIDE/TieBreakServer ``tiebreak.py``), in this stage's words:

- A round in which the player had no match at the board (a bye, a walkover won or lost,
  a round absent or after withdrawing) counts as a match against a *dummy opponent* whose
  score is the player's own final score. The player's result in that round is what it
  scored there (a bye or walkover won counts as a win for Sonneborn–Berger).
- An opponent's score counts a round after the opponent's last match or bye (it withdrew
  or stopped coming) as a draw, half a win: the *adjusted score*. Earlier absences count as
  they scored.
- Cut 1 leaves out a *voluntarily unplayed* round (a walkover lost, a round absent, a
  half-point bye asked for: FIDE article 16's list) first
  when there is one; otherwise the lowest contribution.

A round robin uses the same rules (FIDE scores a round robin's unplayed rounds as 0; here
one rule serves every stage, and a round robin rarely uses Buchholz).

Lots
----
When players are level on the whole chain, they are ordered by lot: lot 1 is the highest.
If ``lots`` (stored from an earlier computation) gives every member of the tie a distinct
lot, those are used; otherwise the lots are drawn with ``random.Random`` seeded by
``seed`` and the tied players' ids, so the same tie always draws the same lots, and
returned in :attr:`Standings.lots` to be stored.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, Protocol

from stages.messages import Msg, msg, number

# Why a chain is refused, as a code the caller words (``format_options``); the caller
# handles every code (``match`` with ``assert_never``), so a new code cannot pass unworded.
ChainProblem = Literal["unknown", "twice", "skiljepoang"]


class ChainGame(Protocol):
    """What a tiebreak chain needs of the tournament's game (its family in the games
    registry, passed in: this package knows no game)."""

    @property
    def length_unit(self) -> str:
        """``games`` (best of an odd n) or ``points``."""
        ...

    @property
    def tiebreak_scales(self) -> tuple[str, ...]:
        """The scales on which a match carries skiljepoäng; empty for a game without."""
        ...


def default_chain(game: ChainGame, scale: str) -> list[str]:
    """The tiebreaks after match points for ``game`` (see the module's words on the default
    chain): a game played to points ranks by points won minus lost, a game of best of n by
    game points, then skiljepoäng where the scale has them (S2)."""
    if game.length_unit == "points":
        first = ["points_difference"]
    else:
        first = ["game_points"] + (["skiljepoang"] if scale in game.tiebreak_scales else [])
    return [*first, "direct_encounter", "sonneborn_berger", "wins"]


def chain_problem(chain: Sequence[str], game: ChainGame) -> ChainProblem | None:
    """Why ``chain`` cannot be a tournament's tiebreak chain, as a code the caller words
    (``unknown``, ``twice``, ``skiljepoang``: only for a game that has them), or ``None``."""
    for key in chain:
        if key not in CHOOSABLE:
            return "unknown"
    if len(set(chain)) != len(chain):
        return "twice"
    if "skiljepoang" in chain and not game.tiebreak_scales:
        return "skiljepoang"
    return None


HALF = Decimal("0.5")


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """Match points for a win and for a bye; a loss scores 0, a draw half a win."""

    win: Decimal = Decimal(1)
    bye: Decimal = Decimal(1)


DEFAULT_POINTS = MatchPoints()


@dataclass(frozen=True, slots=True)
class Result:
    """One match of a stage, a bye (``second`` is ``None``) or a walkover (``played`` is
    false). ``winner`` is ``None`` only for a drawn match. Game points and skiljepoäng are
    per player, as the caller's scoring gives them."""

    round: int
    first: int
    second: int | None = None
    winner: int | None = None
    played: bool = True
    half: bool = False  # a half-point bye asked for (``second`` is None, no winner)
    first_points: int = 0
    second_points: int = 0
    first_skiljepoang: int = 0
    second_skiljepoang: int = 0

    def __post_init__(self) -> None:
        if self.second is None:
            if self.winner not in (None, self.first):
                raise ValueError("a bye is won by its player")
            if self.half and self.winner is not None:
                raise ValueError("a half-point bye has no winner")
        elif self.half:
            raise ValueError("a half-point bye has no opponent")
        elif self.winner not in (None, self.first, self.second):
            raise ValueError(f"the winner {self.winner} did not play in this match")
        elif not self.played and self.winner is None:
            raise ValueError("a walkover has a winner")


@dataclass(frozen=True, slots=True)
class StandingRow:
    player: int
    place: int
    values: Mapping[str, Decimal | None]
    lot: int | None = None


@dataclass(frozen=True)
class Standings:
    chain: tuple[str, ...]
    rows: tuple[StandingRow, ...]
    lots: Mapping[int, int]
    # For each player, the index of its tie group after each key of the chain (then the
    # pairing number when ``numbers`` is given, then lots):
    # the first key where two players' indexes differ is the one that separates them.
    paths: Mapping[int, tuple[int, ...]] = field(repr=False)
    # For a separation by direct encounter: the number of players tied at that point.
    tied: Mapping[int, tuple[int, ...]] = field(repr=False)
    # The pairing numbers that broke the ties the chain left (None: the lots did).
    numbers: Mapping[int, int] | None = None

    def row(self, player: int) -> StandingRow:
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)


@dataclass
class _Round:
    """One player's round: its opponent (None: no match at the board) and what it scored."""

    opponent: int | None
    points: Decimal
    voluntary: bool


@dataclass
class _Record:
    rounds: dict[int, _Round] = field(default_factory=dict)
    match_points: Decimal = Decimal(0)
    game_points: int = 0
    points_against: int = 0
    skiljepoang: int = 0
    wins: int = 0
    # opponent → match points scored against it in each played match
    against: dict[int, list[Decimal]] = field(default_factory=lambda: defaultdict(list))


def _records(
    players: Sequence[int], results: Iterable[Result], points: MatchPoints
) -> dict[int, _Record]:
    records = {p: _Record() for p in players}
    draw = points.win * HALF
    for r in results:
        sides = [r.first] if r.second is None else [r.first, r.second]
        for side in sides:
            if side not in records:
                raise ValueError(f"player {side} is not in the standings")
            if r.round in records[side].rounds:
                raise ValueError(f"player {side} has two results in round {r.round}")
        if r.second is None:
            scored = draw if r.half else points.bye
            records[r.first].rounds[r.round] = _Round(None, scored, voluntary=r.half)
            records[r.first].match_points += scored
            continue
        for me, other, mine, theirs, skil in (
            (r.first, r.second, r.first_points, r.second_points, r.first_skiljepoang),
            (r.second, r.first, r.second_points, r.first_points, r.second_skiljepoang),
        ):
            rec = records[me]
            won = points.win if r.winner == me else draw if r.winner is None else Decimal(0)
            rec.match_points += won
            if r.played:
                rec.rounds[r.round] = _Round(other, won, voluntary=False)
                rec.game_points += mine
                rec.points_against += theirs
                rec.skiljepoang += skil
                rec.wins += int(r.winner == me)
                rec.against[other].append(won)
            else:
                # A walkover: unplayed for both; the one who did not come chose it.
                rec.rounds[r.round] = _Round(None, won, voluntary=r.winner != me)
    return records


def _adjusted_scores(
    records: Mapping[int, _Record], rounds: int, draw: Decimal
) -> dict[int, Decimal]:
    """Each player's score with the rounds after its last match, bye or walkover won
    counted as draws (it withdrew or stopped coming)."""
    adjusted: dict[int, Decimal] = {}
    for p, rec in records.items():
        last = max((r for r, x in rec.rounds.items() if not x.voluntary), default=0)
        kept = sum((x.points for r, x in rec.rounds.items() if r <= last), Decimal(0))
        adjusted[p] = kept + draw * (rounds - last) if rounds > last else kept
    return adjusted


def _buchholz(
    records: Mapping[int, _Record], rounds: int, win: Decimal
) -> tuple[dict[int, Decimal], dict[int, Decimal], dict[int, Decimal]]:
    adjusted = _adjusted_scores(records, rounds, win * HALF)
    bh: dict[int, Decimal] = {}
    cut: dict[int, Decimal] = {}
    sb: dict[int, Decimal] = {}
    for p, rec in records.items():
        parts: list[tuple[bool, Decimal]] = []  # (voluntary, contribution)
        sb_total = Decimal(0)
        for rnd in range(1, rounds + 1):
            played = rec.rounds.get(rnd)
            if played is None:
                # Absent (or withdrawn): a dummy opponent with the player's own score.
                parts.append((True, rec.match_points))
                continue
            # A bye or walkover: the dummy opponent again.
            value = rec.match_points if played.opponent is None else adjusted[played.opponent]
            parts.append((played.voluntary, value))
            sb_total += value * played.points / win
        bh[p] = sum((v for _, v in parts), Decimal(0))
        if parts:
            voluntary = [v for vol, v in parts if vol]
            dropped = min(voluntary) if voluntary else min(v for _, v in parts)
            cut[p] = bh[p] - dropped
        else:
            cut[p] = Decimal(0)
        sb[p] = sb_total
    return bh, cut, sb


def _direct_encounter(
    group: Sequence[int], records: Mapping[int, _Record], win: Decimal
) -> tuple[dict[int, Decimal], dict[int, int]]:
    """The tied players' scores among themselves, and a sort key (smaller is higher)."""
    members = set(group)
    score: dict[int, Decimal] = {}
    unmet: dict[int, int] = {}
    for p in group:
        total = Decimal(0)
        met = 0
        for other, results in records[p].against.items():
            if other in members:
                total += sum(results, Decimal(0)) / len(results)
                met += 1
        score[p] = total
        unmet[p] = len(group) - 1 - met
    if all(unmet[p] == 0 for p in group):
        distinct = sorted(set(score.values()), reverse=True)
        return score, {p: distinct.index(score[p]) for p in group}
    # Not everyone has met: separate from the top only while the leader's score is above
    # what every player below it could still reach (FIDE article 6, Swiss case).
    ordered = sorted(group, key=lambda p: (-score[p], -(score[p] + win * unmet[p]), p))
    key: dict[int, int] = {}
    for i, p in enumerate(ordered):
        rest = ordered[i + 1 :]
        if rest and score[p] > max(score[q] + win * unmet[q] for q in rest):
            key[p] = i
        else:
            for q in ordered[i:]:
                key[q] = i
            break
    return score, key


@dataclass(frozen=True, slots=True)
class _Tables:
    """What the tiebreaks read: each player's record, and the Buchholz family's sums."""

    records: Mapping[int, _Record]
    buchholz: Mapping[int, Decimal]
    buchholz_cut1: Mapping[int, Decimal]
    sonneborn_berger: Mapping[int, Decimal]
    win: Decimal


# A tiebreak's ranking of a tied group: each player's value (None: it has none) and a sort
# key, smaller is higher.
Ranking = tuple[dict[int, Decimal | None], dict[int, Decimal]]


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tiebreak: its ``key`` (stored in a tournament's chain), its ``name`` and
    ``abbreviation`` in English (the pages word them in their reader's language:
    ``matches.stage_text``), and ``rank``, how it orders a group of tied players.
    ``among_tied``: its value depends on who else is tied (the direct encounter), so the
    explanation says how many were; ``choosable``: an organiser may put it after match
    points. The order of :data:`TIEBREAK_LIST` is the order the choices are offered in."""

    key: str
    name: str
    abbreviation: str
    rank: Callable[[Sequence[int], _Tables], Ranking]
    among_tied: bool = False
    choosable: bool = True


def _by_value(
    value: Callable[[_Tables, int], Decimal],
) -> Callable[[Sequence[int], _Tables], Ranking]:
    """A tiebreak whose value is the player's own: the higher value first."""

    def rank(group: Sequence[int], tables: _Tables) -> Ranking:
        values = {p: value(tables, p) for p in group}
        return dict(values), {p: -v for p, v in values.items()}

    return rank


def _direct_rank(group: Sequence[int], tables: _Tables) -> Ranking:
    """The direct encounter among exactly the tied players (a player alone has none)."""
    if len(group) == 1:
        return {group[0]: None}, {group[0]: Decimal(0)}
    score, order = _direct_encounter(group, tables.records, tables.win)
    return dict(score), {p: Decimal(order[p]) for p in group}


TIEBREAK_LIST: tuple[Tiebreak, ...] = (
    Tiebreak(
        "match_points",
        "match points",
        "MP",
        _by_value(lambda t, p: t.records[p].match_points),
        choosable=False,
    ),
    Tiebreak(
        "game_points",
        "game points",
        "GP",
        _by_value(lambda t, p: Decimal(t.records[p].game_points)),
    ),
    Tiebreak(
        "skiljepoang",
        "skiljepoäng",
        "SP",
        _by_value(lambda t, p: Decimal(t.records[p].skiljepoang)),
    ),
    Tiebreak(
        "points_difference",
        "points won minus lost",
        "+/−",
        _by_value(lambda t, p: Decimal(t.records[p].game_points - t.records[p].points_against)),
    ),
    Tiebreak("direct_encounter", "direct encounter", "DE", _direct_rank, among_tied=True),
    Tiebreak("buchholz", "Buchholz", "BH", _by_value(lambda t, p: t.buchholz[p])),
    Tiebreak("buchholz_cut1", "Buchholz cut 1", "BH-1", _by_value(lambda t, p: t.buchholz_cut1[p])),
    Tiebreak(
        "sonneborn_berger", "Sonneborn–Berger", "SB", _by_value(lambda t, p: t.sonneborn_berger[p])
    ),
    Tiebreak("wins", "wins", "W", _by_value(lambda t, p: Decimal(t.records[p].wins))),
)
_BY_KEY = {t.key: t for t in TIEBREAK_LIST}
TIEBREAKS = tuple(_BY_KEY)
# The tiebreaks an organiser may put after match points.
CHOOSABLE = tuple(t.key for t in TIEBREAK_LIST if t.choosable)


def tiebreak(key: str) -> Tiebreak:
    """The tiebreak stored as ``key`` (``KeyError`` for none)."""
    return _BY_KEY[key]


def standings(
    *,
    players: Sequence[int],
    results: Iterable[Result],
    chain: Sequence[str],
    rounds: int | None = None,
    points: MatchPoints = DEFAULT_POINTS,
    seed: int = 0,
    lots: Mapping[int, int] | None = None,
    numbers: Mapping[int, int] | None = None,
) -> Standings:
    """The standings of a stage after ``rounds`` rounds (default: the last round with a
    result). ``chain`` is a sequence of :data:`TIEBREAKS`; the lots come last anyway.
    ``numbers`` (player → pairing number, every player; a stage that pairs by its
    standings): players level on the whole chain are ranked by it, the lower first, before
    the lots."""
    for key in chain:
        if key not in TIEBREAKS:
            raise ValueError(f"unknown tiebreak {key!r} (expected one of {', '.join(TIEBREAKS)})")
    if len(set(chain)) != len(chain):
        raise ValueError("a tiebreak is given twice in the chain")
    if len(set(players)) != len(players):
        raise ValueError("a player is given twice")
    if numbers is not None and any(p not in numbers for p in players):
        raise ValueError("a player has no pairing number")
    results = list(results)
    if rounds is None:
        rounds = max((r.round for r in results), default=0)
    results = [r for r in results if r.round <= rounds]
    records = _records(players, results, points)
    bh, cut, sb = _buchholz(records, rounds, points.win)
    tables = _Tables(records, bh, cut, sb, points.win)
    values: dict[int, dict[str, Decimal | None]] = {p: {} for p in players}
    paths: dict[int, list[int]] = {p: [] for p in players}
    tied: dict[int, list[int]] = {p: [] for p in players}
    # Start with everyone in one group in a fixed order; refine by each key in turn.
    groups: list[list[int]] = [sorted(players)] if players else []
    for key in chain:
        rank = tiebreak(key).rank
        refined: list[list[int]] = []
        for group in groups:
            shown, order = rank(group, tables)
            for p in group:
                values[p][key] = shown[p]
            for part in _split(group, order):
                for p in part:
                    paths[p].append(len(refined))
                    tied[p].append(len(group))
                refined.append(part)
        groups = refined
    if numbers is not None:
        by_number: list[list[int]] = []
        for group in groups:
            for part in _split(group, {p: Decimal(numbers[p]) for p in group}):
                for p in part:
                    paths[p].append(len(by_number))
                    tied[p].append(len(group))
                by_number.append(part)
        groups = by_number

    drawn: dict[int, int] = {}
    final: list[list[int]] = []
    for group in groups:
        if len(group) == 1:
            final.append(group)
            continue
        stored = [lots.get(p) for p in group] if lots is not None else []
        if (
            lots is not None
            and all(v is not None for v in stored)
            and len(set(stored)) == len(group)
        ):
            lot = {p: int(lots[p]) for p in group}
        else:
            drawing = sorted(group)
            random.Random(f"{seed}:{','.join(map(str, drawing))}").shuffle(drawing)
            lot = {p: i + 1 for i, p in enumerate(drawing)}
        drawn.update(lot)
        final.extend([p] for p in sorted(group, key=lambda p: lot[p]))
    for index, (p,) in enumerate(final):
        paths[p].append(index)
        tied[p].append(0)

    rows = tuple(
        StandingRow(
            player=p,
            place=place,
            values={k: None if v is None else _plain(v) for k, v in values[p].items()},
            lot=drawn.get(p),
        )
        for place, (p,) in enumerate(final, start=1)
    )
    return Standings(
        chain=tuple(chain),
        rows=rows,
        lots=drawn,
        paths={p: tuple(v) for p, v in paths.items()},
        tied={p: tuple(v) for p, v in tied.items()},
        numbers=numbers,
    )


def _plain(value: Decimal) -> Decimal:
    """``Decimal("4.0")`` → ``Decimal("4")``, ``Decimal("2.50")`` → ``Decimal("2.5")``."""
    if value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value.normalize()


def _split(group: list[int], key: Mapping[int, Decimal]) -> list[list[int]]:
    """``group`` split into runs of equal ``key``, smallest key first; stable."""
    ordered = sorted(group, key=lambda p: key[p])
    parts: list[list[int]] = []
    for p in ordered:
        if parts and key[parts[-1][0]] == key[p]:
            parts[-1].append(p)
        else:
            parts.append([p])
    return parts


def explain_order(
    table: Standings, above: int, below: int, *, names: Mapping[int, str] | None = None
) -> Msg:
    """Why ``above`` stands above ``below``: the first tiebreak of the chain that separates
    them (or the pairing number, or the lots), with both players' values."""

    def name(p: int) -> str:
        return names.get(p, str(p)) if names is not None else str(p)

    if table.row(above).place > table.row(below).place:
        raise ValueError(f"{name(above)} is below {name(below)}, not above")
    if above == below:
        raise ValueError("a player is not above itself")
    path_a, path_b = table.paths[above], table.paths[below]
    level = next(i for i, (x, y) in enumerate(zip(path_a, path_b, strict=True)) if x != y)
    if level == len(table.chain) and table.numbers is not None:
        return msg(
            "standing.pairing_number",
            above=name(above),
            below=name(below),
            a=table.numbers[above],
            b=table.numbers[below],
        )
    if level >= len(table.chain):
        return msg(
            "standing.lots",
            above=name(above),
            below=name(below),
            a=table.lots[above],
            b=table.lots[below],
        )
    key = table.chain[level]
    a = table.row(above).values[key]
    b = table.row(below).values[key]
    assert a is not None and b is not None
    if tiebreak(key).among_tied:
        return msg(
            "standing.direct",
            above=name(above),
            below=name(below),
            a=number(a),
            b=number(b),
            count=table.tied[above][level],
        )
    code = "standing.ahead" if level == 0 else "standing.ahead_level"
    return msg(
        code,
        above=name(above),
        below=name(below),
        tiebreak=msg(f"tiebreak.{key}"),
        a=number(a),
        b=number(b),
    )
