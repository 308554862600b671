"""Engine, scoring and verification messages in the reader's language.

The engine and scoring (pure Python) give every message a stable code and parameters
(``engine.messages``); a record's verdict, made here, has codes of its own
(:data:`VERDICTS`). This module renders them in the active language: pages and the API
call it while their reader's language is active (the API's comes from Accept-Language,
``web.middleware``). The English it renders is the engine's own text, so the CLI and the
stored verdict (English) read the same as an English page.

Rule numbers (``R5.3``, ``S1``) stay in the text in every language. A side is a
parameter holding ``White`` or ``Black`` and is translated; a parameter may be a nested
message (``{"code": …, "params": …}``), rendered first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import backgammon.messages  # noqa: F401  (registers backgammon's codes in MESSAGES)
import games.unread  # noqa: F401  (registers the codes of a file no game reads)
from engine.messages import Msg, Param
from matches.stored_report import stored_report

Params = Mapping[str, Any]


def _count(params: Params, key: str) -> int:
    value = params.get(key)
    return value if isinstance(value, int) else 0


# Code → the translated template for these parameters (``%(name)s`` placeholders).
TEMPLATES: dict[str, Callable[[Params], str]] = {
    "step.no_checker": lambda p: _("R4: %(side)s has no checker on point %(point)s (%(where)s)"),
    "step.no_checker_bar": lambda p: _("R4: %(side)s has no checker on the bar (%(where)s)"),
    "step.bar_first": lambda p: ngettext(
        "R6: %(side)s has %(count)s checker on the bar and must enter before moving %(where)s",
        "R6: %(side)s has %(count)s checkers on the bar and must enter before moving %(where)s",
        _count(p, "count"),
    ),
    "step.own_band": lambda p: _("R5.3: %(side)s may not make a band on point %(point)s"),
    "step.entry_own": lambda p: _(
        "R6: %(side)s may not enter onto own checkers on point %(point)s"
    ),
    "step.blocked": lambda p: _(
        "R5.1: %(side)s may not land on point %(point)s (%(where)s): %(other)s has a band "
        "there that may not be blasted (R9)"
    ),
    "step.blast_14": lambda p: _(
        "R9(c): %(side)s has borne off 14 checkers and may not blast %(other)s's band on "
        "point %(point)s (%(where)s)"
    ),
    "step.not_all_home": lambda p: _(
        "R7: %(side)s may bear off only with every checker on points 19–24 and none on the "
        "bar (%(where)s)"
    ),
    "step.not_rearmost": lambda p: _(
        "R7: a %(die)s bears %(side)s's checker off from point %(point)s only if it is the "
        "rearmost (the rearmost is on point %(rear)s)"
    ),
    "step.vasa_rearmost": lambda p: _(
        "R7 (%(rules)s): %(side)s may bear off only from the rearmost point (%(rear)s), not "
        "from %(point)s"
    ),
    "step.run": lambda p: _(
        "R5 (%(rules)s): %(side)s may not have more than five consecutive bands in "
        "%(other)s's path (%(where)s)"
    ),
    "step.illegal": lambda p: _("R4: illegal step %(where)s"),
    "step.no_die": lambda p: _(
        "R4: no die of %(dice)s left for %(side)s's step %(where)s (dice left: %(left)s)"
    ),
    "step.no_die_left": lambda p: _(
        "R4: no die of %(dice)s left for %(side)s's step %(where)s (dice left: none)"
    ),
    "step.backwards": lambda p: _(
        "R4: %(side)s's step %(where)s does not move forward on the board"
    ),
    "step.too_many": lambda p: _(
        "R3: %(side)s plays %(steps)s steps, but %(dice)s gives at most %(count)s"
    ),
    "step.after_end": lambda p: _(
        "%(rule)s: the game ended with %(what)s at %(side)s's step %(where)s; no further "
        "steps may be played"
    ),
    "value.points": lambda p: ngettext(
        "%(count)s point",
        "%(count)s points",
        _count(p, "count"),
    ),
    "value.dice": lambda p: ngettext(
        "%(count)s die (sum %(sum)s)",
        "%(count)s dice (sum %(sum)s)",
        _count(p, "count"),
    ),
    "play.r8": lambda p: _(
        "R8: %(side)s must play %(best)s with %(dice)s here, this play uses %(value)s (e.g. "
        "%(example)s)"
    ),
    "play.r10": lambda p: _(
        "R10: under %(rules)s a jan must come from a play that satisfies R8; %(side)s must "
        "play %(best)s with %(dice)s here (e.g. %(example)s), and these steps cannot be "
        "continued that far"
    ),
    "play.example_past_end": lambda p: _(
        "%(play)s, counted as if the game went on after %(end)s, which ends it"
    ),
    "game.over": lambda p: _("the game is over (%(outcome)s); no more turns may be played"),
    "game.over_resign": lambda p: _("the game is over (%(outcome)s); cannot resign"),
    "roll.bad": lambda p: _("R3: a roll is one or two dice of 1–6, not %(dice)s"),
    "roll.single_never": lambda p: _("R3: a single die is never allowed under %(rules)s (R13)"),
    "roll.single_not_here": lambda p: _(
        "R13: %(side)s may not roll a single die here (no single step of one checker "
        "completes a pattern)"
    ),
    "roll.single_must": lambda p: ngettext(
        (
            "R13: %(side)s must roll a single die this turn (%(count)s single-die turn left in "
            "the series)"
        ),
        (
            "R13: %(side)s must roll a single die this turn (%(count)s single-die turns left in "
            "the series)"
        ),
        _count(p, "count"),
    ),
    "resign.band": lambda p: _(
        "R14: %(side)s may not resign: %(side)s has had a band on points 13–24"
    ),
    "resign.janblotta": lambda p: _(
        "R14: %(side)s may not resign: %(side)s has had the janblotta out"
    ),
    "turn.after_end": lambda p: _(
        "%(rule)s: the game was already over (%(outcome)s); no more turns may follow"
    ),
    "turn.wrong_side": lambda p: _("it is %(side)s's turn, not %(other)s's (R3)"),
    "turn.position_side": lambda p: _(
        "the Position gives %(side)s the move, but %(other)s plays first"
    ),
    "turn.hit_claim": lambda p: _("R5.2: step %(step)s is marked * but hits nothing there"),
    "turn.json": lambda p: _("turn %(turn)s (%(letter)s): %(detail)s"),
    "starter.loser": lambda p: _(
        "wrong starter: %(side)s plays first, but the loser of game %(previous)s, %(loser)s, "
        "starts game %(game)s (R2, S5)"
    ),
    "starter.tek_loser": lambda p: _(
        "wrong starter: Tek %(tek)s gives %(side)s, but the loser of game %(previous)s, "
        "%(loser)s, starts game %(game)s (R2, S5)"
    ),
    "starter.named_loser": lambda p: _(
        "wrong starter: Starter: %(side)s, but the loser of game %(previous)s, %(loser)s, "
        "starts game %(game)s (R2, S5)"
    ),
    "starter.tek": lambda p: _(
        "wrong starter: Tek %(tek)s gives the first turn to %(side)s, but %(other)s plays "
        "first (R2: the lower tek die starts, S5)"
    ),
    "starter.named": lambda p: _(
        "wrong starter: Starter: %(side)s, but %(other)s plays first (R2, S5)"
    ),
    "game.no_opening": lambda p: _("game 1 must open with Tek, Starter or Position (R2)"),
    "result.not_ended": lambda p: _(
        "the record claims %(claimed)s, but the play has not ended the game"
    ),
    "result.differs": lambda p: _("the record claims %(claimed)s, but the play gives %(outcome)s"),
    "game.incomplete": lambda p: _(
        "game %(game)s is incomplete: the play does not end it and there is no Result"
    ),
    "record.bad_position": lambda p: _("bad Position: %(detail)s"),
    "record.bad_rules": lambda p: _("bad Rules/Addons tag: %(detail)s"),
    "record.bad_tag": lambda p: _("bad %(key)s tag: %(detail)s"),
    "record.bad_result": lambda p: _("bad Result line: %(detail)s"),
    "position.fields": lambda p: _(
        "a position has three fields separated by '|' (White, Black, side to move), got "
        "%(count)s: %(text)s"
    ),
    "position.field_start": lambda p: _("a board field starts with W or B: %(text)s"),
    "position.side_twice": lambda p: _("%(side)s is given twice in the position"),
    "position.item": lambda p: _("%(side)s: %(text)s is not 'point', 'point:count' or 'bar:count'"),
    "position.point_range": lambda p: _("%(side)s: point %(point)s is out of range (1–24 or bar)"),
    "position.point_twice": lambda p: _("%(side)s: point %(point)s is given twice"),
    "position.too_many_on": lambda p: _("%(side)s: %(count)s checkers on %(point)s, more than 15"),
    "position.too_many": lambda p: _("%(side)s has %(count)s checkers, more than 15"),
    "position.band_2_11": lambda p: _(
        "R5.3: %(side)s cannot have a band on point %(point)s (points 2–11)"
    ),
    "position.needs_both": lambda p: _("a position needs a White and a Black field"),
    "position.both_sides": lambda p: _(
        "White's point %(point)s (Black's %(other_point)s) holds checkers of both sides"
    ),
    "position.over_jan": lambda p: _("the position is already over: %(side)s is jan (R10)"),
    "position.over_off": lambda p: _(
        "the position is already over: %(side)s has borne off every checker"
    ),
    "position.band_7": lambda p: _(
        "R5.3: %(side)s cannot have a band on point 7 (a double-six stack exists only under "
        "board + double-six)"
    ),
    "position.run": lambda p: ngettext(
        (
            "R5 (%(rules)s): %(side)s cannot have more than %(count)s consecutive band in "
            "%(other)s's path"
        ),
        (
            "R5 (%(rules)s): %(side)s cannot have more than %(count)s consecutive bands in "
            "%(other)s's path"
        ),
        _count(p, "count"),
    ),
    "side.bad": lambda p: _("not a side: %(text)s (expected W, B, White or Black)"),
    "outcome.bad": lambda p: _(
        "not an outcome: %(text)s (expected hemspel, vackert, jan, sprängjan or uppgivet)"
    ),
    "outcome.pattern": lambda p: _("a pattern goes with vackert spel, and vackert spel needs one"),
    "outcome.munk": lambda p: _("munk applies only to hemspel and vackert spel (R11, R12)"),
    "outcome.words": lambda p: _("a result needs a winner and an outcome: %(text)s"),
    "outcome.word": lambda p: _("unexpected word %(word)s in result %(text)s"),
    "rules.unknown": lambda p: _("unknown rule set %(name)s (expected one of %(expected)s)"),
    "rules.unknown_addon": lambda p: _("unknown add-on %(name)s (expected one of %(expected)s)"),
    "rules.addons_board": lambda p: _(
        "add-ons (%(addons)s) exist only with rule set 'board', not %(name)s (R15)"
    ),
    "record.not_text": lambda p: _("a record is text or bytes, not %(type)s"),
    "record.not_utf8": lambda p: _("the record is not UTF-8 text (byte %(byte)s)"),
    "record.too_big": lambda p: _(
        "the record is larger than %(limit)s bytes (1 MB); it passes the limit on line %(line)s"
    ),
    "record.game1_opening": lambda p: _(
        "game 1 must open with Tek, Starter or Position (R2: the tek decides who starts the "
        "first game)"
    ),
    "record.one_opening": lambda p: _(
        "game %(game)s may open with only one of Tek, Starter or Position"
    ),
    "record.opening_late": lambda p: _("%(kind)s must come before the first turn of the game"),
    "record.turn_after_result": lambda p: _("a turn after the Result line"),
    "record.turn_after_resign": lambda p: _("a turn after %(side)s resigned"),
    "record.alternate": lambda p: _("sides must alternate: %(side)s is to play, not %(other)s"),
    "record.too_many_turns": lambda p: _("game %(game)s has more than %(limit)s turns"),
    "record.two_results": lambda p: _("game %(game)s has two Result lines"),
    "record.tag_line": lambda p: _('malformed tag line (expected [Key "Value"]): %(text)s'),
    "record.tags_first": lambda p: _("tags must come before the first game"),
    "record.game_number": lambda p: _(
        "expected 'Game %(expected)s', found 'Game %(found)s' (games count from 1 without gaps)"
    ),
    "record.expected_game": lambda p: _("expected a tag or 'Game 1', found %(text)s"),
    "record.not_a_line": lambda p: _("not a turn, result or game line: %(text)s"),
    "record.no_game": lambda p: _("the record holds no game (expected 'Game 1')"),
    "record.tag_twice": lambda p: _("tag %(key)s is given twice"),
    "record.tag_control": lambda p: _("tag %(key)s holds a control character"),
    "record.bad_tek": lambda p: _("bad Tek (expected two dice like 2-5): %(text)s"),
    "record.equal_tek": lambda p: _(
        "Tek %(tek)s: equal tek dice are re-rolled and not recorded (R2)"
    ),
    "record.bad_starter": lambda p: _("bad Starter (expected White or Black): %(text)s"),
    "record.die": lambda p: _("a die shows 1 to 6, not %(die)s"),
    "record.bad_step": lambda p: _(
        "bad step %(text)s (expected FROM/TO with points 1–24, bar, off)"
    ),
    "record.repeat": lambda p: _("a step can be repeated 1 to %(limit)s times, not %(times)s"),
    "record.step_to_bar": lambda p: _("a step cannot end on the bar"),
    "record.step_from_off": lambda p: _("a step cannot start from off"),
    "record.point": lambda p: _("points are numbered 1–24, not %(point)s"),
    "match.policy": lambda p: _(
        "S1: unknown resignation policy %(text)s (expected capped or forbidden)"
    ),
    "match.length_whole": lambda p: _("S1: a match length must be a whole number, not %(text)s"),
    "match.length_odd": lambda p: _(
        "S1: a match is played over an odd number of completed games (1, 3, 5, 7, …), not "
        "%(length)s"
    ),
    "match.length_max": lambda p: _(
        "S1: a match is played over at most %(limit)s completed games, not %(length)s"
    ),
    "match.length_tag": lambda p: _(
        "S1: the Length tag must be an odd whole number of games, not %(text)s"
    ),
    "match.scale": lambda p: _("S2: unknown scale %(text)s (expected ww, ny1 or ny2)"),
    "match.decided": lambda p: _(
        "S4: the match was decided after game %(decided)s (%(side)s won); game %(game)s must "
        "not be played"
    ),
    "match.no_resign": lambda p: _(
        "S1: resigning is not allowed in this match (policy 'forbidden'), but %(side)s "
        "resigned game %(game)s"
    ),
    "match.resign_cap": lambda p: ngettext(
        (
            "S1: each player may resign at most %(count)s game in a match of %(length)s; %(side)s "
            "has already resigned %(resigned)s and may not resign game %(game)s"
        ),
        (
            "S1: each player may resign at most %(count)s games in a match of %(length)s; "
            "%(side)s has already resigned %(resigned)s and may not resign game %(game)s"
        ),
        _count(p, "count"),
    ),
    "match.too_long": lambda p: ngettext(
        (
            "S1: this match can last at most %(count)s game (its length plus the resignations its "
            "policy allows); game %(game)s must not be played"
        ),
        (
            "S1: this match can last at most %(count)s games (its length plus the resignations "
            "its policy allows); game %(game)s must not be played"
        ),
        _count(p, "count"),
    ),
}

# Backgammon's codes (``backgammon.messages``); the seed's section names stay in Danish.
TEMPLATES.update(
    {
        "bg.cube.crawford": lambda p: _("no doubling in the Crawford game (Crawford rule)"),
        "bg.cube.pending": lambda p: _("a double is already awaiting an answer"),
        "bg.cube.not_on_roll": lambda p: _("only the player on roll may double (Dobleterningen)"),
        "bg.cube.after_roll": lambda p: _("a double comes before the roll (Dobleterningen)"),
        "bg.cube.not_owner": lambda p: _("only the cube's owner may redouble (Dobleterningen)"),
        "bg.cube.take_none": lambda p: _("a take with no double offered"),
        "bg.cube.take_own": lambda p: _("the doubler cannot take their own double"),
        "bg.cube.drop_none": lambda p: _("a drop with no double offered"),
        "bg.cube.drop_own": lambda p: _("the doubler cannot drop their own double"),
        "bg.cube.value": lambda p: _(
            "Doubles => %(value)s, but the cube is at %(cube)s (a double makes it %(doubled)s)"
        ),
        "bg.cube.crawford_game": lambda p: _(
            "game %(game)s is the Crawford game: no doubling in it, so the cube stays at 1 and "
            "no double can be dropped (Crawford rule)"
        ),
        "bg.turn.roll_after_end": lambda p: _("a roll after the game was over"),
        "bg.turn.roll_pending": lambda p: _("a roll while a double awaits an answer"),
        "bg.turn.roll_out_of_turn": lambda p: _("a roll out of turn"),
        "bg.turn.double_after_end": lambda p: _("a double after the game was over"),
        "bg.turn.double_before_roll": lambda p: _("a double before the opening roll"),
        "bg.turn.after_drop": lambda p: _("play after a dropped double"),
        "bg.turn.illegal_stands": lambda p: _(
            "illegal play %(dice)s: %(moves)s stands as played (Ugyldige slag og ulovlige ryk)"
        ),
        "bg.play.illegal": lambda p: _("%(dice)s: %(moves)s is not a legal play: %(reason)s"),
        "bg.play.too_many": lambda p: _("%(move)s: every die of %(dice)s is played already"),
        "bg.play.bar_first": lambda p: _(
            "%(move)s: a checker on the bar enters before any other checker moves (Flyt af brikker)"
        ),
        "bg.play.backwards": lambda p: _(
            "%(move)s: a checker moves forward only, to a lower point (Flyt af brikker)"
        ),
        "bg.play.not_home": lambda p: _(
            "%(move)s: checkers are borne off only once all of them are in the home board "
            "(Udtagning af brikker)"
        ),
        "bg.play.no_die": lambda p: ngettext(
            "%(move)s moves %(pips)s pip, and no die left shows that (dice left: %(left)s)",
            "%(move)s moves %(pips)s pips, and no die left shows that (dice left: %(left)s)",
            _count(p, "pips"),
        ),
        "bg.play.bear_off_higher": lambda p: _(
            "%(move)s: a %(die)s bears a checker off from a lower point only when no checker "
            "is on a higher point (Udtagning af brikker)"
        ),
        "bg.play.unused": lambda p: _(
            "both dice must be played if possible, else the higher one (Flyt af brikker)"
        ),
        "bg.move.no_point": lambda p: _("point %(point)s does not exist (0–25)"),
        "bg.move.bad": lambda p: _("not a move: %(move)s"),
        "bg.move.from_off": lambda p: _("%(move)s: a checker cannot come back from off"),
        "bg.move.to_bar": lambda p: _("%(move)s: a checker cannot move to the bar"),
        "bg.move.no_checker_bar": lambda p: _("%(move)s: no checker of the mover on the bar"),
        "bg.move.no_checker": lambda p: _("%(move)s: no checker of the mover on point %(point)s"),
        "bg.move.held": lambda p: _(
            "%(move)s: point %(point)s is held by %(count)s opposing checkers"
        ),
        "bg.game.no_wins": lambda p: _("the game ends without a 'Wins' line"),
        "bg.wins.resign": lambda p: _(
            "Wins %(claimed)s: a resignation gives 1, 2 or 3 times the cube (%(cube)s)"
        ),
        "bg.wins.loser_column": lambda p: _(
            "the 'Wins' line is in the loser's column (%(player)s)"
        ),
        "bg.wins.points": lambda p: ngettext(
            "Wins %(claimed)s point, but the game gives %(points)s",
            "Wins %(claimed)s points, but the game gives %(points)s",
            _count(p, "claimed"),
        ),
        "bg.wins.match_wrong": lambda p: _("'and the match' is wrong"),
        "bg.wins.cap": lambda p: _(
            "Wins %(claimed)s: a 'Wins' line less than the game's %(points)s points must be "
            "exactly what decides the match (%(needed)s needed, or the length %(length)s)"
        ),
        "bg.loss.points": lambda p: _(
            "Losses %(lost)s, but the game's 'Wins' line says %(claimed)s"
        ),
        "bg.loss.column": lambda p: _("the 'Losses' line is in the winner's column (%(player)s)"),
        "bg.loss.twice": lambda p: _("a second 'Losses' line in one game"),
        "bg.loss.no_wins": lambda p: _("a 'Losses' line must come before the game's 'Wins' line"),
        "bg.jacoby.points": lambda p: _(
            "Wins %(claimed)s: with the Jacoby rule a game won while the cube is centred counts 1"
        ),
        "bg.match.start": lambda p: _(
            "the first game's score line %(first)s–%(second)s is past the match length"
        ),
        "bg.turn.unplayed_not_last": lambda p: _(
            "a roll written '???' (never played) must be the game's last play, before the "
            "resignation's 'Wins' line"
        ),
        "bg.score.line": lambda p: _(
            "score line %(first)s–%(second)s, but the games before give "
            "%(before_first)s–%(before_second)s"
        ),
        "bg.match.after_end": lambda p: _("a game after the match was over"),
        "bg.match.after_length": lambda p: _(
            "game %(game)s after the match was over (the length is %(length)s points)"
        ),
        "bg.match.decided": lambda p: _(
            "game %(game)s after the match was decided: player %(player)s reached %(length)s "
            "points in game %(decided)s"
        ),
        "bg.match.length_whole": lambda p: _(
            "the match length must be a whole number of points, not %(length)s"
        ),
        "bg.match.length_range": lambda p: _(
            "a match is 1 to %(limit)s points long, not %(length)s"
        ),
        "bg.result.cube_whole": lambda p: _(
            "the cube's value must be a whole number, not %(value)s"
        ),
        "bg.result.cube_power": lambda p: _(
            "the cube's value is 1, 2, 4, 8, … (a power of two), not %(value)s"
        ),
        "bg.result.conceded": lambda p: _(
            "a resignation concedes a single game, a gammon or a backgammon"
        ),
        "bg.result.only_resign": lambda p: _(
            "only a resignation concedes; this game ended by %(ending)s"
        ),
        "bg.result.winner": lambda p: _("the winner is player 0 or 1, not %(winner)s"),
        "bg.result.fields": lambda p: _(
            "a backgammon game has no pattern, no munk and no game type"
        ),
        "bg.result.outcome": lambda p: _("no backgammon outcome %(outcome)s; known: %(known)s"),
        "bg.result.conceded_level": lambda p: _(
            "a resignation concedes single, gammon or backgammon, not %(conceded)s"
        ),
        "bg.mat.entry": lambda p: _("unrecognised entry %(text)s"),
        "bg.mat.move": lambda p: _("not a move: %(move)s"),
        "bg.mat.too_big": lambda p: _("the record is larger than %(limit)s bytes"),
        "bg.mat.second_length": lambda p: _("a second 'point match' line"),
        "bg.mat.game_first": lambda p: _("'Game' before the 'N point match' line"),
        "bg.mat.line": lambda p: _("unrecognised line %(text)s"),
        "bg.mat.score_line": lambda p: _("the score line 'Name : 0   Name : 0' expected"),
        "bg.mat.players": lambda p: _("players %(first)s and %(second)s, not %(one)s and %(two)s"),
        "bg.mat.two_entries": lambda p: _("more than two entries on one line"),
        "bg.mat.no_length": lambda p: _("no 'N point match' line"),
        "bg.mat.length": lambda p: _(
            "a %(length)s point match: a record's match is at most %(limit)s points long (0 "
            "is a money session)"
        ),
        "bg.mat.game_number": lambda p: _(
            "expected 'Game %(expected)s', found 'Game %(found)s' (games count from 1 without gaps)"
        ),
        "bg.read.resumed": lambda p: _(
            "game %(game)s starts at %(first)s–%(second)s: read as a match resumed"
        ),
        "bg.read.resumed_number": lambda p: _(
            "the first game is game %(game)s, not game 1: read as a match resumed"
        ),
        "bg.read.forfeit": lambda p: _(
            "Wins %(points)s with the game unfinished: read as the match awarded by forfeit "
            "(the loser left)"
        ),
        "bg.read.split_row": lambda p: _(
            "row %(row)s holds a second row %(row)s (its number repeated): read as two rows"
        ),
        "bg.read.clock": lambda p: _(
            "%(text)s is not a clock line below a row (; [%%clk 0h01m52s 0h01m40s]): its "
            "times are ignored"
        ),
        "bg.sgf.syntax": lambda p: _("not SGF at %(text)s"),
        "bg.sgf.unclosed": lambda p: _("the SGF file ends inside a game (a ')' is missing)"),
        "bg.sgf.no_game": lambda p: _("the SGF file holds no game"),
        "bg.sgf.match_info": lambda p: _(
            "the game's MI[length:N][ws:N][bs:N] (match length and score) is missing"
        ),
        "bg.sgf.setup": lambda p: _(
            "a position set up by hand (%(prop)s) cannot be replayed from the start"
        ),
        "bg.sgf.result": lambda p: _("not a result: %(text)s (expected RE[W+1], RE[B+2R] …)"),
        "bg.sgf.move": lambda p: _("not a move, double, take or drop: %(text)s"),
        "bg.format.unsupported": lambda p: _(
            "this is %(format)s, which the site does not read: export the match from the "
            "program as a .mat text file (or save it in gnubg as .sgf)"
        ),
        "bg.rec.game_tag": lambda p: _('a backgammon record opens with [Game "backgammon"]'),
        "bg.rec.length": lambda p: _("the Length tag is the match length in points, not %(text)s"),
        "bg.rec.game_number": lambda p: _(
            "expected 'Game %(expected)s', found 'Game %(found)s' (games count from 1 without gaps)"
        ),
        "bg.rec.no_game_yet": lambda p: _("an entry before 'Game 1'"),
        "bg.rec.after_end": lambda p: _("an entry after the game's result (wins or resigns)"),
        "bg.rec.player": lambda p: _("a player is 1 or 2, not %(player)s"),
        "bg.rec.resign": lambda p: _(
            "a resignation gives up 1, 2 or 3 times the cube, not %(value)s"
        ),
        "bg.rec.no_game": lambda p: _("the record holds no game (expected 'Game 1')"),
        "bg.rec.tag_line": lambda p: _('malformed tag line (expected [Key "Value"]): %(text)s'),
        "bg.rec.tags_first": lambda p: _("tags must come before the first game"),
        "bg.rec.line": lambda p: _("not a roll, cube action, resignation or result: %(text)s"),
        "bg.rec.json": lambda p: _("bad JSON record: %(detail)s"),
        "record.not_a_record": lambda p: _(
            "not a game record the site reads: it reads bräde records (text or JSON), "
            "backgammon matches as .mat or .txt files (%(programs)s), gnubg's .sgf files and "
            "backgammon's own text or JSON form"
        ),
        "record.encoding": lambda p: _(
            "the file is %(encoding)s text: save it as UTF-8 (plain text) and submit it again"
        ),
    }
)

# A record's verdict (``matches.records``): each is one sentence of the stored message.
VERDICTS: dict[str, Callable[[Params], str]] = {
    "verdict.error": lambda p: _("%(error)s"),
    "verdict.error_game": lambda p: _("game %(game)s: %(error)s"),
    "verdict.error_line": lambda p: _("line %(line)s: %(error)s"),
    "verdict.error_game_line": lambda p: _("game %(game)s, line %(line)s: %(error)s"),
    "verdict.not_valid": lambda p: _("the record is not valid"),
    "verdict.rules": lambda p: _(
        "The record was checked under the %(record)s rules, but this tournament plays "
        '%(rules)s. Add [Rules "%(rules)s"] and submit again.'
    ),
    "verdict.rules_no_tag": lambda p: _(
        "The record was checked under the %(record)s rules (the record has no Rules tag), "
        'but this tournament plays %(rules)s. Add [Rules "%(rules)s"] and submit again.'
    ),
    "verdict.scale": lambda p: _("The record's scale is %(scale)s; this tournament uses %(ours)s."),
    "verdict.length": lambda p: ngettext(
        "The record's match length is %(record)s; this match is played over %(length)s game.",
        "The record's match length is %(record)s; this match is played over %(length)s games.",
        _count(p, "length"),
    ),
    "verdict.length_points": lambda p: ngettext(
        "The record's match is to %(record)s points; this match is played to %(length)s point.",
        "The record's match is to %(record)s points; this match is played to %(length)s points.",
        _count(p, "length"),
    ),
    "verdict.mat_players": lambda p: _(
        "The record's players (“%(first)s” and “%(second)s”) are not this match's players "
        "(%(one)s and %(two)s)."
    ),
    "verdict.result": lambda p: _(
        "Game %(game)s: the record gives “%(claimed)s”, but the entered result is "
        "“%(entered)s”. A referee should check the game and correct whichever is wrong."
    ),
    "verdict.warnings": lambda p: ngettext(
        "%(count)s illegal move stands as played (the opponent rolled after it); see the warnings.",
        "%(count)s illegal moves stand as played (the opponent rolled after them); see the "
        "warnings.",
        _count(p, "count"),
    ),
    "verdict.players": lambda p: _(
        "The record's players (White “%(white)s”, Black “%(black)s”) are not this "
        "match's players (%(one)s and %(two)s)."
    ),
    "verdict.outcome": lambda p: _(
        "Game %(game)s: the record gives “%(claimed_player)s (%(claimed_side)s) "
        "%(claimed)s”, but the entered result is “%(entered_player)s (%(entered_side)s) "
        "%(entered)s”. A referee should check the game and correct whichever is wrong."
    ),
    "verdict.entry_refused": lambda p: _("Game %(game)s: %(message)s"),
    "verdict.agree": lambda p: ngettext(
        "%(count)s game agrees with the entered results",
        "%(count)s games agree with the entered results",
        _count(p, "count"),
    ),
    "verdict.agree_short": lambda p: ngettext(
        "%(count)s game agrees", "%(count)s games agree", _count(p, "count")
    ),
    "verdict.were_entered": lambda p: ngettext(
        "%(count)s game was entered from the record",
        "%(count)s games were entered from the record",
        _count(p, "count"),
    ),
    "verdict.verified": lambda p: _("Verified; %(agree)s."),
    "verdict.recorded_live": lambda p: ngettext(
        "Verified as it was recorded: every turn of its %(count)s game was checked by the "
        "engine as it was played.",
        "Verified as it was recorded: every turn of its %(count)s games was checked by the "
        "engine as it was played.",
        _count(p, "count"),
    ),
    # An illegal move the opponent accepted at the table (a game recorded live).
    "verdict.accepted_live": lambda p: ngettext(
        "%(count)s illegal move was accepted as played by the opponent; see the warnings.",
        "%(count)s illegal moves were accepted as played by the opponent; see the warnings.",
        _count(p, "count"),
    ),
    "verdict.entered": lambda p: _("Verified; %(agree)s and %(entered)s."),
    # No game was entered before the record: nothing to agree with, only the entered.
    "verdict.entered_only": lambda p: _("Verified; %(entered)s."),
    "verdict.extra_one": lambda p: _(
        "Game %(first)s is in the record but not entered; a referee enters it (or submits "
        "this record)."
    ),
    "verdict.extra_many": lambda p: _(
        "Games %(first)s–%(last)s are in the record but not entered; a referee enters them "
        "(or submits this record)."
    ),
    # A verification that ended without a verdict (``game_record_release``, a crash).
    "verdict.too_slow": lambda p: ngettext(
        "Verification took longer than the limit of %(seconds)s second",
        "Verification took longer than the limit of %(seconds)s seconds",
        _count(p, "seconds"),
    ),
    "verdict.retry": lambda p: _(
        "%(reason)s (attempt %(attempt)s of %(attempts)s); it will be retried."
    ),
    "verdict.stopped": lambda p: _(
        "%(reason)s; verification has stopped. An administrator has to look at this record."
    ),
    "verdict.stopped_each": lambda p: ngettext(
        "%(reason)s on its %(count)s attempt; verification has stopped. An administrator "
        "has to look at this record.",
        "%(reason)s on each of its %(count)s attempts; verification has stopped. An "
        "administrator has to look at this record.",
        _count(p, "count"),
    ),
    "verdict.crashed": lambda p: _(
        "The verifier crashed (%(error)s); an administrator has to look at this record."
    ),
    # Every attempt died before this one could start (``record_queue``'s claim).
    "verdict.gave_up": lambda p: ngettext(
        "Verification stopped after %(count)s attempt: the verifier crashed or ran out of "
        "time. An administrator has to look at this record.",
        "Verification stopped after %(count)s attempts: the verifier crashed or ran out of "
        "time each time. An administrator has to look at this record.",
        _count(p, "count"),
    ),
}


def _side(value: str) -> str:
    if value == "White":
        return _("White")
    if value == "Black":
        return _("Black")
    return value


def _value(value: Any) -> Any:
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, Mapping) and "code" in value:
        return render(Msg.from_dict(value))
    if isinstance(value, str):
        return _side(value)
    return value


def render(message: Msg) -> str:
    """``message`` in the active language; its English text for a code not known here."""
    if message.code == "text":
        return str(message.params.get("text", ""))
    template = TEMPLATES.get(message.code) or VERDICTS.get(message.code)
    if template is None:
        return message.text()
    values = {key: _value(value) for key, value in message.params.items()}
    return template(message.params) % values


def render_dict(data: Mapping[str, Any]) -> str:
    """A stored ``{"code": …, "params": …}`` in the active language."""
    return render(Msg.from_dict(data))


def verdict(code: str, /, **params: Param) -> Msg:
    """One sentence of a record's verdict (a code of :data:`VERDICTS`)."""
    assert code in VERDICTS, code
    return Msg(code, params)


def verdict_text(sentences: Iterable[Msg]) -> str:
    """The verdict's sentences in the active language, as one text."""
    return " ".join(render(s) for s in sentences)


def error_text(error: Mapping[str, Any] | None) -> str:
    """A stored report's ``error`` in the active language: from its code and parameters
    when the report has them, else its English ``message`` (an older report)."""
    if not error:
        return ""
    if isinstance(error.get("code"), str):
        return render_dict(error)
    return str(error.get("message") or "")


def submission_text(sub: Any) -> str:
    """A submission's verdict (``sub.message``) in the active language, from the codes
    kept in its report (``report["verdict"]``); the stored English where there are none
    (a record still waiting, a verification that failed, an older record)."""
    stored = stored_report(sub).get("verdict")
    if isinstance(stored, list) and stored and all(isinstance(s, Mapping) for s in stored):
        return verdict_text(Msg.from_dict(s) for s in stored)
    return str(sub.message or "")
