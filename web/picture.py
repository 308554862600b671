"""A :class:`games.board.BoardPicture` drawn as SVG, with the geometry of ``web.board``
(the same board, points numbered in the viewer's numbering, the point numbered ``n``
always in the same place): every game's viewer draws its family's picture here (bräde's
layout as ``web.board`` describes it, backgammon's below).

What the layout changes (``games.board``): in the ``backgammon`` layout the viewer's
checkers enter on the top row (24–19, top right) and are borne off into the bottom right
tray, the opponent's into the top right tray; the viewer's checkers on the bar wait in the
upper half of the bar, the opponent's in the lower half. The doubling cube lies in the
middle of the bar while centred, else at its owner's end of the bar (the viewer's at the
bottom), showing its value; a cube offered and not yet answered is drawn beside the bar on
the doubler's side, marked ``offered``.

Markup as ``web.board``'s: terse, styled by classes (``viewer.css``); every stack a
``<g class="stack">`` with ``data-side`` (0 the first player, 1 the second),
``data-point`` (viewer's numbering, or ``bar``) and ``data-count``; trays ``<g
class="off">``; the cube ``<g class="cube">`` with ``data-value`` and ``data-owner``.
"""

from __future__ import annotations

from games.board import BACKGAMMON, BoardPicture
from web.board import (
    BAR_X,
    BOTTOM,
    BW,
    DIE,
    MAX_SHOWN,
    MIDY,
    PIPS,
    PW,
    TOP,
    TW,
    WIDTH,
    R,
    column_x,
    slot,
    triangle,
)

__all__ = ["picture_layer"]

CUBE = 34  # side of the doubling cube
CLASSES = ("w", "b")


def _stack(side: int, count: int, cx: int, first_y: int, step: int, point: str) -> str:
    klass = CLASSES[side]
    parts = [f'<g class="stack" data-side="{side}" data-point="{point}" data-count="{count}">']
    shown = min(count, MAX_SHOWN)
    for k in range(shown):
        parts.append(f'<circle class="ck {klass}" cx="{cx}" cy="{first_y + k * step}" r="{R}"/>')
    if count > MAX_SHOWN:
        y = first_y + (shown - 1) * step + 5
        parts.append(f'<text class="cnt {klass}" x="{cx}" y="{y}">{count}</text>')
    parts.append("</g>")
    return "".join(parts)


def _points(picture: BoardPicture) -> str:
    out = []
    for stack in picture.stacks:
        x, top = slot(stack.point)
        first, step = (TOP + R + 1, 2 * R) if top else (BOTTOM - R - 1, -2 * R)
        out.append(_stack(stack.side, stack.count, x + PW // 2, first, step, str(stack.point)))
    return "".join(out)


def _bar(picture: BoardPicture) -> str:
    out = []
    backgammon = picture.layout == BACKGAMMON
    for side in (0, 1):
        count = picture.bar[side]
        if not count:
            continue
        upper = (side == picture.view) == backgammon  # backgammon: the viewer enters on top
        first, step = (MIDY - R - 4, -2 * R) if upper else (MIDY + R + 4, 2 * R)
        out.append(_stack(side, count, BAR_X, first, step, "bar"))
    return "".join(out)


def _off(picture: BoardPicture) -> str:
    """Borne-off checkers as slabs: both trays on the right in backgammon, the viewer's at
    the bottom; bräde's as ``web.board`` draws them."""
    out = []
    backgammon = picture.layout == BACKGAMMON
    for side in (0, 1):
        count = picture.off[side]
        mine = side == picture.view
        klass = CLASSES[side]
        right = backgammon or mine
        bottom = mine if backgammon else not mine
        x = WIDTH - TW + 8 if right else 8
        out.append(f'<g class="off" data-side="{side}" data-count="{count}">')
        for k in range(count):
            y = BOTTOM - 6 - 9 - k * 11 if bottom else TOP + 6 + k * 11
            out.append(f'<rect class="slab {klass}" x="{x}" y="{y}" width="{TW - 16}" height="9"/>')
        if count:
            y = MIDY + 20 if bottom else MIDY - 8
            out.append(f'<text class="offn" x="{x + (TW - 16) // 2}" y="{y}">{count}</text>')
        out.append("</g>")
    return "".join(out)


def _dice(picture: BoardPicture) -> str:
    dice, mover = picture.dice, picture.mover
    if not dice or mover is None:
        return ""
    klass = CLASSES[mover]
    centre = column_x(6) + 3 * PW if mover == picture.view else TW + 3 * PW
    gap = 10
    total = len(dice) * DIE + (len(dice) - 1) * gap
    x0 = centre - total // 2
    y0 = MIDY - DIE // 2
    out = [f'<g class="dice" data-dice="{"-".join(str(d) for d in dice)}">']
    for i, die in enumerate(dice):
        x = x0 + i * (DIE + gap)
        out.append(
            f'<rect class="die {klass}" x="{x}" y="{y0}" width="{DIE}" height="{DIE}" rx="5"/>'
        )
        for fx, fy in PIPS.get(die, ()):
            out.append(
                f'<circle class="pip {klass}" cx="{x + fx * DIE:g}" cy="{y0 + fy * DIE:g}" r="3"/>'
            )
    out.append("</g>")
    return "".join(out)


def _cube(picture: BoardPicture) -> str:
    cube = picture.cube
    if cube is None:
        return ""
    if cube.offered_by is not None:
        # beside the bar, on the doubler's half (the viewer's: right)
        x = BAR_X + BW // 2 + 8 if cube.offered_by == picture.view else BAR_X - BW // 2 - 8 - CUBE
        y = MIDY - CUBE // 2
        shown, state = cube.value * 2, "offered"
    else:
        x = BAR_X - CUBE // 2
        if cube.owner is None:
            y, state = MIDY - CUBE // 2, "centred"
        elif cube.owner == picture.view:
            y, state = BOTTOM - CUBE - 4, "owned"
        else:
            y, state = TOP + 4, "owned"
        # a centred cube shows 64, as on a real board; the value stays 1 (data-value)
        shown = 64 if cube.owner is None and cube.value == 1 else cube.value
    owner = "" if cube.owner is None else str(cube.owner)
    return (
        f'<g class="cube {state}" data-value="{cube.value}" data-owner="{owner}">'
        f'<rect class="cube-face" x="{x}" y="{y}" width="{CUBE}" height="{CUBE}" rx="5"/>'
        f'<text class="cube-value" x="{x + CUBE // 2}" y="{y + CUBE // 2 + 6}">{shown}</text>'
        "</g>"
    )


def _highlights(picture: BoardPicture) -> str:
    return "".join(
        [f'<polygon class="hl from" points="{triangle(n)}"/>' for n in picture.sources]
        + [f'<polygon class="hl to" points="{triangle(n)}"/>' for n in picture.targets]
    )


def picture_layer(picture: BoardPicture) -> str:
    """The changing part of the drawing: highlights, checkers, bar, trays, dice and the
    cube (``web.board.board_svg`` puts it on the static board)."""
    return "".join(
        (
            _highlights(picture),
            _points(picture),
            _bar(picture),
            _off(picture),
            _dice(picture),
            _cube(picture),
        )
    )
