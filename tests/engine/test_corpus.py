"""The random-game corpus (``tests/data/corpus/``): it replays valid, writes back
identically, and regenerating it with the same seed gives the same text."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest

from engine.corpus import CORPUS, CorpusSpec, random_game, random_match
from engine.record import MatchRecord, read_json, read_text, write_json, write_text
from engine.replay import ReplayReport, replay, replay_text
from engine.rules import RuleSet
from engine.types import OutcomeKind

IDS = [spec.stem for spec in CORPUS]


@cache
def corpus_text(spec: CorpusSpec) -> str:
    return spec.path.read_text(encoding="utf-8")


@cache
def corpus_report(spec: CorpusSpec) -> ReplayReport:
    return replay_text(corpus_text(spec))


@pytest.mark.parametrize("spec", CORPUS, ids=IDS)
def test_corpus_replays_valid(spec: CorpusSpec) -> None:
    report = corpus_report(spec)
    assert report.valid, report.error
    assert report.rules == spec.rules
    assert len(report.games) == spec.games >= 200
    assert all(game.outcome is not None for game in report.games)
    for game in report.games:
        assert len(game.positions) == game.turns + 1


@pytest.mark.parametrize("spec", CORPUS, ids=IDS)
def test_corpus_writes_back_identically(spec: CorpusSpec) -> None:
    text = corpus_text(spec)
    record = read_text(text)
    assert write_text(record) == text
    # The JSON form is about four times longer: take it in parts under the 1 MB limit,
    # each part a record of its own (games renumbered, the first given its starter).
    starters = [game.starter for game in corpus_report(spec).games]
    for start in range(0, len(record.games), 50):
        games = [
            replace(game, number=index + 1)
            for index, game in enumerate(record.games[start : start + 50])
        ]
        if games[0].tek is None:
            games[0] = replace(games[0], starter=starters[start])
        part = MatchRecord(record.tags, tuple(games))
        as_json = write_json(part)
        assert read_json(as_json) == part
        assert write_text(read_json(as_json)) == write_text(part)


@pytest.mark.parametrize("spec", CORPUS, ids=IDS)
def test_regenerating_with_the_same_seed_gives_the_same_text(spec: CorpusSpec) -> None:
    # The generator plays the games in order from one seeded stream, so the first games
    # regenerated must equal the file's first games, character for character.
    record = read_text(corpus_text(spec))
    first = 25
    assert spec.text(games=first) == write_text(MatchRecord(record.tags, record.games[:first]))


def test_the_whole_of_one_corpus_file_regenerates() -> None:
    spec = CORPUS[0]
    assert spec.text() == corpus_text(spec)


def test_corpus_sizes_stay_small() -> None:
    sizes = [len(corpus_text(spec).encode()) for spec in CORPUS]
    assert sum(sizes) < 4_000_000
    assert max(sizes) < 1_000_000  # each file is one record under the 1 MB limit


def test_corpus_covers_the_outcomes() -> None:
    kinds = Counter(
        game.outcome.kind
        for spec in CORPUS
        for game in corpus_report(spec).games
        if game.outcome is not None
    )
    for kind in (OutcomeKind.HEMSPEL, OutcomeKind.JAN, OutcomeKind.UPPGIVET):
        assert kinds[kind] > 0, kinds


@pytest.mark.parametrize("spec", CORPUS, ids=IDS)
def test_fresh_random_games_replay_valid_and_write_back(spec: CorpusSpec) -> None:
    for seed in range(3):
        record = random_match(spec.rules, spec.addons, seed=10_000 + seed, games=2)
        text = write_text(record)
        report = replay(read_text(text))
        assert report.valid, (seed, report.error)
        assert write_text(read_json(write_json(read_text(text)))) == text
        assert replay_text(write_json(record)).to_dict() == report.to_dict()


def test_random_game_outcome_is_the_replayed_one() -> None:
    rules = RuleSet.from_names(name="talisman")
    record, outcome = random_game(rules, random.Random(5))
    report = replay(MatchRecord({}, (record,)))
    assert report.valid, report.error
    assert report.games[0].outcome == outcome
