"""The project's own backgammon record, text and JSON, with cube actions
(``backgammon.record``; docs/game-record.md, "Backgammon records: the project's own form")."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from backgammon.errors import RecordSyntaxError
from backgammon.mat import DOUBLE, DROP, TAKE, WIN, MatGame, read_mat, write_mat
from backgammon.record import (
    is_bg_record,
    read_bg_json,
    read_bg_record,
    read_bg_text,
    write_bg_json,
    write_bg_text,
)
from backgammon.replay import replay_text
from games.registry import detect
from tests.backgammon.test_mat import XG

OWN = (Path(__file__).parents[1] / "data" / "backgammon" / "own_form_3pt.txt").read_text()


def test_it_reads_cube_actions_and_resignations_into_the_same_match_as_mat() -> None:
    record = read_bg_text(OWN)
    assert record.players == ("Alice", "Bob") and record.length == 3
    kinds = [a.kind for a in record.games[0].actions]
    assert kinds == ["roll", DOUBLE, TAKE, "roll", DOUBLE, DROP, WIN]
    # "1 resigns 1" in game 2: Bob wins a single game at cube 1
    assert record.games[1].actions[-1].player == 1 and record.games[1].actions[-1].value == 1
    # the scores and "and the match" follow from the claims
    assert [g.score for g in record.games] == [(0, 0), (2, 0), (2, 1), (2, 2)]
    assert record.games[-1].actions[-1].match
    # the same match as the .mat record of the same games
    assert record.games == read_mat(XG).games
    report = replay_text(OWN)
    assert report.valid and report.score == (3, 2) and report.crawford_game == 2


def test_a_resignation_counts_in_cubes() -> None:
    text = OWN.replace("1 wins 2\n", "1 resigns 2\n").replace("2 drops\n", "")
    text = text.replace("1 doubles 4\n", "")
    record = read_bg_text(text)
    last = record.games[0].actions[-1]
    assert (last.player, last.kind, last.value) == (1, WIN, 4)  # a gammon at cube 2


def test_text_and_json_round_trip() -> None:
    record = read_bg_text(OWN)
    assert read_bg_text(write_bg_text(record)) == record
    as_json = write_bg_json(record)
    assert json.loads(as_json)["games"][0]["turns"][1] == {"player": 2, "double": 2}
    assert read_bg_json(as_json) == record
    assert read_bg_record(as_json) == record and is_bg_record(as_json)
    assert read_bg_text(write_bg_text(read_mat(XG))).games == read_mat(XG).games


@pytest.mark.parametrize(
    ("old", "new", "code", "line"),
    [
        ('[Length "3"]', '[Length "x"]', "bg.rec.length", 7),
        ("2 doubles 2\n", "2 doubles\n", "bg.rec.line", 9),
        ("1 takes\n", "3 takes\n", "bg.rec.player", 10),
        ("1 wins 2\n", "1 wins 2\n2 takes\n", "bg.rec.after_end", 15),
        ("Game 3\n", "Game 4\n", "bg.rec.game_number", 21),
        ("1 resigns 1\n", "1 resigns 4\n", "bg.rec.resign", 19),
        ("1 31: 8/5 6/5\n2 doubles", "1 31: 8/5 6/x\n2 doubles", "bg.mat.move", 8),
    ],
)
def test_errors_carry_their_line(old: str, new: str, code: str, line: int) -> None:
    assert old in OWN
    with pytest.raises(RecordSyntaxError) as caught:
        read_bg_text(OWN.replace(old, new, 1))
    assert (caught.value.msg.code, caught.value.line) == (code, line)


def test_replay_errors_have_line_numbers_too() -> None:
    report = replay_text(OWN.replace("2 52: 13/8 13/11\n", "2 52: 13/8 13/11\n1 doubles 2\n"))
    (error,) = report.errors
    assert error.msg.code == "bg.cube.crawford" and (error.game, error.line) == (2, 18)
    report = replay_text(OWN.replace("1 wins 2", "1 wins 4"))
    assert report.errors[0].msg.code == "bg.wins.points" and report.errors[0].line == 14


def test_json_errors_name_the_game_and_turn() -> None:
    data = json.loads(write_bg_json(read_bg_text(OWN)))
    data["games"][1]["turns"][0]["dice"] = [7, 2]
    with pytest.raises(RecordSyntaxError) as caught:
        read_bg_json(json.dumps(data))
    assert (caught.value.game, caught.value.turn) == (2, 1)
    assert "'dice' is two dice of 1–6" in caught.value.message
    with pytest.raises(RecordSyntaxError) as caught:
        read_bg_json('{"game": "backgammon",\n "tags": }')
    assert caught.value.line == 2


def test_the_registry_detects_it_and_replay_reports_it(tmp_path: Path) -> None:
    as_json = write_bg_json(read_bg_text(OWN))
    for text in (OWN, as_json):
        family = detect(text)
        assert family is not None and family.key == "backgammon"
    path = tmp_path / "match.json"
    path.write_text(as_json)
    out = io.StringIO()
    call_command("replay", str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["valid"] and report["score"] == {"Alice": 3, "Bob": 2}
    assert report["crawford_game"] == 2 and report["winner"] == "Alice"


REAL = sorted((Path(__file__).parents[1] / "data" / "backgammon").glob("*.mat"))


def _claims(games: tuple[MatGame, ...]) -> list[MatGame]:
    return [replace(g, actions=tuple(replace(a, match=False) for a in g.actions)) for g in games]


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_files_round_trip_through_every_form(path: Path) -> None:
    """read → write → read gives the same match, as .mat and in the own text and JSON
    form, and the own form replays to the same report."""
    record = read_mat(path.read_text())
    assert read_mat(write_mat(record)) == record
    own = read_bg_text(write_bg_text(record))
    # The own form writes no "and the match" (it follows from the claims, and its reader
    # puts it back); GNU Backgammon does not write it either: compare without it.
    assert _claims(own.games) == _claims(record.games) and own.players == record.players
    assert _claims(read_bg_json(write_bg_json(record)).games) == _claims(record.games)
    mat_report, own_report = replay_text(path.read_text()), replay_text(write_bg_text(record))
    # the same match; only the dialect read differs
    dialect = ("program", "format")
    mat_dict = {k: v for k, v in mat_report.to_dict().items() if k not in dialect}
    own_dict = {k: v for k, v in own_report.to_dict().items() if k not in dialect}
    assert own_report.valid and own_dict == mat_dict
    assert (own_report.format, mat_report.format) == ("text", "mat")
