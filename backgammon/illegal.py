"""Why a backgammon play is illegal, in one sentence (seed 002, "Flyt af brikker",
"Udtagning af brikker").

:func:`illegal_reason` explains a play that the move generator did not find among the
legal plays of its roll (``backgammon.movegen``) but that can be carried out on the board
(``backgammon.replay.apply_move_text``: every checker moved is there, no point it lands on
is held by two or more opposing checkers). Such a play may stand as played when the
opponent accepts it ("Ugyldige slag og ulovlige ryk"), so the players are told what is
wrong with it before the opponent decides.

The steps are walked in the order written, each using a die of the roll:

- a checker on the bar enters before any other checker moves (``bg.play.bar_first``);
- a checker moves forward, to a lower point (``bg.play.backwards``);
- checkers are borne off only once all are in the home board (``bg.play.not_home``);
- a step moves as many pips as a die not played yet shows (``bg.play.no_die``); a die
  higher than the point bears off only from the highest point held
  (``bg.play.bear_off_higher``);
- no more steps than the roll has dice (``bg.play.too_many``).

Decision: a play whose every step passes these checks plays fewer dice than it could, or
the lower die where only the higher can be played (``bg.play.unused``: rule 6, play both
dice if possible, else the higher one) — the generator holds every play that uses the
most dice, so nothing else is left.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon.messages import bg_msg
from backgammon.position import BAR, OFF, Position
from engine.messages import Msg

__all__ = ["illegal_reason", "play_words"]


def _point(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def play_words(steps: Sequence[tuple[int, int]]) -> str:
    """The steps as a ``.mat`` record writes them, unmarked (``13/10 8/2``), or
    ``(no move)``."""
    return " ".join(f"{_point(a)}/{_point(b)}" for a, b in steps) or "(no move)"


def _dice_words(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in sorted(dice, reverse=True)) or "none"


def illegal_reason(pos: Position, dice: tuple[int, int], steps: Sequence[tuple[int, int]]) -> Msg:
    """What is wrong with ``steps`` (``(from, to)`` in the mover's numbering) as a play of
    ``dice`` from ``pos`` — a play known to be illegal and possible to carry out (module
    doc): ``bg.play.illegal`` with the play and its reason."""
    high, low = max(dice), min(dice)
    return bg_msg(
        "bg.play.illegal",
        dice=f"{high}{low}",
        moves=play_words(steps),
        reason=_reason(pos, (high, low), steps),
    )


def _reason(pos: Position, dice: tuple[int, int], steps: Sequence[tuple[int, int]]) -> Msg:
    left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    me = list(pos.me)
    for src, dst in steps:
        move = f"{_point(src)}/{_point(dst)}"
        if not left:
            return bg_msg("bg.play.too_many", move=move, dice=_dice_words(dice))
        if me[BAR] and src != BAR:
            return bg_msg("bg.play.bar_first", move=move)
        if dst == OFF:
            if any(me[7:26]):
                return bg_msg("bg.play.not_home", move=move)
            die = src if src in left else min((d for d in left if d > src), default=None)
            if die is None:
                return bg_msg("bg.play.no_die", move=move, pips=src, left=_dice_words(left))
            if die != src and any(me[src + 1 : 7]):
                return bg_msg("bg.play.bear_off_higher", move=move, die=die)
        else:
            pips = src - dst
            if pips <= 0:
                return bg_msg("bg.play.backwards", move=move)
            if pips not in left:
                return bg_msg("bg.play.no_die", move=move, pips=pips, left=_dice_words(left))
            die = pips
        left.remove(die)
        me[src] -= 1
        me[dst] += 1
    return bg_msg("bg.play.unused")
