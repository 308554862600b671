"""A tournament's game in the reader's language: its name, its own words, a match's length
and what the tournament is played as — below every app that shows them (``web``'s pages,
``clubs``' score sheets, wall sheets and archive), read from the game's family
(``games.registry``).

A family's English names (its name, the outcome words of backgammon and Kungabräde, the
game type "other") are translated with gettext; the game's own Swedish words (bräde's
hemspel …, Kungabräde's Slagfält …) stay as they are in every language (``Term.translate``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.family import GameFamily, Term
from games.registry import UnknownGameError, family_for
from tournaments.lengths import POINTS

__all__ = ["family_of_key", "game_meta", "game_name", "length_heading", "term_word"]


def family_of_key(key: str) -> GameFamily | None:
    """The family of the game stored as ``key`` (None: no such game)."""
    try:
        return family_for(key)
    except UnknownGameError:
        return None


def game_name(key: str) -> str:
    """The game's name in the reader's language (``Bräde``, ``Backgammon``, …)."""
    family = family_of_key(key)
    return _(family.name) if family is not None else key


def term_word(term: Term) -> str:
    """A game's word: translated when it is English, the game's own word otherwise."""
    return _(term.name) if term.translate else term.name


def length_heading(length: int, unit: str) -> str:
    """A match's length on its pages: ``Best of 5 games``, ``To 7 points``."""
    if unit == POINTS:
        return ngettext("To %(n)s point", "To %(n)s points", length) % {"n": length}
    return ngettext("Best of %(n)s game", "Best of %(n)s games", length) % {"n": length}


def game_meta(tournament: Any) -> str:
    """What a tournament is played as, for its pages' meta lines: the game, and the options
    the game reads (bräde: scale, rule set and add-ons; backgammon: the Crawford rule)."""
    family = family_of_key(tournament.game)
    parts = [game_name(tournament.game)]
    options = family.options if family is not None else ()
    if "scale" in options:
        parts.append(tournament.get_scale_display())
    if "rules" in options:
        rules = _("rules %(rules)s") % {"rules": tournament.rules}
        if tournament.addons:
            rules += f" ({', '.join(tournament.addons)})"
        parts.append(rules)
    if family is not None and family.length_unit == POINTS:
        parts.append(_("Crawford rule"))
    return " · ".join(parts)
