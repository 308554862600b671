"""Property tests: random games played to the end under every rule set.

A seeded random player rolls dice (a single die where R13 demands it, often where it
allows it; under double-six the first roll is often forced to 6-6 and the R15 stack
taken) and plays a random legal play from :func:`legal_plays`. After **every step** of
every play the test checks, on its own small board model:

- 15 checkers per side (board + bar + borne off), never a point held by both sides;
- no band of a side on its points 2–11 (R5.3; the R15 stack on 7 excepted);
- every entry lands in the mover's Q1 (R6), every bear-off is from 19–24 with nothing
  behind (R7);

and at the end of the game that the outcome agrees with the final position (hemspel:
15 off, munk iff the loser is on the bar; jan/sprängjan: the loser is jan; vackert spel:
the pattern stands, nothing borne off; no outcome: nobody jan, nobody home).

On some turns it also checks the generator against the verifier: every legal play is
accepted by ``Game.play_turn``; a shortened legal play is accepted exactly when its
result is that of some legal play (under board/vasa: only if); and the generator agrees
with a naive reference search (no transposition table). A play's result is the boards
after it, how it ends the game (jan, sprängjan, hemspel, vasa pattern) and, when the game
goes on, both sides' R14 "ever" flags after it: the plays of a turn must differ in it.

Games covered by the normal suite, 2,100 in all: ``GAMES_PER_RULE_SET`` (100) games for
each of the six rule configurations below (600 games, about 35,000 turns, every 8th turn
cross-checked, every turn's plays checked distinct), ``BULK_GAMES_PER_RULE_SET`` (240)
more per configuration without the cross-checks (1,440 games, about 82,000 turns; they
end by jan 911, hemspel 255, uppgivet 152, sprängjan 114, vackert spel 8), plus
``HYPOTHESIS_GAMES`` (10) hypothesis-chosen seeds per configuration (60 more games, every
4th turn cross-checked). Every one of them is checked after every step, at its end, and
through its record (replayed, written back). Six in ten games use the cautious player,
the rest the reckless one (random play ends most games by jan).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalPlayError
from engine.game import Game
from engine.movegen import (
    T_HEMSPEL,
    T_JAN,
    T_PATTERN,
    T_SPRANGJAN,
    Board,
    check_step,
    opp_is_jan,
    pattern_of,
    start_of_turn,
    unview,
    view,
)
from engine.play import Play
from engine.position import Position, has_band_13_24, has_janblotta_out
from engine.record import (
    GameRecord,
    MatchRecord,
    RecordStep,
    TurnRecord,
    read_json,
    read_text,
    write_json,
    write_text,
)
from engine.replay import replay
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, OutcomeKind, Side, to_other_numbering

GAMES_PER_RULE_SET = 100
BULK_GAMES_PER_RULE_SET = 240
HYPOTHESIS_GAMES = 10
MAX_TURNS = 3000

CONFIGS = [
    RuleSet.from_names("talisman"),
    RuleSet.from_names("helmfrid"),
    RuleSet.from_names("board"),
    RuleSet.from_names("board", ["easy-reentry"]),
    RuleSet.from_names("board", ["easy-reentry", "one-die", "double-six"]),
    RuleSet.from_names("vasa"),
]
IDS = [r.text().replace(" ", "") for r in CONFIGS]


def walk_play(before: Position, play: Play, rules: RuleSet) -> None:
    """Replay ``play`` from ``before`` on a plain model, checking invariants after each step."""
    mover = before.to_move
    own = list(before.points(mover))
    opp = list(before.points(mover.other))
    stack = before.state(mover).stack_on_7 or (rules.double_six and len(play.steps) == 6)
    opp_stack = before.state(mover.other).stack_on_7
    off = CHECKERS_PER_SIDE - sum(own)
    for step in play.steps:
        assert own[step.src] > 0, f"no checker on {step.src}"
        if own[0]:
            assert step.src == 0, "R6: must enter first"
        if step.src == 0:
            assert 1 <= step.dst <= 6, "R6: entry outside Q1"
        own[step.src] -= 1
        if step.dst == 25:
            assert all(own[x] == 0 for x in range(19)), "R7: bear-off with checkers behind"
            off += 1
        else:
            o = to_other_numbering(step.dst)
            if opp[o]:
                assert step.hit or step.blast, "landed on opponent checkers without capture"
                if opp[o] >= 2 and not (opp_stack and o == 7):
                    assert step.blast, "a band was captured without blasting"
                opp[0] += opp[o]
                opp[o] = 0
            own[step.dst] += 1
        assert sum(own) + off == CHECKERS_PER_SIDE
        assert sum(opp) <= CHECKERS_PER_SIDE
        for q in range(2, 12):
            if q == 7 and stack:
                continue
            assert own[q] <= 1, f"R5.3: band on {q}"
            assert opp[q] <= 1 or (q == 7 and opp_stack), f"R5.3: opponent band on {q}"
        for q in range(1, 25):
            assert not (own[q] and opp[to_other_numbering(q)]), "a point held by both sides"


def check_outcome(game: Game) -> None:
    pos = game.position
    outcome = game.outcome
    if outcome is None:
        for side in Side:
            assert not pos.is_jan(side)
            assert pos.borne_off(side) < CHECKERS_PER_SIDE
        return
    winner, loser = outcome.winner, outcome.winner.other
    if outcome.kind is OutcomeKind.HEMSPEL:
        assert pos.borne_off(winner) == CHECKERS_PER_SIDE
        assert outcome.munk == (pos.bar(loser) > 0)
    elif outcome.kind in (OutcomeKind.JAN, OutcomeKind.SPRANGJAN):
        assert pos.is_jan(loser)
        last = game.history[-1].play.steps[-1]
        assert (outcome.kind is OutcomeKind.SPRANGJAN) == last.blast
    elif outcome.kind is OutcomeKind.VACKERT_SPEL:
        m, _o, _s, _t = view(pos.with_to_move(winner))
        assert pattern_of(m) == outcome.pattern
        assert outcome.munk == (pos.bar(loser) > 0)
    else:
        assert outcome.kind is OutcomeKind.UPPGIVET


def r14_start(pos: Position) -> tuple[bool, bool, bool]:
    """R14 flags before a play: the mover's band and janblotta, the opponent's janblotta."""
    mover, other = pos.state(pos.to_move), pos.state(pos.to_move.other)
    return mover.ever_band_13_24, mover.ever_janblotta, other.ever_janblotta


def r14_step(
    pos: Position, m: list[int], o: list[int], flags: tuple[bool, bool, bool], stack: bool
) -> tuple[bool, bool, bool]:
    """The R14 flags after a step (rules.md R14, engine.game's decision: after every step),
    read from both sides' boards in their own numbering; ``stack``: the R15 stack move."""
    own, other = unview(m, o)
    band, jb, ojb = flags
    m_stack = pos.state(pos.to_move).stack_on_7 or stack
    o_stack = pos.state(pos.to_move.other).stack_on_7
    return (
        band or has_band_13_24(own),
        jb or has_janblotta_out(own, m_stack),
        ojb or has_janblotta_out(other, o_stack),
    )


def result_key(
    board: bytes, kind: int, flags: tuple[bool, bool, bool]
) -> tuple[bytes, int, tuple[bool, bool, bool]]:
    """A play's result: the boards, how the play ends the game (a T_* kind, 0: it goes on)
    and, only when the game goes on, the R14 flags."""
    return board, kind, flags if kind == 0 else (False, False, False)


Key = tuple[bytes, int, tuple[bool, bool, bool]]


def reference_positions(position: Position, dice: tuple[int, ...], rules: RuleSet) -> set[Key]:
    """Naive search over every step sequence (no transposition table): the results
    (:func:`result_key`) of the legal plays."""
    pos = start_of_turn(position, dice, rules)
    m, o, own_stack, opp_stack = view(pos)
    b = Board.of(rules, own_stack, opp_stack)
    roll = [dice[0]] * 4 if len(dice) == 2 and dice[0] == dice[1] else list(dice)
    leaves: list[tuple[Key, int, int, int]] = []  # key, value, terminal kind, best below

    def value_of(d: int, gain: int) -> int:
        return gain if b.pips else 32 + d

    def rec(rem: list[int], value: int, term: bool, flags: tuple[bool, bool, bool]) -> int:
        best = -1
        for d in sorted(set(rem), reverse=True):
            nrem = list(rem)
            nrem.remove(d)
            for p in range(25):
                f = check_step(m, o, p, d, b)
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
                kind = 0
                if not term:
                    if c and opp_is_jan(o):
                        kind = T_SPRANGJAN if f & 2 else T_JAN
                    elif q == 25 and m[25] == CHECKERS_PER_SIDE:
                        kind = T_HEMSPEL
                    elif b.immediate_pattern and 19 <= q < 25 and pattern_of(m) is not None:
                        kind = T_PATTERN
                nflags = r14_step(pos, m, o, flags, False)
                key = result_key(bytes(m) + bytes(o), kind, nflags)
                v = value + value_of(d, q - p)
                sub = rec(nrem, v, term or kind != 0, nflags)
                if kind:
                    leaves.append((key, v, kind, sub))
                best = max(best, sub)
                m[p] += 1
                m[q] -= 1
                if c:
                    o[q] = c
                    o[0] -= c
        if best < 0:
            if not term:
                leaves.append((result_key(bytes(m) + bytes(o), 0, flags), value, 0, value))
            return value
        return best

    top = rec(roll, 0, False, r14_start(pos))
    out: set[Key] = set()
    for key, v, kind, sub in leaves:
        if kind == 0 and v == top:
            out.add(key)
        elif kind in (T_JAN, T_SPRANGJAN) and b.r10_prefix:
            if sub == top:
                out.add(key)
        elif kind:
            out.add(key)
    return out


def resulting_key(position: Position, dice: tuple[int, ...], play: Play, rules: RuleSet) -> Key:
    """The play's result (:func:`result_key`), walked step by step."""
    pos = start_of_turn(position, dice, rules)
    m, o, _s, _t = view(pos)
    flags = r14_start(pos)
    stack = rules.double_six and len(play.steps) == 6
    kind = 0
    for s in play.steps:
        m[s.src] -= 1
        m[s.dst] += 1
        c = 0
        if s.hit or s.blast:
            c = o[s.dst]
            o[0] += c
            o[s.dst] = 0
        if c and opp_is_jan(o):
            kind = T_SPRANGJAN if s.blast else T_JAN
        elif s.dst == 25 and m[25] == CHECKERS_PER_SIDE:
            kind = T_HEMSPEL
        elif rules.r12_mode == "immediate" and s.dst < 25 and pattern_of(m) is not None:
            kind = T_PATTERN
        flags = r14_step(pos, m, o, flags, stack)
    return result_key(bytes(m) + bytes(o), kind, flags)


def cautious_choice(
    before: Position, dice: tuple[int, ...], plays: list[Play], rules: RuleSet, rng: random.Random
) -> Play:
    """A less reckless player, so that games also end by hemspel and vackert spel: take a
    play that ends the game or forms a pattern; else expose the fewest blots outside Q1
    (R14's janblotta count), then move furthest; ties at random."""
    scored: list[tuple[tuple[int, int, float], Play]] = []
    for play in plays:
        pos = start_of_turn(before, dice, rules)
        m, o, _s, _t = view(pos)
        for s in play.steps:
            m[s.src] -= 1
            m[s.dst] += 1
            if s.hit or s.blast:
                o[0] += o[s.dst]
                o[s.dst] = 0
        wins = opp_is_jan(o) or m[25] == CHECKERS_PER_SIDE or pattern_of(m) is not None
        exposed = m[0] * 2 + sum(1 for q in range(7, 25) if m[q] == 1)
        scored.append(((0 if wins else 1, exposed, -play.pips + rng.random()), play))
    scored.sort(key=lambda sp: sp[0])
    return scored[0][1]


def record_of(game: Game, starter: Side, rules: RuleSet) -> str:
    """The game as a record in canonical text, from its history (hits claimed with ``*``)."""
    turns = [
        TurnRecord(
            side=turn.side if turn.side is not None else starter,
            dice=turn.dice,
            steps=tuple(RecordStep(s.src, s.dst, s.hit or s.blast) for s in turn.play.steps),
        )
        for turn in game.history
    ]
    if game.outcome is not None and game.outcome.kind is OutcomeKind.UPPGIVET:
        turns.append(TurnRecord(side=game.outcome.winner.other, resigns=True))
    tags = {"Rules": rules.name}
    if rules.addons:
        tags["Addons"] = " ".join(sorted(rules.addons))
    games = (GameRecord(1, starter=starter, turns=tuple(turns), result=game.outcome),)
    return write_text(MatchRecord(tags, games))


def check_record(game: Game, rules: RuleSet) -> None:
    """The game's record replays valid to the same outcome, position by position, and
    reads and writes back identically (text and JSON)."""
    text = record_of(game, game.start.to_move, rules)
    record = read_text(text)
    assert write_text(record) == text
    assert write_text(read_json(write_json(record))) == text
    report = replay(record)
    assert report.valid, (report.error, text)
    assert report.games[0].outcome == game.outcome
    positions = [game.start, *(turn.position for turn in game.history)]
    assert [p.board_key() for p in report.games[0].positions] == [p.board_key() for p in positions]


def play_random_game(rules: RuleSet, seed: int, *, cross_check: int | None = 8) -> Game:
    """Play one game; every ``cross_check``-th turn runs the generator/verifier checks
    (``None``: none, and the plays are not checked to be distinct either — the bulk games
    check the invariants after every step, the outcome and the record only)."""
    rng = random.Random(seed)
    cautious = rng.random() < 0.6
    game = Game(rules, starter=rng.choice([Side.WHITE, Side.BLACK]))
    turns = 0
    while game.outcome is None:
        turns += 1
        assert turns < MAX_TURNS, "a random game should end"
        if rng.random() < (0.002 if cautious else 0.01) and game.can_resign():
            game.resign()
            break
        mode = game.single_die()
        dice: tuple[int, ...] = (rng.randint(1, 6), rng.randint(1, 6))
        side_state = game.position.state(game.position.to_move)
        if rules.double_six and side_state.first_roll_pending and rng.random() < 0.3:
            dice = (6, 6)
        if mode == "required" or (mode == "allowed" and rng.random() < 0.5):
            dice = (dice[0],)
        before = game.position
        plays = game.legal_plays(dice)
        assert plays, "legal_plays returns at least the empty play"
        if cross_check is not None:
            keys = [resulting_key(before, dice, p, rules) for p in plays]
            assert len(set(keys)) == len(keys), "plays must be distinct by their results"
        stack_first = [p for p in plays if len(p.steps) == 6]
        if stack_first and rng.random() < 0.7:
            play = stack_first[0]
        elif cautious:
            play = cautious_choice(before, dice, plays, rules, rng)
        else:
            play = rng.choice(plays)
        if cross_check is not None and turns % cross_check == 0:
            cross_check_turn(before, dice, plays, keys, rules, rng)
        result = game.play_turn(dice, play.pairs())
        assert resulting_key(before, dice, result.play, rules) == resulting_key(
            before, dice, play, rules
        )
        walk_play(start_of_turn(before, dice, rules), result.play, rules)
    check_outcome(game)
    return game


def cross_check_turn(
    before: Position,
    dice: tuple[int, ...],
    plays: list[Play],
    keys: list[Key],
    rules: RuleSet,
    rng: random.Random,
) -> None:
    # every generated play is accepted by the verifier
    for p in plays:
        Game(rules, position=before).play_turn(dice, p.pairs())
    # the generator agrees with a naive reference search (R15 stack aside)
    ref = reference_positions(before, dice, rules)
    assert ref == {
        k for k, p in zip(keys, plays, strict=True) if len(p.steps) != 6 or not rules.double_six
    }
    # a shortened play is accepted exactly when it reaches a legal play's result
    p = rng.choice(plays)
    if len(p.steps) > 1:
        k = rng.randrange(len(p.steps))
        prefix = p.steps[:k]
        key = resulting_key(before, dice, Play(prefix), rules)
        try:
            Game(rules, position=before).play_turn(dice, Play(prefix).pairs())
            accepted = True
        except IllegalPlayError:
            accepted = False
        where = (before.text(), dice, Play(prefix).text())
        if rules.r8_mode == "pips":
            assert accepted == (key in set(keys)), where
        else:
            # under board/vasa a shorter play may reach a legal play's position with fewer
            # dice (20/off with the 6 of 6-1 = 20/21/off): still short of R8
            assert not accepted or key in set(keys), where


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_random_games_seeded(rules: RuleSet) -> None:
    kinds: set[OutcomeKind] = set()
    offset = 10_000 * (CONFIGS.index(rules) + 1)
    for seed in range(GAMES_PER_RULE_SET):
        game = play_random_game(rules, offset + seed)
        assert game.outcome is not None
        check_record(game, rules)
        kinds.add(game.outcome.kind)
    # the mix of players ends games in every way but vackert spel (which is rare)
    assert {OutcomeKind.HEMSPEL, OutcomeKind.JAN, OutcomeKind.SPRANGJAN} <= kinds, kinds


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_random_games_bulk(rules: RuleSet) -> None:
    """More games, without the generator/verifier cross-checks: invariants after every
    step, the outcome against the final position, the record replays and writes back."""
    offset = 10_000 * (CONFIGS.index(rules) + 1) + 5_000
    for seed in range(BULK_GAMES_PER_RULE_SET):
        game = play_random_game(rules, offset + seed, cross_check=None)
        assert game.outcome is not None
        check_record(game, rules)


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@settings(max_examples=HYPOTHESIS_GAMES)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_hypothesis(rules: RuleSet, seed: int) -> None:
    game = play_random_game(rules, seed, cross_check=4)
    assert game.outcome is not None
    check_record(game, rules)
