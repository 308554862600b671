"""A drawn stage's matches as a plan: what every kind of stage's draw hands the matches app
(``match_play().matches_create``), so that making the matches is one service whatever the
stage.

A planned match names its round, its position (``slot``: a bracket's line, a table's
number), its players, and where its winner and loser go (``Link``: another planned match of
the same plan, by ``key``, and which side, upper = player 1). Every stage stores its links
this way — a knockout's next round and third-place match as much as a consolation's or a
double elimination's brackets — and players move along the stored links only
(``matches.progression``); a round robin's or a paired round's matches link nowhere.

``bye``: the match is decided at once for its only player (``player1``), who is put into
the match its ``winner_to`` names before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stages import elimination
from tournaments.models import Player, Round

__all__ = ["Link", "PlannedMatch", "elimination_plan", "knockout_plan", "table_plan"]


@dataclass(frozen=True, slots=True)
class Link:
    """Where a player goes: the planned match ``to`` (its key) and the side (``upper``:
    player 1)."""

    to: str
    upper: bool


@dataclass(slots=True)
class PlannedMatch:
    """One match of a plan (module docstring)."""

    key: str
    round: Round
    slot: int
    player1: Player | None = None
    player2: Player | None = None
    code: str = ""
    is_third_place: bool = False
    if_needed: bool = False
    bye: bool = False
    winner_to: Link | None = None
    loser_to: Link | None = None
    loser_first_match_only: bool = False


def knockout_plan(
    *,
    rounds: Sequence[Round],
    first_round: Sequence[tuple[Player | None, Player | None]],
    third_place: bool,
) -> list[PlannedMatch]:
    """A single-elimination bracket: round r's line ``slot`` feeds round r + 1's line
    ``slot // 2`` (an even line the upper side), the semifinals' losers the third-place
    match (played in the final's round). A first-round pair with one player is a bye,
    its player on the upper line (``stages.knockout.first_round`` gives byes to the top
    seeds)."""
    plan: list[PlannedMatch] = []
    last = len(rounds)
    for index, rnd in enumerate(rounds, start=1):
        for slot in range(len(first_round) >> (index - 1)):
            match = PlannedMatch(key=f"{index}.{slot}", round=rnd, slot=slot)
            if index < last:
                match.winner_to = Link(f"{index + 1}.{slot // 2}", upper=slot % 2 == 0)
            if third_place and index == last - 1:
                match.loser_to = Link("third", upper=slot % 2 == 0)
            plan.append(match)
    for match, (upper, lower) in zip(plan, first_round, strict=False):
        match.player1, match.player2 = upper, lower
        if upper is None or lower is None:
            match.player1, match.player2, match.bye = upper or lower, None, True
    if third_place:
        plan.append(PlannedMatch(key="third", round=rounds[-1], slot=0, is_third_place=True))
    return plan


def table_plan(
    *, rounds: Sequence[Round], pairs: Sequence[Sequence[tuple[Player, Player | None]]]
) -> list[PlannedMatch]:
    """Rounds of a table (a round robin): ``pairs[i]`` are round i + 1's, the first-named
    player as player 1; a pair without a second player is that round's bye. ``slot`` is
    the table (0 the first), the bye last; nothing links anywhere."""
    return [
        PlannedMatch(
            key=f"{rnd.number}.{slot}",
            round=rnd,
            slot=slot,
            player1=first,
            player2=second,
            bye=second is None,
        )
        for rnd, round_pairs in zip(rounds, pairs, strict=True)
        for slot, (first, second) in enumerate(round_pairs)
    ]


def elimination_plan(
    *,
    shape: elimination.Bracket,
    rounds: Mapping[tuple[str, int], Round],
    players: Sequence[Player],
) -> list[PlannedMatch]:
    """A consolation or double elimination (``stages.elimination``'s shape), seed k being
    ``players[k - 1]``: each match keyed and coded by its code (``M2.1``, ``C1.3``, ``W1.2``,
    ``L4.1``, ``GF``, ``GF2``), each *source* of a side (the winner or the loser of an
    earlier match) a link on that earlier match. The main (winners') bracket's round 1 keeps
    a row for each bye, as a knockout shows it, linked to where its seed plays; the reset
    is fed by the grand final itself (``matches.progression``), not by a link."""
    double = shape.format == "double"
    main, prefix = ("winners", "W") if double else ("main", "M")

    def seeded(source: elimination.Source) -> Player | None:
        return players[source.seed - 1] if source.kind == elimination.SEED else None

    rows: dict[str, PlannedMatch] = {
        m.code: PlannedMatch(
            key=m.code,
            round=rounds[(m.bracket, m.round)],
            slot=m.number - 1,
            code=m.code,
            player1=seeded(m.top),
            player2=seeded(m.bottom),
            if_needed=m.if_needed,
        )
        for m in shape.matches
    }
    # The byes of round 1, shown as a knockout shows them: the top seed on the upper line.
    order = elimination.seed_order(shape.size)
    byes: dict[int, PlannedMatch] = {}
    for i in range(shape.size // 2):
        code = f"{prefix}1.{i + 1}"
        if code in rows:
            continue
        seed = min(order[2 * i], order[2 * i + 1])
        byes[seed] = PlannedMatch(
            key=code,
            round=rounds[(main, 1)],
            slot=i,
            code=code,
            player1=players[seed - 1],
            bye=True,
        )
    for m in shape.matches:
        if m.if_needed:
            continue
        for source, upper in ((m.top, True), (m.bottom, False)):
            if source.kind == elimination.WINNER:
                rows[source.match].winner_to = Link(m.code, upper)
            elif source.kind == elimination.LOSER:
                feeder = rows[source.match]
                feeder.loser_to = Link(m.code, upper)
                feeder.loser_first_match_only = source.first_match_only
            elif source.kind == elimination.SEED and source.seed in byes:
                byes[source.seed].winner_to = Link(m.code, upper)
    return [*rows.values(), *byes.values()]
