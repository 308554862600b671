"""The codes of a match's explanation (``scoring.explain``) and their English.

``scoring.explain`` says where a match stands as :class:`engine.messages.Msg` values: a
code of :data:`MESSAGES` and its parameters, sentences built from smaller messages (a
count of games, the list of wins, a player's name). The words are chosen at the edge, in
the reader's language through gettext (``matches.explain_text``); :meth:`Msg.text` gives
the English below, and the catalogue is registered apart from the engines' codes
(``engine.messages.register_apart``) as the stages' is.

Parameters: a player is a name (``str``) or, when the caller gave none, ``explain.white`` /
``explain.black``; points and tiebreaks are written as the scale writes them (``4+``,
``±0``); a tiebreak's name (``skiljepoäng``, ``plus-minus``) is the scale's term, the same
in every language. ``explain.genitive`` is a name's possessive, which each language forms
by its own rule at the edge (the English here ignores names ending in s).
"""

from __future__ import annotations

from engine.messages import Msg, Param, Plural, register_apart

# Code → English template. The texts that are the same in every language (the score,
# a list's comma, a sentence's full stop) are marked at the edge as such.
MESSAGES: dict[str, str | Plural] = {
    # ---- the players when the caller names none
    "explain.white": "White",
    "explain.black": "Black",
    "explain.genitive": "{name}'s",
    # ---- counts and lists
    "explain.games": Plural("{count} game", "{count} games", "count"),
    "explain.points": Plural("{count} point", "{count} points", "count"),
    "explain.list_comma": "{first}, {last}",
    "explain.list_and": "{first} and {last}",
    "explain.win.hemspel": "hemspel",
    "explain.win.munk": "hemspel with munk",
    "explain.win.jan": "jan",
    # ---- which of the games left (r is the count)
    "explain.last_game": "the last game",
    "explain.in_last_game": "in the last game",
    "explain.both_remaining": "both remaining games",
    "explain.all_remaining": "all {count} remaining games",
    "explain.the_remaining": "the remaining {count} games",
    "explain.each_remaining": "each of the {count} remaining games",
    "explain.in_each_remaining": "in each of the {count} remaining games",
    "explain.some_remaining": "{wins} of the {count} remaining games",
    # ---- the standing (first sentence)
    "explain.best_of": Plural(
        "Best of {count} completed game ({scale})",
        "Best of {count} completed games ({scale})",
        "count",
    ),
    "explain.score": "{white} {white_points}, {black} {black_points}",
    "explain.score_skiljepoang": (
        "{white} {white_points}, {black} {black_points}; skiljepoäng {white_tiebreak}–"
        "{black_tiebreak}"
    ),
    "explain.not_started": "{best}: no game played yet.",
    "explain.standing": "{best}, after {played} ({completed} completed): {score}; {left} left.",
    # ---- a decided match (S3, S4)
    "explain.against": "{lead} against {trail}",
    "explain.leads_on": "{leader} leads {pair} on {tiebreak}",
    "explain.won_on_points": "{winner} wins the match {winner_points} to {loser_points}.",
    "explain.won_on_tiebreak": (
        "Level at {winner_points}–{loser_points} on points after all {length} completed "
        "games; {lead}, so {winner} wins the match."
    ),
    "explain.decided": "{winner} has won the match: it was decided after game {game}.",
    "explain.cannot_win": "{loser} cannot win any more, not even with sprängjan in {games}.",
    "explain.sprangjan_level": (
        "{loser} needs a sprängjan: even a jan {where} gives {loser_points}–{winner_points}, "
        "and {lead}."
    ),
    "explain.sprangjan_behind": (
        "{loser} needs a sprängjan: even a jan {where} gives {loser} only {points} against "
        "{winner_genitive} {winner_points}."
    ),
    # ---- an open match: what each player needs (S3 on net points)
    "explain.behind": (
        "{player} is {points} behind and must outscore {opponent} by at least {need} over {games}"
    ),
    "explain.level": "Level on points: {player} must outscore {opponent} over {games}",
    "explain.lead_one": (
        "{player} leads by 1 point and wins if {opponent} does not outscore {player} over {games}"
    ),
    "explain.lead": (
        "{player} leads by {points} and wins if {opponent} outscores {player} by less than "
        "{lead} over {games}"
    ),
    "explain.sentence": "{text}.",
    "explain.gains": "{player} gains at least {need} more {tiebreak} than {opponent}",
    "explain.keeps": "{opponent} does not gain {limit} or more {tiebreak} on {player}",
    "explain.or_exactly_ahead": "{main}, or by exactly {lead} if {condition}.",
    "explain.or_level": "{main}, or score the same, which is enough if {condition}.",
    "explain.or_exactly_behind": "{main}, or by exactly {deficit}, which is enough if {condition}.",
    # ---- an open match: an example of the fewest wins
    "explain.safe": "{player} wins even if {opponent} wins {games} with hemspel.",
    "explain.example": "For example {player} wins by winning {games} ({wins}){rest}.",
    "explain.others_by_hemspel": Plural(
        ", with {opponent} winning the other by hemspel",
        ", with {opponent} winning the others by hemspel",
        "count",
    ),
}

register_apart(MESSAGES)


def msg(code: str, /, **params: Param) -> Msg:
    """``Msg(code, params)`` for a code of :data:`MESSAGES`."""
    assert code in MESSAGES, code
    return Msg(code, params)
