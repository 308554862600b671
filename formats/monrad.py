"""The Monrad system: the Scandinavian Swiss played by Danish and Norwegian clubs.

Round 1 pairs by pairing number (seed): 1–2, 3–4, 5–6, … After each round the players are
ranked by the standings the players see (``standing``: each player's place in them, given
by the caller: score, the tournament's tiebreak chain, the pairing number, the lots;
``matches.swiss_standings``), not by an order of this module's own, and paired from the
top down, each with the next player below it it has not met. Before round 1 everyone is
level on the whole chain, so the standings are the pairing numbers' order. Without
``standing`` (a field without standings) the players are ranked by score, then pairing
number, then a lot drawn from the tournament's draw seed. When the last players would be
forced into a rematch, the pairing backtracks: the pair above them takes its next partner
instead, as the arbiter at the board would re-pair the bottom pairs (a depth-first search
in ranking order; the first pairing found is the one the top-down rule gives).

An odd field's bye goes to the lowest-ranked player without a bye; to the next one up
when that would force a rematch; to a player who has had a bye only when every player
without one would force a rematch.

A rematch is played only when every pairing of the field has one. Then (and when the
search has taken :data:`SEARCH_STEPS` steps without an answer, a field built to defeat it)
the pairing is the one of fewest rematches, then fewest repeated byes, the bye as low as
possible, then the pairs closest in the ranking (the least sum of the squared distances
between partners), pairings equal on all four being equally good (the matching's
choice, the same for the same field): a maximum-weight matching over every pair
(``stages.matching``), O(n³).

Each pair comes with its reason (``stages.messages``): the two places in the standings it
was made from (``monrad.*``: the places of ``standing``, else the ranks 1…n of the order
above) and whether the scores were equal, one floated down or the rematch was
unavoidable; the bye in the Swiss's words (the lowest-ranked player without a bye, and
why it moved).

Pure: imports nothing from Django.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from formats.format import FormatSpec, Stage, Words
from formats.registry import register
from formats.swiss import PAIRED_OPTIONS
from stages.matching import max_weight_matching
from stages.messages import Msg, msg, number
from stages.swiss import SwissPair, SwissPlayer, SwissRound, pairing_cost

__all__ = ["MONRAD", "SEARCH_STEPS", "monrad_order", "monrad_pair"]

# The depth-first search's budget in partner choices: far above what a real field needs
# (a 1,000-player field is paired in about 500), far below what would keep an organiser
# waiting; past it the matching decides (module docstring).
SEARCH_STEPS = 200_000


class _SearchExhausted(Exception):
    """The search took :data:`SEARCH_STEPS` steps."""


def monrad_order(
    players: Sequence[SwissPlayer], *, seed: int, standing: Mapping[int, int] | None = None
) -> list[SwissPlayer]:
    """The players in Monrad ranking order: their place in the standings (``standing``,
    lower first; everyone level without it), then score (higher first), pairing number
    (``rank``), lot: the standings' order itself when the caller gives it, as its places
    are distinct and its first key is the score."""
    ids = sorted(p.id for p in players)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is given twice")
    if standing is not None and any(pid not in standing for pid in ids):
        raise ValueError("a player has no place in the standings")
    drawn = list(ids)
    random.Random(seed).shuffle(drawn)
    lot = {pid: i for i, pid in enumerate(drawn)}
    place = standing or {}
    return sorted(
        players,
        key=lambda p: (place.get(p.id, 0), -Decimal(p.score), p.rank, lot[p.id]),
    )


def _search(
    field: Sequence[int], met: Callable[[int, int], bool], steps: list[int]
) -> list[tuple[int, int]] | None:
    """The top-down pairing of ``field`` (positions in ranking order) without a rematch:
    each player, from the top, with the next one below not met, backtracking when the
    rest cannot be paired; None when no pairing without a rematch exists. ``steps`` holds
    the steps left (shared between the bye's candidates)."""
    m = len(field)
    used = [False] * m
    pairs: list[tuple[int, int]] = []
    a, start = 0, 1
    while True:
        while a < m and used[a]:
            a += 1
        if a >= m:
            return [(field[i], field[j]) for i, j in pairs]
        b = max(start, a + 1)
        while b < m and (used[b] or met(field[a], field[b])):
            b += 1
        steps[0] -= 1
        if steps[0] < 0:
            raise _SearchExhausted
        if b < m:
            used[a] = used[b] = True
            pairs.append((a, b))
            a, start = a + 1, 0
            continue
        if not pairs:
            return None
        a, last = pairs.pop()  # backtrack: the pair above takes its next partner
        used[a] = used[last] = False
        start = last + 1


def _matching(
    n: int, met: Callable[[int, int], bool], had_bye: Callable[[int], bool]
) -> tuple[list[tuple[int, int]], int | None]:
    """Fewest rematches, fewest repeated byes, the lowest bye, the closest pairs (module
    docstring): positions of the pairs, and the bye's position (None for an even field)."""
    # Each term's radix is above the largest total of the terms after it.
    dist_radix = n**3 + 1  # above any sum of squared distances
    bye_radix = dist_radix  # the bye's rank (players below it) times this
    repeat_radix = bye_radix * (n + 1)  # a repeated bye, above any bye rank
    rematch_radix = repeat_radix * 2  # a rematch, above a repeated bye and all below
    top = rematch_radix * (n + 1)
    edges = [
        (i, j, top - (rematch_radix * met(i, j) + (j - i) ** 2))
        for i in range(n)
        for j in range(i + 1, n)
    ]
    if n % 2:
        edges += [
            (i, n, top - (repeat_radix * had_bye(i) + bye_radix * (n - 1 - i))) for i in range(n)
        ]
    mate = max_weight_matching(edges, max_cardinality=True)
    pairs = [(i, mate[i]) for i in range(n) if i < mate[i] < n]
    bye = next((i for i in range(n) if mate[i] == n), None)
    return pairs, bye


def _reason(
    a: SwissPlayer,
    b: SwissPlayer | None,
    *,
    met: bool,
    lowest: SwissPlayer | None,
    names: Mapping[int, str] | None,
    places: tuple[int, int] = (0, 0),
) -> Msg:
    if b is None:
        score = number(a.score)
        if lowest is not None and a.id == lowest.id:
            return msg("swiss.bye", score=score)
        if a.had_bye or lowest is None:
            return msg("swiss.bye_again", score=score)
        named = names.get(lowest.id, str(lowest.id)) if names is not None else str(lowest.id)
        return msg("swiss.bye_moved", score=score, lowest=named)
    high, low = number(a.score), number(b.score)
    first, second = places
    if met:
        return msg("monrad.rematch", a=first, b=second, high=high, low=low)
    if a.score == b.score:
        return msg("monrad.equal", a=first, b=second, score=high)
    return msg("monrad.float", a=first, b=second, high=high, low=low)


def monrad_pair(
    players: Sequence[SwissPlayer],
    *,
    seed: int,
    names: Mapping[int, str] | None = None,
    standing: Mapping[int, int] | None = None,
    search_steps: int = SEARCH_STEPS,
) -> SwissRound:
    """The Monrad pairing of the ``players`` present (module docstring), each pair with
    its reason; ``first`` of a pair is the higher-ranked player. ``names``: player id →
    name, for the reason that names the player the bye moved from. ``standing``: each
    player's place in the standings the players see (distinct places; module docstring)."""
    order = monrad_order(players, seed=seed, standing=standing)
    n = len(order)

    def place(i: int) -> int:
        """The place the reason names: in the standings, else in the order (1…n)."""
        return standing[order[i].id] if standing is not None else i + 1

    if n == 0:
        return SwissRound((), pairing_cost(players, [], seed=seed), ())

    def met(i: int, j: int) -> bool:
        return order[j].id in order[i].opponents or order[i].id in order[j].opponents

    without_bye = [i for i in range(n) if not order[i].had_bye]
    lowest = order[without_bye[-1]] if without_bye else None
    # The bye's candidates, in the order the rule tries them.
    byes: list[int | None] = [None]
    if n % 2:
        byes = [*reversed(without_bye), *(i for i in reversed(range(n)) if order[i].had_bye)]
    found: tuple[list[tuple[int, int]], int | None] | None = None
    steps = [search_steps]
    try:
        for bye in byes:
            pairs = _search([i for i in range(n) if i != bye], met, steps)
            if pairs is not None:
                found = (pairs, bye)
                break
    except _SearchExhausted:
        found = None
    if found is None:  # a rematch is unavoidable, or the search gave up: the matching
        found = _matching(n, met, lambda i: order[i].had_bye)
    pairs, bye = found
    result = [
        SwissPair(
            order[i].id,
            order[j].id,
            _reason(
                order[i],
                order[j],
                met=met(i, j),
                lowest=lowest,
                names=names,
                places=(place(i), place(j)),
            ),
        )
        for i, j in sorted(pairs)
    ]
    if bye is not None:
        only = order[bye]
        result.append(
            SwissPair(only.id, None, _reason(only, None, met=False, lowest=lowest, names=names))
        )
    cost = pairing_cost(players, [(p.first, p.second) for p in result], seed=seed)
    return SwissRound(tuple(result), cost, tuple(p.id for p in order))


@dataclass(frozen=True, slots=True)
class MonradFormat(FormatSpec):
    def pair(
        self,
        players: Sequence[SwissPlayer],
        *,
        seed: int,
        names: Mapping[int, str] | None = None,
        standing: Mapping[int, int] | None = None,
    ) -> SwissRound:
        return monrad_pair(players, seed=seed, names=names, standing=standing)


MONRAD = register(
    MonradFormat(
        key="monrad",
        name="Monrad",
        description=(
            "Monrad (round 1 by seed, then each player meets the next one down the "
            "standings not met yet)"
        ),
        stage=Stage.PAIRED,
        options=PAIRED_OPTIONS,
        feeds_knockout=True,
        pairs_by_standings=True,
        words=Words(
            start="Start the Monrad",
            started="The Monrad is started (draw seed %(seed)d): check the players in, then "
            "pair round 1 (by seed).",
            rounds="Monrad rounds",
            knockout_after="Knockout after the Monrad",
        ),
    )
)
