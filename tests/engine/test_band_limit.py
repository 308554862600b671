"""R5 ``board``: the five-band limit is judged on the board *after* each step.

A step that lands on an own blot makes a band; the limit counts the mover's bands in a
row in the opponent's path (rules.md R5, "Variant board") on the board as the step leaves
it — so a band the step breaks on its source point no longer counts. Every path checks a
step with ``engine.movegen.check_step``: the move generator, the full verifier
(``engine.verify``) and the replay's one-pass check (``engine.game._play_straight``).
The property test checks its R5 verdict on random positions of all four rule sets against
a plain model: apply the step, count the runs.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from engine.game import Game, _play_straight
from engine.movegen import E_RUN, Board, check_step, legal_plays, view
from engine.position import Position
from engine.record import RecordStep
from engine.replay import replay_text
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Side, to_other_numbering
from engine.verify import verify_steps

BOARD = RuleSet.from_names("board")
EXAMPLE = "W 1:4 14:2 15:2 16:2 17:2 18:2 19 | B 1:15 | W"
RULE_SETS = [
    RuleSet.from_names("talisman"),
    RuleSet.from_names("helmfrid"),
    BOARD,
    RuleSet.from_names("board", ["easy-reentry", "double-six"]),
    RuleSet.from_names("vasa"),
]


def longest_run(board: list[int], stack: bool) -> int:
    """The plain model: the longest run of the mover's bands in the opponent's numbering
    (opponent's 1..24); a double-six stack is no band."""
    longest = run = 0
    for opponent_point in range(1, 25):
        x = to_other_numbering(opponent_point)  # that point in the mover's numbering
        if board[x] >= 2 and not (stack and x == 7):
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    return longest


def longest_run_after(m: list[int], p: int, q: int, stack: bool) -> int:
    """:func:`longest_run` on the mover's board after the step p -> q."""
    after = list(m)
    after[p] -= 1
    if q < 25:
        after[q] += 1
    return longest_run(after, stack)


def random_lists(rng: random.Random, rules: RuleSet) -> tuple[list[int], list[int], bool]:
    """A mover's ``m`` and opponent's ``o`` (movegen's lists, mover's numbering), rich in
    bands on the mover's 12–24 and 1 — often a run of four to six of them in the
    opponent's numbering with blots beside it — and whether the mover's 7 is a
    double-six stack."""
    m = [0] * 26
    left = CHECKERS_PER_SIDE
    stack = rules.double_six and rng.random() < 0.2
    points = list(range(1, 25))
    rng.shuffle(points)
    if rng.random() < 0.2:
        m[0] = rng.choice((1, 2))
        left -= m[0]
    if rng.random() < 0.7:
        start = rng.randint(1, 24)  # in the opponent's numbering
        length = rng.randint(4, 6)
        for k in range(start - 1, start + length + 1):
            x = to_other_numbering((k - 1) % 24 + 1)
            edge = k in (start - 1, start + length)
            count = 1 if edge or not (x == 1 or x >= 12) else rng.choice((2, 2, 3))
            count = min(count, left)
            m[x] = count
            left -= count
    for x in points:
        if m[x]:
            continue
        if left <= 0:
            break
        if x == 7 and stack:
            count = rng.choice((2, 3))
        elif 2 <= x <= 11:
            count = rng.choice((0, 0, 1))
        else:
            count = rng.choice((0, 1, 2, 2, 2, 3))
        count = min(count, left)
        m[x] = count
        left -= count
    if rng.random() < 0.7:
        m[25] = left
    else:
        m[13] += left  # everything on the board (13 is a point bands may stand on)
    stack = stack and m[7] >= 2
    o = [0] * 26
    o_left = 1 if rng.random() < 0.15 else CHECKERS_PER_SIDE  # 14 borne off lifts the limit
    if rng.random() < 0.2 and o_left > 1:
        o[0] = 1
        o_left -= 1
    for x in points:
        if o_left <= 0:
            break
        if m[x]:
            continue
        theirs = to_other_numbering(x)  # bands only on the opponent's 1 and 12–24 (R5.3)
        count = rng.choice((0, 1, 2)) if theirs == 1 or theirs >= 12 else rng.choice((0, 1))
        count = min(count, o_left)
        o[x] = count
        o_left -= count
    o[25] = CHECKERS_PER_SIDE - sum(o[:25])  # borne off: what is not on the board or bar
    return m, o, stack


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULE_SETS))
def test_every_steps_r5_verdict_matches_the_plain_model(seed: int, rules: RuleSet) -> None:
    rng = random.Random(seed)
    m, o, stack = random_lists(rng, rules)
    limit = rules.band_run_limit
    # positions a game can reach: no run over the limit while the opponent has < 14 off
    # (Game refuses the others, see test_game_refuses_a_position_over_the_limit)
    assume(limit is None or o[25] >= 14 or longest_run(m, stack) <= limit)
    b = Board.of(rules, stack, False)
    unlimited = replace(b, run_limit=0)
    for p in range(25):
        if not m[p]:
            continue
        for d in range(1, 7):
            q = p + d if p else d
            verdict = check_step(m, o, p, d, b)
            others = check_step(m, o, p, d, unlimited)  # every rule but R5 board
            if others < 0:
                assert verdict == others  # R5 is judged on an otherwise legal step
                continue
            breach = (
                limit is not None
                and o[25] < 14
                and q < 25
                and longest_run_after(m, p, q, stack) > limit
            )
            assert (verdict == E_RUN) == breach, (m, o, p, d, rules.text())
            if not breach:
                assert verdict == others


def test_step_breaking_a_band_at_its_source_is_legal_everywhere() -> None:
    # White's bands on 14–18 and a blot on 19; 18/19 leaves a blot on 18 and makes a band
    # on 19: runs 14–17 and 19, no more than five (rules.md R5: judged after each step).
    position = Position.from_text(EXAMPLE)
    plays = {p.text() for p in legal_plays(position, (2, 1), BOARD)}
    assert plays & {"18/19 1/3", "1/3 18/19"}
    m, o, own_stack, opp_stack = view(position)
    b = Board.of(BOARD, own_stack, opp_stack)
    verified = verify_steps(
        side=Side.WHITE, m=m, o=o, dice=(2, 1), pairs=[(18, 19), (1, 3)], b=b, rules=BOARD
    )
    assert verified.play.text() == "18/19 1/3"
    boards = Game(BOARD, position=position)._boards
    moves = [RecordStep(18, 19), RecordStep(1, 3)]
    assert _play_straight(position, (2, 1), moves, BOARD, boards) is not None
    report = replay_text(f'[Rules "board"]\nGame 1\nPosition: {EXAMPLE}\nW 2-1: 18/19 1/3\n')
    assert report.error is not None
    assert (report.error.kind, report.error.line) == ("incomplete", 4)


def test_step_that_keeps_the_source_band_is_still_refused() -> None:
    # with three on 18 the band stays: 18/19 would make six in a row (14–19)
    text = "W 1:3 14:2 15:2 16:2 17:2 18:3 19 | B 1:15 | W"
    plays = {p.text() for p in legal_plays(Position.from_text(text), (2, 1), BOARD)}
    assert plays and not plays & {"18/19 1/3", "1/3 18/19"}
    report = replay_text(f'[Rules "board"]\nGame 1\nPosition: {text}\nW 2-1: 18/19 1/3\n')
    assert report.error is not None and report.error.kind == "illegal"
    assert "R5 (board)" in report.error.message


def test_game_refuses_a_position_over_the_limit() -> None:
    six = "W 1:3 14:2 15:2 16:2 17:2 18:2 19:2 | B 1:15 | B"
    report = replay_text(f'[Rules "board"]\nGame 1\nPosition: {six}\nB resigns\n')
    assert report.error is not None and report.error.kind == "syntax"
    assert "R5 (board)" in report.error.message
    # the limit is board's alone, and lifted once the opponent has borne off 14
    assert replay_text(f"Game 1\nPosition: {six}\nB resigns\n").valid
    lifted = six.replace("B 1:15", "B 1")
    assert replay_text(f'[Rules "board"]\nGame 1\nPosition: {lifted}\nB resigns\n').valid


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_board_plays_never_leave_more_than_five(seed: int) -> None:
    """Every generated play keeps the limit after every step, and the replay's paths
    (``Game.play_turn``: the one-pass check, else the full verifier) accept it."""
    rng = random.Random(seed)
    m, o, _stack = random_lists(rng, BOARD)
    assume(not m[0] and o[25] < 14 and longest_run(m, False) <= 5)
    own = tuple(m[:25])
    other = [0] * 25
    other[0] = o[0]
    for x in range(1, 25):
        other[to_other_numbering(x)] = o[x]
    try:
        position = Position.from_boards(Side.WHITE, own, other)
        Game(BOARD, position=position)
    except ValueError:
        reject()  # over already (jan), or an opponent run over the limit
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    for play in legal_plays(position, dice, BOARD):
        board = list(m)
        for step in play.steps:
            assert longest_run_after(board, step.src, step.dst, False) <= 5, play.text()
            board[step.src] -= 1
            board[min(step.dst, 25)] += 1
        game = Game(BOARD, position=position)
        game.play_turn(dice, [(s.src, s.dst) for s in play.steps])
