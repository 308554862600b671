"""Recorded turns and positions in the reader's words.

A record keeps its own words in every language (game-record.md: the sides ``W``/``B``,
the places ``bar`` and ``off``, a position as ``W 1:15 | B 1:15 | W``); the pages show
them to people with the players' names, the bar and "off" in the reader's language and a
position as a sentence. Only the showing changes: the record, its replay and what is
stored stay as they are.

- :func:`turn_words`: a bräde turn line (``W 6-4: bar/4 1/7``) as ``Anna Ek 6-4: balken/4
  1/7`` (Swedish) or ``Anna Ek 6-4: bar/4 1/7`` (English and Danish: the Danish
  federation writes ``bar`` and ``ud``, as in ``4/ud``); a resignation as ``Anna Ek
  resigns``; a roll that could not be played as "no move possible".
- :func:`play_words`: the play of a turn, bräde's or a ``.mat`` roll's (``25/22 6/off``),
  with ``bar`` and ``off`` in the reader's words; points, chains, ``*`` (a hit) and
  ``(n)`` (a step repeated) are the same in every language.
- :func:`position_words`: ``Anna Ek has 13 on point 1, 2 on point 7 and 1 on the bar; Bo
  Lind has …`` — each player's checkers in their own numbering, as their moves are
  written (rules.md R1).

The digital scoresheet's move list and the live board's caption write a recorded turn of
the live state in the same words (``LiveBoard.turnWords`` in
``web/static/web/live-board.js``), from :func:`script_words`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.frames_brade import Position, TurnRecord, checkers_of, play_of
from games.seats import Side

__all__ = ["place_words", "play_words", "position_words", "script_words", "turn_words"]

# ``bar`` and ``off`` as whole words of a play (``bar/4``, ``21/off``, ``6/off*`` never
# happens but would read the same); a point number, ``*`` and ``(n)`` are left alone.
_PLACE = re.compile(r"\b(bar|off)\b", re.IGNORECASE)


def place_words() -> dict[str, str]:
    """The record's two named places in the reader's words, as a move writes them."""
    return {
        "bar": pgettext("a place in a written move", "bar"),
        "off": pgettext("a place in a written move", "off"),
    }


def play_words(play: str) -> str:
    """A written play (``bar/4 1/7*``, ``6/off(2)``) with its places in the reader's
    words; ``-`` or nothing (the whole roll forfeited) as "no move possible"."""
    play = play.strip()
    if play in ("", "-"):
        return _("no move possible")
    words = place_words()
    return _PLACE.sub(lambda found: words[found.group(1).lower()], play)


def script_words() -> dict[str, Any]:
    """What ``LiveBoard.turnWords`` writes a turn of the live state with (the same words as
    :func:`turn_words`, and the live game's other actions)."""
    return {
        "places": place_words(),
        "no_move": _("no move possible"),
        "play": _("%(name)s %(dice)s: %(play)s"),
        # bräde's tek and backgammon's opening roll: player 0's die first
        "tek": _("Tek: %(one)s %(a)s, %(two)s %(b)s"),
        "opening": _("Opening roll: %(one)s %(a)s, %(two)s %(b)s"),
        "starts": _("%(name)s starts"),
        "rolls": _("%(name)s rolls %(dice)s"),
        "doubles": _("%(name)s doubles to %(value)s"),
        "actions": {
            "double": _("%(name)s doubles"),
            "take": _("%(name)s takes"),
            "drop": _("%(name)s drops"),
            "resign": _("%(name)s resigns"),
            # the clock's flag fall (scoresheets.clock)
            "flag": _("%(name)s's time ran out"),
        },
    }


def turn_words(turn: TurnRecord, names: Mapping[Side, str]) -> str:
    """A bräde turn line by the mover's name: ``Anna Ek 6-4: 1/7 1/5``, ``Anna Ek
    resigns``."""
    name = names[turn.side]
    if turn.resigns:
        return _("%(name)s resigns") % {"name": name}
    return _("%(name)s %(dice)s: %(play)s") % {
        "name": name,
        "dice": "-".join(str(d) for d in turn.dice),
        "play": play_words(play_of(turn)),
    }


def _side_words(position: Position, side: Side) -> list[str]:
    held, bar, off = checkers_of(position, side)
    out = [_("%(count)s on point %(point)s") % {"count": count, "point": p} for p, count in held]
    if bar:
        out.append(_("%(count)s on the bar") % {"count": bar})
    if off:
        out.append(ngettext("%(count)s borne off", "%(count)s borne off", off) % {"count": off})
    return out


def position_words(position: Position, names: Mapping[Side, str]) -> str:
    """Where every checker stands, by the players' names: ``Anna Ek has 15 on point 1;
    Bo Lind has 14 on point 1 and 1 on point 5``."""
    return "; ".join(
        _("%(name)s has %(checkers)s")
        % {"name": names[side], "checkers": get_text_list(_side_words(position, side), _("and"))}
        for side in (Side.WHITE, Side.BLACK)
    )
