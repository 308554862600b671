"""The stages' messages (``stages.messages``: standings and tiebreaks) in the reader's
language, as ``matches.engine_text`` renders the engine's. A score keeps its value and is
written with the language's decimal sign (1,5 in Swedish)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from stages.messages import Msg

__all__ = ["TEMPLATES", "render", "tiebreak_abbreviation", "tiebreak_headings", "tiebreak_name"]

Params = Mapping[str, Any]


def _count(params: Params) -> int:
    value = params.get("count")
    return value if isinstance(value, int) else 0


TIEBREAK_NAMES: dict[str, Callable[[], str]] = {
    "match_points": lambda: _("match points"),
    "game_points": lambda: _("game points"),
    "skiljepoang": lambda: _("skiljepoäng"),
    "points_difference": lambda: _("points won minus lost"),
    "direct_encounter": lambda: _("direct encounter"),
    "buchholz": lambda: _("Buchholz"),
    "buchholz_cut1": lambda: _("Buchholz cut 1"),
    "sonneborn_berger": lambda: _("Sonneborn–Berger"),
    "wins": lambda: _("wins"),
    "pairing_number": lambda: _("pairing number"),
    "lots": lambda: _("drawing of lots"),
}

# The tiebreaks' short headings (``stages.tiebreaks.Tiebreak.abbreviation``), for a
# table's columns where the names do not fit.
TIEBREAK_ABBREVIATIONS: dict[str, Callable[[], str]] = {
    "match_points": lambda: pgettext("tiebreak abbreviation", "MP"),
    "game_points": lambda: pgettext("tiebreak abbreviation", "GP"),
    "skiljepoang": lambda: pgettext("tiebreak abbreviation", "SP"),
    "points_difference": lambda: pgettext("tiebreak abbreviation", "+/−"),
    "direct_encounter": lambda: pgettext("tiebreak abbreviation", "DE"),
    "buchholz": lambda: pgettext("tiebreak abbreviation", "BH"),
    "buchholz_cut1": lambda: pgettext("tiebreak abbreviation", "BH-1"),
    "sonneborn_berger": lambda: pgettext("tiebreak abbreviation", "SB"),
    "wins": lambda: pgettext("tiebreak abbreviation", "W"),
}

# Code → the translated template for these parameters (``%(name)s`` placeholders).
TEMPLATES: dict[str, Callable[[Params], str]] = {
    "standing.ahead": lambda p: _("%(above)s is above %(below)s on %(tiebreak)s (%(a)s to %(b)s)"),
    "standing.ahead_level": lambda p: _(
        "%(above)s is above %(below)s on %(tiebreak)s (%(a)s to %(b)s); they are level on "
        "every tiebreak before it"
    ),
    "standing.direct": lambda p: ngettext(
        "%(above)s is above %(below)s on the direct encounter: %(a)s to %(b)s in the matches "
        "among the %(count)s tied player",
        "%(above)s is above %(below)s on the direct encounter: %(a)s to %(b)s in the matches "
        "among the %(count)s tied players",
        _count(p),
    ),
    "standing.pairing_number": lambda p: _(
        "%(above)s is above %(below)s on pairing number (%(a)s to %(b)s); they are level on "
        "every tiebreak"
    ),
    "standing.lots": lambda p: _(
        "%(above)s is above %(below)s by drawing of lots (lot %(a)s to lot %(b)s); they are "
        "level on every tiebreak"
    ),
}


def tiebreak_name(key: str) -> str:
    """A tiebreak's name (``stages.tiebreaks.TIEBREAKS``, or ``lots``) in the active language."""
    return TIEBREAK_NAMES[key]()


def tiebreak_abbreviation(key: str) -> str:
    """A tiebreak's short heading in the active language."""
    return TIEBREAK_ABBREVIATIONS[key]()


def tiebreak_headings(chain: Sequence[str]) -> list[tuple[str, str]]:
    """A standings table's tiebreak columns: each one's name and short heading."""
    return [(tiebreak_name(key), tiebreak_abbreviation(key)) for key in chain]


def score_text(value: str) -> str:
    """A score given with a decimal point, written with the language's decimal sign."""
    return value.replace(".", str(get_format("DECIMAL_SEPARATOR")))


def _value(key: str, value: Any) -> Any:
    if isinstance(value, Msg):
        return render(value)
    if key in ("a", "b") and isinstance(value, str):
        return score_text(value)
    return value


def render(message: Msg) -> str:
    """``message`` in the active language; a code without a translation in its English."""
    if message.code.startswith("tiebreak."):
        key = message.code.removeprefix("tiebreak.")
        if key in TIEBREAK_NAMES:
            return tiebreak_name(key)
    make = TEMPLATES.get(message.code)
    if make is None:
        return message.text()
    params = {key: _value(key, value) for key, value in message.params.items()}
    return make(params) % params
