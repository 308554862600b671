"""The record layer (game-record.md): reading both forms, canonical writing, syntax errors."""

from __future__ import annotations

import json

import pytest

from engine.errors import RecordSyntaxError
from engine.record import (
    MAX_RECORD_BYTES,
    MAX_TURNS_PER_GAME,
    GameRecord,
    MatchRecord,
    RecordStep,
    TurnRecord,
    read_json,
    read_record,
    read_text,
    write_json,
    write_text,
)
from engine.types import Outcome, OutcomeKind, Pattern, Side

W, B = Side.WHITE, Side.BLACK

DOC_EXAMPLE = """\
[Event "Klubbmästerskapet 2026"]
[Date "2026-11-21"]
[Round "Semifinal"]
[White "Anna Ek"]
[Black "Bo Lind"]
[Rules "talisman"]        ; helmfrid | talisman | board | vasa   (default talisman)
[Length "3"]              ; odd number of completed games (scoring.md S1)
[Scale "ww"]              ; ww | ny1 | ny2

Game 1
Tek: 2-5                  ; White's die - Black's die: White starts (lower)
W 6-4: 1/7 1/5
B 3-1: 1/4 4/5            ; one checker, two steps
W 5-5: 1/6/11/16/21       ; a chain: one checker, four steps
B 6-2: -                  ; nothing could be played
W 6-3: 21/off 24/off
Result: White hemspel munk

Game 2                    ; starter: the loser of game 1 (not written)
B 2-1: 1/3 1/2
W resigns
Result: Black uppgivet
"""


def step(src: int, dst: int, hit: bool = False) -> RecordStep:
    return RecordStep(src, dst, hit)


class TestReadText:
    def test_doc_example(self) -> None:
        record = read_text(DOC_EXAMPLE)
        assert list(record.tags) == [
            "Event", "Date", "Round", "White", "Black", "Rules", "Length", "Scale",
        ]  # fmt: skip
        assert record.tags["Event"] == "Klubbmästerskapet 2026"
        game1, game2 = record.games
        assert game1.number == 1 and game1.tek == (2, 5) and game1.tek_starter is W
        assert game1.line == 10 and game1.opening_line == 11
        assert game1.turns[0] == TurnRecord(W, (6, 4), (step(1, 7), step(1, 5)))
        assert game1.turns[0].line == 12
        assert game1.turns[1].steps == (step(1, 4), step(4, 5))
        assert game1.turns[2].dice == (5, 5)
        assert game1.turns[2].steps == (step(1, 6), step(6, 11), step(11, 16), step(16, 21))
        assert game1.turns[3] == TurnRecord(B, (6, 2), ())
        assert game1.turns[4].steps == (step(21, 25), step(24, 25))
        assert game1.result == Outcome(W, OutcomeKind.HEMSPEL, None, True)
        assert game1.result_line == 17
        assert game2.tek is None and game2.starter is None and game2.position is None
        assert game2.turns[1] == TurnRecord(W, (), (), True)
        assert game2.result == Outcome(B, OutcomeKind.UPPGIVET)
        assert game2.end_line == 22

    def test_liberal_forms_read_like_canonical_ones(self) -> None:
        liberal = (
            '\ufeff[Rules "talisman"]\r\n'
            "game 1\r\n"
            "STARTER: black\r\n"
            "1. Black 46: 1/7*, 1/5\r\n"
            "2. white 3-3: BAR/3/6(2) 13/16*\n"
            "  b 5 : 19/24 ; one die\n"
            "W 2-1:\n"
            "result: black vackert uppspel MUNK\n"
        )
        canonical = (
            '[Rules "talisman"]\n\nGame 1\nStarter: Black\n'
            "B 6-4: 1/7* 1/5\n"
            "W 3-3: bar/3/6(2) 13/16*\n"
            "B 5: 19/24\n"
            "W 2-1: -\n"
            "Result: Black vackert uppspel munk\n"
        )
        assert read_text(liberal) == read_text(canonical)
        assert write_text(read_text(liberal)) == canonical
        game = read_text(liberal).games[0]
        assert game.turns[1].steps == (
            step(0, 3), step(3, 6), step(0, 3), step(3, 6), step(13, 16, True),
        )  # fmt: skip
        assert game.result == Outcome(B, OutcomeKind.VACKERT_SPEL, Pattern.UPPSPEL, True)

    def test_repeat_claims_the_hit_on_the_first_repetition_only(self) -> None:
        record = read_text("Game 1\nStarter: W\nW 6-6: 13/19*(2) 1/7(2)\n")
        assert record.games[0].turns[0].steps == (
            step(13, 19, True), step(13, 19), step(1, 7), step(1, 7),
        )  # fmt: skip
        assert "W 6-6: 13/19*/19 1/7(2)" not in write_text(record)
        assert "W 6-6: 13/19* 13/19 1/7(2)" in write_text(record)

    def test_double_six_stack_is_one_token(self) -> None:
        record = read_text("Game 1\nStarter: W\nW 6-6: 1/7(6)\n")
        assert record.games[0].turns[0].steps == (step(1, 7),) * 6
        assert "W 6-6: 1/7(6)\n" in write_text(record)

    def test_tag_values_with_quotes_and_semicolons(self) -> None:
        text = '[Event "The \\"Big\\" one; finals \\\\ 2026"] ; comment\nGame 1\nStarter: W\n'
        record = read_text(text)
        assert record.tags["Event"] == 'The "Big" one; finals \\ 2026'
        assert write_text(record).startswith('[Event "The \\"Big\\" one; finals \\\\ 2026"]\n')
        assert read_text(write_text(record)) == record

    def test_tek_sets_the_starter(self) -> None:
        assert read_text("Game 1\nTek: 5-2\n").games[0].tek_starter is B
        assert read_text("Game 1\nTek: 16\n").games[0].tek_starter is W


class TestPositionAndRules:
    def test_position_is_stored_in_canonical_spelling(self) -> None:
        record = read_text("Game 1\nposition:  w 14:2 24:2   1:11 | b bar:2 1:13 | b\n")
        assert record.games[0].position == "W 1:11 14:2 24:2 | B 1:13 bar:2 | B"
        assert "Position: W 1:11 14:2 24:2 | B 1:13 bar:2 | B\n" in write_text(record)
        assert read_json(write_json(record)) == record

    @pytest.mark.parametrize(
        ("text", "line", "words"),
        [
            ("Game 1\nPosition: W 1:15 | W\n", 2, "bad Position"),
            ("Game 1\nPosition: W 1:15 | B 1:15 | W 3:4\n", 2, "bad Position"),
            ("Game 1\nPosition: W 1:13 5:2 | B 1:15 | W\n", 2, "R5.3"),
            ('[Event "x"]\n[Rules "chess"]\nGame 1\nStarter: W\n', 2, "bad Rules"),
            ('[Rules "board"]\n[Addons "turbo"]\nGame 1\nStarter: W\n', 2, "bad Addons"),
            ('[Addons "one-die"]\n[Rules "vasa"]\nGame 1\nStarter: W\n', 1, "R15"),
        ],
    )
    def test_errors(self, text: str, line: int, words: str) -> None:
        error = syntax_error(text)
        assert error.line == line and words in error.message

    def test_addons_may_be_listed_with_commas_or_blanks(self) -> None:
        tags = '[Rules "Board"]\n[Addons "easy-reentry, one-die double-six"]\n'
        record = read_text(tags + "Game 1\nStarter: W\n")
        assert record.tags["Addons"] == "easy-reentry, one-die double-six"


class TestCanonicalForms:
    RECORD = MatchRecord(
        tags={"White": "Anna Ek", "Rules": "talisman", "Note": 'a "quoted" \\ value'},
        games=(
            GameRecord(
                number=1,
                tek=(2, 5),
                turns=(
                    TurnRecord(W, (6, 4), (step(1, 7), step(1, 5))),
                    TurnRecord(B, (6, 2), ()),
                    TurnRecord(W, (5,), (step(7, 12, True),)),
                    TurnRecord(B, (2, 2), (step(1, 3), step(3, 5), step(5, 7), step(1, 3))),
                ),
                result=Outcome(W, OutcomeKind.JAN),
            ),
            GameRecord(number=2, turns=(TurnRecord(B, (), (), True),)),
            GameRecord(number=3, starter=W, result=Outcome(B, OutcomeKind.SPRANGJAN)),
        ),
    )

    def test_text_form(self) -> None:
        assert write_text(self.RECORD) == (
            '[White "Anna Ek"]\n[Rules "talisman"]\n[Note "a \\"quoted\\" \\\\ value"]\n\n'
            "Game 1\nTek: 2-5\nW 6-4: 1/7 1/5\nB 6-2: -\nW 5: 7/12*\n"
            "B 2-2: 1/3/5/7 1/3\nResult: White jan\n\n"
            "Game 2\nB resigns\n\n"
            "Game 3\nStarter: White\nResult: Black sprangjan\n"
        )

    def test_json_form(self) -> None:
        data = json.loads(write_json(self.RECORD))
        assert data == {
            "tags": {"White": "Anna Ek", "Rules": "talisman", "Note": 'a "quoted" \\ value'},
            "games": [
                {
                    "tek": [2, 5],
                    "turns": [
                        {"side": "W", "dice": [6, 4], "steps": [[1, 7], [1, 5]]},
                        {"side": "B", "dice": [6, 2], "steps": []},
                        {"side": "W", "dice": [5], "steps": [[7, 12, "*"]]},
                        {"side": "B", "dice": [2, 2], "steps": [[1, 3], [3, 5], [5, 7], [1, 3]]},
                    ],
                    "result": {"winner": "W", "outcome": "jan", "pattern": None, "munk": False},
                },
                {"turns": [{"side": "B", "resigns": True}], "result": None},
                {
                    "starter": "W",
                    "turns": [],
                    "result": {
                        "winner": "B",
                        "outcome": "sprangjan",
                        "pattern": None,
                        "munk": False,
                    },
                },
            ],
        }
        assert list(data["tags"]) == ["White", "Rules", "Note"]

    def test_round_trips(self) -> None:
        text = write_text(self.RECORD)
        as_json = write_json(read_text(text))
        assert read_json(as_json) == self.RECORD
        assert write_text(read_json(as_json)) == text
        assert write_json(read_json(as_json)) == as_json
        assert read_record(text) == read_record(as_json) == self.RECORD
        assert read_record(text.encode()) == self.RECORD

    def test_vackert_spel_words(self) -> None:
        outcome = Outcome(B, OutcomeKind.VACKERT_SPEL, Pattern.TRAPPSPEL, True)
        record = MatchRecord(tags={}, games=(GameRecord(1, starter=B, result=outcome),))
        assert "Result: Black vackert trappspel munk\n" in write_text(record)
        assert json.loads(write_json(record))["games"][0]["result"] == {
            "winner": "B", "outcome": "vackert_spel", "pattern": "trappspel", "munk": True,
        }  # fmt: skip
        assert read_json(write_json(record)) == record

    def test_json_reader_is_liberal_about_outcome_words_and_die_order(self) -> None:
        data = {
            "games": [
                {
                    "number": 1,
                    "starter": "Black",
                    "turns": [{"side": "b", "dice": [2, 6], "steps": [[0, 2, "*"]]}],
                    "result": {"winner": "B", "outcome": "sprängjan"},
                }
            ]
        }
        game = read_json(json.dumps(data)).games[0]
        assert game.starter is B
        assert game.turns[0].dice == (6, 2)
        assert game.turns[0].steps == (step(0, 2, True),)
        assert game.result == Outcome(B, OutcomeKind.SPRANGJAN)


def syntax_error(text: str | bytes) -> RecordSyntaxError:
    with pytest.raises(RecordSyntaxError) as info:
        read_record(text)
    assert info.value.kind == "syntax"
    return info.value


class TestTextSyntaxErrors:
    @pytest.mark.parametrize(
        ("text", "line", "words"),
        [
            ("Game 1\nTek: 3-3\n", 2, "equal tek dice"),
            ("Game 1\nTek: 3\n", 2, "bad Tek"),
            ("Game 1\nTek: 7-2\n", 2, "1 to 6"),
            ("Game 1\nStarter: Red\n", 2, "bad Starter"),
            ("Game 1\nTek: 1-2\nStarter: White\n", 3, "only one of"),
            ("Game 1\nStarter: W\n\nGame 2\nB 6-4: 1/7 1/5\nTek: 1-2\n", 6, "before the first"),
            ("Game 1\nW 6-4: 1/7\n", 1, "game 1 must open"),
            ("Game 2\nStarter: W\n", 1, "expected 'Game 1'"),
            ("Game 1\nStarter: W\n\nGame 3\n", 4, "expected 'Game 2'"),
            ("W 6-4: 1/7\n", 1, "expected a tag or 'Game 1'"),
            ("[Rules talisman]\nGame 1\nStarter: W\n", 1, "malformed tag"),
            ('[A "1"]\n[A "2"]\nGame 1\nStarter: W\n', 2, "given twice"),
            ('Game 1\nStarter: W\n[A "1"]\n', 3, "tags must come before"),
            ("Game 1\nStarter: W\nW 6-4: 1/7 1/5\nW 6-4: 1/7 1/5\n", 4, "alternate"),
            ("Game 1\nStarter: W\nW 6-0: 1/7\n", 3, "1 to 6"),
            ("Game 1\nStarter: W\nW 6-4: 1/7 1-5\n", 3, "bad step"),
            ("Game 1\nStarter: W\nW 6-4: 1/25\n", 3, "1–24"),
            ("Game 1\nStarter: W\nW 6-4: 1/7/bar\n", 3, "cannot end on the bar"),
            ("Game 1\nStarter: W\nW 6-4: off/7\n", 3, "bad step"),
            ("Game 1\nStarter: W\nW 6-4: 1/7(7)\n", 3, "repeated"),
            ("Game 1\nStarter: W\nW 6-4: 1/7(0)\n", 3, "repeated"),
            ("Game 1\nStarter: W\nW 6-4 1/7\n", 3, "not a turn"),
            ("Game 1\nStarter: W\nW 6-4-3: 1/7\n", 3, "not a turn"),
            ("Game 1\nStarter: W\nhello\n", 3, "not a turn"),
            ("Game 1\nStarter: W\nResult: White wins\n", 3, "bad Result"),
            ("Game 1\nStarter: W\nResult: White jan munk\n", 3, "bad Result"),
            ("Game 1\nStarter: W\nResult: W jan\nResult: W jan\n", 4, "two Result"),
            ("Game 1\nStarter: W\nResult: W jan\nB 6-4: 1/7\n", 4, "after the Result"),
            ("Game 1\nStarter: W\nW resigns\nB 6-4: 1/7\n", 4, "resigned"),
            ("; nothing here\n\n", None, "no game"),
            ("Game 1\nStarter: W\nGame " + "9" * 5000 + "\n", 3, "expected 'Game 2'"),
        ],
    )
    def test_error_names_the_line(self, text: str, line: int | None, words: str) -> None:
        error = syntax_error(text)
        assert error.line == line
        assert words in error.message

    def test_not_utf8(self) -> None:
        error = syntax_error(b"Game 1\nStarter: W\nW 6-4: 1/7 \xff\n")
        assert error.line == 3 and "UTF-8" in error.message

    def test_record_over_one_megabyte(self) -> None:
        head = "Game 1\nStarter: W\n"
        filler = ("; " + "x" * 97 + "\n") * (MAX_RECORD_BYTES // 100)
        assert len((head + filler).encode()) <= MAX_RECORD_BYTES + 100
        fits = head + filler[: MAX_RECORD_BYTES - len(head)]
        assert len(fits.encode()) == MAX_RECORD_BYTES
        read_record(fits)  # exactly at the limit: read
        error = syntax_error(fits + "x")
        assert "1 MB" in error.message and error.line == fits.count("\n") + 1
        assert syntax_error((fits + "x").encode()).line == error.line
        # multi-byte characters count as their UTF-8 bytes
        assert "1 MB" in syntax_error(head + ";" + "ä" * (MAX_RECORD_BYTES // 2)).message

    def test_game_over_ten_thousand_turns(self) -> None:
        turns = "W 1-2: -\nB 1-2: -\n" * (MAX_TURNS_PER_GAME // 2)
        head = "Game 1\nStarter: W\n"
        record = read_record(head + turns)
        assert len(record.games[0].turns) == MAX_TURNS_PER_GAME
        error = syntax_error(head + turns + "W 1-2: -\n")
        assert error.line == 3 + MAX_TURNS_PER_GAME and "10,000 turns" in error.message
        assert error.game == 1


TURN = '{"games": [{"starter": "W", "turns": [%s]}]}'
RESULT = '{"games": [{"starter": "W", "result": %s}]}'


class TestJsonSyntaxErrors:
    @pytest.mark.parametrize(
        ("data", "words"),
        [
            ('{"games": {}}', '"games" has the wrong type'),
            ('{"games": []}', "no game"),
            ('{"games": [{"starter": "W"}], "extra": 1}', "unknown key"),
            ('{"games": [{"tek": [3, 3]}]}', "equal tek dice"),
            ('{"games": [{"tek": [3]}]}', "two dice"),
            ('{"games": [{"tek": [' + "1" * 5000 + ", 2]}]}", "bad JSON"),
            ('{"games": [{"tek": [1.0, 2]}]}', "wrong type"),
            ('{"games": [{"tek": [1, 2], "starter": "W"}]}', "only one of"),
            ('{"games": [{"turns": []}]}', "game 1 must open"),
            ('{"games": [{"number": 2, "starter": "W"}]}', '"number"'),
            ('{"games": [{"starter": "X"}]}', "W or B"),
            (TURN % '{"side": "W", "dice": [7, 1]}', "1 to 6"),
            (TURN % '{"side": "W", "dice": [1, 2, 3]}', "one or two"),
            (TURN % '{"side": "W", "dice": [true, 2]}', "wrong type"),
            (TURN % '{"side": "W", "dice": [1, 2], "steps": [[1, 26]]}', "0–24"),
            (TURN % '{"side": "W", "dice": [1, 2], "steps": [[1, 2, "x"]]}', "[from, to"),
            (TURN % '{"side": "W", "resign": true}', "unknown key"),
            (TURN % '{"side": "W", "resigns": false}', "must be true"),
            (RESULT % '{"winner": "W", "outcome": "jan", "munk": true}', "munk"),
            (RESULT % '{"winner": "W", "outcome": "won"}', "not an outcome"),
            ('{"tags": {"A": 1}, "games": [{"starter": "W"}]}', "wrong type"),
            ('{"tags": {"A B": "1"}, "games": [{"starter": "W"}]}', "letters"),
            ('{"tags": {"A": "x\\ny"}, "games": [{"starter": "W"}]}', "control"),
        ],
    )  # fmt: skip
    def test_error_is_syntax(self, data: str, words: str) -> None:
        assert words in syntax_error(data).message

    def test_bad_json_names_the_line(self) -> None:
        error = syntax_error('{\n  "games": [\n  oops\n]}')
        assert error.line == 3 and "bad JSON" in error.message

    def test_deep_nesting_is_a_syntax_error(self) -> None:
        assert "JSON" in syntax_error("{" + '"a":[' * 100_000 + "]" * 100_000 + "}").message


class TestClockAnnotation:
    """A clocked game's remaining time rides in a turn line's comment, as PGN's
    ``[%clk]``: written, read back, and ignored by everything that replays the record."""

    TEXT = (
        "Game 1\nTek: 2-5\n"
        "W 6-4: 1/7 1/5 ; [%clk 0:05:52]\n"
        "B 3-1: 1/4 4/5 ; thinking [%clk 1:02:03.4] long\n"
        "W 5-5: 1/6/11/16/21 ; [%clk 0:5:52]\n"
    )

    def test_the_reader_keeps_the_remaining_time(self) -> None:
        turns = read_text(self.TEXT).games[0].turns
        # a malformed annotation is an ordinary comment
        assert [t.clock for t in turns] == [352_000, 3_723_400, None]

    def test_the_writer_writes_it_and_reads_back_the_same(self) -> None:
        record = read_text(self.TEXT)
        text = write_text(record)
        assert "W 6-4: 1/7 1/5 ; [%clk 0:05:52]\n" in text
        assert "B 3-1: 1/4/5 ; [%clk 1:02:03]\n" in text  # whole seconds, as a clock shows
        assert "W 5-5: 1/6/11/16/21\n" in text
        again = read_text(text)
        assert again == record
        assert [t.clock for t in again.games[0].turns] == [352_000, 3_723_000, None]

    def test_the_time_is_no_part_of_the_records_value(self) -> None:
        bare = read_text(self.TEXT.replace("[%clk", "[%nope"))
        assert bare == read_text(self.TEXT)
        assert read_json(write_json(read_text(self.TEXT))) == bare

    def test_the_json_form_keeps_the_time_as_a_turns_clock(self) -> None:
        text = self.TEXT + "B resigns ; [%clk 0:00:09]\n"
        record = read_text(text)
        written = write_json(record)
        assert '{"side": "W", "dice": [6, 4], "steps": [[1, 7], [1, 5]], "clock": 352000}' in (
            written
        )
        assert '{"side": "B", "resigns": true, "clock": 9000}' in written
        again = read_json(written)
        assert [t.clock for t in again.games[0].turns] == [352_000, 3_723_400, None, 9_000]
        assert write_text(again) == write_text(record)

    @pytest.mark.parametrize("clock", ["-1", "1.5", '"0:01:52"', "true"])
    def test_a_json_clock_is_a_whole_number_of_ms(self, clock: str) -> None:
        text = (
            '{"games": [{"tek": [2, 5], "turns": [{"side": "W", "dice": [6, 4], '
            f'"steps": [[1, 7], [1, 5]], "clock": {clock}}}]}}]}}'
        )
        assert '"clock" is the mover' in syntax_error(text).message
