"""A result at the site's edges: the fields an API body or an HTML form sends, turned into
the games seam's ``games.results.ResultValue`` once, where they come in, and a result
turned back into the fields the API's conflict bodies show.

On the wire a result is its winner as a side's letter (``W`` = player1, ``B`` = player2;
``games.seats`` converts it to the seat) and the fields only some games read, each absent
or empty when the game does not read it (bräde: ``pattern``, ``munk``; backgammon:
``cube``, ``conceded``; Kungabräde: ``game_type``). Whether a result is possible is the
family's to say, in the services (``matches.standing.result_check``); here a field that
is not there takes the value that means "not set".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ValidationError
from games.results import ResultValue
from games.seats import letter_of, seat_of

__all__ = ["result_value_from", "result_wire"]


def result_value_from(data: Mapping[str, Any]) -> ResultValue:
    """The result of validated input (a serializer's ``validated_data``, a form's cleaned
    data, a test's keywords): ``winner`` as a side or its letter, ``outcome`` a code, the
    other fields optional (``None`` or empty: not set). ``ValidationError`` for a winner
    that is no side."""
    winner: Any = data.get("winner")
    try:
        seat = seat_of(winner)
    except ValueError:
        raise ValidationError(
            _("Not a possible result: %(error)s.")
            % {"error": _("the winner is W or B, not “%(winner)s”") % {"winner": winner}}
        ) from None
    cube = data.get("cube")
    return ResultValue(
        winner=seat,
        outcome=str(data["outcome"]),
        pattern=str(data.get("pattern") or ""),
        munk=bool(data.get("munk")),
        cube=1 if cube is None else int(cube),
        conceded=str(data.get("conceded") or ""),
        game_type=str(data.get("game_type") or ""),
    )


def result_wire(value: ResultValue) -> dict[str, Any]:
    """A result as the API writes it (conflict bodies): the winner's letter, and ``None``
    for a field that is not set."""
    return {
        "winner": letter_of(value.winner),
        "outcome": value.outcome,
        "pattern": value.pattern or None,
        "munk": value.munk,
        "cube": value.cube,
        "conceded": value.conceded or None,
        "game_type": value.game_type or None,
    }
