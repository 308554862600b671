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
  checkers borne off): ``ValueError``. Nor, under ``board``, from one where a side has more
  than five consecutive bands in the opponent's path while the opponent has borne off
  fewer than 14 (R5: no legal step leaves such a run, so no game reaches it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from engine.errors import IllegalPlayError, InvalidValue
from engine.messages import msg
from engine.movegen import (
    BLAST,
    REDUCED,
    ROLLS,
    STEP_TABLE,
    T_HEMSPEL,
    T_JAN,
    T_PATTERN,
    T_SPRANGJAN,
    Board,
    can_step,
    check_dice,
    check_step,
    decode,
    exceeds,
    legal_plays,
    longest_band_run,
    opp_is_jan,
    opp_janblotta,
    pattern_of,
    stack_play,
    stack_play_available,
    start_of_turn,
    view,
)
from engine.patterns import single_die_condition
from engine.play import Play, Step
from engine.position import (
    SET_BLACK,
    SET_BLACK_STATE,
    SET_TO_MOVE,
    SET_WHITE,
    SET_WHITE_STATE,
    Position,
    has_band_13_24,
    has_janblotta_out,
    is_jan,
    side_state,
)
from engine.record import RecordStep
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Outcome, OutcomeKind, Side, to_other_numbering
from engine.verify import verify_steps

__all__ = ["Game", "SingleDie", "TurnResult", "apply_play"]

SingleDie = Literal["forbidden", "allowed", "required"]


class StepInput(Protocol):
    """A step as submitted: where a checker moves from and to, in the mover's numbering
    (0 bar, 25 off) — a :class:`engine.record.RecordStep`, for one."""

    @property
    def src(self) -> int: ...

    @property
    def dst(self) -> int: ...


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


def _mover_lists(own: tuple[int, ...], opp: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """The mover's lists ``m``/``o`` of :mod:`engine.movegen` (as :func:`view` builds
    them) from the two sides' own boards: the opponent's 1–12 are the mover's 13–24 (R1)."""
    return (
        [*own, CHECKERS_PER_SIDE - sum(own)],
        [opp[0], *opp[13:25], *opp[1:13], CHECKERS_PER_SIDE - sum(opp)],
    )


StraightTurn = tuple[tuple[Step, ...], Position, Outcome | None]
_WHITE = Side.WHITE
_BLACK = Side.BLACK
_new = object.__new__


def _play_straight(
    position: Position,
    dice: tuple[int, ...],
    moves: Sequence[StepInput],
    rules: RuleSet,
    boards: tuple[Board, Board, Board, Board],
) -> StraightTurn | None:
    """Check and apply a play in one pass, for the common case: every step has exactly
    one die it can use and is legal on its own (R4–R7, R9, R5 board), only the last step
    may end the game (R10–R12), and the play either uses the whole roll or is shown by
    :func:`engine.movegen.exceeds` to reach the R8 maximum.

    The result — the steps of the play, the new position and the outcome — is what
    :func:`engine.verify.verify_steps` followed by :func:`apply_play` gives (the same
    steps, position, per-game state and outcome); the lists the steps were checked on
    become the new position directly. Returns None for anything else — an
    illegal step, a bear-off that may use more than one die, a play short of R8, a jan
    under ``talisman`` R10 before the roll is used up — and the caller then runs the full
    check, which gives the verdict and names any error. ``boards``: the :class:`Board` of
    ``rules`` for each pair of R15 stack flags (index 2 × own + opponent's).
    """
    mover = position.to_move
    if mover is _WHITE:
        own, opp = position.white, position.black
        mstate, ostate = position.white_state, position.black_state
    else:
        own, opp = position.black, position.white
        mstate, ostate = position.black_state, position.white_state
    m = [*own, CHECKERS_PER_SIDE - sum(own)]  # _mover_lists, inlined
    o = [opp[0], *opp[13:25], *opp[1:13], CHECKERS_PER_SIDE - sum(opp)]
    m_stack = mstate.stack_on_7
    o_stack = ostate.stack_on_7 and opp[7] > 1
    b = boards[2 * (m_stack and own[7] > 1) + o_stack]
    pips = b.pips
    immediate_pattern = b.immediate_pattern
    rem = [dice[0]] * 4 if len(dice) == 2 and dice[0] == dice[1] else list(dice)  # R3
    roll_size = len(rem)
    # R14 "ever" flags, updated after every step of both sides (as apply_play does)
    m_band = mstate.ever_band_13_24
    m_jb = mstate.ever_janblotta
    o_jb = ostate.ever_janblotta
    # With no band on 13–24 before the play, a band can only be made where a step lands
    # (the dst check below); a set-up position may already have one, then scan every step.
    band_scan = not m_band and max(own[13:25]) >= 2
    # R14 janblotta of the mover, counted (see the step loop): out when jd > 0
    jd = m[0] + m[7:25].count(1) - m[1:7].count(0) if not (m_jb or m_stack) else 0
    steps: list[Step] = []
    reduced = 0  # reduced bear-offs (R7)
    captured = 0  # opponent checkers sent to the bar (R5.2, R9)
    term = 0  # the movegen T_* kind of a step that ended the game (R10–R12)
    # The opponent's board changes only by a hit: after a first step without one it is
    # the board before the play, so its flag is checked here, then after every hit.
    if not o_jb and moves and has_janblotta_out(opp, o_stack):
        o_jb = True
    for move in moves:
        src = move.src
        dst = move.dst
        if term or not 0 <= src < dst <= 25:
            return None  # a step after the game ended, or not forward (R4)
        # The die of the step (R4): its distance; a bear-off may use a larger die (R7)
        # — only when that die is the one candidate.
        dist = dst - src
        if dst == 25:
            over = [d for d in rem if d > dist]
            if dist in rem:
                if over:
                    return None  # exact or reduced: the full check tries both
                d = dist
            elif over and min(over) == max(over):
                d = over[0]
            else:
                return None
        elif dist in rem:
            d = dist
        else:
            return None
        f = check_step(m, o, src, d, b)
        if f < 0:
            return None
        rem.remove(d)
        m[src] -= 1
        m[dst] += 1
        c = 0
        if dst < 25 and f & 3:  # a hit (R5.2) or a blast (R9): to the opponent's bar
            c = o[dst]
            o[dst] = 0
            o[0] += c
            captured += c
            if dst == 19:
                o_stack = False  # the opponent's point 7 (R15 stack) is emptied
        code = (((src * 26 + dst) * 8 + d) << 3) | f  # movegen.encode
        step = STEP_TABLE[code]
        if step is None:
            step = decode(code)
        steps.append(step)
        if c and opp_is_jan(o):
            term = T_SPRANGJAN if f & BLAST else T_JAN  # R10
        elif dst == 25:
            if f & REDUCED:
                reduced += 1
            if m[25] == CHECKERS_PER_SIDE:
                term = T_HEMSPEL  # R11
        elif immediate_pattern and dst >= 19 and pattern_of(m) is not None:
            term = T_PATTERN  # R12 vasa
        if not m_band and ((13 <= dst <= 24 and m[dst] >= 2) or (band_scan and max(m[13:25]) >= 2)):
            m_band = True  # has_band_13_24
        if not m_jb:
            if m_stack:
                m_jb = has_janblotta_out(m, m_stack)
            else:
                # has_janblotta_out as a running count: ``jd`` is bar + blots on 7–24
                # − open points of Q1, and a step changes it only at its two ends
                if src == 0:
                    jd -= 1  # one checker fewer on the bar
                elif src <= 6:
                    if not m[src]:
                        jd -= 1  # a Q1 point emptied
                else:
                    x = m[src]
                    jd += 1 if x == 1 else -1 if x == 0 else 0  # a band broken / blot gone
                if dst <= 6:
                    if m[dst] == 1:
                        jd += 1  # a Q1 point taken
                elif dst <= 24:
                    x = m[dst]
                    jd += 1 if x == 1 else -1 if x == 2 else 0  # a blot made / covered
                if jd > 0:
                    m_jb = True
        if c and not o_jb and opp_janblotta(o, o_stack):
            o_jb = True

    # R8, unless the play ended the game (R10 outside talisman, R11, R12)
    if (len(steps) != roll_size or (reduced and pips)) and not (
        term in (T_HEMSPEL, T_PATTERN) or (term and not b.r10_prefix)
    ):
        if term:
            return None  # R10 talisman: the full check searches the continuations
        if steps:
            m0, o0 = _mover_lists(own, opp)  # the position before the play
            # the R8 value of the play: points travelled, or 32 per die plus its face
            if pips:
                value = sum([step.dst - step.src for step in steps])
            else:
                value = sum([32 + step.die for step in steps])
            if exceeds(m0, o0, dice, b, value):
                return None  # short of R8: the full check names the error
        elif can_step(m, o, dice, b):
            return None  # nothing played, but a step was possible (R8)

    if m[7] <= 1:
        m_stack = False
    off = m[25]
    outcome: Outcome | None = None
    if (
        term
        or off == CHECKERS_PER_SIDE
        or (off == 0 and m[24] >= 3 and sum(m[19:25]) == CHECKERS_PER_SIDE)
    ):
        # (every R12 pattern has 3 or more checkers on 24.) The opponent cannot be jan
        # here otherwise: it was not at the start of the turn (the game would be over),
        # and only a capture makes it so, which sets ``term``.
        outcome = _outcome(mover, m, o, term, len(steps) == roll_size, rules)
    single_left = mstate.single_die_left  # R13 series
    if len(dice) == 1 and outcome is None:
        if single_left == 0:
            single_left = 2 if rules.r13_mode == "series_of_three" else dice[0]
        else:
            single_left -= 1
    if (
        m_band is mstate.ever_band_13_24
        and m_jb is mstate.ever_janblotta
        and single_left == mstate.single_die_left
        and not mstate.first_roll_pending
        and m_stack is mstate.stack_on_7
    ):
        new_m = mstate  # the usual turn: nothing the board alone does not show changed
    else:
        new_m = side_state(m_band, m_jb, single_left, False, m_stack)
    o_stack = o_stack and o[19] > 1
    if o_jb == ostate.ever_janblotta and o_stack == ostate.stack_on_7:
        new_o = ostate
    else:
        new_o = side_state(
            ostate.ever_band_13_24, o_jb, ostate.single_die_left, ostate.first_roll_pending, o_stack
        )
    del m[25]  # the borne-off count is not part of a board
    new_own = tuple(m)
    # back to the opponent's numbering (R1); only a capture changes the opponent's board
    new_opp = tuple(o[:1] + o[13:25] + o[1:13]) if captured else opp
    # Position.derived, inlined (one position per turn of a replay)
    after = _new(Position)
    if mover is _WHITE:
        SET_TO_MOVE(after, mover if outcome is not None else _BLACK)
        SET_WHITE(after, new_own)
        SET_BLACK(after, new_opp)
        SET_WHITE_STATE(after, new_m)
        SET_BLACK_STATE(after, new_o)
    else:
        SET_TO_MOVE(after, mover if outcome is not None else _WHITE)
        SET_WHITE(after, new_opp)
        SET_BLACK(after, new_own)
        SET_WHITE_STATE(after, new_o)
        SET_BLACK_STATE(after, new_m)
    return tuple(steps), after, outcome


def _outcome(
    mover: Side, m: list[int], o: list[int], term: int, whole_roll: bool, rules: RuleSet
) -> Outcome | None:
    """How a turn that was checked by :func:`_play_straight` ended the game, if it did, as
    :func:`apply_play` decides it: ``term`` is the T_* kind of the step that ended it;
    ``whole_roll``: every die of the roll was played."""
    off = m[25]
    if term in (T_JAN, T_SPRANGJAN):
        return Outcome(mover, OutcomeKind.SPRANGJAN if term == T_SPRANGJAN else OutcomeKind.JAN)
    if term == T_HEMSPEL or off == CHECKERS_PER_SIDE:
        return Outcome(mover, OutcomeKind.HEMSPEL, munk=o[0] > 0)  # R11
    if off == 0 and not m[0] and sum(m[19:25]) == CHECKERS_PER_SIDE:
        pattern = pattern_of(m)
        if pattern is not None and (
            term == T_PATTERN or (rules.r12_mode == "end_of_turn" and whole_roll)
        ):
            return Outcome(mover, OutcomeKind.VACKERT_SPEL, pattern, o[0] > 0)  # R12
    if opp_is_jan(o):
        return Outcome(mover, OutcomeKind.JAN)  # as apply_play (cannot happen)
    return None


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
                raise InvalidValue(msg("position.over_jan", side=side.word))
            if position.borne_off(side) == CHECKERS_PER_SIDE:
                raise InvalidValue(msg("position.over_off", side=side.word))
            if position.state(side).stack_on_7 and not rules.double_six:
                raise InvalidValue(msg("position.band_7", side=side.word))
            limit = rules.band_run_limit
            if (
                limit is not None
                and position.borne_off(side.other) < 14
                and longest_band_run(position.points(side), position.state(side).stack_on_7) > limit
            ):
                # R5 board: no step could have left such a run, so no game reaches it
                raise InvalidValue(
                    msg(
                        "position.run",
                        rules=rules.name,
                        side=side.word,
                        count=limit,
                        other=side.other.word,
                    )
                )
        self.rules = rules
        # the Board of the rules for each pair of R15 stack flags (2 × own + opponent's)
        self._boards = (
            Board.of(rules, False, False),
            Board.of(rules, False, True),
            Board.of(rules, True, False),
            Board.of(rules, True, True),
        )
        self._double_six = rules.double_six
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
        dice = self._check_roll(dice)
        moves = [RecordStep(int(s), int(d)) for s, d in steps]
        steps_played = self._play(dice, moves)
        result = TurnResult(Play(steps_played), self.position, self.outcome, dice, side)
        self.history.append(result)
        return result

    def advance(self, dice: tuple[int, ...], moves: Sequence[StepInput]) -> tuple[Step, ...]:
        """:meth:`play_turn` for a replay, which needs neither a :class:`TurnResult` nor
        the history: ``moves`` are the record's steps as written (``src``/``dst`` ints);
        returns the steps as applied (the new position and outcome are :attr:`position`
        and :attr:`outcome`)."""
        return self._play(self._check_roll(dice), moves)

    def _check_roll(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        """The roll, higher die first, if the side to move may roll it now (R3, R13)."""
        side = self.position.to_move
        if self.outcome is not None:
            raise IllegalPlayError(msg("game.over", outcome=self.outcome.text()))
        try:
            dice = ROLLS[dice]  # a valid roll given as a tuple: check_dice, inlined
        except (KeyError, TypeError):
            try:
                dice = check_dice(tuple(dice))
            except ValueError:
                raise IllegalPlayError(msg("roll.bad", dice=repr(dice))) from None
        if len(dice) == 1:
            mode = self.single_die()
        elif (
            self.position.white_state if side is _WHITE else self.position.black_state
        ).single_die_left > 0:
            mode = self.single_die()  # R13: "required" unless the rule set has no R13
        else:
            return dice  # two dice and no series running: nothing more to check
        if len(dice) == 1 and mode == "forbidden":
            if self.rules.r13_mode == "none":
                raise IllegalPlayError(msg("roll.single_never", rules=self.rules.text()))
            raise IllegalPlayError(msg("roll.single_not_here", side=side.word))
        if len(dice) == 2 and mode == "required":
            left = self.position.state(side).single_die_left
            raise IllegalPlayError(msg("roll.single_must", side=side.word, count=left))
        return dice

    def _play(self, dice: tuple[int, ...], moves: Sequence[StepInput]) -> tuple[Step, ...]:
        """Check the steps of a roll already checked, apply them, and move the game on;
        the steps as applied."""
        rules = self.rules
        position = self.position
        if self._double_six:
            position = start_of_turn(position, dice, rules)  # R15
        if (
            len(moves) == 6
            and all(move.src == 1 and move.dst == 7 for move in moves)
            and stack_play_available(position, dice, rules)
        ):
            play = stack_play(position)  # R15
            steps = play.steps
            after, outcome = apply_play(position, dice, play, rules)
        else:
            straight = _play_straight(position, dice, moves, rules, self._boards)
            if straight is not None:
                steps, after, outcome = straight
            else:
                m, o, own_stack, opp_stack = view(position)
                b = Board.of(rules, own_stack, opp_stack)
                pairs = [(move.src, move.dst) for move in moves]
                verified = verify_steps(
                    side=position.to_move, m=m, o=o, dice=dice, pairs=pairs, b=b, rules=rules
                )
                steps = verified.play.steps
                after, outcome = apply_play(position, dice, verified.play, rules, verified.terminal)
        self.position = after
        self.outcome = outcome
        return steps

    def resign(self) -> Outcome:
        """R14: the side to move resigns before rolling; the opponent wins *uppgivet*."""
        side = self.position.to_move
        if self.outcome is not None:
            raise IllegalPlayError(msg("game.over_resign", outcome=self.outcome.text()))
        state = self.position.state(side)
        if state.ever_band_13_24:
            raise IllegalPlayError(msg("resign.band", side=side.word))
        if state.ever_janblotta:
            raise IllegalPlayError(msg("resign.janblotta", side=side.word))
        self.outcome = Outcome(side.other, OutcomeKind.UPPGIVET)
        return self.outcome
