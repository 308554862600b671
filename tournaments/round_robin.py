"""A round-robin tournament's shape: its rounds, their default lengths, the
draw order of its players and its tiebreak chain. Pure: the Berger tables themselves are
``stages.roundrobin``'s, the standings ``stages.tiebreaks``'s.

Decisions where the issue is silent:
- The players are numbered for the Berger table by seed (seed 1 is number 1), the
  unseeded after them in the order of the draw (``bracket.draw_order``, from the stored
  draw seed), so a draw seed repeats a draw.
- Every round is played over 3 games by default (3 points in backgammon); the organiser
  may give each round its own length, as in a knockout.
- Match points always come first; the organiser chooses what follows. The default chain
  is the tournament's game's: bräde ranks by game points on its scale and then
  skiljepoäng (W&W 1956 and Ny 1, scoring.md S2), backgammon by points won minus lost;
  then the direct encounter, Sonneborn–Berger and the number of wins; the lots last.
- A round robin takes at most ``MAX_PLAYERS`` (32) players: 31 rounds of 496 matches is
  already more than a club plays in a season, and the group's page (its cross table grows
  with the square of the field) must stay cheap for every anonymous reader (every
  page's work is bounded). Larger fields play Swiss or a knockout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from games.registry import family_for
from stages.crossover import MAX_GROUPS as MAX_FEEDING_GROUPS
from stages.roundrobin import berger_table
from stages.tiebreaks import TIEBREAKS
from tournaments import bracket

T = TypeVar("T")

# Why a check refuses, as codes the caller words (``round_robin_draw``, ``format_options``);
# each caller handles every code (``match`` with ``assert_never``), so a new code cannot
# pass unworded.
ChainProblem = Literal["unknown", "twice", "skiljepoang"]
AdvanceProblem = Literal["too_many", "groups", "alone"]
GroupsProblem = Literal["small", "large"]

__all__ = [
    "CHOOSABLE",
    "MAX_ADVANCE",
    "MAX_FEEDING",
    "MAX_GROUPS",
    "MAX_PLAYERS",
    "MAX_SWISS_ADVANCE",
    "AdvanceProblem",
    "ChainProblem",
    "GroupsProblem",
    "advance_problem",
    "chain_problem",
    "default_chain",
    "default_lengths",
    "draw_order",
    "group_label",
    "group_round_count",
    "groups_problem",
    "round_count",
]

# The largest round robin (see the module's decisions); with groups, the largest group.
MAX_PLAYERS = 32
# Groups of one round robin (snake-seeded, ``stages.roundrobin.snake_groups``).
MAX_GROUPS = 16
# Groups that can feed a knockout (``stages.crossover``) and how many of each go on.
MAX_FEEDING = MAX_FEEDING_GROUPS
MAX_ADVANCE = 4
# The top of a Swiss that can go on to a knockout (a bracket of 32).
MAX_SWISS_ADVANCE = 32

# The tiebreaks an organiser may put after match points.
CHOOSABLE = tuple(key for key in TIEBREAKS if key != "match_points")


def round_count(players: int, *, double: bool) -> int:
    """Rounds of a round robin of ``players``: N − 1 for an even N, N for an odd one (each
    player has one bye), twice that for a double round robin."""
    return len(berger_table(players)) * (2 if double else 1)


def default_lengths(rounds: int) -> list[int]:
    return [3] * rounds


def draw_order(seeded: Sequence[T], unseeded: Sequence[T], seed: int) -> list[T]:
    """Berger numbers 1…n: the seeded players by seed, then the unseeded as drawn."""
    return [*seeded, *bracket.draw_order(unseeded, seed)]


def default_chain(game: str, scale: str) -> list[str]:
    """The tiebreaks after match points for ``game`` (see the module's decisions), from its
    family: a game played to points ranks by points won minus lost, a game of best of n
    by game points, then skiljepoäng where the scale has them (S2)."""
    family = family_for(game)
    if family.length_unit == "points":
        first = ["points_difference"]
    else:
        first = ["game_points"] + (["skiljepoang"] if scale in family.tiebreak_scales else [])
    return [*first, "direct_encounter", "sonneborn_berger", "wins"]


def chain_problem(chain: Sequence[str], game: str) -> ChainProblem | None:
    """Why ``chain`` cannot be a tournament's tiebreak chain, as a code the caller words
    (``unknown``, ``twice``, ``skiljepoang``: bräde's only), or ``None``."""
    for key in chain:
        if key not in CHOOSABLE:
            return "unknown"
    if len(set(chain)) != len(chain):
        return "twice"
    if "skiljepoang" in chain and not family_for(game).tiebreak_scales:
        return "skiljepoang"
    return None


def group_label(index: int) -> str:
    """A group's name: A, B, C, … (0 is A)."""
    return chr(ord("A") + index)


def advance_problem(groups: int, advance: int) -> AdvanceProblem | None:
    """Why the top ``advance`` of each of ``groups`` groups cannot go on to a knockout, as a
    code (``too_many``, ``groups``: more than ``MAX_FEEDING``, ``alone``: one player in
    all), or ``None``. ``advance`` 0: the groups are the whole tournament."""
    if advance == 0:
        return None
    if not 1 <= advance <= MAX_ADVANCE:
        return "too_many"
    if groups > MAX_FEEDING:
        return "groups"
    if groups * advance < 2:
        return "alone"
    return None


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
