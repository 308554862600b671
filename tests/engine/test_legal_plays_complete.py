"""``legal_plays`` offers every result the replay accepts, each once (rules.md R4–R12, R14).

A digital scoresheet offers players exactly this list, so a play the replay accepts must
be represented in it: the same boards after it and the same outcome (jan and sprängjan
are different outcomes, R10), and when the game goes on the same per-game state (the R14
"ever" flags, which the replay updates after every step). Two plays in the list never
have the same result.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalPlayError, InvalidValue
from engine.game import Game
from engine.movegen import (
    Board,
    check_step,
    legal_plays,
    opp_is_jan,
    pattern_of,
    stack_play,
    stack_play_available,
    start_of_turn,
    view,
)
from engine.position import Position
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Outcome, OutcomeKind, Side, to_other_numbering

W = Side.WHITE

CONFIGS = [
    RuleSet.from_names("talisman"),
    RuleSet.from_names("helmfrid"),
    RuleSet.from_names("board"),
    RuleSet.from_names("board", ["easy-reentry"]),
    RuleSet.from_names("board", ["easy-reentry", "one-die", "double-six"]),
    RuleSet.from_names("vasa"),
]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]

Pairs = tuple[tuple[int, int], ...]


def mover_position(to_move: Side, mine: str, theirs: str) -> Position:
    """A position written from the mover's side, as the issue reports give it: the mover's
    checkers, then the opponent's *on the mover's points* (``bar`` its own bar)."""
    other = to_move.other
    own = [0] * 25
    opp = [0] * 25
    for items, board, convert in ((mine, own, False), (theirs, opp, True)):
        for item in items.split():
            point, _, count = item.partition(":")
            where = 0 if point == "bar" else int(point)
            if convert and where:
                where = to_other_numbering(where)
            board[where] += int(count or 1)
    boards = {to_move: own, other: opp}
    return Position.from_boards(to_move, boards[Side.WHITE], boards[Side.BLACK])


def result_of(position: Position, dice: tuple[int, ...], pairs: Pairs, rules: RuleSet) -> Any:
    """What the replay makes of the play: the position after it (boards and per-game
    state) while the game goes on; the boards and the outcome when it ends."""
    result = Game(rules, position=position).play_turn(dice, pairs)
    after = result.position
    if result.outcome is None:
        return after
    return after.white, after.black, result.outcome


def step_sequences(position: Position, dice: tuple[int, ...], rules: RuleSet) -> set[Pairs]:
    """Every sequence of steps each legal on its own (R4–R7, R9, R5 board), of any length
    up to the roll's (every die of the roll in every order), stopping at a step that ends
    the game (the replay refuses any step after it), plus the R15 stack move when open:
    a superset of the plays the replay accepts."""
    pos = start_of_turn(position, dice, rules)
    m, o, own_stack, opp_stack = view(pos)
    b = Board.of(rules, own_stack, opp_stack)
    roll = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    out: set[Pairs] = {()}

    def rec(rem: list[int], pairs: Pairs) -> None:
        for d in set(rem):
            nrem = list(rem)
            nrem.remove(d)
            for p in range(25):
                f = check_step(m, o, p, d, b) if m[p] else -1
                if f < 0:
                    continue
                q = min(p + d, 25)
                m[p] -= 1
                m[q] += 1
                c = 0
                if q < 25 and f & 3:
                    c = o[q]
                    o[q] = 0
                    o[0] += c
                npairs = (*pairs, (p, q))
                out.add(npairs)
                ends = (
                    (c and opp_is_jan(o))
                    or m[25] == CHECKERS_PER_SIDE
                    or (rules.r12_mode == "immediate" and pattern_of(m) is not None)
                )
                if nrem and not ends:
                    rec(nrem, npairs)
                m[p] += 1
                m[q] -= 1
                if c:
                    o[q] = c
                    o[0] -= c

    rec(roll, ())
    if stack_play_available(pos, dice, rules):
        out.add(stack_play(pos).pairs())
    return out


def check_complete(position: Position, dice: tuple[int, ...], rules: RuleSet) -> None:
    """Every result the replay accepts is that of exactly one play of ``legal_plays``,
    and every play listed is accepted."""
    plays = legal_plays(position, dice, rules)
    listed = [result_of(position, dice, play.pairs(), rules) for play in plays]
    assert len(set(listed)) == len(listed), [p.text() for p in plays]
    accepted: dict[Any, Pairs] = {}
    for pairs in step_sequences(position, dice, rules):
        try:
            accepted.setdefault(result_of(position, dice, pairs, rules), pairs)
        except IllegalPlayError:
            continue
    missing = {pairs for key, pairs in accepted.items() if key not in set(listed)}
    assert not missing, (position.text(), dice, rules.text(), missing)
    assert set(listed) == set(accepted)


# The example of the comparison with another engine, from the mover's side: two on the
# bar, Black's band on White's 4 and blot on 2 (White's 4 open to entry blasting: White
# has more on the bar than free points, R9(b)); Black holds four points of its Q1, so
# three on its bar make it jan (R10).
JAN_OR_SPRANGJAN = mover_position(W, "bar:2 1 3 5 6 24:9", "2 4:2 9:8 13 14 15 16")


def test_the_example_position_reads_as_reported() -> None:
    assert JAN_OR_SPRANGJAN.text() == "W 1 3 5 6 24:9 bar:2 | B 1 2 3 4 14 16:2 21:8 | W"


@pytest.mark.parametrize("rules", ["talisman", "helmfrid", "vasa"])
def test_blast_then_hit_and_hit_then_blast_are_both_offered(rules: str) -> None:
    # R10: bar/4* blasts (Black's bar: 2), bar/2* hits and makes Black jan: plain jan;
    # bar/2* hits (bar: 1), bar/4* blasts and makes it jan: sprängjan. Same boards.
    rule_set = RuleSet.from_names(rules)
    plays = {p.text() for p in legal_plays(JAN_OR_SPRANGJAN, (4, 2), rule_set)}
    assert plays == {"bar/4* bar/2*", "bar/2* bar/4*"}
    game = Game(rule_set, position=JAN_OR_SPRANGJAN)
    assert game.play_turn((4, 2), [(0, 4), (0, 2)]).outcome == Outcome(W, OutcomeKind.JAN)
    game = Game(rule_set, position=JAN_OR_SPRANGJAN)
    assert game.play_turn((4, 2), [(0, 2), (0, 4)]).outcome == Outcome(W, OutcomeKind.SPRANGJAN)
    check_complete(JAN_OR_SPRANGJAN, (4, 2), rule_set)


def test_board_blasts_only_after_the_hit() -> None:
    # board without easy-reentry: entry blasting only while no point of Q1 is open
    # (R9(b) board): bar/4* first is refused, so only sprängjan remains.
    board = RuleSet.from_names("board")
    assert [p.text() for p in legal_plays(JAN_OR_SPRANGJAN, (4, 2), board)] == ["bar/2* bar/4*"]


def test_a_band_made_in_passing_is_a_result_of_its_own() -> None:
    # R14: 10/14 makes a band on 14 for a moment (White's "ever a band on 13–24" is set),
    # 10/12 does not; both end with the checker on 16. The replay keeps the flag, so both
    # orders are offered.
    pos = Position.from_text("W 1:13 10 14 | B 1:15 | W")
    assert not pos.white_state.ever_band_13_24
    rules = RuleSet.from_names("talisman")
    plays = {p.text() for p in legal_plays(pos, (4, 2), rules)}
    assert {"10/14 14/16", "10/12 12/16"} <= plays
    flags = {
        Game(rules, position=pos).play_turn((4, 2), [(10, 14), (14, 16)]).position,
        Game(rules, position=pos).play_turn((4, 2), [(10, 12), (12, 16)]).position,
    }
    assert {p.white_state.ever_band_13_24 for p in flags} == {True, False}
    check_complete(pos, (4, 2), rules)


@st.composite
def random_positions(draw: st.DrawFn) -> Position:
    """A position with White to move: each point empty or holding a few checkers of one
    side (no band on a side's 2–11, R5.3), the rest of each side on its bar or borne off;
    neither side jan (the game would be over) nor all borne off. R14 flags as the boards
    give them, or set by earlier play."""
    own = [0] * 26  # White, own numbering, 25 = off
    opp = [0] * 26  # Black on White's points, 0 = Black's bar, 25 = off
    left_own = left_opp = CHECKERS_PER_SIDE
    for q in range(1, 25):
        v = draw(st.integers(-3, 3))
        if v > 0:
            n = min(v, 1 if 2 <= q <= 11 else 3, left_own)
            own[q] = n
            left_own -= n
        elif v < 0:
            n = min(-v, 1 if 14 <= q <= 23 else 3, left_opp)  # Black's 2–11
            opp[q] = n
            left_opp -= n
    own[0] = draw(st.integers(0, min(left_own, 4)))
    opp[0] = draw(st.integers(0, min(left_opp, 4)))
    # R10: nobody jan at the start of a turn (bar at most the open points of Q1)
    own[0] = min(own[0], own[1:7].count(0))
    opp[0] = min(opp[0], opp[13:19].count(0))
    assume(sum(own[:25]) > 0)
    white = tuple(own[:25])
    black = tuple(opp[0:1] + opp[13:25] + opp[1:13])  # Black's own numbering (R1)
    pos = Position.from_boards(W, white, black)
    ws, bs = pos.white_state, pos.black_state
    ws = replace(
        ws,
        ever_band_13_24=ws.ever_band_13_24 or draw(st.booleans()),
        ever_janblotta=ws.ever_janblotta or draw(st.booleans()),
    )
    bs = replace(bs, ever_janblotta=bs.ever_janblotta or draw(st.booleans()))
    return Position(W, white, black, ws, bs)


def game_position(seed: int, turns: int, rules: RuleSet) -> Position | None:
    """The position after ``turns`` random legal plays of a seeded game (None if it ended):
    early positions, where the R14 flags are still unset."""
    rng = random.Random(seed)
    game = Game(rules, starter=rng.choice([Side.WHITE, Side.BLACK]))
    for _ in range(turns):
        if game.outcome is not None:
            return None
        dice: tuple[int, ...] = (rng.randint(1, 6), rng.randint(1, 6))
        if game.single_die() == "required":
            dice = (dice[0],)
        game.play_turn(dice, rng.choice(game.legal_plays(dice)).pairs())
    return game.position if game.outcome is None else None


def usable(position: Position, rules: RuleSet) -> bool:
    try:
        Game(rules, position=position)
    except InvalidValue:
        return False  # e.g. more than five consecutive bands under board (R5)
    return True


@settings(max_examples=250, deadline=None)
@given(
    position=random_positions(),
    dice=st.sampled_from(ROLLS),
    rules=st.sampled_from(CONFIGS),
)
def test_every_accepted_play_is_offered_random_positions(
    position: Position, dice: tuple[int, int], rules: RuleSet
) -> None:
    if usable(position, rules):
        check_complete(position, dice, rules)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    turns=st.integers(0, 40),
    dice=st.sampled_from(ROLLS),
    rules=st.sampled_from(CONFIGS),
)
def test_every_accepted_play_is_offered_game_positions(
    seed: int, turns: int, dice: tuple[int, int], rules: RuleSet
) -> None:
    position = game_position(seed, turns, rules)
    assume(position is not None and position.state(position.to_move).single_die_left == 0)
    assert position is not None
    check_complete(position, dice, rules)
