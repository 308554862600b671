"""The stages' messages: a stable code, parameters, and the English text.

The same shape as ``engine.messages`` (read its docstring): a :class:`Msg` carries a code
(``"swiss.float"``) and parameters (``{"high": "2", "low": "1.5"}``); :meth:`Msg.text` makes
the English from :data:`MESSAGES`; the pages render the code and parameters in their
reader's language, so this package needs no Django and no translation. The catalogue is
separate from the engine's because stages serve every game.

Parameters are ``str``, ``int`` or a nested :class:`Msg` (a tiebreak's name inside a
sentence). A score is passed as a decimal string with a point (``"1.5"``); the edge may
write it with its own decimal sign. Players are passed as the names the caller gave (their
ids as text when it gave none).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Union

Param = Union[str, int, "Msg"]


@dataclass(frozen=True, slots=True)
class Plural:
    """A message with a singular and a plural form chosen by the integer ``count``."""

    singular: str
    plural: str
    count: str


# Code → English template. Codes are stable: pages and stored pairings refer to them.
MESSAGES: dict[str, str | Plural] = {
    "text": "{text}",
    # ---- Swiss pairings (swiss.py): why each pair is what it is
    "swiss.equal": "equal scores ({score})",
    "swiss.float": "floated down from {high} to {low}",
    "swiss.rematch": "rematch unavoidable ({high} v {low})",
    "swiss.bye": "bye: the lowest-ranked player without a bye ({score})",
    "swiss.bye_moved": (
        "bye: the lowest-ranked player without a bye ({lowest}) would have forced a rematch "
        "({score})"
    ),
    "swiss.bye_again": (
        "bye again: every player without a bye would have forced a rematch, or there is none "
        "({score})"
    ),
    # ---- an organiser's swap (swiss.pairing_swap_warnings)
    "swap.rematch": "{first} and {second} have already met",
    "swap.bye_again": "{player} has already had a bye",
    # ---- standings (tiebreaks.py): the names of the tiebreaks
    "tiebreak.match_points": "match points",
    "tiebreak.game_points": "game points",
    "tiebreak.skiljepoang": "skiljepoäng",
    "tiebreak.points_difference": "points won minus lost",
    "tiebreak.direct_encounter": "direct encounter",
    "tiebreak.buchholz": "Buchholz",
    "tiebreak.buchholz_cut1": "Buchholz cut 1",
    "tiebreak.sonneborn_berger": "Sonneborn–Berger",
    "tiebreak.wins": "wins",
    "tiebreak.lots": "drawing of lots",
    # ---- why A is above B (tiebreaks.explain_order)
    "standing.ahead": "{above} is above {below} on {tiebreak} ({a} to {b})",
    "standing.ahead_level": (
        "{above} is above {below} on {tiebreak} ({a} to {b}); they are level on every "
        "tiebreak before it"
    ),
    "standing.direct": Plural(
        "{above} is above {below} on the direct encounter: {a} to {b} in the matches among "
        "the {count} tied player",
        "{above} is above {below} on the direct encounter: {a} to {b} in the matches among "
        "the {count} tied players",
        "count",
    ),
    "standing.lots": (
        "{above} is above {below} by drawing of lots (lot {a} to lot {b}); they are level on "
        "every tiebreak"
    ),
}


def template(code: str, params: Mapping[str, Param]) -> str:
    """The English template of ``code`` with its plural form chosen for ``params``."""
    entry = MESSAGES.get(code, MESSAGES["text"])
    if isinstance(entry, Plural):
        return entry.singular if params.get(entry.count) == 1 else entry.plural
    return entry


def param_names(code: str) -> set[str]:
    """The parameters the template(s) of ``code`` use."""
    entry = MESSAGES[code]
    texts = [entry.singular, entry.plural] if isinstance(entry, Plural) else [entry]
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}


@dataclass(frozen=True, slots=True)
class Msg:
    """One message: its code and parameters; :meth:`text` is the English."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def text(self) -> str:
        values = {
            key: value.text() if isinstance(value, Msg) else value
            for key, value in self.params.items()
        }
        if self.code not in MESSAGES:
            return str(values.get("text", self.code))
        return template(self.code, self.params).format(**values)

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``{"code": …, "params": {…}}``, nested messages likewise."""
        return {
            "code": self.code,
            "params": {
                key: value.to_dict() if isinstance(value, Msg) else value
                for key, value in self.params.items()
            },
        }


def msg(code: str, /, **params: Param) -> Msg:
    """``Msg(code, params)``; the code must be in :data:`MESSAGES`."""
    assert code in MESSAGES, code
    return Msg(code, params)


def number(value: Decimal | int) -> str:
    """A score as text: ``Decimal("1.50")`` → ``"1.5"``, ``Decimal("2.0")`` → ``"2"``."""
    d = Decimal(value)
    text = format(d.normalize(), "f") if d == d.to_integral_value() else format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
