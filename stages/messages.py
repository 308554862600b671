"""The stages' messages: a stable code, parameters, and the English text.

One message type serves every package: :class:`engine.messages.Msg` (read that module's
docstring). A :class:`Msg` carries a code (``"swiss.float"``) and parameters
(``{"high": "2", "low": "1.5"}``); :meth:`Msg.text` makes the English from the catalogue;
the pages render the code and parameters in their reader's language, so this package needs
no Django and no translation. The stages' codes are their own catalogue, :data:`MESSAGES`
(stages serve every game), registered apart from the engines' codes when this module is
imported (``engine.messages.register_apart``): the edge renders them with
``matches.stage_text``, the engines' with ``matches.engine_text``.

Parameters are ``str``, ``int`` or a nested :class:`Msg` (a tiebreak's name inside a
sentence). A score is passed as a decimal string with a point (``"1.5"``); the edge may
write it with its own decimal sign. Players are passed as the names the caller gave (their
ids as text when it gave none).
"""

from __future__ import annotations

from decimal import Decimal

from engine.messages import Msg, Param, Plural, param_names, register_apart, template

__all__ = ["MESSAGES", "Msg", "Param", "Plural", "msg", "number", "param_names", "template"]

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
    # ---- Monrad pairings (formats/monrad.py): the same, with the places paired
    "monrad.equal": "places {a} and {b} in the standings: equal scores ({score})",
    "monrad.float": "places {a} and {b} in the standings: floated down from {high} to {low}",
    "monrad.rematch": ("places {a} and {b} in the standings: rematch unavoidable ({high} v {low})"),
    # ---- the same, when the pairing keeps the rounds after it pairable (swiss.py,
    # Completion; monrad.py, Completion, whose bye says swiss.bye_ahead): the pairs the
    # usual pairing does not have
    "swiss.equal_ahead": (
        "equal scores ({score}); paired so that more of the rounds left can be paired "
        "without a rematch or a second bye"
    ),
    "swiss.float_ahead": (
        "floated down from {high} to {low}; paired so that more of the rounds left can be "
        "paired without a rematch or a second bye"
    ),
    "swiss.bye_ahead": (
        "bye ({score}) instead of {usual}, so that more of the rounds left can be paired "
        "without a rematch or a second bye"
    ),
    "monrad.equal_ahead": (
        "places {a} and {b} in the standings: equal scores ({score}); paired so that more "
        "of the rounds left can be paired without a rematch or a second bye"
    ),
    "monrad.float_ahead": (
        "places {a} and {b} in the standings: floated down from {high} to {low}; paired so "
        "that more of the rounds left can be paired without a rematch or a second bye"
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
    "tiebreak.pairing_number": "pairing number",
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
    "standing.pairing_number": (
        "{above} is above {below} on pairing number ({a} to {b}); they are level on every tiebreak"
    ),
    "standing.lots": (
        "{above} is above {below} by drawing of lots (lot {a} to lot {b}); they are level on "
        "every tiebreak"
    ),
}


register_apart(MESSAGES)


def msg(code: str, /, **params: Param) -> Msg:
    """``Msg(code, params)`` for a stages' code of :data:`MESSAGES`."""
    assert code in MESSAGES, code
    return Msg(code, params)


def number(value: Decimal | int) -> str:
    """A score as text: ``Decimal("1.50")`` → ``"1.5"``, ``Decimal("2.0")`` → ``"2"``."""
    d = Decimal(value)
    text = format(d.normalize(), "f") if d == d.to_integral_value() else format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
