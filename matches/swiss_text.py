"""The Swiss pairing's messages (``stages.swiss``: why each pair is what it is, the
Monrad's with the places it paired, an organiser's swap warnings) in the reader's
language, as ``matches.stage_text`` renders the standings'. A score keeps its value and
is written with the language's decimal sign."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from matches import stage_text
from stages.messages import Msg

__all__ = ["SWAPPED", "TEMPLATES", "msg_from_dict", "render"]

# The reason of a pair made by an organiser's swap (not ``stages.swiss``'s: no objective
# chose it).
SWAPPED = "swiss.swapped"

Params = Mapping[str, Any]

TEMPLATES: dict[str, Callable[[], str]] = {
    "swiss.equal": lambda: _("equal scores (%(score)s)"),
    "swiss.float": lambda: _("floated down from %(high)s to %(low)s"),
    "swiss.rematch": lambda: _("rematch unavoidable (%(high)s v %(low)s)"),
    "swiss.bye": lambda: _("bye: the lowest-ranked player without a bye (%(score)s)"),
    "swiss.bye_moved": lambda: _(
        "bye: the lowest-ranked player without a bye (%(lowest)s) would have forced a "
        "rematch (%(score)s)"
    ),
    "swiss.bye_again": lambda: _(
        "bye again: every player without a bye would have forced a rematch, or there is "
        "none (%(score)s)"
    ),
    "monrad.equal": lambda: _("places %(a)s and %(b)s in the standings: equal scores (%(score)s)"),
    "monrad.float": lambda: _(
        "places %(a)s and %(b)s in the standings: floated down from %(high)s to %(low)s"
    ),
    "monrad.rematch": lambda: _(
        "places %(a)s and %(b)s in the standings: rematch unavoidable (%(high)s v %(low)s)"
    ),
    "swiss.equal_ahead": lambda: _(
        "equal scores (%(score)s); paired so that more of the rounds left can be paired "
        "without a rematch or a second bye"
    ),
    "swiss.float_ahead": lambda: _(
        "floated down from %(high)s to %(low)s; paired so that more of the rounds left can "
        "be paired without a rematch or a second bye"
    ),
    "swiss.bye_ahead": lambda: _(
        "bye (%(score)s) instead of %(usual)s, so that more of the rounds left can be "
        "paired without a rematch or a second bye"
    ),
    "monrad.equal_ahead": lambda: _(
        "places %(a)s and %(b)s in the standings: equal scores (%(score)s); paired so that "
        "more of the rounds left can be paired without a rematch or a second bye"
    ),
    "monrad.float_ahead": lambda: _(
        "places %(a)s and %(b)s in the standings: floated down from %(high)s to %(low)s; "
        "paired so that more of the rounds left can be paired without a rematch or a "
        "second bye"
    ),
    SWAPPED: lambda: _("paired by an organiser (swap)"),
    "swap.rematch": lambda: _("%(first)s and %(second)s have already met"),
    "swap.bye_again": lambda: _("%(player)s has already had a bye"),
}

_SCORES = frozenset({"score", "high", "low"})


def render(message: Msg) -> str:
    """``message`` in the active language (a standings message through ``stage_text``)."""
    make = TEMPLATES.get(message.code)
    if make is None:
        return stage_text.render(message)
    params = {
        key: stage_text.score_text(value) if key in _SCORES and isinstance(value, str) else value
        for key, value in message.params.items()
    }
    return make() % params


def msg_from_dict(data: Mapping[str, Any]) -> Msg:
    """A message stored as ``Msg.to_dict()`` (flat parameters: the Swiss ones are)."""
    params = data.get("params") or {}
    return Msg(str(data.get("code", "text")), {str(k): v for k, v in params.items()})
