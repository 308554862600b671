"""The codes of a backgammon or kungabräde match's explanation and their English.

As ``scoring.explain_messages`` for bräde: the families' ``explain`` returns coded
:class:`engine.messages.Msg` values, worded at the edge in the reader's language through
gettext (``matches.explain_text``); :meth:`Msg.text` gives the English below. Players are
their names as the caller gave them.
"""

from __future__ import annotations

from engine.messages import Msg, Param, Plural, register_apart

# Code → English template.
MESSAGES: dict[str, str | Plural] = {
    # ---- backgammon: a match to a number of points, with the Crawford game
    "bg.explain.score": "Score: {one} {one_points}, {two} {two_points} of {length} points.",
    "bg.explain.won": "{winner} reached {length} points in game {game} and won the match.",
    "bg.explain.needs": Plural(
        "{player} needs {count} more point.", "{player} needs {count} more points.", "count"
    ),
    "bg.explain.crawford_next": "The next game is the Crawford game: no one may double in it.",
    "bg.explain.crawford_was": "Game {game} was the Crawford game (no doubling).",
    # ---- kungabräde: the best of an odd number of games
    "kb.explain.score": "Games won: {one} {one_wins}, {two} {two_wins} (best of {length}).",
    "kb.explain.won": "{winner} won {needed} games and the match.",
    "kb.explain.needs": Plural(
        "{player} needs {count} more win.", "{player} needs {count} more wins.", "count"
    ),
}

register_apart(MESSAGES)


def msg(code: str, /, **params: Param) -> Msg:
    """``Msg(code, params)`` for a code of :data:`MESSAGES`."""
    assert code in MESSAGES, code
    return Msg(code, params)
