"""The games at the pages' edge: names and words in the reader's language, and what a
result entry asks for, all read from the game's family (``games.registry``) — no page
asks which game it is.

A family's English names (its name, the outcome words of backgammon and Kungabräde, the
game type "other") are translated here with gettext; the game's own Swedish words (bräde's
hemspel …, Kungabräde's Slagfält …) stay as they are in every language (``Term.translate``).
The translations are in ``locale/sv/LC_MESSAGES/django.po`` like every other message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.family import Term
from games.registry import families, family_for
from tournaments.game_words import family_of_key, game_name, term_word

__all__ = [
    "CUBE_VALUES",
    "EntryChoices",
    "conceded_words",
    "entry_choices",
    "family_of_key",
    "game_name",
    "outcome_codes",
    "term_word",
    "unit_of",
    "word_for_game_type",
    "word_for_outcome",
    "word_for_qualifier",
]

# The cube values an entry offers (seed 002: 1, 2, 4, …; past 64 is allowed by the engine
# and by the API, which takes any power of two).
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
# The outcome code of a resignation that says what it conceded (backgammon's Ending).
RESIGN_OUTCOME = "resign"


def conceded_words() -> dict[str, str]:
    """What a backgammon resignation conceded (1, 2 or 3 times the cube), in words."""
    return {
        "single": _("a single game"),
        "gammon": _("a gammon"),
        "backgammon": _("a backgammon"),
    }


def _find(code: str, kind: str) -> Term | None:
    for family in families():
        terms: tuple[Term, ...] = getattr(family.vocabulary, kind)
        for term in terms:
            if term.code == code:
                return term
    return None


def word_for_outcome(code: str) -> str:
    """An outcome code of any game in words (codes are unique across the games)."""
    term = _find(code, "outcomes")
    return term_word(term) if term is not None else code


def word_for_qualifier(code: str) -> str:
    """A qualifier code (bräde's vackert spel patterns, munk) in words."""
    term = _find(code, "qualifiers")
    return term_word(term) if term is not None else code


def word_for_game_type(code: str) -> str:
    term = _find(code, "game_types")
    return term_word(term) if term is not None else code


@dataclass(frozen=True)
class Choice:
    """One button or option of a result entry: what it submits and its words."""

    value: str
    label: str
    lang: str = ""  # "sv" for the game's own Swedish words, read as Swedish


@dataclass(frozen=True)
class EntryChoices:
    """What a result entry of a game asks for, from its family: the outcome buttons (none
    here when the game's outcomes carry qualifiers, as bräde's vackert spel patterns and
    munk do: its own buttons, ``web.forms.referee``), the cube and what a resignation
    conceded (backgammon), the game types (Kungabräde), and whether game 1's starter (the
    tek) is asked for."""

    game: str
    qualified: bool
    outcomes: tuple[Choice, ...]
    cube: bool
    conceded: tuple[Choice, ...]
    game_types: tuple[Choice, ...]
    tek: bool
    cube_values: tuple[int, ...] = CUBE_VALUES
    # The outcome that is a resignation with what it conceded (backgammon's): the entry
    # asks what was conceded before it saves, apart from the other outcome buttons.
    resign: str = ""


def _choice(term: Term) -> Choice:
    return Choice(term.code, term_word(term), "" if term.translate else "sv")


def entry_choices(key: str) -> EntryChoices:
    family = family_for(key)
    fields = family.result_fields
    vocabulary = family.vocabulary
    return EntryChoices(
        game=key,
        qualified=bool(vocabulary.qualifiers),
        outcomes=tuple(_choice(term) for term in vocabulary.outcomes),
        cube="cube" in fields,
        conceded=tuple(Choice(code, word) for code, word in conceded_words().items())
        if "conceded" in fields
        else (),
        game_types=tuple(_choice(term) for term in vocabulary.game_types)
        if "game_type" in fields
        else (),
        tek=family.loser_starts,
        resign=RESIGN_OUTCOME if "conceded" in fields else "",
    )


def outcome_codes(match: Any) -> tuple[str, ...]:
    """The outcome codes of the match's game (what its entry's buttons may submit)."""
    family = family_of_key(match.tournament.game)
    return family.vocabulary.outcome_codes if family is not None else ()


def unit_of(tournament: Any) -> str:
    """``games`` or ``points``: what the tournament's match lengths count."""
    family = family_of_key(tournament.game)
    return family.length_unit if family is not None else "games"
