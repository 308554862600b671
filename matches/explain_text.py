"""A match's explanation in the reader's language.

The game families say where a match stands as coded messages (bräde's
``scoring.explain_messages``, backgammon's and kungabräde's ``games.explain_messages``);
this module words them in the active language through gettext, as ``matches.engine_text``
words the engine's. Nested messages are worded first. The strings carry the context
``match explanation`` (:data:`CONTEXT`), so that a word here (``point``: a match point)
keeps its own translation beside the same word elsewhere (the engine's ``point``: a pip).

A few texts are the same in every language (:data:`SAME_IN_EVERY_LANGUAGE`: the score, a
list's comma, a sentence's full stop) and are written from the pure catalogue's template.
A name's possessive (``explain.genitive``) follows each language's rule, chosen through
gettext by the kind of name (:func:`genitive`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import npgettext, pgettext

import games.explain_messages  # noqa: F401  (registers the codes with Msg)
import scoring.explain_messages  # noqa: F401
from engine.messages import Msg, template

__all__ = ["CONTEXT", "SAME_IN_EVERY_LANGUAGE", "TEMPLATES", "explanation", "genitive", "render"]

CONTEXT = "match explanation"

Params = Mapping[str, Any]


def _count(params: Params) -> int:
    value = params.get("count")
    return value if isinstance(value, int) else 0


# Code → the translated template for these parameters (``%(name)s`` placeholders). The
# literal strings are written out in each entry so that gettext's tools can find them.
TEMPLATES: dict[str, Callable[[Params], str]] = {
    "explain.white": lambda p: _("White"),
    "explain.black": lambda p: _("Black"),
    "explain.games": lambda p: npgettext(
        "match explanation", "%(count)s game", "%(count)s games", _count(p)
    ),
    "explain.points": lambda p: npgettext(
        "match explanation", "%(count)s point", "%(count)s points", _count(p)
    ),
    "explain.list_and": lambda p: pgettext("match explanation", "%(first)s and %(last)s"),
    "explain.win.hemspel": lambda p: pgettext("match explanation", "hemspel"),
    "explain.win.munk": lambda p: pgettext("match explanation", "hemspel with munk"),
    "explain.win.jan": lambda p: pgettext("match explanation", "jan"),
    "explain.last_game": lambda p: pgettext("match explanation", "the last game"),
    "explain.in_last_game": lambda p: pgettext("match explanation", "in the last game"),
    "explain.both_remaining": lambda p: pgettext("match explanation", "both remaining games"),
    "explain.all_remaining": lambda p: pgettext(
        "match explanation", "all %(count)s remaining games"
    ),
    "explain.the_remaining": lambda p: pgettext(
        "match explanation", "the remaining %(count)s games"
    ),
    "explain.each_remaining": lambda p: pgettext(
        "match explanation", "each of the %(count)s remaining games"
    ),
    "explain.in_each_remaining": lambda p: pgettext(
        "match explanation", "in each of the %(count)s remaining games"
    ),
    "explain.some_remaining": lambda p: pgettext(
        "match explanation", "%(wins)s of the %(count)s remaining games"
    ),
    "explain.best_of": lambda p: npgettext(
        "match explanation",
        "Best of %(count)s completed game (%(scale)s)",
        "Best of %(count)s completed games (%(scale)s)",
        _count(p),
    ),
    "explain.not_started": lambda p: pgettext("match explanation", "%(best)s: no game played yet."),
    "explain.standing": lambda p: pgettext(
        "match explanation",
        "%(best)s, after %(played)s (%(completed)s completed): %(score)s; %(left)s left.",
    ),
    "explain.against": lambda p: pgettext("match explanation", "%(lead)s against %(trail)s"),
    "explain.leads_on": lambda p: pgettext(
        "match explanation", "%(leader)s leads %(pair)s on %(tiebreak)s"
    ),
    "explain.won_on_points": lambda p: pgettext(
        "match explanation", "%(winner)s wins the match %(winner_points)s to %(loser_points)s."
    ),
    "explain.won_on_tiebreak": lambda p: pgettext(
        "match explanation",
        "Level at %(winner_points)s–%(loser_points)s on points after all %(length)s "
        "completed games; %(lead)s, so %(winner)s wins the match.",
    ),
    "explain.decided": lambda p: pgettext(
        "match explanation", "%(winner)s has won the match: it was decided after game %(game)s."
    ),
    "explain.cannot_win": lambda p: pgettext(
        "match explanation",
        "%(loser)s cannot win any more, not even with sprängjan in %(games)s.",
    ),
    "explain.sprangjan_level": lambda p: pgettext(
        "match explanation",
        "%(loser)s needs a sprängjan: even a jan %(where)s gives "
        "%(loser_points)s–%(winner_points)s, and %(lead)s.",
    ),
    "explain.sprangjan_behind": lambda p: pgettext(
        "match explanation",
        "%(loser)s needs a sprängjan: even a jan %(where)s gives %(loser)s only %(points)s "
        "against %(winner_genitive)s %(winner_points)s.",
    ),
    "explain.behind": lambda p: pgettext(
        "match explanation",
        "%(player)s is %(points)s behind and must outscore %(opponent)s by at least "
        "%(need)s over %(games)s",
    ),
    "explain.level": lambda p: pgettext(
        "match explanation",
        "Level on points: %(player)s must outscore %(opponent)s over %(games)s",
    ),
    "explain.lead_one": lambda p: pgettext(
        "match explanation",
        "%(player)s leads by 1 point and wins if %(opponent)s does not outscore %(player)s "
        "over %(games)s",
    ),
    "explain.lead": lambda p: pgettext(
        "match explanation",
        "%(player)s leads by %(points)s and wins if %(opponent)s outscores %(player)s by "
        "less than %(lead)s over %(games)s",
    ),
    "explain.gains": lambda p: pgettext(
        "match explanation",
        "%(player)s gains at least %(need)s more %(tiebreak)s than %(opponent)s",
    ),
    "explain.keeps": lambda p: pgettext(
        "match explanation",
        "%(opponent)s does not gain %(limit)s or more %(tiebreak)s on %(player)s",
    ),
    "explain.or_exactly_ahead": lambda p: pgettext(
        "match explanation", "%(main)s, or by exactly %(lead)s if %(condition)s."
    ),
    "explain.or_level": lambda p: pgettext(
        "match explanation", "%(main)s, or score the same, which is enough if %(condition)s."
    ),
    "explain.or_exactly_behind": lambda p: pgettext(
        "match explanation",
        "%(main)s, or by exactly %(deficit)s, which is enough if %(condition)s.",
    ),
    "explain.safe": lambda p: pgettext(
        "match explanation", "%(player)s wins even if %(opponent)s wins %(games)s with hemspel."
    ),
    "explain.example": lambda p: pgettext(
        "match explanation",
        "For example %(player)s wins by winning %(games)s (%(wins)s)%(rest)s.",
    ),
    "explain.others_by_hemspel": lambda p: npgettext(
        "match explanation",
        ", with %(opponent)s winning the other by hemspel",
        ", with %(opponent)s winning the others by hemspel",
        _count(p),
    ),
    # ---- backgammon
    "bg.explain.score": lambda p: pgettext(
        "match explanation",
        "Score: %(one)s %(one_points)s, %(two)s %(two_points)s of %(length)s points.",
    ),
    "bg.explain.won": lambda p: pgettext(
        "match explanation",
        "%(winner)s reached %(length)s points in game %(game)s and won the match.",
    ),
    "bg.explain.needs": lambda p: npgettext(
        "match explanation",
        "%(player)s needs %(count)s more point.",
        "%(player)s needs %(count)s more points.",
        _count(p),
    ),
    "bg.explain.crawford_next": lambda p: pgettext(
        "match explanation", "The next game is the Crawford game: no one may double in it."
    ),
    "bg.explain.crawford_was": lambda p: pgettext(
        "match explanation", "Game %(game)s was the Crawford game (no doubling)."
    ),
    # ---- kungabräde
    "kb.explain.score": lambda p: pgettext(
        "match explanation",
        "Games won: %(one)s %(one_wins)s, %(two)s %(two_wins)s (best of %(length)s).",
    ),
    "kb.explain.won": lambda p: pgettext(
        "match explanation", "%(winner)s won %(needed)s games and the match."
    ),
    "kb.explain.needs": lambda p: npgettext(
        "match explanation",
        "%(player)s needs %(count)s more win.",
        "%(player)s needs %(count)s more wins.",
        _count(p),
    ),
}

# Codes whose text is the same in every language: the pure catalogue's template is used.
SAME_IN_EVERY_LANGUAGE = frozenset(
    {"explain.score", "explain.score_skiljepoang", "explain.list_comma", "explain.sentence"}
)

# The kinds of name whose possessive differs between the languages: English adds an
# apostrophe alone after a final s; Swedish adds ``:s`` to an abbreviation (``A:s``,
# ``SM:s``), nothing after s, x or z, else ``s``; Danish (Retskrivningsordbogen) adds
# ``s`` to a name (``Annas``), ``'s`` to an abbreviation (``DBgF's``) and an apostrophe
# alone after s, x or z (``Lars'``, ``Marx'``).
_GENITIVES: dict[str, Callable[[], str]] = {
    "abbreviation ending in s": lambda: pgettext(
        "genitive of an abbreviation ending in s", "%(name)s'"
    ),
    "abbreviation": lambda: pgettext("genitive of an abbreviation", "%(name)s's"),
    "ending in s": lambda: pgettext("genitive of a name ending in s", "%(name)s'"),
    "ending in x, z or S": lambda: pgettext("genitive of a name ending in x, z or S", "%(name)s's"),
    "name": lambda: pgettext("genitive of a name", "%(name)s's"),
}


def _kind_of_name(name: str) -> str:
    abbreviation = len(name) == 1 or name.isupper()
    if name.endswith("s"):
        return "abbreviation ending in s" if abbreviation else "ending in s"
    if abbreviation:
        return "abbreviation"
    if name[-1:].lower() in ("s", "x", "z"):
        return "ending in x, z or S"
    return "name"


def genitive(name: str) -> str:
    """``name``'s possessive in the active language (Anna's, Lars'; Annas, Lars, A:s;
    Annas, Lars', A's)."""
    return _GENITIVES[_kind_of_name(name)]() % {"name": name}


def _value(value: Any) -> Any:
    return render(value) if isinstance(value, Msg) else value


def render(message: Msg) -> str:
    """``message`` (a code of the explanations' catalogues) in the active language."""
    values = {key: _value(value) for key, value in message.params.items()}
    if message.code == "explain.genitive":
        return genitive(str(values["name"]))
    if message.code in SAME_IN_EVERY_LANGUAGE:
        return template(message.code, message.params).format(**values)
    make = TEMPLATES.get(message.code)
    if make is None:
        raise KeyError(f"no wording for the explanation code {message.code!r}")
    return make(message.params) % values


def explanation(messages: Iterable[Msg], *, lang: str) -> list[str]:
    """The sentences of ``messages`` in ``lang`` (a language of ``settings.LANGUAGES``)."""
    if lang not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {lang!r} (expected one of the site's languages)")
    with translation.override(lang):
        return [render(m) for m in messages]
