"""Whether the rounds left of a Swiss can still be paired without breaking an absolute
criterion: no rematch and no second pairing-allocated bye (FIDE C.04.1 b and d, the
Dutch system's C.1 and C.2).

The field is a graph: one vertex per player and, when the field is odd, a *bye vertex*
joined to every player without a bye (so a second bye is a rematch with the bye vertex);
an edge joins two players who have not met. The players and the bye vertex are numbered
``0 … size − 1``; ``free[v]`` is the bit mask of the vertices ``v`` may still meet. A round
paired without breaking either criterion is a perfect matching of this graph, and ``k``
rounds more are ``k`` perfect matchings without an edge in common. Results do not matter:
who may still meet whom depends only on who has met, so the rounds left can be paired
whatever the results exactly when such matchings exist.

:class:`Outlook` decides it exactly by a depth-first search: the matchings one at a time,
each vertex of the fewest choices first, a vertex without enough free partners for the
rounds left cutting the branch, vertex 0's partners taken in increasing order from one
round to the next (the rounds' order does not matter), and every graph met once
remembered with its answer. The search counts its steps and gives up past its budget
(:data:`STEPS`, raising :class:`OutlookExhausted`); fields of up to 12 players, the ones
that play nearly as many rounds as players, are decided well within it (figures in
``bench/pairing_bench.py``).

:func:`surely_pairable` is the cheap sufficient test for the others: when every player
still has at least half of the field (the bye's player set aside) to meet before each of
the rounds left, each of those rounds has a perfect matching whatever the rounds before it
were (Dirac: a graph of ``m ≥ 3`` vertices of degree ``≥ m / 2`` has a Hamiltonian
cycle, so, ``m`` even, a perfect matching; ``m = 2`` needs degree 1). A player meets one
opponent a round, so this holds when ``most_met + rounds ≤ n // 2``, ``most_met`` the
most opponents in the field a player has met and ``rounds`` the rounds left counting the
one being paired, and, for an odd field, at least ``rounds`` players are without a bye.

:func:`keep_pairable` is the choice of a round that both paired formats make with them
(``stages.swiss``, Completion; ``formats.monrad``): among the pairings of the round
without a rematch or a second bye, one that leaves the most of the rounds after it
pairable, the first of those in the format's own order of preference (its ``key``), and
none (the format's own pairing stands) when that pairing keeps as many. The field is
given as :func:`graph` builds it from the format's ranking order.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

__all__ = [
    "STEPS",
    "Outlook",
    "OutlookExhausted",
    "graph",
    "keep_pairable",
    "matchings",
    "surely_pairable",
    "without",
]

# The search's budget in partner choices, for one pairing of a round (module docstring).
STEPS = 400_000

Free = tuple[int, ...]


class OutlookExhausted(Exception):
    """The search took :data:`STEPS` steps without an answer."""


def surely_pairable(n: int, most_met: int, rounds: int, without_bye: int) -> bool:
    """Whether ``rounds`` rounds (the one being paired and those after it) of a field of
    ``n`` players are sure to pair without a rematch or a second bye, whatever the pairing
    of each (Dirac's bound, module docstring)."""
    if rounds <= 0:
        return True
    if n % 2 and without_bye < rounds:
        return False
    return most_met + rounds <= n // 2


def without(free: Free, pairs: Sequence[tuple[int, int]]) -> Free:
    """``free`` after the round of ``pairs`` (vertex pairs): those partners are met."""
    masks = list(free)
    for a, b in pairs:
        masks[a] &= ~(1 << b)
        masks[b] &= ~(1 << a)
    return tuple(masks)


def matchings(free: Free) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of the graph ``free`` (an even number of vertices), as lists
    of pairs ``(a, b)`` with ``a < b``; none when it has none."""
    yield from _matchings(free, (1 << len(free)) - 1, None)


def _matchings(free: Free, left: int, steps: list[int] | None) -> Iterator[list[tuple[int, int]]]:
    """The perfect matchings of the vertices in the mask ``left``: the vertex with the
    fewest free partners left is paired first, with each of them in turn."""
    if not left:
        yield []
        return
    best, options = -1, 0
    rest = left
    while rest:
        low = rest & -rest
        v = low.bit_length() - 1
        rest ^= low
        mine = free[v] & left
        if best < 0 or mine.bit_count() < options.bit_count():
            best, options = v, mine
            if not mine:
                return
    left &= ~(1 << best)
    while options:
        low = options & -options
        w = low.bit_length() - 1
        options ^= low
        if steps is not None:
            steps[0] -= 1
            if steps[0] < 0:
                raise OutlookExhausted
        for rest_pairs in _matchings(free, left & ~low, steps):
            yield [(min(best, w), max(best, w)), *rest_pairs]


class Outlook:
    """The exact test, with its memory of the graphs met: one per pairing of a round."""

    def __init__(self, steps: int = STEPS) -> None:
        self.steps = [steps]
        self.known: dict[tuple[Free, int], bool] = {}

    def pairable(self, free: Free, rounds: int) -> bool:
        """Whether ``rounds`` rounds can be paired in the graph ``free`` without an edge
        in common (without a rematch or a second bye). :class:`OutlookExhausted` past the
        budget."""
        if rounds <= 0:
            return True
        key = (free, rounds)
        known = self.known.get(key)
        if known is not None:
            return known
        found = False
        if all(mask.bit_count() >= rounds for mask in free):
            # Vertex 0 meets a different partner each round: take them in increasing
            # order, so that a set of rounds is tried once and not in every order.
            first = free[0]
            while first and not found:
                low = first & -first  # vertex 0's partner in this round
                first ^= low
                self.steps[0] -= 1
                if self.steps[0] < 0:
                    raise OutlookExhausted
                # The rounds after it: vertex 0 only with the partners above this one.
                later = list(free)
                later[0] = first
                below = free[0] & ~first
                while below:
                    q = below & -below
                    below ^= q
                    later[q.bit_length() - 1] &= ~1
                left = (1 << len(free)) - 1 & ~1 & ~low
                for pairs in _matchings(tuple(later), left, self.steps):
                    if self.pairable(without(tuple(later), pairs), rounds - 1):
                        found = True
                        break
        self.known[key] = found
        return found


def graph(n: int, met: Callable[[int, int], bool], had_bye: Callable[[int], bool]) -> Free:
    """The field of ``n`` players (positions ``0 … n − 1`` in the format's ranking order)
    as the search reads it: position ``i``'s bit mask of the positions it has not met, and
    of the bye vertex ``n`` (an odd field) when it has had no bye; the bye vertex's mask
    holds the players without a bye."""
    masks = []
    for i in range(n):
        mask = sum(1 << j for j in range(n) if j != i and not met(i, j))
        if n % 2 and not had_bye(i):
            mask |= 1 << n
        masks.append(mask)
    if n % 2:
        masks.append(sum(1 << i for i in range(n) if not had_bye(i)))
    return tuple(masks)


def keep_pairable(
    free: Free,
    players: int,
    usual: Sequence[tuple[int, int]],
    rounds_after: int,
    key: Callable[[list[tuple[int, int]]], SupportsRichComparison],
) -> list[tuple[int, int]] | None:
    """The pairing of a round of ``players`` players (the graph ``free``, as :func:`graph`
    builds it; vertex pairs ``(a, b)``, ``a < b``, the bye a pair with the bye vertex)
    that keeps the most of the ``rounds_after`` rounds after it pairable without a rematch
    or a second bye (the rounds right after it, as many as can be), the least by ``key``
    of those. None, for the format's ``usual`` pairing to stand, when
    that one keeps as many, when it has a rematch or a second bye itself (every pairing
    of the round has), when every pairing keeps them (:func:`surely_pairable`), and past
    the search's budget (:class:`OutlookExhausted`)."""
    mask = (1 << players) - 1
    most_met = max((players - 1 - (free[v] & mask).bit_count() for v in range(players)), default=0)
    without_bye = free[players].bit_count() if players % 2 else players
    if surely_pairable(players, most_met, rounds_after + 1, without_bye):
        return None
    if any(not free[a] >> b & 1 for a, b in usual):
        return None  # this round cannot do without a rematch or a second bye
    outlook = Outlook()
    try:
        if outlook.pairable(without(free, usual), rounds_after):
            return None
        # The most rounds after this one that a pairing of it leaves pairable.
        keep = rounds_after
        while keep > 0 and not outlook.pairable(free, keep + 1):
            keep -= 1
        if keep == 0 or outlook.pairable(without(free, usual), keep):
            return None
        for pairs in sorted(matchings(free), key=key):
            if outlook.pairable(without(free, pairs), keep):
                return pairs
    except OutlookExhausted:
        pass  # past the search's budget: the usual pairing
    return None
