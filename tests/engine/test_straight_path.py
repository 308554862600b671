"""The one-pass check-and-apply of a turn (``engine.game._play_straight``) gives exactly
what the full check gives (``verify_steps`` then ``apply_play``): the same steps, the same
position with the same per-game state (R13, R14, R15), the same outcome — and it declines
(returns None) every play the full check rejects, so the error messages stay those of
the full check. Plays: the corpus' own turns and changed ones (a step's destination moved,
the last step dropped), and the ``R8`` checks (``movegen.exceeds``, ``movegen.can_step``)
against ``search``.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.corpus import CORPUS, CorpusSpec
from engine.errors import IllegalPlayError
from engine.game import Game, _play_straight, apply_play
from engine.movegen import Board, can_step, check_dice, exceeds, search, start_of_turn, view
from engine.position import Position
from engine.record import RecordStep, read_text
from engine.replay import replay
from engine.rules import RuleSet
from engine.verify import verify_steps

GAMES_PER_FILE = 8

Case = tuple[Position, tuple[int, ...], list[tuple[int, int]]]


@cache
def cases(spec: CorpusSpec) -> tuple[RuleSet, list[Case]]:
    """Turns of a few games of the file: as played, and changed."""
    rules = RuleSet.from_names(name=spec.rules, addons=spec.addons)
    record = read_text(spec.path.read_text(encoding="utf-8"))
    report = replay(record)
    rng = random.Random(spec.seed)
    out: list[Case] = []
    picked = rng.sample(range(len(record.games)), GAMES_PER_FILE)
    for g in picked:
        played = [t for t in record.games[g].turns if not t.resigns]
        for turn, position in zip(played, report.games[g].positions, strict=False):
            dice = check_dice(turn.dice)
            before = start_of_turn(position, dice, rules)
            pairs = [(s.src, s.dst) for s in turn.steps]
            out.append((before, dice, pairs))
            if pairs:
                changed = list(pairs)
                i = rng.randrange(len(changed))
                src, dst = changed[i]
                changed[i] = (src, min(25, max(src + 1, dst + rng.choice((-2, -1, 1, 2)))))
                out.append((before, dice, changed))
                out.append((before, dice, pairs[:-1]))
    return rules, out


def state(position: Position) -> tuple[object, ...]:
    return (
        position.to_move,
        position.white,
        position.black,
        position.white_state,
        position.black_state,
    )


@pytest.mark.parametrize("spec", CORPUS, ids=[spec.stem for spec in CORPUS])
def test_straight_path_matches_the_full_check(spec: CorpusSpec) -> None:
    rules, turns = cases(spec)
    boards = Game(rules, position=Position.initial(turns[0][0].to_move))._boards
    taken = 0
    for before, dice, pairs in turns:
        m, o, own_stack, opp_stack = view(before)
        b = Board.of(rules, own_stack, opp_stack)
        try:
            verified = verify_steps(
                side=before.to_move, m=m, o=o, dice=dice, pairs=pairs, b=b, rules=rules
            )
        except IllegalPlayError:
            verified = None
        moves = [RecordStep(src, dst) for src, dst in pairs]
        straight = _play_straight(before, dice, moves, rules, boards)
        if straight is None:
            continue
        taken += 1
        assert verified is not None, (before.text(), dice, pairs)
        after, outcome = apply_play(before, dice, verified.play, rules, verified.terminal)
        steps, s_after, s_outcome = straight
        assert steps == verified.play.steps
        assert state(s_after) == state(after)
        assert s_outcome == outcome
    assert taken > len(turns) // 4  # the straight path is the common case


@pytest.mark.parametrize("spec", CORPUS, ids=[spec.stem for spec in CORPUS])
def test_exceeds_agrees_with_search(spec: CorpusSpec) -> None:
    rules, turns = cases(spec)
    rng = random.Random(7)
    for before, dice, _pairs in turns[::3]:
        m, o, own_stack, opp_stack = view(before)
        b = Board.of(rules, own_stack, opp_stack)
        for roll in (dice, (rng.randint(1, 6),) * 2, (rng.randint(1, 6), rng.randint(1, 6))):
            best = search(m, o, roll, b).best
            for value in {0, best - 1, best, best + 1}:
                assert exceeds(m, o, roll, b, value) == (best > value), (before.text(), roll)
            assert can_step(m, o, roll, b) == (best > 0), (before.text(), roll)
