"""One row of the standings API (``api_rounds.StandingsOut``): a round robin's or paired
rounds' standing line. Shared by the round robin's reads (``api_rounds``) and the paired
rounds' (``api_swiss``), so neither imports the other for it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from matches.standing_lines import StandingLine
from stages.messages import Msg

__all__ = ["standing_row"]


def standing_row(
    line: StandingLine, chain: Sequence[str], render: Callable[[Msg], str], group: str = ""
) -> dict[str, Any]:
    """One row of ``StandingsOut``: a round robin's or a Swiss's standing line
    (``matches.standing_lines``), its reason rendered by ``render`` in the request's language."""
    why = None
    if line.why is not None:
        why = {**line.why.to_dict(), "text": render(line.why)}
    return {
        "place": line.place,
        "player": {"id": line.player.pk, "name": line.player.name},
        "withdrawn": line.withdrawn,
        "played": line.played,
        "won": line.won,
        "values": {
            key: None if value is None else str(value)
            for key, value in zip(chain, line.values, strict=True)
        },
        "lot": line.lot,
        "why": why,
        "group": group,
    }
