"""Pure cores of the backgammon management commands.

``bg_moves``: each input line ``POSITION_ID DIE1 DIE2`` gives one output line, a JSON list
of the gnubg Position IDs of the distinct positions a legal play reaches, from the mover's
side before the turn passes (as gnubg's ``GenerateMoves`` leaves them), sorted. When the
roll cannot be played at all the list holds the position itself (the turn passes with the
board unchanged). Blank lines are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from backgammon.errors import BackgammonError, PositionError
from backgammon.movegen import legal_results
from backgammon.position import Position

__all__ = ["bg_moves", "bg_moves_line"]


def bg_moves_line(line: str, line_no: int | None = None) -> str:
    parts = line.split()
    if len(parts) != 3:
        raise PositionError("expected 'POSITION_ID DIE1 DIE2'", line=line_no)
    try:
        pos = Position.from_id(parts[0])
        d1, d2 = int(parts[1]), int(parts[2])
    except BackgammonError as exc:
        raise exc.located(line=line_no) from None
    except ValueError:
        raise PositionError(f"dice are 1–6, not {parts[1]!r} {parts[2]!r}", line=line_no) from None
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise PositionError(f"dice are 1–6, not {d1} {d2}", line=line_no)
    return json.dumps(sorted(r.position_id() for r in legal_results(pos, d1, d2)))


def bg_moves(lines: Iterable[str]) -> Iterator[str]:
    for no, line in enumerate(lines, start=1):
        if line.strip():
            yield bg_moves_line(line, no)
