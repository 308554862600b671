"""The live recording protocol without the site (``games.live``): who starts, R13's
single die, R14, the cube, refusals with the engine's message, and the record a game
makes replaying as the engine replays it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from backgammon.replay import replay_text as bg_replay
from engine.replay import replay_text
from games.live import (
    LiveAction,
    LiveRefused,
    LiveSetup,
    LiveUnsupported,
    RecordHeader,
    live_game_for,
)


def _dice(values: list[int]) -> Callable[[], int]:
    it = iter(values)
    return lambda: next(it)


def _steps(play: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a, b in play)


def test_kungabrade_has_no_live_recording() -> None:
    with pytest.raises(LiveUnsupported, match="Enter the results"):
        live_game_for("kungabrade")


def test_the_tek_lower_die_starts_and_a_tie_is_thrown_again() -> None:
    game = live_game_for("brade").new_game(LiveSetup())
    with pytest.raises(LiveRefused, match="R2"):
        game.apply(LiveAction("start", dice=(3, 3)))
    done = game.apply(LiveAction("start"), _dice([4, 4, 5, 2]))
    assert done.dice == (5, 2) and done.text == "Tek: 5-2"
    assert game.to_move == 1 and game.phase == "roll"


def test_a_later_game_is_started_by_the_given_starter() -> None:
    game = live_game_for("brade").new_game(LiveSetup(number=2, starter=1))
    assert game.phase == "roll" and game.to_move == 1
    legal = game.legal()
    assert legal is not None and "6-6" in legal and "3" not in legal  # no R13 at the start


def test_an_illegal_step_carries_the_engines_rule() -> None:
    game = live_game_for("brade").new_game(LiveSetup(starter=0))
    with pytest.raises(LiveRefused) as refused:
        game.apply(LiveAction("play", dice=(3, 3), steps=((1, 4), (1, 4), (4, 7), (4, 7))))
    assert refused.value.msg is not None and "R5.3" in refused.value.text
    assert game.phase == "roll" and game.to_move == 0  # unchanged


def test_a_single_die_where_r13_forbids_it_is_refused() -> None:
    game = live_game_for("brade").new_game(LiveSetup(starter=0))
    with pytest.raises(LiveRefused, match="R13"):
        game.apply(LiveAction("roll", single=True), _dice([3]))
    with pytest.raises(LiveRefused, match="R13"):
        game.apply(LiveAction("play", dice=(3,), steps=((1, 4),)))


def test_resigning_before_the_roll_r14() -> None:
    game = live_game_for("brade").new_game(LiveSetup(starter=0))
    game.apply(LiveAction("roll"), _dice([6, 4]))
    with pytest.raises(LiveRefused, match="R14"):
        game.apply(LiveAction("resign"))
    game.apply(LiveAction("play", steps=((1, 7), (1, 5))))
    done = game.apply(LiveAction("resign"))
    assert done.text == "B resigns" and game.phase == "over"
    assert game.outcome is not None and game.outcome.words == "White uppgivet"


def test_backgammon_opening_roll_cube_and_drop() -> None:
    game = live_game_for("backgammon").new_game(LiveSetup(length=5, names=("A", "B")))
    with pytest.raises(LiveRefused):
        game.apply(LiveAction("start", dice=(4, 4)))
    game.apply(LiveAction("start", dice=(1, 3)))  # player 1's die is higher: they start
    assert game.to_move == 1 and game.phase == "move"
    game.apply(LiveAction("play", steps=((8, 5), (6, 5))))
    game.apply(LiveAction("double"))
    assert game.phase == "cube" and game.to_move == 1
    done = game.apply(LiveAction("drop"))
    assert done.text == "Drops" and game.outcome is not None
    assert (game.outcome.result.winner, game.outcome.result.outcome, game.outcome.points) == (
        0,
        "drop",
        1,
    )


def test_a_left_hand_drop_and_its_win_share_one_row_as_gnubg_writes_them() -> None:
    # gnubg 1.07 reads a lone "Wins" line below a left-hand "Drops" as a beaver
    recorder = live_game_for("backgammon")
    setup = LiveSetup(length=5, names=("A", "B"))
    game = recorder.new_game(setup)
    game.apply(LiveAction("start", dice=(3, 1)))  # player 0's die is higher: they start
    game.apply(LiveAction("play", steps=((8, 5), (6, 5))))
    game.apply(LiveAction("double"))
    game.apply(LiveAction("drop"))
    text = recorder.record_text(setup, [game.record_game()], {})
    rows = text.splitlines()[-3:]
    # the drop's row as gnubg's own export writes it (tests/data/backgammon/
    # gnubg_11pt_seed1234.mat, row 16), "Wins" at its column, not on a line of its own
    assert rows == [
        "  1) 31: 8/5 6/5                   Doubles => 2",
        "  2)  Drops                       Wins 1 point",
        "",
    ]
    report = bg_replay(text)
    assert report.valid, report.errors
    assert (report.games[0].winner, report.games[0].points, report.score) == (1, 1, (0, 1))


def test_no_double_in_the_crawford_game() -> None:
    game = live_game_for("backgammon").new_game(LiveSetup(length=5, crawford=True))
    game.apply(LiveAction("start", dice=(5, 2)))
    game.apply(LiveAction("play", steps=((13, 8), (13, 11))))
    with pytest.raises(LiveRefused, match="Crawford"):
        game.apply(LiveAction("double"))


@pytest.mark.parametrize(
    ("rules", "addons"),
    [("talisman", ()), ("helmfrid", ()), ("vasa", ()), ("board", ("double-six", "one-die"))],
)
def test_a_random_brade_game_writes_a_record_the_replay_accepts(
    rules: str, addons: tuple[str, ...]
) -> None:
    rng = random.Random(rules)
    setup = LiveSetup(rules=rules, addons=addons, length=1, names=("Ann", "Bo"))
    recorder = live_game_for("brade")
    game = recorder.new_game(setup)
    game.apply(LiveAction("start"), lambda: rng.randint(1, 6))
    while game.phase != "over":
        legal = game.legal()
        assert legal
        key = rng.choice(sorted(legal))
        dice = tuple(int(d) for d in key.split("-"))
        game.apply(LiveAction("play", dice=dice, steps=_steps(rng.choice(legal[key]))))
    tags = {"White": "Ann", "Black": "Bo", "Rules": rules, "Addons": ", ".join(addons)}
    report = replay_text(recorder.record_text(setup, [game.record_game()], tags))
    assert report.valid, report.error
    assert game.outcome is not None
    assert [g.outcome.text() for g in report.games if g.outcome] == [game.outcome.words]


def test_a_random_backgammon_game_writes_a_mat_the_replay_accepts() -> None:
    rng = random.Random(5)
    setup = LiveSetup(length=7, names=("Ann", "Bo"))
    recorder = live_game_for("backgammon")
    game = recorder.new_game(setup)
    game.apply(LiveAction("start"), lambda: rng.randint(1, 6))
    while game.phase != "over":
        if game.phase == "cube":
            game.apply(LiveAction("take"))
            continue
        legal = game.legal()
        assert legal
        if game.phase == "roll" and rng.random() < 0.1:
            try:
                game.apply(LiveAction("double"))
                continue
            except LiveRefused:
                pass
        key = rng.choice(sorted(legal))
        dice = tuple(int(d) for d in key.split("-"))
        steps = _steps(rng.choice(legal[key]))
        game.apply(LiveAction("play", dice=None if game.phase == "move" else dice, steps=steps))
    report = bg_replay(recorder.record_text(setup, [game.record_game()], {}))
    assert report.valid, report.errors
    assert game.outcome is not None
    assert report.games[0].points == game.outcome.points


HEADER = RecordHeader(
    event="Klubbmästerskapet",
    round="Final",
    names=("Ann", "Bo"),
    length=5,
    rules="board",
    addons=("double-six", "one-die"),
    scale="ny1",
    resignations="capped",
    transcriber="the site",
)


def test_a_brade_record_writes_the_match_and_its_rules_in_its_tags() -> None:
    tags = live_game_for("brade").record_tags(HEADER)
    assert list(tags.items()) == [
        ("Event", "Klubbmästerskapet"),
        ("Round", "Final"),
        ("White", "Ann"),
        ("Black", "Bo"),
        ("Rules", "board"),
        ("Addons", "double-six, one-die"),
        ("Length", "5"),
        ("Scale", "ny1"),
        ("Resignations", "capped"),
    ]
    plain = live_game_for("brade").record_tags(RecordHeader(event="Cup", length=3))
    assert plain == {"Event": "Cup", "Length": "3"}  # an empty tag is left out


def test_a_mat_record_names_the_event_and_its_transcriber() -> None:
    tags = live_game_for("backgammon").record_tags(HEADER)
    assert tags == {"Event": "Klubbmästerskapet", "Transcriber": "the site"}
