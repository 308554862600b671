"""Bräde matches played by the engine's seeded random player (``engine.corpus.random_game``),
for the demo tournament (``web.demo``): the games' records and results, a record with an
illegal play, and results written as a record's result line (``W jan``).

Pure Python on the engine and scoring (no Django); deterministic for a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.corpus import random_game
from engine.errors import MatchError
from engine.game import Game as EngineGame
from engine.record import GameRecord, MatchRecord, RecordStep, TurnRecord, write_text
from engine.rules import RuleSet
from engine.types import Outcome, Side
from games.brade import result_of
from games.results import ResultValue
from games.seats import seat_of
from scoring.match import match_state

__all__ = [
    "SimulatedMatch",
    "illegal_record_text",
    "result_from_text",
    "simulate_match",
]


@dataclass(frozen=True)
class SimulatedMatch:
    """Games played by the engine's random player: the records and their outcomes."""

    games: tuple[GameRecord, ...]
    outcomes: tuple[Outcome, ...]

    @property
    def results(self) -> tuple[ResultValue, ...]:
        """The outcomes as the site enters them (White is seat 0)."""
        return tuple(result_of(outcome) for outcome in self.outcomes)

    @property
    def first_starter(self) -> int | None:
        """The seat that started game 1 (its tek), None for a match without games."""
        side = self.games[0].tek_starter if self.games else None
        return None if side is None else seat_of(side)

    def text(self, tags: dict[str, str]) -> str:
        return write_text(MatchRecord(tags=dict(tags), games=self.games))


def simulate_match(
    *,
    rules: str,
    length: int,
    scale: str,
    policy: str,
    seed: int,
    max_games: int | None = None,
) -> SimulatedMatch:
    """Play a match game by game until scoring decides it (S3/S4), or ``max_games``.

    Game 1 opens with a tek; every later game is started by the loser of the one
    before (R2). A game the match rules refuse (a resignation over the cap, S1) is
    played again from the same start.
    """
    rng = random.Random(seed)
    rule_set = RuleSet.from_names(name=rules)
    state = match_state(length=length, scale=scale, policy=policy)
    games: list[GameRecord] = []
    outcomes: list[Outcome] = []
    starter: Side | None = None
    while not state.is_over and (max_games is None or len(games) < max_games):
        for _attempt in range(100):
            record, outcome = random_game(rule_set, rng, number=len(games) + 1, starter=starter)
            try:
                state = state.after(outcome)
            except MatchError:
                continue
            break
        else:  # pragma: no cover - 100 refused resignations in a row
            raise RuntimeError("the random player kept resigning over the cap (S1)")
        games.append(record)
        outcomes.append(outcome)
        starter = outcome.winner.other
    return SimulatedMatch(tuple(games), tuple(outcomes))


def _illegal_record(*, rules: str, seed: int) -> tuple[GameRecord, int]:
    """A game of the random player with one turn replaced by an illegal play.

    The replaced turn steps a checker from point 1 onto a point 2–11 where the mover
    already has a checker: a band there breaks R5.3. The game is cut after that turn.
    Returns the game and the number of the replaced turn (1-based).
    """
    rule_set = RuleSet.from_names(name=rules)
    record, _outcome = random_game(rule_set, random.Random(seed), number=1)
    assert record.tek_starter is not None
    game = EngineGame(rule_set, starter=record.tek_starter)
    for index, turn in enumerate(record.turns):
        if turn.resigns:
            break
        side = game.position.to_move
        own = game.position.points(side)
        if index >= 6 and len(turn.dice) == 2 and own[0] == 0 and own[1] > 0:
            for die in turn.dice:
                target = 1 + die
                if 2 <= target <= 11 and own[target] > 0:
                    other = turn.dice[1] if die == turn.dice[0] else turn.dice[0]
                    bad = TurnRecord(
                        side=side,
                        dice=turn.dice,
                        steps=(RecordStep(1, target), RecordStep(target, target + other)),
                    )
                    turns = (*record.turns[:index], bad)
                    return GameRecord(number=1, tek=record.tek, turns=turns), index + 1
        game.play_turn(turn.dice, [(s.src, s.dst) for s in turn.steps])
    # Not reached with the fixed seed; a double on the first roll breaks R5.3 as well.
    side = record.tek_starter
    bad = TurnRecord(side=side, dice=(3, 3), steps=(RecordStep(1, 4), RecordStep(1, 4)))
    return GameRecord(number=1, tek=record.tek, turns=(bad,)), 1


def illegal_record_text(*, rules: str, seed: int, tags: dict[str, str]) -> str:
    """A record of one game of the random player whose last turn is an illegal play
    (R5.3: a band on the mover's points 2–11), with ``tags``."""
    game, _turn = _illegal_record(rules=rules, seed=seed)
    return write_text(MatchRecord(tags=dict(tags), games=(game,)))


def result_from_text(text: str) -> ResultValue:
    """A result written as a record's result line (``W jan``, ``B vackert trappspel``,
    ``B hemspel munk``), as the site enters it."""
    return result_of(Outcome.from_text(text))
