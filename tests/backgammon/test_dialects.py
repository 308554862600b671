"""The conventions of the programs players export from (docs/game-record.md, "Backgammon
records from other programs"): each read as documented, each broken variant refused at its
line. The records are gnubg's own exports (tests/data/backgammon) rewritten the way each
program writes the same thing, so every play in them is real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backgammon.dialects import ReadOptions, program_of, unsupported_format
from backgammon.errors import CubeError, RecordSyntaxError, ResultMismatchError
from backgammon.mat import read_mat
from backgammon.replay import MatchReport, replay_text
from backgammon.report import report_lines
from backgammon.sgf import read_sgf
from tests.backgammon.test_mat import XG, replace_line

DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon"
SGF = sorted(DATA.glob("*.sgf"))


def text_of(name: str) -> str:
    return (DATA / name).read_text()


def line_of(text: str, fragment: str) -> int:
    """The 1-based number of the first line holding ``fragment``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def outcome(report: MatchReport) -> tuple[object, ...]:
    """What a replay found, without the dialect's name."""
    data = report.to_dict()
    return (data["valid"], data["score"], data["winner"], data["crawford_game"], data["games"])


# ---- Cannot Move (BGBlitz, Backgammon Studio, Galaxy) --------------------------------------


def cannot_move(text: str) -> str:
    """gnubg's ``11:`` (a roll with no play) written ``11: Cannot Move``, columns kept."""
    text = re.sub(r"(?<=\) )([1-6][1-6]):( {12})", r"\1: Cannot Move", text)
    return re.sub(r"(?m)(\s[1-6][1-6]):\s*$", r"\1: Cannot Move", text)


def test_cannot_move_is_a_roll_with_no_play() -> None:
    original = text_of("gnubg_3pt_seed42.mat")
    text = cannot_move(original)
    assert text.count("Cannot Move") >= 5
    report = replay_text(text)
    assert report.valid and not report.warnings
    assert outcome(report) == outcome(replay_text(original))
    assert report.program == "BGBlitz/Backgammon Studio/Galaxy"


def test_cannot_move_where_a_play_existed_is_still_an_illegal_play() -> None:
    text = replace_line(text_of("gnubg_3pt_seed42.mat"), "53: 8/3 6/3 ", "53: Cannot Move")
    report = replay_text(text)
    warning = report.warnings[0]  # the opponent played on: it stands, reported
    assert warning.msg.code == "bg.turn.illegal_stands"
    assert warning.line == line_of(text, "53: Cannot Move")


# ---- ??? (eXtreme Gammon, BGBlitz, Studio) -------------------------------------------------

UNPLAYED_AT = " 33) 42: 23/21 21/17             54: 3/0 3/0 \n"


@pytest.mark.parametrize("marks", ["???", "????"])
def test_an_unplayed_roll_before_a_resignation(marks: str) -> None:
    original = text_of("gnubg_3pt_seed42.mat")
    text = replace_line(original, UNPLAYED_AT, UNPLAYED_AT + f" 34) 43: {marks}\n")
    report = replay_text(text)
    assert report.valid, report.errors
    assert outcome(report) == outcome(replay_text(original))


def test_an_unplayed_roll_must_be_the_games_last_play() -> None:
    text = replace_line(
        text_of("gnubg_3pt_seed42.mat"),
        " 32) 62: 6/4 15/9                53: 3/0 3/0 \n",
        " 32) 62: 6/4 15/9                53: ???\n",
    )
    report = replay_text(text)
    (error,) = report.errors
    assert isinstance(error, CubeError) and error.msg.code == "bg.turn.unplayed_not_last"
    assert error.line == line_of(text, "33) 42: 23/21")


def test_an_unplayed_roll_out_of_turn_is_refused() -> None:
    text = replace_line(
        text_of("gnubg_3pt_seed42.mat"), UNPLAYED_AT, UNPLAYED_AT + f" 34){' ' * 29}43: ???\n"
    )
    (error,) = replay_text(text).errors
    assert error.msg.code == "bg.turn.roll_out_of_turn"
    assert error.line == line_of(text, "43: ???")


# ---- Losses (Galaxy) -----------------------------------------------------------------------

LAST = (
    " 33) 42: 23/21 21/17             54: 3/0 3/0 \n"
    "                                  Wins 6 points\n"
)


def test_losses_in_the_losers_column() -> None:
    original = text_of("gnubg_3pt_seed42.mat")
    text = replace_line(
        original,
        LAST,
        " 33) 42: 23/21 21/17             54: 3/0 3/0 \n"
        " 34) Losses 6 points\n"
        "                                  Wins 6 points\n",
    )
    report = replay_text(text)
    assert report.valid, report.errors
    assert outcome(report) == outcome(replay_text(original))
    assert report.program == "BackgammonGalaxy"


@pytest.mark.parametrize(
    ("losses", "code"),
    [
        (" 34) Losses 4 points\n", "bg.loss.points"),
        (f" 34){' ' * 29}Losses 6 points\n", "bg.loss.column"),
    ],
)
def test_a_wrong_losses_line_is_refused_at_its_line(losses: str, code: str) -> None:
    text = replace_line(
        text_of("gnubg_3pt_seed42.mat"),
        LAST,
        " 33) 42: 23/21 21/17             54: 3/0 3/0 \n"
        + losses
        + "                                  Wins 6 points\n",
    )
    (error,) = replay_text(text).errors
    assert isinstance(error, ResultMismatchError) and error.msg.code == code
    assert error.line == line_of(text, "Losses")


def test_a_forfeit_before_the_first_roll() -> None:
    """Galaxy's stub: the right-hand player gives up before a roll (a single game)."""
    stub = (
        '; [Site "BackgammonGalaxy"]\n\n2 point match\n\n Game 1\n'
        " lasse : 0                        mglough : 0\n"
        "  1)                              Losses 1 point\n"
        "      Wins 1 point\n"
    )
    report = replay_text(stub)
    assert report.valid and report.score == (1, 0) and report.games[0].how == "resign"
    broken = stub.replace("Wins 1 point", "Wins 100 points")
    (error,) = replay_text(broken).errors
    assert error.kind == "result_mismatch" and error.line == line_of(broken, "Wins 100")


GALAXY_HEAD = '; [Site "BackgammonGalaxy"]\n\n{length} point match\n\n Game 1\n'
GALAXY_NAMES = " lasse : 0                       bebeto : 0\n"


def test_a_lone_losses_line_at_the_start_is_the_other_players() -> None:
    """Galaxy writes ``Losses`` on a line of its own at the line's start whoever lost; the
    ``Wins`` line's column names the winner (here the left-hand player, after the
    right-hand player resigned a single game)."""
    text = (
        GALAXY_HEAD.format(length=1)
        + GALAXY_NAMES
        + "  1) 31: 8/5 6/5                 61: 13/7 8/7\n"
        + " Losses 1 point\n\n"
        + "      Wins 1 point and the match\n"
    )
    report = replay_text(text)
    assert report.valid, report.errors
    assert report.winner == 0 and report.score == (1, 0) and report.games[0].how == "resign"
    # the same Losses line in a numbered row keeps its column: in the winner's, refused
    numbered = text.replace(" Losses 1 point", "  2) Losses 1 point")
    (error,) = replay_text(numbered).errors
    assert error.msg.code == "bg.loss.column" and error.line == line_of(numbered, "Losses")


def test_a_row_number_repeated_inside_its_row_starts_a_second_row() -> None:
    """Galaxy: the row that ends the game written on the last roll's line, its number
    repeated: the left-hand player resigns after playing, the right-hand player wins."""
    text = (
        GALAXY_HEAD.format(length=1)
        + GALAXY_NAMES
        + "  1) 31: 8/5 6/5      1)  Losses 1 point"
        + " " * 47
        + "Wins 1 point and the match\n"
    )
    report = replay_text(text)
    assert report.valid, report.errors
    assert report.winner == 1 and report.score == (0, 1)
    other = text.replace("      1)  Losses", "      2)  Losses")  # not the row's number
    (error,) = replay_text(other).errors
    assert isinstance(error, RecordSyntaxError) and error.line == line_of(other, "Losses")


FORFEIT = (
    GALAXY_HEAD.format(length=5)
    + " lasse : 0                       eighttimez8 : 0\n"
    + "  1) 61: 13/7 8/7                 Losses 5 point\n\n"
    + "      Wins 5 point and the match\n"
)


def test_a_match_awarded_by_forfeit() -> None:
    """Galaxy, a player who left: ``Losses``/``Wins`` of exactly the points the winner
    needed, more than any resignation gives — the match awarded, not a resignation."""
    report = replay_text(FORFEIT)
    assert report.valid, report.errors
    assert report.winner == 0 and report.score == (5, 0)
    assert report.games[0].how == "forfeit"
    assert "wins by forfeit" in "\n".join(report_lines(report))


@pytest.mark.parametrize(
    "broken",
    [  # not what the winner needed; FIBS's Wins 100 after a forfeit; no Losses line
        FORFEIT.replace("es 5 point", "es 4 point").replace("ns 5 point", "ns 4 point"),
        FORFEIT.replace("es 5 point", "es 100 point").replace("ns 5 point", "ns 100 point"),
        FORFEIT.replace("                 Losses 5 point", ""),  # no Losses line
    ],
)
def test_a_forfeit_of_any_other_value_is_refused(broken: str) -> None:
    (error,) = replay_text(broken).errors
    assert isinstance(error, ResultMismatchError) and error.line == line_of(broken, "Wins")


# ---- Wins capped at what decides the match (Galaxy, some FIBS) ----------------------------

FIBS_LAST = "      Wins 4 points and the match"


def test_a_capped_wins_that_decides_the_match() -> None:
    """A gammon at cube 2 from 6–0 in a 9-point match: 4 points, written as the 3 needed.
    The game counts its full value."""
    original = text_of("fibs_1859149.mat")
    text = replace_line(original, FIBS_LAST, "      Wins 3 points and the match")
    report = replay_text(text)
    assert report.valid, report.errors
    assert outcome(report) == outcome(replay_text(original))


def test_a_wins_capped_at_the_length() -> None:
    """gnubg_1pt_seed1: a backgammon (3 points) in a 1-point match, written ``Wins 1
    point`` (what was needed, and the length)."""
    original = text_of("gnubg_1pt_seed1.mat")
    full = replay_text(original)
    (game,) = full.games
    assert game.points == 3  # a backgammon in a 1-point match
    text = re.sub(r"Wins \d+ points?", "Wins 1 point", original)
    report = replay_text(text)  # 1 is both what was needed and the length
    assert report.valid and report.score == full.score


@pytest.mark.parametrize("claimed", [2, 5, 9, 100])
def test_a_wins_line_neither_full_value_nor_cap_is_refused(claimed: int) -> None:
    text = replace_line(
        text_of("fibs_1859149.mat"), FIBS_LAST, f"      Wins {claimed} points and the match"
    )
    (error,) = replay_text(text).errors
    assert isinstance(error, ResultMismatchError)
    assert error.line == line_of(text, f"Wins {claimed} points and the match")


def test_a_cap_on_a_game_that_does_not_decide_the_match_is_refused() -> None:
    """XG's game 1: a drop at cube 2 from 0–0 in a 3-point match gives 2, not the match."""
    text = replace_line(XG, "      Wins 2 points\n", "      Wins 1 point\n")
    (error,) = replay_text(text).errors
    assert error.msg.code == "bg.wins.points" and error.line == line_of(text, "Wins 1 point")


def test_a_capped_resignation() -> None:
    """gnubg_3pt: a backgammon resigned at cube 2 (6 points) from 0–0 in a 3-point match,
    written capped at 3: the least resignation that gives 3 is a gammon (4)."""
    text = replace_line(text_of("gnubg_3pt_seed42.mat"), "Wins 6 points", "Wins 3 points")
    report = replay_text(text)
    assert report.valid and report.winner == 1 and report.games[-1].points == 4


# ---- empty player names (Galaxy) -----------------------------------------------------------


def test_an_empty_player_name() -> None:
    original = text_of("gnubg_3pt_seed42.mat")
    text = original.replace(" root : 0", "      : 0")
    report = replay_text(text)
    assert report.valid and report.players == ("gnubg", "Player 2")
    with_header = '; [Player 2 "root"]\n' + text
    assert replay_text(with_header).players == ("gnubg", "root")


def test_a_fibs_clients_rating_after_the_name() -> None:
    """``BlueNote,1780 : 1`` (a FIBS client appends the rating): the player is BlueNote."""
    original = text_of("gnubg_7pt_seed11.mat")
    text = original.replace(" gnubg : ", " gnubg,1780 : ").replace(" root : ", " root,1650.5 : ")
    report = replay_text(text)
    assert report.valid and report.players == ("gnubg", "root")
    assert outcome(report) == outcome(replay_text(original))


# ---- money sessions and the Jacoby rule ----------------------------------------------------


def money(text: str) -> str:
    return re.sub(r"(?m)^\s*\d+ point match\s*$", " 0 point match", text)


def test_a_money_session_has_no_length_and_no_winner() -> None:
    original = text_of("gnubg_5pt_seed2026.mat")
    report = replay_text(money(original))
    assert report.valid and report.length == 0 and report.money
    assert report.winner is None and report.crawford_game is None
    assert report.score == replay_text(original).score
    assert "money session" in report_lines(report)[0]


def test_the_money_option_reads_a_galaxy_16_point_match_as_money() -> None:
    text = text_of("gnubg_5pt_seed2026.mat").replace(" 5 point match", "16 point match")
    as_match = replay_text(text)
    assert as_match.length == 16 and as_match.winner is None
    report = replay_text(text, options=ReadOptions(program="Galaxy", money=True))
    assert report.valid and report.length == 0 and report.program == "BackgammonGalaxy"


def jacoby_game(claimed: int, jacoby: bool) -> str:
    """A one-game money session: gnubg_1pt_seed1's backgammon at a centred cube (played
    out), its Wins line saying ``claimed``."""
    text = money(text_of("gnubg_1pt_seed1.mat"))
    text = re.sub(r"Wins \d+ points?", f"Wins {claimed} point{'s' * (claimed != 1)}", text)
    return ('; [Jacoby "On"]\n' if jacoby else "") + text


def test_the_jacoby_rule_counts_a_gammon_at_a_centred_cube_as_one() -> None:
    plain = replay_text(money(text_of("gnubg_1pt_seed1.mat")))
    assert plain.valid
    (game,) = plain.games
    assert (game.how, game.cube, game.points) == ("backgammon", 1, 3)
    report = replay_text(jacoby_game(1, True))
    assert report.valid and report.jacoby and report.games[0].points == 1
    (error,) = replay_text(jacoby_game(game.points, True)).errors
    assert error.msg.code == "bg.jacoby.points"
    (error,) = replay_text(jacoby_game(1, False)).errors
    assert error.msg.code == "bg.wins.points"


# ---- resumed matches (FIBS) ----------------------------------------------------------------


def resumed(text: str, first_game: int) -> str:
    """The match from game ``first_game`` on, as a FIBS client writes a resumed match."""
    head, _, rest = text.partition(" Game 1\n")
    kept = rest[rest.index(f" Game {first_game}\n") :]
    return head + kept


def test_a_resumed_match_goes_on_from_its_first_score_line() -> None:
    original = text_of("gnubg_15pt_seed99.mat")
    full = replay_text(original)
    report = replay_text(resumed(original, 4))
    assert report.valid, report.errors
    assert (report.score, report.winner) == (full.score, full.winner)
    assert report.crawford_game == full.crawford_game == 9


def test_a_resumed_match_at_match_point_starts_with_the_crawford_game() -> None:
    original = text_of("gnubg_7pt_seed11.mat")
    report = replay_text(resumed(original, 3))
    assert report.valid and report.crawford_game == 3 == replay_text(original).crawford_game


POST_CRAWFORD = """\
 7 point match

 Game 1
 Alice : 6                           Bob : 3
  1) 31: 8/5 6/5                      Doubles => 2
  2)  Drops
                                      Wins 1 point

 Game 2
 Alice : 6                           Bob : 4
  1) 31: 8/5 6/5                      Doubles => 2
  2)  Drops
                                      Wins 1 point
"""


def test_a_match_resumed_post_crawford_has_no_crawford_game_later() -> None:
    """Resumed at 6–3 in a 7-point match with a double in its first game: post-Crawford,
    so game 2 (6–4) is no Crawford game and its double stands."""
    report = replay_text(POST_CRAWFORD)
    assert report.valid, report.errors
    assert report.crawford_game is None and report.score == (6, 5)
    assert [g.crawford for g in report.games] == [False, False]


def test_a_wrong_score_line_after_the_resumed_start_is_refused() -> None:
    text = resumed(text_of("gnubg_15pt_seed99.mat"), 4)
    game5 = text.index(" Game 5\n")
    score_line = text[game5:].splitlines()[1]
    broken = text.replace(score_line, score_line.replace(": ", ": 1", 1), 1)
    (error,) = replay_text(broken).errors
    assert error.kind == "score_mismatch"
    assert error.line == line_of(broken, " Game 5") + 1


# ---- old Mac line endings -------------------------------------------------------------------


def test_carriage_returns_alone() -> None:
    from games.registry import detect

    original = text_of("gnubg_7pt_seed11.mat")
    text = original.replace("\n", "\r")
    family = detect(text.encode())
    assert family is not None and family.key == "backgammon"
    assert outcome(replay_text(text.encode())) == outcome(replay_text(original))


# ---- gnubg's .sgf ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", SGF, ids=[p.name for p in SGF])
def test_gnubg_sgf_replays_as_its_own_mat_export(path: Path) -> None:
    """The same match saved by gnubg as .sgf and exported as .mat: the same games, score,
    winner and Crawford game."""
    sgf = replay_text(path.read_bytes())
    mat = replay_text(path.with_suffix(".mat").read_text())
    assert sgf.valid and not sgf.warnings
    assert (sgf.program, sgf.format) == ("GNU Backgammon", "sgf")
    assert outcome(sgf) == outcome(mat)


def test_sgf_reads_players_length_and_scores() -> None:
    record = read_sgf(text_of("gnubg_7pt_seed11.sgf"))
    assert record.length == 7 and record.players == ("gnubg", "root") and record.crawford
    assert [g.score for g in record.games] == [(0, 0), (4, 0), (6, 0)]
    mat = read_mat(text_of("gnubg_7pt_seed11.mat"))
    for sgf_game, mat_game in zip(record.games, mat.games, strict=True):
        assert [(a.player, a.kind, a.dice, a.moves) for a in sgf_game.actions[:6]] == [
            (a.player, a.kind, a.dice, tuple(plain(m) for m in a.moves))
            for a in mat_game.actions[:6]
        ]


def plain(move: str) -> str:
    """``25/22*`` as the SGF reader writes it: ``bar/22``."""
    parts = [p.rstrip("*") for p in move.split("/")]
    return "/".join({"25": "bar", "0": "off"}.get(p, p) for p in parts)


SGF_TEXT = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford]RE[B+1]\n"


def test_sgf_broken_play_result_and_crawford_are_refused_at_their_line() -> None:
    text = text_of("gnubg_3pt_seed42.sgf")
    bad_move = text.replace(";B[53qvsv]", ";B[53qvqv]", 1)  # 8/3 8/3 from one checker?
    report = replay_text(bad_move)
    # The illegal play the opponent let stand is a warning at its line (seed 002); the
    # checker it moved is then missing where a later play takes it from: an error.
    assert not report.valid and report.errors
    assert (report.warnings[0].msg.code, report.warnings[0].line) == ("bg.turn.illegal_stands", 2)
    wrong_result = text.replace("RE[B+6R]", "RE[B+5R]", 1)
    (error,) = replay_text(wrong_result).errors
    assert error.kind == "result_mismatch"
    crawford = text_of("gnubg_7pt_seed11.sgf")
    game3 = crawford.index("[game:2]")
    first_move = crawford.index("\n;", crawford.index("\n;", game3) + 1)
    doubled = crawford[:first_move] + "\n;W[double]" + crawford[first_move:]
    (error,) = replay_text(doubled).errors
    assert error.msg.code == "bg.cube.crawford"
    assert error.line == doubled[: first_move + 1].count("\n") + 1


def test_sgf_setup_and_other_games() -> None:
    setup = SGF_TEXT + ";AE[a]AB[b];B[31]\n)"
    (error,) = replay_text(setup).errors
    assert isinstance(error, RecordSyntaxError) and error.line == 2
    go = "(;FF[4]GM[1]SZ[19];B[pd];W[dp])"
    (error,) = replay_text(go).errors
    assert error.kind == "format" and "GM[1]" in error.message


def test_sgf_unclosed_is_a_syntax_error() -> None:
    (error,) = replay_text(SGF_TEXT + ";B[31hfge]").errors
    assert error.kind == "syntax" and error.msg.code == "bg.sgf.unclosed"


# ---- formats the site does not read ------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "name", "words"),
    [
        (b"RGMH\x00\x01\x02binary", "", "eXtreme Gammon"),
        (b"anything", "match.bgf", "BGBlitz"),
        (
            b"The score (after 0 games) is: gnubg 0, root 0 (match to 3 points)\n\n"
            b"Move number 1:  root to play 53\n\n GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n",
            "",
            "text export",
        ),
    ],
)
def test_an_unsupported_format_is_named(data: bytes, name: str, words: str) -> None:
    format_name = unsupported_format(data, name)
    assert format_name is not None and words in format_name
    report = replay_text(data, name=name)
    (error,) = report.errors
    assert error.kind == "format" and "which the site does not read" in error.message
    assert report_lines(report)[0].startswith("Record NOT read")


def test_a_broken_mat_is_not_called_another_format() -> None:
    assert unsupported_format(b" 3 point match\n\n Game 1\n garbage\n") is None


# ---- what a syntax error's report names ----------------------------------------------------


def test_a_syntax_error_names_the_length_and_players_read() -> None:
    text = replace_line(XG, "  2) 31: 8/5 6/5\n", "  2) 31: 8/5 what\n")
    report = replay_text(text)
    assert report.errors[0].kind == "syntax"
    assert (report.length, report.players, report.program) == (
        3,
        ("Alice", "Bob"),
        "eXtreme Gammon",
    )
    first = report_lines(report)[0]
    assert "3-point match" in first and "Alice – Bob" in first
    assert "no match length" not in first and "Player 1" not in first


# ---- the program named -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "program"),
    [
        ((("Site", "eXtreme Gammon"),), "eXtreme Gammon"),
        ((("Site", "XG Mobile"),), "eXtreme Gammon"),
        ((("Site", "BackgammonGalaxy"),), "BackgammonGalaxy"),
        ((("Transcriber", "BGBlitz 6.2"),), "BGBlitz"),
        ((("Site", "Backgammon Studio"),), "Backgammon Studio"),
        ((("Site", "FIBS"),), "FIBS"),
        ((), "gnubg/FIBS/JellyFish"),
    ],
)
def test_the_program_from_the_header(headers: tuple[tuple[str, str], ...], program: str) -> None:
    assert program_of(headers, "") == program


def test_the_program_from_a_free_comment() -> None:
    assert program_of((), "; exported by BGBlitz 6.2\n\n 3 point match\n") == "BGBlitz"


def test_the_report_names_the_program() -> None:
    assert replay_text(XG).to_dict()["program"] == "eXtreme Gammon"
    assert read_mat(XG).program == "eXtreme Gammon"
    forced = replay_text(XG, options=ReadOptions(program="bgblitz"))
    assert forced.program == "BGBlitz" and forced.to_dict()["format"] == "mat"


def test_sgf_money_session_with_the_jacoby_rule() -> None:
    """MI[length:0] is a money session; RU[Jacoby] the Jacoby rule (here the cube was
    turned, so the resigned backgammon counts its full 6)."""
    text = text_of("gnubg_3pt_seed42.sgf").replace("MI[length:3]", "MI[length:0]", 1)
    text = text.replace("RU[Crawford]", "RU[Jacoby]", 1)
    report = replay_text(text)
    assert report.valid and report.money and report.jacoby
    assert (report.length, report.winner, report.score) == (0, None, (0, 6))
