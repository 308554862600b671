"""The board's drawing: the static board as SVG.

Pure Python (no Django): a game's frames (bräde's ``games.frames_brade``, backgammon's
``games.frames_backgammon``) give their family's board picture, which ``web.picture``
draws into :func:`board_svg`. The geometry below (and the static board) is shared by
every game. Words for people (labels, captions) are made by the view, which translates
them.

How the board is oriented (decided here, shown the same way for both sides):

- The board is drawn from the seat of the *viewing side* ``view`` (White or Black):
  every point is labelled with its number in that side's numbering (rules.md R1), and
  the point numbered ``n`` always sits in the same place on the drawing:

  ======  ==========================================================
  1–12    bottom row, from right (1, the viewer's home) to left (12, the huk)
  13–24   top row, from left (13, the opponent's home) to right (24)
  ======  ==========================================================

  So the viewer's checkers travel right to left along the bottom, up the left edge
  and left to right along the top, and are borne off at the top right. The opponent
  travels the same way round (both sides move in the same direction in bräde),
  starting at the top left (the viewer's 13) and bearing off at the bottom left (the
  viewer's 12 is the opponent's 24). Switching the view to the other side turns the
  picture by half a turn, which is exactly the renumbering p ↦ ((p + 11) mod 24) + 1.
- Each row is split in two halves of six points by the bar, as on a backgammon board.
  The viewer's checkers on the bar are drawn in the lower half of the bar (they enter
  on the viewer's 1–6, bottom right), the opponent's in the upper half (they enter on
  the viewer's 13–18, top left).
- Borne-off checkers lie in trays beside the board where each side bears off: the
  viewer's in the top right tray, the opponent's in the bottom left tray.
- A stack shows at most five checkers; a taller stack shows its count on the fifth.
- The dice of the turn just played lie in the middle of the half on the mover's right
  (the right half for the viewer, the left half for the opponent, who sits opposite),
  in the mover's colour; the points the mover's steps started from are outlined and
  the points they landed on are tinted.

Markup is terse and styled by classes (``web/static/web/viewer.css``) because the view
embeds one drawn layer per turn in the page (``web.picture``: every stack a ``<g
class="stack">`` with ``data-side``, 0 for White and 1 for Black as everywhere at the
games seam, ``data-point`` and ``data-count``; every tray a ``<g class="off">``), so
tests and scripts can read the drawing back.
"""

from __future__ import annotations

from html import escape

__all__ = ["PIPS", "board_svg", "column_x", "slot", "triangle"]

# --- geometry (SVG user units) ---------------------------------------------------------

PW = 40  # width of a point
R = 17  # checker radius
BW = 44  # width of the bar
TW = 52  # width of a borne-off tray
LBL = 24  # band for the point numbers above and below the board
HALF = 176  # height of one row of points (five checkers and a gap)
MID = 60  # the band between the rows (dice)
TRI = 160  # height of a point's triangle
MAX_SHOWN = 5  # checkers drawn per stack; the count is written on the last one
DIE = 30  # side of a die

TOP = LBL
BOTTOM = LBL + 2 * HALF + MID
MIDY = TOP + HALF + MID // 2
WIDTH = 2 * TW + 12 * PW + BW
HEIGHT = BOTTOM + LBL
BAR_X = TW + 6 * PW + BW // 2


# --- drawing ---------------------------------------------------------------------------


def column_x(col: int) -> int:
    """Left edge of column 0–11 (left to right; the bar sits between 5 and 6)."""
    return TW + col * PW + (BW if col >= 6 else 0)


def _column(n: int) -> int:
    """Column 0–11 (left to right) of the point numbered ``n`` by the viewer."""
    return 12 - n if n <= 12 else n - 13


def slot(n: int) -> tuple[int, bool]:
    """Left edge and row (True = top) of the point numbered ``n`` by the viewer."""
    return column_x(_column(n)), n > 12


def triangle(n: int) -> str:
    x, top = slot(n)
    base, tip = (TOP, TOP + TRI) if top else (BOTTOM, BOTTOM - TRI)
    return f"{x},{base} {x + PW},{base} {x + PW // 2},{tip}"


def _static_layer() -> str:
    """Board, trays, bar, the 24 points and their numbers (the same for either view)."""
    out = [
        f'<rect class="tray" x="0" y="{TOP}" width="{TW}" height="{BOTTOM - TOP}"/>',
        f'<rect class="tray" x="{WIDTH - TW}" y="{TOP}" width="{TW}" height="{BOTTOM - TOP}"/>',
        f'<rect class="felt" x="{TW}" y="{TOP}" width="{6 * PW}" height="{BOTTOM - TOP}"/>',
        f'<rect class="felt" x="{column_x(6)}" y="{TOP}" width="{6 * PW}" '
        f'height="{BOTTOM - TOP}"/>',
        f'<rect class="bar" x="{TW + 6 * PW}" y="{TOP}" width="{BW}" height="{BOTTOM - TOP}"/>',
    ]
    for n in range(1, 25):
        x, top = slot(n)
        shade = "a" if (_column(n) + (0 if top else 1)) % 2 == 0 else "b"
        out.append(f'<polygon class="pt {shade}" data-point="{n}" points="{triangle(n)}"/>')
        y = TOP - 7 if top else BOTTOM + 17
        out.append(f'<text class="num" x="{x + PW // 2}" y="{y}">{n}</text>')
    return "".join(out)


# Pip positions on a die, as fractions of its side (1–6).
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def board_svg(*, layer: str, label: str) -> str:
    """The whole drawing: the static board and ``layer`` in ``<g id="board-layer">``.

    ``role="img"`` with ``label`` as its accessible name (the viewer script keeps the
    label in step with the layer).
    """
    return (
        f'<svg id="board" class="board" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label, quote=True)}">'
        f"{_static_layer()}"
        f'<g id="board-layer">{layer}</g>'
        "</svg>"
    )
