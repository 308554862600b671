"""Round robins by the Berger tables, single or double, and groups drawn by snake seeding;
a round robin's shape: its rounds, their default lengths and the draw order of its players.

The Berger tables are FIDE's (Handbook C.05, General Regulations for Competitions, Annex 1,
"Berger Tables for Round-Robin Tournaments"; the tables for 3–4 and 5–6 players are
reproduced in ``tests/stages/test_roundrobin.py`` and checked there). For an even number N
of players (an odd field adds a last number, N = n + 1, that "counts as a bye", C.05
Annex 1), there are N − 1 rounds of N / 2 tables:

- In round r (1-based), player N meets player a = 1 + (r − 1)·N/2 taken in 1…N − 1 cyclically
  (N − 1 counts as 0); player N is named first in the even rounds, second in the odd ones.
- The other tables pair a + k with a − k (cyclically in 1…N − 1), for k = 1 … N/2 − 1, the
  first of them named first.

For 6 players that gives 1–6 2–5 3–4 / 6–4 5–3 1–2 / 2–6 3–1 4–5 / 6–5 1–4 2–3 / 3–6 4–2 5–1.

The first-named player is White in chess; in bräde and backgammon, where the tek or the
opening roll decides who starts, it is only the order of the names (home and away in a
league). A double round robin plays the table twice with the names swapped in the second
cycle; as C.05 Annex 1 recommends for players meeting twice, the last two rounds of the
first cycle are exchanged, so that no player is named first (or second) in three
consecutive rounds across the two cycles. (With exactly four players, three rounds a
cycle, no order of the rounds avoids that; the exchange is made all the same.)

Decisions where the rules are silent:
- The players are numbered for the Berger table by seed (seed 1 is number 1), the
  unseeded after them in the order of the draw (``stages.knockout.draw_order``, from the
  stored draw seed), so a draw seed repeats a draw.
- Every round is played over 3 games by default (3 points in backgammon); the organiser
  may give each round its own length, as in a knockout.
- A round robin takes at most ``MAX_PLAYERS`` (32) players: 31 rounds of 496 matches is
  already more than a club plays in a season, and the group's page (its cross table grows
  with the square of the field) must stay cheap for every anonymous reader (every
  page's work is bounded). Larger fields play Swiss or a knockout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from stages import knockout

T = TypeVar("T")

# Why players cannot be dealt into groups, as a code the caller words
# (``round_robin_draw``); the caller handles every code (``match`` with ``assert_never``),
# so a new code cannot pass unworded.
GroupsProblem = Literal["small", "large"]

# The largest round robin (see the module's decisions); with groups, the largest group.
MAX_PLAYERS = 32
# Groups of one round robin (snake-seeded, ``snake_groups``).
MAX_ROUND_ROBIN_GROUPS = 16


@dataclass(frozen=True, slots=True)
class Fixture(Generic[T]):
    """One match of a round robin round; ``second`` is ``None`` when ``first`` has the bye.
    ``table`` counts the round's matches from 1; a bye has table 0."""

    round: int
    table: int
    first: T
    second: T | None


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` players: rounds of ``(first, second)`` player numbers
    1…N, N = n rounded up to even (N is the bye for odd n)."""
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {n}")
    size = n + n % 2
    ring = size - 1  # numbers 1…size−1 rotate; number `size` is fixed

    def wrap(x: int) -> int:
        return (x - 1) % ring + 1

    rounds: list[list[tuple[int, int]]] = []
    for r in range(1, size):
        a = wrap(1 + (r - 1) * (size // 2))
        tables = [(size, a) if r % 2 == 0 else (a, size)]
        tables += [(wrap(a + k), wrap(a - k)) for k in range(1, size // 2)]
        rounds.append(tables)
    return rounds


def round_robin(players: Sequence[T], *, double: bool = False) -> list[list[Fixture[T]]]:
    """The rounds of a round robin of ``players`` (in draw order: player number 1 first).
    A bye, when the field is odd, is listed last in its round."""
    n = len(players)
    table = berger_table(n)
    if double:
        first_cycle = list(table)
        if len(first_cycle) >= 2:
            first_cycle[-2], first_cycle[-1] = first_cycle[-1], first_cycle[-2]
        table = first_cycle + [[(b, a) for a, b in tables] for tables in first_cycle]
    rounds: list[list[Fixture[T]]] = []
    for r, tables in enumerate(table, start=1):
        matches: list[Fixture[T]] = []
        byes: list[Fixture[T]] = []
        for a, b in tables:
            if a > n:
                byes.append(Fixture(r, 0, players[b - 1], None))
            elif b > n:
                byes.append(Fixture(r, 0, players[a - 1], None))
            else:
                matches.append(Fixture(r, len(matches) + 1, players[a - 1], players[b - 1]))
        rounds.append(matches + byes)
    return rounds


def snake_groups(players: Sequence[T], groups: int) -> list[list[T]]:
    """``players`` (best first) dealt into ``groups`` groups by snake seeding: 1 → A, 2 → B,
    …, then back from the last group (A1 B1 C1 C2 B2 A2 A3 …), so the groups are as even as
    the seeding allows."""
    if groups < 1:
        raise ValueError(f"at least one group, not {groups}")
    if len(players) < 2 * groups:
        raise ValueError(f"{len(players)} players cannot fill {groups} groups of two or more")
    dealt: list[list[T]] = [[] for _ in range(groups)]
    for i, player in enumerate(players):
        lap, pos = divmod(i, groups)
        dealt[pos if lap % 2 == 0 else groups - 1 - pos].append(player)
    return dealt


def round_count(players: int, *, double: bool) -> int:
    """Rounds of a round robin of ``players``: N − 1 for an even N, N for an odd one (each
    player has one bye), twice that for a double round robin."""
    return len(berger_table(players)) * (2 if double else 1)


def default_lengths(rounds: int) -> list[int]:
    return [3] * rounds


def draw_order(seeded: Sequence[T], unseeded: Sequence[T], seed: int) -> list[T]:
    """Berger numbers 1…n: the seeded players by seed, then the unseeded as drawn."""
    return [*seeded, *knockout.draw_order(unseeded, seed)]


def group_label(index: int) -> str:
    """A group's name: A, B, C, … (0 is A)."""
    return chr(ord("A") + index)


def groups_problem(players: int, groups: int, advance: int) -> GroupsProblem | None:
    """Why ``players`` cannot be dealt into ``groups`` groups at the draw, as a code
    (``small``: a group of fewer than two, or not more players than go on; ``large``: a
    group above ``MAX_PLAYERS``), or ``None``. Snake seeding makes the groups' sizes
    differ by one at most."""
    smallest = players // groups
    largest = -(-players // groups)
    if smallest < 2 or smallest <= advance:
        return "small"
    if largest > MAX_PLAYERS:
        return "large"
    return None


def group_round_count(players: int, groups: int, *, double: bool) -> int:
    """Rounds of a round robin of ``players`` in ``groups`` snake-seeded groups: the
    largest group's (``round_count``); the groups play their rounds side by side."""
    sizes = {players // groups, -(-players // groups)}
    return max((round_count(n, double=double) for n in sizes if n >= 2), default=0)
