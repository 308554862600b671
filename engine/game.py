"""A game in progress (like python-chess's ``Board``): turns, outcomes, resigning.

:class:`Game` checks every turn against rules.md: the roll (R3, R13), every step
(R4–R7, R9, R5 board, R15), the whole play (R8), and ends the game where it ends (R10
jan/sprängjan, R11 hemspel, R12 vackert spel). Outcomes carry *munk* when the loser has
checkers on the bar (R11, R12). :meth:`Game.resign` is R14 (*uppgivet*).

Decisions where rules.md is silent:

- R14 flags ("ever had a band on 13–24", "ever had the janblotta out") are updated after
  every step of both sides (a band made and broken within one roll still counts), and a
  double-six stack counts as blots for the janblotta (it is hit as a whole).
- R13: a single-die turn that starts a series sets the count of further single-die turns
  (2 for helmfrid/talisman, the die's value for board + one-die); each later single-die
  turn of the series counts one down. A winning turn ends the game, so the count is moot.
- R12 (not vasa): "every die of the roll was played" means the play has as many steps as
  the roll has dice (4 for a double, 1 for a single die).
- A game may not start from a position that is already over (a side jan or with all 15
  checkers borne off): ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.errors import IllegalPlayError
from engine.movegen import (
    T_HEMSPEL,
    T_JAN,
    T_PATTERN,
    T_SPRANGJAN,
    Board,
    check_dice,
    legal_plays,
    pattern_of,
    stack_play,
    stack_play_available,
    start_of_turn,
    view,
)
from engine.patterns import single_die_condition
from engine.play import Play
from engine.position import Position, has_band_13_24, has_janblotta_out, is_jan, side_state
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Outcome, OutcomeKind, Side, to_other_numbering
from engine.verify import verify_steps

__all__ = ["Game", "SingleDie", "TurnResult", "apply_play"]

SingleDie = Literal["forbidden", "allowed", "required"]


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One turn: the play as applied, the position after it, and the outcome if it ended."""

    play: Play
    position: Position
    outcome: Outcome | None
    dice: tuple[int, ...] = ()
    side: Side | None = None


def apply_play(
    position: Position, dice: tuple[int, ...], play: Play, rules: RuleSet, terminal: int = 0
) -> tuple[Position, Outcome | None]:
    """Apply a play already known to be legal from ``position`` (after
    :func:`start_of_turn`); update the per-game state; return the new position and outcome.

    ``terminal`` is the kind of game-ending step the play ends with (0: none). The
    position's side to move passes to the other side unless the game is over.
    """
    mover = position.to_move
    if mover is Side.WHITE:
        other = Side.BLACK
        own, opp = list(position.white), list(position.black)
        mstate, ostate = position.white_state, position.black_state
    else:
        other = Side.WHITE
        own, opp = list(position.black), list(position.white)
        mstate, ostate = position.black_state, position.white_state
    m_band = mstate.ever_band_13_24
    m_jb = mstate.ever_janblotta
    o_jb = ostate.ever_janblotta
    m_stack = mstate.stack_on_7
    o_stack = ostate.stack_on_7 and opp[7] > 1
    steps = play.steps
    is_stack_move = len(steps) == 6 and rules.double_six
    for step in steps:
        dst = step.dst
        own[step.src] -= 1
        if dst <= 24:
            own[dst] += 1
            if step.hit or step.blast:
                oq = _OTHER[dst]
                opp[0] += opp[oq]
                opp[oq] = 0
                if oq == 7:
                    o_stack = False
        # R14: "ever" flags, after every step, for both sides
        if not m_band and has_band_13_24(own):
            m_band = True
        if not m_jb and has_janblotta_out(own, m_stack or is_stack_move):
            m_jb = True
        if not o_jb and has_janblotta_out(opp, o_stack):
            o_jb = True
    if is_stack_move:
        m_stack = True  # R15
    if own[7] <= 1:
        m_stack = False
    # R13 series state
    single_left = mstate.single_die_left
    outcome: Outcome | None = None
    on_board = sum(own)
    if terminal in (T_JAN, T_SPRANGJAN):
        kind = OutcomeKind.SPRANGJAN if terminal == T_SPRANGJAN else OutcomeKind.JAN
        outcome = Outcome(mover, kind)
    elif terminal == T_HEMSPEL or on_board == 0:
        outcome = Outcome(mover, OutcomeKind.HEMSPEL, munk=opp[0] > 0)
    elif on_board == CHECKERS_PER_SIDE and not own[0] and sum(own[19:25]) == on_board:
        pattern = pattern_of([*own, 0])
        if pattern is not None and (
            terminal == T_PATTERN
            or (rules.r12_mode == "end_of_turn" and len(steps) == _roll_size(dice))
        ):
            outcome = Outcome(mover, OutcomeKind.VACKERT_SPEL, pattern, opp[0] > 0)  # R12
    if outcome is None and is_jan(opp):
        # cannot happen through legal steps without a terminal; kept for safety
        outcome = Outcome(mover, OutcomeKind.JAN)
    if len(dice) == 1 and outcome is None:
        if single_left == 0:
            single_left = 2 if rules.r13_mode == "series_of_three" else dice[0]
        else:
            single_left -= 1
    new_m = side_state(m_band, m_jb, single_left, False, m_stack)
    o_stack = o_stack and opp[7] > 1
    if o_jb == ostate.ever_janblotta and o_stack == ostate.stack_on_7:
        new_o = ostate
    else:
        new_o = side_state(
            ostate.ever_band_13_24, o_jb, ostate.single_die_left, ostate.first_roll_pending, o_stack
        )
    # One position per turn (a replay builds one for every turn it checks).
    to_move = mover if outcome is not None else other
    if mover is Side.WHITE:
        after = Position.derived(to_move, tuple(own), tuple(opp), new_m, new_o)
    else:
        after = Position.derived(to_move, tuple(opp), tuple(own), new_o, new_m)
    return after, outcome


# R1: a side's point q is the other side's _OTHER[q] (index 0 unused).
_OTHER: tuple[int, ...] = (0, *(to_other_numbering(q) for q in range(1, 25)))


def _roll_size(dice: tuple[int, ...]) -> int:
    if len(dice) == 2 and dice[0] == dice[1]:
        return 4
    return len(dice)


class Game:
    """A game of bräde being played: a mutable wrapper around immutable positions."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        starter: Side | None = None,
        position: Position | None = None,
    ) -> None:
        if (starter is None) == (position is None):
            raise ValueError("give exactly one of starter and position")
        if position is None:
            assert starter is not None
            position = Position.initial(starter)
        for side in (Side.WHITE, Side.BLACK):
            if position.is_jan(side):
                raise ValueError(f"the position is already over: {side.word} is jan (R10)")
            if position.borne_off(side) == CHECKERS_PER_SIDE:
                raise ValueError(
                    f"the position is already over: {side.word} has borne off every checker"
                )
            if position.state(side).stack_on_7 and not rules.double_six:
                raise ValueError(
                    f"R5.3: {side.word} cannot have a band on point 7 "
                    f"(a double-six stack exists only under board + double-six)"
                )
        self.rules = rules
        self.position = position
        self.start = position
        self.outcome: Outcome | None = None
        self.history: list[TurnResult] = []

    def __repr__(self) -> str:
        return f"<Game {self.rules.text()} {self.position.text()!r} outcome={self.outcome}>"

    @property
    def to_move(self) -> Side:
        return self.position.to_move

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    # --- queries ------------------------------------------------------------------------

    def legal_plays(self, dice: tuple[int, ...]) -> list[Play]:
        """Every distinct legal play of ``dice`` for the side to move (movegen)."""
        if self.outcome is not None:
            return []
        return legal_plays(self.position, dice, self.rules)

    def single_die(self) -> SingleDie:
        """R13 for the side to move: may/must it roll a single die this turn?"""
        if self.rules.r13_mode == "none":
            return "forbidden"
        if self.position.state(self.position.to_move).single_die_left > 0:
            return "required"
        if single_die_condition(self.position, self.rules):
            return "allowed"
        return "forbidden"

    def can_resign(self) -> bool:
        """R14: never a band on 13–24 and never the janblotta out (flags kept per game)."""
        state = self.position.state(self.position.to_move)
        return not state.ever_band_13_24 and not state.ever_janblotta

    # --- actions --------------------------------------------------------------------------

    def play_turn(self, dice: tuple[int, ...], steps: Sequence[tuple[int, int]]) -> TurnResult:
        """Play one turn: ``steps`` as ``(src, dst)`` in the mover's numbering (0 bar, 25
        off), in the order played; ``()`` when nothing was played."""
        side = self.position.to_move
        if self.outcome is not None:
            raise IllegalPlayError(
                f"the game is over ({self.outcome.text()}); no more turns may be played"
            )
        try:
            dice = check_dice(tuple(dice))
        except ValueError as exc:
            raise IllegalPlayError(f"R3: {exc}") from None
        if len(dice) == 1:
            mode = self.single_die()
        elif self.position.state(side).single_die_left > 0:
            mode = self.single_die()  # R13: "required" unless the rule set has no R13
        else:
            mode = "forbidden"  # two dice and no series running: nothing more to check
        if len(dice) == 1 and mode == "forbidden":
            if self.rules.r13_mode == "none":
                raise IllegalPlayError(
                    f"R3: a single die is never allowed under {self.rules.text()} (R13)"
                )
            raise IllegalPlayError(
                f"R13: {side.word} may not roll a single die here (no single step of one "
                "checker completes a pattern)"
            )
        if len(dice) == 2 and mode == "required":
            left = self.position.state(side).single_die_left
            raise IllegalPlayError(
                f"R13: {side.word} must roll a single die this turn ({left} single-die "
                f"turn{'s' if left != 1 else ''} left in the series)"
            )
        pairs = [(int(s), int(d)) for s, d in steps]
        position = start_of_turn(self.position, dice, self.rules)
        if (
            len(pairs) == 6
            and all(p == (1, 7) for p in pairs)
            and stack_play_available(position, dice, self.rules)
        ):
            play = stack_play(position)  # R15
            terminal = 0
        else:
            m, o, own_stack, opp_stack = view(position)
            b = Board.of(self.rules, own_stack, opp_stack)
            verified = verify_steps(
                side=side, m=m, o=o, dice=dice, pairs=pairs, b=b, rules=self.rules
            )
            play = verified.play
            terminal = verified.terminal
        after, outcome = apply_play(position, dice, play, self.rules, terminal)
        result = TurnResult(play, after, outcome, dice, side)
        self.position = after
        self.outcome = outcome
        self.history.append(result)
        return result

    def resign(self) -> Outcome:
        """R14: the side to move resigns before rolling; the opponent wins *uppgivet*."""
        side = self.position.to_move
        if self.outcome is not None:
            raise IllegalPlayError(f"the game is over ({self.outcome.text()}); cannot resign")
        state = self.position.state(side)
        if state.ever_band_13_24:
            raise IllegalPlayError(
                f"R14: {side.word} may not resign: {side.word} has had a band on points 13–24"
            )
        if state.ever_janblotta:
            raise IllegalPlayError(
                f"R14: {side.word} may not resign: {side.word} has had the janblotta out"
            )
        self.outcome = Outcome(side.other, OutcomeKind.UPPGIVET)
        return self.outcome
