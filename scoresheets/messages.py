"""The live protocol's refusals in the reader's language: the engine's own messages
through ``matches.engine_text`` (rule numbers kept), the protocol's by their code."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from games.live import LiveRefused
from matches.engine_text import render

__all__ = ["refusal_text"]

# code → the sentence (``%(name)s`` parameters as the pure module names them)
TEXTS: dict[str, Callable[[], str]] = {
    "live.action": lambda: _("Unknown action %(action)s."),
    "live.answer_double": lambda: _("A double awaits an answer: take or drop it first."),
    "live.bg_dice": lambda: _("A backgammon roll is two dice of 1–6."),
    "live.dice_needed": lambda: _("Enter the dice of the turn."),
    "live.entered_mode": lambda: _("This game's dice are entered by the players, not rolled."),
    "live.no_cube": lambda: _(
        "Bräde has no doubling cube: '%(action)s' is not an action of bräde."
    ),
    "live.opening_dice": lambda: _("The opening roll is two dice, player 1's die first, each 1–6."),
    "live.opening_equal": lambda: _(
        "The opening dice are equal; throw them again (the Danish federation's rules: the "
        "higher die starts)."
    ),
    "live.opening_first": lambda: _(
        "The game opens with the opening roll (one die each): send 'start' first."
    ),
    "live.opening_needed": lambda: _(
        "Enter the opening roll: each player's die, player 1's first."
    ),
    "live.other_dice": lambda: _("The site rolled %(rolled)s; play those dice."),
    "live.over": lambda: _("The game is over; no more turns may be played."),
    "live.resign_after_roll": lambda: _(
        "R14: a player resigns before rolling; the dice are rolled already."
    ),
    "live.resign_value": lambda: _(
        "A resignation concedes a single game (1), a gammon (2) or a backgammon (3)."
    ),
    "live.rolled": lambda: _("The dice are rolled already; play them."),
    "live.start_first": lambda: _(
        "The game opens with the tek (or the starter named): send 'start' first."
    ),
    "live.started": lambda: _("The game has started already."),
    "live.starter": lambda: _("The starter is player 0 (White) or 1 (Black)."),
    "live.tek_dice": lambda: _("The tek is two dice, White's die first, each 1–6."),
    "live.tek_equal": lambda: _(
        "R2: the tek dice are equal; throw them again (a tie is not recorded)."
    ),
    "live.tek_needed": lambda: _("Enter the tek (each player's die) or who starts."),
}


def refusal_text(refused: LiveRefused) -> str:
    """What the players read: the engine's message, or the protocol's sentence."""
    if refused.msg is not None:
        return render(refused.msg)
    text = TEXTS.get(refused.code)
    if text is None:
        return refused.text
    return text() % refused.params if refused.params else text()
