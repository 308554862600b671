"""Template filters for bräde: scores in a tournament's scale and the game's words.

The game words (hemspel, jan, sprängjan, munk, …) come from the game's family
(``web.games``) and stay Swedish in every language; the glossary page explains them.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.engine_text import error_text, submission_text
from matches.models import MatchState
from matches.site_words import site_note_text
from scoring.scales import MINUS, PLUS, Scale, format_points
from tournaments.game_words import game_meta, length_heading
from tournaments.lengths import POINTS
from tournaments.serializers import person_name
from web.games import (
    conceded_words,
    family_of_key,
    game_name,
    word_for_game_type,
    word_for_outcome,
    word_for_qualifier,
)

register = template.Library()


def _net_marks(scale: str, points: int, net: int) -> str:
    """Ny 1 points with the net of a player's + and − marks (``2+``); bare otherwise."""
    if Scale.parse(scale) is Scale.NY1:
        return f"{points}{PLUS * net if net > 0 else MINUS * -net}"
    return format_points(scale, points)


@register.simple_tag
def match_score(match: Any, scale: str, reader: int | None = None) -> str:
    """The score of a match as its tournament's scale writes it: ``4–2``, ``2+–2``.

    Empty before the first game; ``w.o.`` for a walkover and ``–`` for a bye. With
    ``reader`` (a player's id) the score is read from that player's side, their points
    first, as a player reads their own match ("won 2–0", "lost 0–3"), whichever of the
    match's two places they hold; without it, or for a reader who is neither player, the
    match's own order (first player first), as a bracket or a list of matches shows it.
    """
    if match.state == MatchState.WALKOVER:
        return _("w.o.")
    if match.state == MatchState.BYE:
        return "–"
    if match.state in (MatchState.WAITING, MatchState.READY):
        return ""
    one = _net_marks(scale, match.points1, match.tiebreak1)
    two = _net_marks(scale, match.points2, match.tiebreak2)
    if reader is not None and reader == match.player2_id and reader != match.player1_id:
        one, two = two, one
    return f"{one}–{two}"


@register.simple_tag
def side_points(match: Any, n: int, scale: str) -> str:
    """Player ``n``'s (1 or 2) points in the bracket, with Ny 1 marks; empty when none.

    ``scale`` is the tournament's, passed in so a bracket needs no query per match.
    """
    if match.state == MatchState.WALKOVER:
        winner = match.player1_id if n == 1 else match.player2_id
        return _("w.o.") if winner is not None and winner == match.winner_id else ""
    if match.state not in (MatchState.PLAYING, MatchState.DECIDED):
        return ""
    if n == 1:
        return _net_marks(scale, match.points1, match.tiebreak1)
    return _net_marks(scale, match.points2, match.tiebreak2)


@register.filter
def outcome_word(game: Any) -> str:
    """How a game (or a report) was won, in the game's words: ``vackert spel (trappspel)
    med munk``, ``jan``; ``gammon, cube 2``, ``resignation (a gammon)``; ``castle taken,
    Slagfält``. Only the fields a result has are shown (``web.games``)."""
    word = word_for_outcome(game.outcome)
    if game.pattern:
        word += f" ({word_for_qualifier(game.pattern)})"
    if game.munk:
        word += " " + _("with munk")
    conceded = getattr(game, "conceded", "")
    if conceded:
        word += f" ({conceded_words().get(conceded, conceded)})"
    game_type = getattr(game, "game_type", "")
    if game_type:
        word += f", {word_for_game_type(game_type)}"
    cube = getattr(game, "cube", 1) or 1
    if cube > 1:
        word += ", " + _("cube %(n)s") % {"n": cube}
    return word


@register.filter
def how_word(game: Any) -> str:
    """How a game was won without its cube (where the page shows the cube beside it)."""
    word = word_for_outcome(game.outcome)
    conceded = getattr(game, "conceded", "")
    if conceded:
        word += f" ({conceded_words().get(conceded, conceded)})"
    return word


@register.simple_tag
def length_words(length: int, unit: str) -> str:
    """A round's match length as a bracket heads it: ``best of 5``, ``to 7 points``."""
    if unit == POINTS:
        return ngettext("to %(n)s point", "to %(n)s points", length) % {"n": length}
    return ngettext("best of %(n)s", "best of %(n)s", length) % {"n": length}


register.simple_tag(length_heading)
register.simple_tag(game_meta)


@register.filter
def game_options(tournament: Any) -> tuple[str, ...]:
    """The tournament settings its game reads (``GameFamily.options``)."""
    family = family_of_key(tournament.game)
    return family.options if family is not None else ()


@register.simple_tag
def game_label(key: str) -> str:
    """A game's name in the reader's language."""
    return game_name(key)


@register.filter
def side_player(match: Any, side: str) -> Any:
    """The player of ``side`` (``W`` is player 1, ``B`` player 2: ``Match.player_for``)."""
    return match.player_for(side)


@register.filter
def verdict(sub: Any) -> str:
    """A game record's verdict in the reader's language (``matches.engine_text``)."""
    return submission_text(sub)


@register.filter
def site_words(row: Any) -> str:
    """What the site noted on a result or report, in the reader's language ("" for
    nothing); the person's own ``note`` is shown apart, as their words."""
    return site_note_text(row)


@register.filter
def engine_error(error: Any) -> str:
    """A stored report's error in the reader's language, its rule number kept."""
    return error_text(error) if isinstance(error, dict) else ""


@register.filter
def flag_text(match: Any, source: Any = None) -> str:
    """A match's flag in the reader's language: the verdict of the record that raised it
    (``MatchDetail.flag_source``), else the flag as stored."""
    if source is not None and source.message == match.flag:
        return submission_text(source)
    return str(match.flag)


@register.filter
def person(user: Any, full: Any = False) -> str:
    """A user named for the reader (``tournaments.serializers.person_name``): the user
    name when ``full`` (the tournament's staff reads), else the display name; "?" for
    nobody or a user without one."""
    return person_name(user, full=bool(full)) or "?"
