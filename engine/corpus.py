"""A seeded random player that writes game records, for the test corpus and benchmarks.

Deterministic by seed: the same seed, rule set and number of games always give the same
record text (``random.Random`` is stable across runs and platforms). The player rolls
dice (a single die where the one-die rule R13 demands it, and half the time where it
allows it), now and then tries to resign (R14: the core refuses when the rule forbids
it), and plays a legal play: mostly one that leaves the fewest own blots, else any.
It writes hit claims (``*``) for half of its hits and the ``Result`` line for most
games, so the corpus exercises the optional forms.

The corpus files live in ``tests/data/corpus/`` and are written by
``scripts/make_corpus.py``; each holds one record of many games of one rule set (a
match without a ``Length`` tag: game 1 opens with a *tek*, the R2 starting roll, and
every later game is started by the loser of the previous one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.errors import IllegalPlayError
from engine.game import Game
from engine.play import Play
from engine.record import GameRecord, MatchRecord, RecordStep, TurnRecord, write_text
from engine.rules import RuleSet
from engine.types import Outcome, Side

__all__ = ["CORPUS", "CORPUS_DIR", "CorpusSpec", "random_game", "random_match"]

CORPUS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"
MAX_TURNS = 5_000  # a random game that runs longer points to a bug in the core

RESIGN_TRY = 0.005  # chance to try resigning at the start of a turn
SINGLE_DIE = 0.5  # chance to take a single die where R13 allows one
CLAIM_HIT = 0.5  # chance to write '*' after a hitting step
SAFE_PLAY = 0.8  # chance to take a play that leaves the fewest blots
WRITE_RESULT = 0.8  # chance to write the Result line of a game its play ended


@dataclass(frozen=True)
class CorpusSpec:
    """One corpus file: a rule set with add-ons, a seed and how many games."""

    stem: str
    rules: str
    addons: tuple[str, ...]
    seed: int
    games: int

    @property
    def path(self) -> Path:
        return CORPUS_DIR / f"{self.stem}.txt"

    def text(self, games: int | None = None) -> str:
        """The record text; ``games`` (fewer) gives a prefix of the same record."""
        record = random_match(
            self.rules, self.addons, seed=self.seed, games=self.games if games is None else games
        )
        return write_text(record)


CORPUS: tuple[CorpusSpec, ...] = (
    CorpusSpec("talisman", "talisman", (), 1001, 200),
    CorpusSpec("helmfrid", "helmfrid", (), 1002, 200),
    CorpusSpec("board", "board", (), 1003, 200),
    CorpusSpec("board-easy-reentry", "board", ("easy-reentry",), 1004, 200),
    CorpusSpec("board-all", "board", ("easy-reentry", "one-die", "double-six"), 1005, 200),
    CorpusSpec("vasa", "vasa", (), 1006, 200),
)


def random_match(rules: str, addons: tuple[str, ...] = (), *, seed: int, games: int) -> MatchRecord:
    """A record of ``games`` random games under one rule set (a match, no Length)."""
    rng = random.Random(seed)
    rule_set = RuleSet.from_names(name=rules, addons=addons)
    tags = {"Event": f"Random corpus, seed {seed}", "Rules": rules}
    if addons:
        tags["Addons"] = " ".join(addons)
    records: list[GameRecord] = []
    loser: Side | None = None
    for number in range(1, games + 1):
        record, outcome = random_game(rule_set, rng, number=number, starter=loser)
        records.append(record)
        loser = outcome.winner.other  # R2: the loser starts the next game
    return MatchRecord(tags=tags, games=tuple(records))


def random_game(
    rules: RuleSet, rng: random.Random, *, number: int = 1, starter: Side | None = None
) -> tuple[GameRecord, Outcome]:
    """One random game and its outcome; ``starter`` None means opened by a tek (R2).

    The record leaves the ``Result`` out now and then (allowed when the play ends the
    game), so the outcome is returned as well.
    """
    tek: tuple[int, int] | None = None
    if starter is None:
        white = rng.randint(1, 6)
        black = rng.choice([d for d in range(1, 7) if d != white])
        tek = (white, black)
        starter = Side.WHITE if white < black else Side.BLACK  # R2: the lower die starts
    game = Game(rules, starter=starter)
    turns: list[TurnRecord] = []
    while game.outcome is None:
        if len(turns) >= MAX_TURNS:
            raise RuntimeError(f"random game {number} ran over {MAX_TURNS} turns")
        side = game.position.to_move
        if rng.random() < RESIGN_TRY:
            try:
                game.resign()
            except IllegalPlayError:
                pass  # R14 forbids it: play on
            else:
                turns.append(TurnRecord(side=side, resigns=True))
                break
        dice = _roll(game, rng)
        plays = game.legal_plays(dice)
        play = _choose(plays, game.position.points(side), rng) if plays else None
        moves = [] if play is None else [(step.src, step.dst) for step in play.steps]
        result = game.play_turn(dice, moves)
        steps = tuple(
            RecordStep(step.src, step.dst, bool(step.hit) and rng.random() < CLAIM_HIT)
            for step in result.play.steps
        )
        turns.append(TurnRecord(side=side, dice=tuple(sorted(dice, reverse=True)), steps=steps))
    outcome = game.outcome
    assert outcome is not None
    show = rng.random() < WRITE_RESULT
    record = GameRecord(
        number=number, tek=tek, turns=tuple(turns), result=outcome if show else None
    )
    return record, outcome


def _choose(plays: Sequence[Play], own: Sequence[int], rng: random.Random) -> Play:
    """Mostly a *safe* play (fewest own blots left on 7–24), else any play at random.

    Pure random play ends nearly every game by jan; the bias gives the corpus longer
    games, bear-offs and hemspel too.
    """
    if rng.random() >= SAFE_PLAY:
        return rng.choice(plays)
    scored: list[tuple[int, Play]] = []
    for play in plays:
        board = [*own, 0]
        for step in play.steps:
            board[step.src] -= 1
            board[step.dst] += 1
        scored.append((sum(1 for p in range(7, 25) if board[p] == 1), play))
    best = min(score for score, _ in scored)
    return rng.choice([play for score, play in scored if score == best])


def _roll(game: Game, rng: random.Random) -> tuple[int, ...]:
    mode = game.single_die()  # R13
    if mode == "required" or (mode == "allowed" and rng.random() < SINGLE_DIE):
        return (rng.randint(1, 6),)
    return (rng.randint(1, 6), rng.randint(1, 6))
