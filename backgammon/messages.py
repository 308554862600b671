"""The backgammon engine's messages: a stable code, parameters and the English text.

As for bräde (``engine.messages``), every error and warning the backgammon engine reports
carries a :class:`engine.messages.Msg`: a code (``"bg.cube.crawford"``), its parameters and,
made from the two, the English text of :data:`MESSAGES`. The CLI and the stored verdict use
the English; the pages and the API render the code in their reader's language
(``matches.engine_text``). The seed's section named in a message (``Dobleterningen``,
``Ugyldige slag og ulovlige ryk``, ``Crawford rule``) stays in every language.

The codes are registered in ``engine.messages.MESSAGES`` when this module is imported (it
is imported by ``backgammon.errors``), so one :class:`Msg` type serves both engines.
"""

from __future__ import annotations

from engine.messages import Msg, Param, Plural, register

# Code → English template (str.format). Codes are stable: stored reports refer to them.
MESSAGES: dict[str, str | Plural] = {
    # ---- the cube (cube.py, replay.py; seed 002 "Dobleterningen", the Crawford rule)
    "bg.cube.crawford": "no doubling in the Crawford game (Crawford rule)",
    "bg.cube.pending": "a double is already awaiting an answer",
    "bg.cube.not_on_roll": "only the player on roll may double (Dobleterningen)",
    "bg.cube.after_roll": "a double comes before the roll (Dobleterningen)",
    "bg.cube.not_owner": "only the cube's owner may redouble (Dobleterningen)",
    "bg.cube.take_none": "a take with no double offered",
    "bg.cube.take_own": "the doubler cannot take their own double",
    "bg.cube.drop_none": "a drop with no double offered",
    "bg.cube.drop_own": "the doubler cannot drop their own double",
    "bg.cube.value": (
        "Doubles => {value}, but the cube is at {cube} (a double makes it {doubled})"
    ),
    "bg.cube.crawford_game": (
        "game {game} is the Crawford game: no doubling in it, so the cube stays at 1 and no "
        "double can be dropped (Crawford rule)"
    ),
    # ---- turns in a replay (replay.py)
    "bg.turn.roll_after_end": "a roll after the game was over",
    "bg.turn.roll_pending": "a roll while a double awaits an answer",
    "bg.turn.roll_out_of_turn": "a roll out of turn",
    "bg.turn.double_after_end": "a double after the game was over",
    "bg.turn.double_before_roll": "a double before the opening roll",
    "bg.turn.after_drop": "play after a dropped double",
    "bg.turn.illegal_stands": (
        "illegal play {dice}: {moves} stands as played (Ugyldige slag og ulovlige ryk)"
    ),
    # ---- why a play is illegal (illegal.py; seed 002 "Flyt af brikker", "Udtagning af brikker")
    "bg.play.illegal": "{dice}: {moves} is not a legal play: {reason}",
    "bg.play.too_many": "{move}: every die of {dice} is played already",
    "bg.play.bar_first": (
        "{move}: a checker on the bar enters before any other checker moves (Flyt af brikker)"
    ),
    "bg.play.backwards": "{move}: a checker moves forward only, to a lower point (Flyt af brikker)",
    "bg.play.not_home": (
        "{move}: checkers are borne off only once all of them are in the home board "
        "(Udtagning af brikker)"
    ),
    "bg.play.no_die": Plural(
        "{move} moves {pips} pip, and no die left shows that (dice left: {left})",
        "{move} moves {pips} pips, and no die left shows that (dice left: {left})",
        "pips",
    ),
    "bg.play.bear_off_higher": (
        "{move}: a {die} bears a checker off from a lower point only when no checker is on a "
        "higher point (Udtagning af brikker)"
    ),
    "bg.play.unused": (
        "both dice must be played if possible, else the higher one (Flyt af brikker)"
    ),
    # ---- moves that cannot be carried out at all (replay.py)
    "bg.move.no_point": "point {point} does not exist (0–25)",
    "bg.move.bad": "not a move: {move}",
    "bg.move.from_off": "{move}: a checker cannot come back from off",
    "bg.move.to_bar": "{move}: a checker cannot move to the bar",
    "bg.move.no_checker_bar": "{move}: no checker of the mover on the bar",
    "bg.move.no_checker": "{move}: no checker of the mover on point {point}",
    "bg.move.held": "{move}: point {point} is held by {count} opposing checkers",
    # ---- results and scores (replay.py, match.py)
    "bg.game.no_wins": "the game ends without a 'Wins' line",
    "bg.wins.resign": "Wins {claimed}: a resignation gives 1, 2 or 3 times the cube ({cube})",
    "bg.wins.loser_column": "the 'Wins' line is in the loser's column ({player})",
    "bg.wins.points": Plural(
        "Wins {claimed} point, but the game gives {points}",
        "Wins {claimed} points, but the game gives {points}",
        "claimed",
    ),
    "bg.wins.match_wrong": "'and the match' is wrong",
    "bg.wins.cap": (
        "Wins {claimed}: a 'Wins' line less than the game's {points} points must be exactly "
        "what decides the match ({needed} needed, or the length {length})"
    ),
    "bg.loss.points": "Losses {lost}, but the game's 'Wins' line says {claimed}",
    "bg.loss.column": "the 'Losses' line is in the winner's column ({player})",
    "bg.loss.twice": "a second 'Losses' line in one game",
    "bg.loss.no_wins": "a 'Losses' line must come before the game's 'Wins' line",
    "bg.jacoby.points": (
        "Wins {claimed}: with the Jacoby rule a game won while the cube is centred counts 1"
    ),
    "bg.match.start": "the first game's score line {first}–{second} is past the match length",
    "bg.turn.unplayed_not_last": (
        "a roll written '???' (never played) must be the game's last play, before the "
        "resignation's 'Wins' line"
    ),
    "bg.score.line": (
        "score line {first}–{second}, but the games before give {before_first}–{before_second}"
    ),
    "bg.match.after_end": "a game after the match was over",
    "bg.match.after_length": "game {game} after the match was over (the length is {length} points)",
    "bg.match.decided": (
        "game {game} after the match was decided: player {player} reached {length} points in "
        "game {decided}"
    ),
    "bg.match.length_whole": "the match length must be a whole number of points, not {length}",
    "bg.match.length_range": "a match is 1 to {limit} points long, not {length}",
    # ---- entered results (match.py)
    "bg.result.cube_whole": "the cube's value must be a whole number, not {value}",
    "bg.result.cube_power": "the cube's value is 1, 2, 4, 8, … (a power of two), not {value}",
    "bg.result.conceded": "a resignation concedes a single game, a gammon or a backgammon",
    "bg.result.only_resign": "only a resignation concedes; this game ended by {ending}",
    "bg.result.winner": "the winner is player 0 or 1, not {winner}",
    # ---- a result as entered, checked by the backgammon family (games/backgammon.py)
    "bg.result.fields": "a backgammon game has no pattern, no munk and no game type",
    "bg.result.outcome": "no backgammon outcome {outcome}; known: {known}",
    "bg.result.conceded_level": (
        "a resignation concedes single, gammon or backgammon, not {conceded}"
    ),
    # ---- .mat syntax (mat.py)
    "bg.mat.entry": "unrecognised entry {text}",
    "bg.mat.move": "not a move: {move}",
    "bg.mat.too_big": "the record is larger than {limit} bytes",
    "bg.mat.second_length": "a second 'point match' line",
    "bg.mat.game_first": "'Game' before the 'N point match' line",
    "bg.mat.line": "unrecognised line {text}",
    "bg.mat.score_line": "the score line 'Name : 0   Name : 0' expected",
    "bg.mat.players": "players {first} and {second}, not {one} and {two}",
    "bg.mat.two_entries": "more than two entries on one line",
    "bg.mat.no_length": "no 'N point match' line",
    "bg.mat.length": (
        "a {length} point match: a record's match is at most {limit} points long (0 is a "
        "money session)"
    ),
    "bg.mat.game_number": (
        "expected 'Game {expected}', found 'Game {found}' (games count from 1 without gaps)"
    ),
    # ---- what the reader read one way of two, reported as a warning on its line
    "bg.read.resumed": "game {game} starts at {first}–{second}: read as a match resumed",
    "bg.read.resumed_number": (
        "the first game is game {game}, not game 1: read as a match resumed"
    ),
    "bg.read.forfeit": (
        "Wins {points} with the game unfinished: read as the match awarded by forfeit "
        "(the loser left)"
    ),
    "bg.read.split_row": (
        "row {row} holds a second row {row} (its number repeated): read as two rows"
    ),
    "bg.read.clock": (
        "{text} is not a clock line below a row (; [%clk 0h01m52s 0h01m40s]): its times are ignored"
    ),
    # ---- gnubg's .sgf (sgf.py)
    "bg.sgf.syntax": "not SGF at {text}",
    "bg.sgf.unclosed": "the SGF file ends inside a game (a ')' is missing)",
    "bg.sgf.no_game": "the SGF file holds no game",
    "bg.sgf.match_info": "the game's MI[length:N][ws:N][bs:N] (match length and score) is missing",
    "bg.sgf.setup": "a position set up by hand ({prop}) cannot be replayed from the start",
    "bg.sgf.result": "not a result: {text} (expected RE[W+1], RE[B+2R] …)",
    "bg.sgf.move": "not a move, double, take or drop: {text}",
    # ---- formats the site recognises but does not read (dialects.py)
    "bg.format.unsupported": (
        "this is {format}, which the site does not read: export the match from the program "
        "as a .mat text file (or save it in gnubg as .sgf)"
    ),
    # ---- the project's own text and JSON form (record.py)
    "bg.rec.game_tag": 'a backgammon record opens with [Game "backgammon"]',
    "bg.rec.length": "the Length tag is the match length in points, not {text}",
    "bg.rec.game_number": (
        "expected 'Game {expected}', found 'Game {found}' (games count from 1 without gaps)"
    ),
    "bg.rec.no_game_yet": "an entry before 'Game 1'",
    "bg.rec.after_end": "an entry after the game's result (wins or resigns)",
    "bg.rec.player": "a player is 1 or 2, not {player}",
    "bg.rec.resign": "a resignation gives up 1, 2 or 3 times the cube, not {value}",
    "bg.rec.no_game": "the record holds no game (expected 'Game 1')",
    "bg.rec.tag_line": 'malformed tag line (expected [Key "Value"]): {text}',
    "bg.rec.tags_first": "tags must come before the first game",
    "bg.rec.line": "not a roll, cube action, resignation or result: {text}",
    "bg.rec.json": "bad JSON record: {detail}",
}

register(MESSAGES)


def bg_msg(code: str, /, **params: Param) -> Msg:
    """``Msg(code, params)`` for a backgammon code of :data:`MESSAGES`."""
    assert code in MESSAGES, code
    return Msg(code, params)
