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

Completion
----------
``rounds_after`` (the rounds still to be paired after this one) makes the round keep
them pairable, each with no rematch and no second bye, as the Swiss does and for the
same reasons (``stages.swiss``, Completion: FIDE's Round-Pairing Outlook, A.9, and
Completion Criterion, C.4, applied to the rounds after the one paired; 6 players and 5
rounds whose first three rounds leave the pairs not yet met as two triangles have no
fourth round without a rematch). The choice, with ``stages.swiss_completion``'s search
(:func:`~stages.swiss_completion.keep_pairable`): among the pairings of this round with
no rematch and no second bye, those that leave the most of the ``rounds_after`` rounds
after it pairable (the rounds right after it, as many as can be), and among those the
first in the Monrad's own order of preference, which is the order its search above
tries pairings in: the bye as low in the ranking as it goes (the fewest players below
it), then the pairs from the top down, compared lexicographically: the top player's
partner as near below it as possible, then the next player not yet paired with its
nearest partner, and so on (the pairs' positions in the ranking, sorted, compared as
sequences). So the top-down pairing is the one chosen whenever it keeps as many rounds
pairable as any pairing does; otherwise the bye stays with the player the top-down
pairing gives it to when a pairing that keeps as many lets it, and the top-down
pairing's pairs are kept from the top as far down as such a pairing allows. The pairs
it moves give the reason ``monrad.equal_ahead`` or ``monrad.float_ahead`` (with the
places, as the others), the bye ``swiss.bye_ahead`` (naming the player the top-down
pairing gave it to). Who may still meet whom does not depend on the results, so the
rounds kept pairable are pairable whatever the results; the look-ahead supposes that the
players present now play every round left.

Only when no pairing of the rounds left does without both does a criterion give way,
as in the Swiss (``stages.swiss``, Completion, whose reasons are these): the second bye
gives way and no rematch is played while a pairing without one exists; the round that
cannot do without is paired by the rules above (the bye to a player who has had one
before a rematch, the fewest rematches when every pairing has one), not looked ahead.
The search is run for fields of up to ``stages.swiss.LOOKAHEAD_PLAYERS`` (12) players
that Dirac's bound does not already clear (``stages.swiss_completion.surely_pairable``:
every Monrad of at most half as many rounds as players); past those and past the
search's budget the round is the top-down pairing.

Each pair comes with its reason (``stages.messages``): the two places in the standings it
was made from (``monrad.*``: the places of ``standing``, else the ranks 1…n of the order
above) and whether the scores were equal, one floated down, the rematch was unavoidable
or the look-ahead moved it; the bye in the Swiss's words (the lowest-ranked player
without a bye, why it moved, or that the look-ahead moved it).

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
from stages.swiss import LOOKAHEAD_PLAYERS, SwissPair, SwissPlayer, SwissRound, pairing_cost
from stages.swiss_completion import graph, keep_pairable

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


def _ahead(
    order: Sequence[SwissPlayer],
    met: Callable[[int, int], bool],
    pairs: list[tuple[int, int]],
    bye: int | None,
    rounds_after: int,
) -> tuple[list[tuple[int, int]], int | None]:
    """The pairing (positions of the pairs, the bye's position) that keeps the most of the
    ``rounds_after`` rounds after this one pairable without a rematch or a second bye, the
    first of those in the Monrad's order of preference; ``pairs`` and ``bye``, the
    top-down pairing, when it keeps as many (module docstring, Completion)."""
    n = len(order)
    free = graph(n, met, lambda i: order[i].had_bye)
    usual = [*pairs, *([(bye, n)] if bye is not None else [])]

    def preference(chosen: list[tuple[int, int]]) -> tuple[int, list[tuple[int, int]]]:
        """The bye as low as it goes (players below it), then the pairs from the top."""
        below = next((n - 1 - a for a, b in chosen if b == n), 0)
        return below, sorted(p for p in chosen if p[1] < n)

    found = keep_pairable(free, n, usual, rounds_after, preference)
    if found is None:
        return pairs, bye
    return [p for p in found if p[1] < n], next((a for a, b in found if b == n), None)


def _reason(
    a: SwissPlayer,
    b: SwissPlayer | None,
    *,
    met: bool,
    lowest: SwissPlayer | None,
    names: Mapping[int, str] | None,
    places: tuple[int, int] = (0, 0),
    ahead: bool = False,
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
        code = "monrad.equal_ahead" if ahead else "monrad.equal"
        return msg(code, a=first, b=second, score=high)
    code = "monrad.float_ahead" if ahead else "monrad.float"
    return msg(code, a=first, b=second, high=high, low=low)


def monrad_pair(
    players: Sequence[SwissPlayer],
    *,
    seed: int,
    names: Mapping[int, str] | None = None,
    standing: Mapping[int, int] | None = None,
    search_steps: int = SEARCH_STEPS,
    rounds_after: int = 0,
) -> SwissRound:
    """The Monrad pairing of the ``players`` present (module docstring), each pair with
    its reason; ``first`` of a pair is the higher-ranked player. ``names``: player id →
    name, for the reasons that name a player (the bye's moved from the lowest-ranked, or
    from the player the top-down pairing gave it to). ``standing``: each player's place
    in the standings the players see (distinct places; module docstring).
    ``rounds_after``: the rounds still to be paired after this one, kept pairable without
    a rematch or a second bye when they can be (module docstring, Completion)."""
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
    usual_pairs, usual_bye = set(pairs), bye
    if rounds_after > 0 and n <= LOOKAHEAD_PLAYERS:
        pairs, bye = _ahead(order, met, pairs, bye, rounds_after)
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
                ahead=(i, j) not in usual_pairs,
            ),
        )
        for i, j in sorted(pairs)
    ]
    if bye is not None:
        only = order[bye]
        if bye == usual_bye:
            why = _reason(only, None, met=False, lowest=lowest, names=names)
        else:
            assert usual_bye is not None  # an odd field's usual pairing has a bye too
            usual = order[usual_bye].id
            named = names.get(usual, str(usual)) if names is not None else str(usual)
            why = msg("swiss.bye_ahead", score=number(only.score), usual=named)
        result.append(SwissPair(only.id, None, why))
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
        rounds_after: int = 0,
    ) -> SwissRound:
        # The rounds after this one stay pairable without a rematch or a second bye when
        # they can (module docstring, Completion).
        return monrad_pair(
            players, seed=seed, names=names, standing=standing, rounds_after=rounds_after
        )


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
