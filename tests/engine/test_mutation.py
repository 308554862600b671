"""Mutation tests: changing one die or one step of a valid record makes it invalid,
at that very line, unless the changed play is itself legal (checked with
``legal_plays``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache

import pytest

from engine.corpus import CORPUS, CorpusSpec
from engine.movegen import legal_plays
from engine.position import Position
from engine.record import GameRecord, MatchRecord, RecordStep, TurnRecord, read_text
from engine.replay import GameReport, replay
from engine.rules import RuleSet
from engine.types import OFF

GAMES_PER_FILE = 6
MUTATIONS_PER_GAME = 8


MARK = 1_000_000  # the line number given to the changed turn (the others get none)


def movement(steps: Iterable[tuple[int, int]]) -> dict[int, int]:
    """The net change of the mover's checkers per point (src −1, dst +1)."""
    net: Counter[int] = Counter()
    for src, dst in steps:
        net[src] -= 1
        net[dst] += 1
    return {point: change for point, change in net.items() if change}


def may_be_legal(
    position: Position, dice: tuple[int, ...], steps: Sequence[RecordStep], rules: RuleSet
) -> bool:
    """Whether a legal play moves the mover's checkers the same way.

    ``legal_plays`` keeps one play per distinct result (boards, outcome, R14 flags), so
    the same net movement in another order (or through other points) may be legal too:
    such mutations are not asserted to fail.
    """
    wanted = movement((s.src, s.dst) for s in steps)
    return any(
        movement((s.src, s.dst) for s in play.steps) == wanted
        for play in legal_plays(position, dice, rules)
    )


@cache
def corpus_games(
    spec: CorpusSpec,
) -> tuple[RuleSet, dict[str, str], list[tuple[GameRecord, GameReport]]]:
    record = read_text(spec.path.read_text(encoding="utf-8"))
    report = replay(record)
    assert report.valid, report.error
    rules = RuleSet.from_names(name=spec.rules, addons=spec.addons)
    pairs = [
        (game, game_report)
        for game, game_report in zip(record.games, report.games, strict=True)
        if game_report.turns >= 4
    ]
    rng = random.Random(spec.seed)
    return rules, record.tags, rng.sample(pairs, GAMES_PER_FILE)


def alone(tags: dict[str, str], report: GameReport, turns: Sequence[TurnRecord]) -> MatchRecord:
    """The game as game 1 of a record of its own (same rule set), opened with its
    starter; only a turn marked with line ``MARK`` keeps a line number."""
    turns = tuple(t if t.line == MARK else replace(t, line=None) for t in turns)
    return MatchRecord(tags, (GameRecord(1, starter=report.starter, turns=turns),))


def mutate_die(turn: TurnRecord, rng: random.Random) -> TurnRecord:
    index = rng.randrange(len(turn.dice))
    dice = list(turn.dice)
    dice[index] = rng.choice([d for d in range(1, 7) if d != dice[index]])
    return replace(turn, dice=tuple(sorted(dice, reverse=True)))


def mutate_step(turn: TurnRecord, rng: random.Random) -> TurnRecord:
    index = rng.randrange(len(turn.steps))
    old = turn.steps[index]
    if rng.random() < 0.5:
        new = RecordStep(old.src, rng.choice([p for p in range(1, OFF + 1) if p != old.dst]))
    else:
        new = RecordStep(rng.choice([p for p in range(0, OFF) if p != old.src]), old.dst)
    steps = list(turn.steps)
    steps[index] = new
    return replace(turn, steps=tuple(steps))


@pytest.mark.parametrize("spec", CORPUS, ids=[spec.stem for spec in CORPUS])
def test_one_changed_die_or_step_is_caught_at_its_line(spec: CorpusSpec) -> None:
    rules, tags, games = corpus_games(spec)
    rng = random.Random(spec.seed + 1)
    asserted = 0
    for game, report in games:
        played = [i for i, t in enumerate(game.turns) if not t.resigns]
        for _ in range(MUTATIONS_PER_GAME):
            index = rng.choice(played)
            turn = game.turns[index]
            if turn.steps and rng.random() < 0.5:
                changed = mutate_step(turn, rng)
            else:
                changed = mutate_die(turn, rng)
            # The claims of the original play are dropped: they are optional.
            changed = replace(
                changed, steps=tuple(RecordStep(s.src, s.dst) for s in changed.steps), line=MARK
            )
            position = report.positions[index]
            if may_be_legal(position, changed.dice, changed.steps, rules):
                continue
            turns = [*game.turns[:index], changed, *game.turns[index + 1 :]]
            mutated = replay(alone(tags, report, turns))
            assert not mutated.valid, (spec.stem, game.number, index, changed)
            assert mutated.error is not None
            assert mutated.error.kind == "illegal", mutated.error
            assert mutated.error.line == MARK, (mutated.error, changed)
            asserted += 1
    assert asserted >= GAMES_PER_FILE * MUTATIONS_PER_GAME // 2


@pytest.mark.parametrize("spec", CORPUS, ids=[spec.stem for spec in CORPUS])
def test_unchanged_games_replay_valid_on_their_own(spec: CorpusSpec) -> None:
    _, tags, games = corpus_games(spec)
    for game, report in games:
        alone_report = replay(alone(tags, report, game.turns))
        assert alone_report.valid, alone_report.error
        assert alone_report.games[0].outcome == report.outcome


@pytest.mark.parametrize("spec", CORPUS[:2], ids=[spec.stem for spec in CORPUS[:2]])
def test_a_false_hit_claim_is_caught(spec: CorpusSpec) -> None:
    _, tags, games = corpus_games(spec)
    for game, report in games:
        for index, turn in enumerate(game.turns):
            plain = [i for i, s in enumerate(turn.steps) if not s.hit_claim]
            if not plain:
                continue
            steps = list(turn.steps)
            old = steps[plain[0]]
            steps[plain[0]] = RecordStep(old.src, old.dst, True)
            before = report.positions[index]
            if before.count(before.to_move.other, _other_numbering(old.dst)) > 0:
                continue  # the step may really hit: not a false claim
            changed = replace(turn, steps=tuple(steps), line=MARK)
            turns = [*game.turns[:index], changed, *game.turns[index + 1 :]]
            mutated = replay(alone(tags, report, turns))
            assert mutated.error is not None and mutated.error.line == MARK
            assert "R5.2" in mutated.error.message
            break


def _other_numbering(point: int) -> int:
    from engine.types import to_other_numbering

    return to_other_numbering(point) if 1 <= point <= 24 else 0
