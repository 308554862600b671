"""R12 patterns (*vackert spel*) and the R13 one-die condition.

A pattern stands on the winner's points 19–24 with all 15 checkers on the board
(:data:`engine.movegen.PATTERNS`). R13: at the start of a turn a side may roll a single
die when one legal step of one checker by some die 1–6 would complete a pattern.
"""

from __future__ import annotations

from engine.movegen import Board, check_step, pattern_of, view
from engine.position import Position
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Pattern

__all__ = ["pattern_of_position", "single_die_condition"]


def pattern_of_position(position: Position) -> Pattern | None:
    """The R12 pattern the side to move's checkers form now, if any."""
    m, _o, _own_stack, _opp_stack = view(position)
    return pattern_of(m)


def single_die_condition(position: Position, rules: RuleSet) -> bool:
    """R13: one legal step of one checker by some d in 1–6 completes a pattern."""
    own = position.points(position.to_move)
    # A borne-off checker rules patterns out, one entry cannot make one, and a pattern
    # has all 15 on 19–24: after one step of one checker at least 14 stood there already.
    if own[0] or sum(own) != CHECKERS_PER_SIDE or sum(own[19:25]) < CHECKERS_PER_SIDE - 1:
        return False
    m, o, own_stack, opp_stack = view(position)
    b = Board.of(rules, own_stack, opp_stack)
    for p in range(1, 25):
        if not m[p]:
            continue
        for d in range(1, 7):
            q = p + d
            if q < 19 or q > 24:
                continue
            if check_step(m, o, p, d, b) < 0:
                continue
            m[p] -= 1
            m[q] += 1
            found = pattern_of(m) is not None
            m[p] += 1
            m[q] -= 1
            if found:
                return True
    return False
