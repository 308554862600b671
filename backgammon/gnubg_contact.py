"""GNU Backgammon 1.07's evaluation of contact and crashed positions, for the positions where
gnubg-nn's differs from it.

gnubg-nn computes the contact and crashed nets' inputs as gnubg 1.07 does but for one
heuristic: the pip loss, one and two checkers hit (inputs ``I_PIPLOSS``, ``I_P1``,
``I_P2``) count a shot at the opponent's blots on the hitter's 1- and 2-point (the
opponent's 24- and 23-point) only when the hitter's home board holds more than two points.
gnubg 1.07 (``eval.c``, ``CalculateHalfInputs``) counts the home points holding a checker;
gnubg-nn (``inputs.c``, ``pipLossP1P2``) counts those holding two. Where the two counts
fall on either side of two and such a blot stands, the inputs differ and so do the net's
outputs (measured on the 2,728 contact and crashed positions of 3,000 from real matches:
227 of them, by up to 2.5 % of a probability), enough to move a short match's error rate
by a PR point.

This module is that evaluation written out: gnubg 1.07's inputs of a contact or crashed
position (``CalculateContactInputs``, ``CalculateCrashedInputs``, ``baseInputs``), its
net (``NeuralNetEvaluate``: a hidden layer and an output layer of logistic units) and its
``SanityCheck`` of the outputs in contact. ``backgammon.analysis`` asks it only for the
positions where :func:`differs_from_gnubg_nn` says gnubg-nn's inputs would be wrong (here
a position takes 0.7 ms, in gnubg-nn's C 6 µs), and gnubg-nn for all others.

A board is gnubg's: two lists of 25 counts, the side not on roll first, each from its own
side (index 0 its 1-point, 23 its 24-point, 24 its bar).

The logistic function is gnubg's (``sigmoid.h``): e^x from a table of e^(k/10) and a
linear step between, whose error (up to half a percent of a unit's activity) the nets
were trained and are used with.

Decisions where the sources are silent: a position whose two rearmost checkers stand on
points that add up to 25 (each side's own numbering) is contact for gnubg's classes but
not for its ``SanityCheck``, which then asks the one-sided bear-off database; it is left
to gnubg-nn (:func:`differs_from_gnubg_nn` says no).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from operator import add, mul

from backgammon.gnubg_nets import Net

__all__ = [
    "ContactEvaluator",
    "contact_inputs",
    "crashed_inputs",
    "differs_from_gnubg_nn",
    "pip_loss",
]

Board = Sequence[Sequence[int]]
Probs = tuple[float, float, float, float, float]

# one side's extra inputs (gnubg's enum after the 4 × 25 inputs of the points)
I_OFF1 = 0
I_BREAK_CONTACT = 3
I_BACK_CHEQUER = 4
I_BACK_ANCHOR = 5
I_FORWARD_ANCHOR = 6
I_PIPLOSS = 7
I_P1 = 8
I_P2 = 9
I_BACKESCAPES = 10
I_ACONTAIN = 11
I_ACONTAIN2 = 12
I_CONTAIN = 13
I_CONTAIN2 = 14
I_MOBILITY = 15
I_MOMENT2 = 16
I_ENTER = 17
I_ENTER2 = 18
I_TIMING = 19
I_BACKBONE = 20
I_BACKG = 21
I_BACKG1 = 22
I_FREEPIP = 23
I_BACKRESCAPES = 24
MORE_INPUTS = 25
BASE_INPUTS = 200

# How many ways to hit from a distance of n + 1 pips: indexes into _WAYS
_COMBINATIONS: tuple[tuple[int, ...], ...] = (
    (0,),
    (1, 2),
    (3, 4, 5),
    (6, 7, 8, 9),
    (10, 11, 12),
    (13, 14, 15, 16, 17),
    (18, 19, 20),
    (21, 22, 23, 24),
    (25, 26, 27),
    (28, 29),
    (30,),
    (31, 32, 33),
    (),
    (),
    (34,),
    (35,),
    (),
    (36,),
    (),
    (37,),
    (),
    (),
    (),
    (38,),
)

# One way to hit: (all intermediate points needed, the intermediate points, faces, pips)
_WAYS: tuple[tuple[bool, tuple[int, ...], int, int], ...] = (
    (True, (), 1, 1),
    (True, (), 1, 2),
    (True, (1,), 2, 2),
    (True, (), 1, 3),
    (False, (1, 2), 2, 3),
    (True, (1, 2), 3, 3),
    (True, (), 1, 4),
    (False, (1, 3), 2, 4),
    (True, (2,), 2, 4),
    (True, (1, 2, 3), 4, 4),
    (True, (), 1, 5),
    (False, (1, 4), 2, 5),
    (False, (2, 3), 2, 5),
    (True, (), 1, 6),
    (False, (1, 5), 2, 6),
    (False, (2, 4), 2, 6),
    (True, (3,), 2, 6),
    (True, (2, 4), 3, 6),
    (False, (1, 6), 2, 7),
    (False, (2, 5), 2, 7),
    (False, (3, 4), 2, 7),
    (False, (2, 6), 2, 8),
    (False, (3, 5), 2, 8),
    (True, (4,), 2, 8),
    (True, (2, 4, 6), 4, 8),
    (False, (3, 6), 2, 9),
    (False, (4, 5), 2, 9),
    (True, (3, 6), 3, 9),
    (False, (4, 6), 2, 10),
    (True, (5,), 2, 10),
    (False, (5, 6), 2, 11),
    (True, (6,), 2, 12),
    (True, (4, 8), 3, 12),
    (True, (3, 6, 9), 4, 12),
    (True, (5, 10), 3, 15),
    (True, (4, 8, 12), 4, 16),
    (True, (6, 12), 3, 18),
    (True, (5, 10, 15), 4, 20),
    (True, (6, 12, 18), 4, 24),
)

# The ways each of the 21 rolls hits (11, 21, 22, 31, …, 66), indexes into _WAYS
_ROLL_WAYS: tuple[tuple[int, ...], ...] = (
    (0, 2, 5, 9),
    (0, 1, 4),
    (1, 8, 17, 24),
    (0, 3, 7),
    (1, 3, 12),
    (3, 16, 27, 33),
    (0, 6, 11),
    (1, 6, 15),
    (3, 6, 20),
    (6, 23, 32, 35),
    (0, 10, 14),
    (1, 10, 19),
    (3, 10, 22),
    (6, 10, 26),
    (10, 29, 34, 37),
    (0, 13, 18),
    (1, 13, 21),
    (3, 13, 25),
    (6, 13, 28),
    (10, 13, 30),
    (13, 31, 36, 38),
)


@cache
def _escape_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's ``anEscapes`` and ``anEscapes1``: of the 36 rolls, how many let a checker
    pass the 12 points before it, by the bit mask of those points that are made."""
    plain = []
    beyond_first = [0]
    for mask in range(0x1000):
        count = 0
        for n0 in range(6):
            for n1 in range(n0 + 1):
                if not mask & (1 << (n0 + n1 + 1)) and not (mask & (1 << n0) and mask & (1 << n1)):
                    count += 1 if n0 == n1 else 2
        plain.append(count)
    for mask in range(1, 0x1000):
        low = 0
        while not mask & (1 << low):
            low += 1
        count = 0
        for n0 in range(6):
            for n1 in range(n0 + 1):
                if (
                    n0 + n1 + 1 > low
                    and not mask & (1 << (n0 + n1 + 1))
                    and not (mask & (1 << n0) and mask & (1 << n1))
                ):
                    count += 1 if n0 == n1 else 2
        beyond_first.append(count)
    return tuple(plain), tuple(beyond_first)


def _mask(board: Sequence[int], n: int) -> int:
    mask = 0
    for i in range(min(n, 12)):
        if board[24 + i - n] >= 2:
            mask |= 1 << i
    return mask


def _escapes(board: Sequence[int], n: int) -> int:
    return _escape_tables()[0][_mask(board, n)]


def _escapes1(board: Sequence[int], n: int) -> int:
    return _escape_tables()[1][_mask(board, n)]


def pip_loss(
    me: Sequence[int], opp: Sequence[int], *, home_points: int
) -> tuple[float, float, float]:
    """gnubg's ``I_PIPLOSS``, ``I_P1`` and ``I_P2`` of the side ``me``: the mean pips the
    opponent loses to a hit, and the share of rolls that hit one and two checkers.
    ``home_points`` is the count of the hitter's home points that decides whether blots on
    its 23- and 24-point are worth hitting (gnubg 1.07: the points holding a checker)."""
    hits = [0] * 39
    for i in range(23 if home_points > 2 else 21, -1, -1):
        if opp[i] != 1:
            continue
        for j in range(24 - i, 25):
            if not me[j] or (j < 6 and me[j] == 2):
                continue
            for way in _COMBINATIONS[j - 24 + i]:
                every, between, faces, _pips = _WAYS[way]
                if every:
                    if faces > 1 and any(opp[i - p] > 1 for p in between):
                        continue
                elif opp[i - between[0]] > 1 and opp[i - between[1]] > 1:
                    continue
                hits[way] |= 1 << j
    pips = [0] * 21
    chequers = [0] * 21
    if not me[24]:
        for r, ways in enumerate(_ROLL_WAYS):
            used = -1
            for way in ways:
                if not hits[way]:
                    continue
                _every, between, faces, way_pips = _WAYS[way]
                if faces == 1:
                    for k in range(23, 0, -1):
                        if hits[way] & (1 << k):
                            if used != k or me[k] > 1:
                                chequers[r] += 1
                            used = k
                            pips[r] = max(pips[r], k - way_pips + 1)
                            if len(ways) == 4 and hits[way] & ~(1 << k):
                                chequers[r] += 1
                            break
                else:
                    if not chequers[r]:
                        chequers[r] = 1
                    k = 23
                    while k >= 0 and not hits[way] & (1 << k):
                        k -= 1
                    pips[r] = max(pips[r], k - way_pips + 1)
                    for p in between:
                        if opp[23 - k + p] == 1:
                            chequers[r] += 1
                            break
    elif me[24] == 1:
        for r, ways in enumerate(_ROLL_WAYS):
            entering = False
            for j, way in enumerate(ways):
                if not hits[way]:
                    continue
                _every, between, faces, way_pips = _WAYS[way]
                if faces == 1:
                    for k in range(24, 0, -1):
                        if hits[way] & (1 << k):
                            if entering and k != 24:
                                break
                            if k != 24:
                                other = _WAYS[ways[1 - j]][3]
                                if opp[other - 1] > 1:
                                    break
                                entering = True
                            chequers[r] += 1
                            pips[r] = max(pips[r], k - way_pips + 1)
                else:
                    if not hits[way] & (1 << 24):
                        continue
                    if not chequers[r]:
                        chequers[r] = 1
                    pips[r] = max(pips[r], 25 - way_pips)
                    for p in between:
                        if opp[p + 1] == 1:
                            chequers[r] += 1
                            break
    else:
        for r, ways in enumerate(_ROLL_WAYS):
            for way in ways[:2]:
                if not hits[way] & (1 << 24) or _WAYS[way][2] != 1:
                    continue
                chequers[r] += 1
                pips[r] = max(pips[r], 25 - _WAYS[way][3])
    total = one = two = 0
    for r, ways in enumerate(_ROLL_WAYS):
        weight = 1 if len(ways) == 4 else 2
        total += pips[r] * weight
        if chequers[r] > 0:
            one += weight
            if chequers[r] > 1:
                two += weight
    return total / (12.0 * 36.0), one / 36.0, two / 36.0


def _half_inputs(me: Sequence[int], opp: Sequence[int], out: list[float]) -> None:
    """gnubg 1.07's ``CalculateHalfInputs``: the extra inputs of the side ``me`` (all but
    the men off, which the caller sets)."""
    opp_back = 24
    while opp_back >= 0 and not opp[opp_back]:
        opp_back -= 1
    n_opp_back = 23 - opp_back
    n = sum((i + 1 - n_opp_back) * me[i] for i in range(n_opp_back + 1, 25) if me[i])
    out[I_BREAK_CONTACT] = n / (15 + 152.0)
    out[I_FREEPIP] = sum((i + 1) * me[i] for i in range(max(n_opp_back, 0))) / 100.0

    t = 24 * me[24]
    no = me[24]
    i = 23
    while i >= 12 and i > n_opp_back:
        if me[i] and me[i] != 2:
            c = me[i] - 2 if me[i] > 2 else 1
            no += c
            t += i * c
        i -= 1
    while i >= 6:
        if me[i]:
            no += me[i]
            t += i * me[i]
        i -= 1
    for i in range(5, -1, -1):
        if me[i] > 2:
            t += i * (me[i] - 2)
            no += me[i] - 2
        elif me[i] < 2:
            c = 2 - me[i]
            if no >= c:
                t -= i * c
                no -= c
    out[I_TIMING] = max(t, 0) / 100.0

    back = 24
    while back >= 0 and not me[back]:
        back -= 1
    out[I_BACK_CHEQUER] = back / 24.0
    anchor = 23 if back == 24 else back
    while anchor >= 0 and me[anchor] < 2:
        anchor -= 1
    out[I_BACK_ANCHOR] = anchor / 24.0
    forward = 0
    for j in range(18, anchor + 1):
        if me[j] >= 2:
            forward = 24 - j
            break
    if forward == 0:
        for j in range(17, 11, -1):
            if me[j] >= 2:
                forward = 24 - j
                break
    out[I_FORWARD_ANCHOR] = 2.0 if forward == 0 else forward / 6.0

    occupied = sum(1 for i in range(6) if me[i])
    out[I_PIPLOSS], out[I_P1], out[I_P2] = pip_loss(me, opp, home_points=occupied)

    out[I_BACKESCAPES] = _escapes(me, 23 - n_opp_back) / 36.0
    out[I_BACKRESCAPES] = _escapes1(me, 23 - n_opp_back) / 36.0
    least = 36
    i = 15
    while i < 24 - n_opp_back:
        least = min(least, _escapes(me, i))
        i += 1
    out[I_ACONTAIN] = (36 - least) / 36.0
    out[I_ACONTAIN2] = out[I_ACONTAIN] * out[I_ACONTAIN]
    if n_opp_back < 0:
        i, least = 15, 36
    while i < 24:
        least = min(least, _escapes(me, i))
        i += 1
    out[I_CONTAIN] = (36 - least) / 36.0
    out[I_CONTAIN2] = out[I_CONTAIN] * out[I_CONTAIN]

    mobility = sum((i - 5) * me[i] * _escapes(opp, i) for i in range(6, 25) if me[i])
    out[I_MOBILITY] = mobility / 3600.0

    count = sum(me)
    mean = sum(i * me[i] for i in range(25))
    if count:
        mean = (mean + count - 1) // count
    count = moment = 0
    for i in range(mean + 1, 25):
        if me[i]:
            count += me[i]
            moment += me[i] * (i - mean) * (i - mean)
    if count:
        moment = (moment + count - 1) // count
    out[I_MOMENT2] = moment / 400.0

    if me[24] > 0:
        loss = 0
        two = me[24] > 1
        for i in range(6):
            if opp[i] > 1:
                loss += 4 * (i + 1)
                for j in range(i + 1, 6):
                    if opp[j] > 1:
                        loss += 2 * (i + j + 2)
                    elif two:
                        loss += 2 * (i + 1)
            elif two:
                for j in range(i + 1, 6):
                    if opp[j] > 1:
                        loss += 2 * (j + 1)
        out[I_ENTER] = loss / (36.0 * (49.0 / 6.0))
    else:
        out[I_ENTER] = 0.0
    closed = sum(1 for i in range(6) if opp[i] > 1)
    out[I_ENTER2] = (36 - (closed - 6) * (closed - 6)) / 36.0

    previous = -1
    weighted = total = 0
    for point in range(23, 0, -1):
        if me[point] >= 2:
            if previous == -1:
                previous = point
                continue
            gap = previous - point
            c = 11 if gap <= 6 else 13 - gap if gap <= 11 else 0
            weighted += c * me[previous]
            total += me[previous]
    out[I_BACKBONE] = 1 - weighted / (total * 11.0) if total else 0.0

    back_anchors = sum(1 for i in range(18, 24) if me[i] > 1)
    out[I_BACKG] = 0.0
    out[I_BACKG1] = 0.0
    if back_anchors:
        back_checkers = sum(me[18:25])
        if back_anchors > 1:
            out[I_BACKG] = (back_checkers - 3) / 4.0
        else:
            out[I_BACKG1] = back_checkers / 8.0


def _men_off_all(side: Sequence[int], out: list[float]) -> None:
    off = 15 - sum(side)
    if off > 10:
        out[0:3] = [1.0, 1.0, (off - 10) / 5.0]
    elif off > 5:
        out[0:3] = [1.0, (off - 5) / 5.0, 0.0]
    else:
        out[0:3] = [off / 5.0, 0.0, 0.0]


def _men_off_non_crashed(side: Sequence[int], out: list[float]) -> None:
    off = 15 - sum(side)
    if off > 5:
        out[0:3] = [1.0, 1.0, (off - 6) / 3.0]
    elif off > 2:
        out[0:3] = [1.0, (off - 3) / 3.0, 0.0]
    else:
        out[0:3] = [off / 3.0, 0.0, 0.0]


def _base_inputs(board: Board) -> list[float]:
    out: list[float] = []
    for side in board:
        for i in range(24):
            nc = side[i]
            out += [
                float(nc == 1),
                float(nc == 2),
                float(nc >= 3),
                (nc - 3) / 2.0 if nc > 3 else 0.0,
            ]
        nc = side[24]
        out += [float(nc >= 1), float(nc >= 2), float(nc >= 3), (nc - 3) / 2.0 if nc > 3 else 0.0]
    return out


def contact_inputs(board: Board) -> list[float]:
    """gnubg 1.07's 250 inputs of a contact position (``CalculateContactInputs``: the men
    off of each side's block are the other side's, as gnubg's net was trained)."""
    first = [0.0] * MORE_INPUTS
    second = [0.0] * MORE_INPUTS
    _half_inputs(board[1], board[0], first)
    _men_off_non_crashed(board[0], first)
    _half_inputs(board[0], board[1], second)
    _men_off_non_crashed(board[1], second)
    return _base_inputs(board) + first + second


def crashed_inputs(board: Board) -> list[float]:
    """gnubg 1.07's 250 inputs of a crashed position (``CalculateCrashedInputs``)."""
    first = [0.0] * MORE_INPUTS
    second = [0.0] * MORE_INPUTS
    _half_inputs(board[1], board[0], first)
    _men_off_all(board[1], first)
    _half_inputs(board[0], board[1], second)
    _men_off_all(board[0], second)
    return _base_inputs(board) + first + second


def _gnubg_nn_disagrees(me: Sequence[int], opp: Sequence[int]) -> bool:
    if opp[22] != 1 and opp[23] != 1:
        return False  # no blot where the two counts could matter
    occupied = sum(1 for i in range(6) if me[i])
    made = sum(1 for i in range(6) if me[i] >= 2)
    if (occupied > 2) == (made > 2):
        return False
    return pip_loss(me, opp, home_points=occupied) != pip_loss(me, opp, home_points=made)


def _back(side: Sequence[int]) -> int:
    for i in range(24, -1, -1):
        if side[i]:
            return i
    return -1


def differs_from_gnubg_nn(board: Board) -> bool:
    """Whether gnubg-nn's inputs of this contact or crashed position differ from gnubg
    1.07's (its pip loss heuristic counts the home points made, not held)."""
    if not (_gnubg_nn_disagrees(board[1], board[0]) or _gnubg_nn_disagrees(board[0], board[1])):
        return False
    # no contact for gnubg's SanityCheck: left to gnubg-nn
    return _back(board[0]) + _back(board[1]) >= 24


@dataclass(frozen=True, slots=True)
class _Layers:
    columns: tuple[tuple[float, ...], ...]  # each input's weights to the hidden units
    hidden_threshold: tuple[float, ...]
    rows: tuple[tuple[float, ...], ...]  # each output's weights from the hidden units
    output_threshold: tuple[float, ...]
    beta_hidden: float
    beta_output: float

    @classmethod
    def of(cls, net: Net) -> _Layers:
        h, w = net.hidden, net.weights
        hidden_end = net.inputs * h
        output_end = hidden_end + net.outputs * h
        return cls(
            tuple(w[i * h : (i + 1) * h] for i in range(net.inputs)),
            w[output_end : output_end + h],
            tuple(w[hidden_end + o * h : hidden_end + (o + 1) * h] for o in range(net.outputs)),
            w[output_end + h : output_end + h + net.outputs],
            net.beta_hidden,
            net.beta_output,
        )

    def evaluate(self, inputs: Sequence[float]) -> list[float]:
        """gnubg's ``NeuralNetEvaluate``: each layer's units the logistic of the weighted
        sum of the layer below, by the layer's beta."""
        hidden: Sequence[float] = self.hidden_threshold
        for x, column in zip(inputs, self.columns, strict=True):
            if x == 1.0:
                hidden = list(map(add, hidden, column))
            elif x != 0.0:
                hidden = list(map(add, hidden, map(mul, column, repeat(x))))
        active = [_sigmoid(-self.beta_hidden * a) for a in hidden]
        return [
            _sigmoid(-self.beta_output * (t + sum(map(mul, active, row))))
            for t, row in zip(self.output_threshold, self.rows, strict=True)
        ]


# e^(k/10) / 10, k = 0 … 99: gnubg's table
_EXP = tuple(math.exp(k / 10) / 10 for k in range(100))


def _sigmoid(x: float) -> float:
    """gnubg's approximation of 1 / (1 + e^x)."""
    if x >= 0.0 and math.copysign(1.0, x) > 0:
        if x < 10.0:
            scaled = 10.0 * x
            i = int(scaled)
            return 1 / (1 + _EXP[i] * ((10 - i) + scaled))
        return 1.0 / 19931.370438230298
    if x > -10.0:
        scaled = -10.0 * x
        i = int(scaled)
        return 1 - 1 / (1 + _EXP[i] * ((10 - i) + scaled))
    return 19930.370438230298 / 19931.370438230298


def _sanity(board: Board, out: list[float]) -> Probs:
    """gnubg's ``SanityCheck`` in contact: probabilities in range and in order."""
    win = min(max(out[0], 0.0), 1.0)
    wg, wbg, lg, lbg = out[1], out[2], out[3], out[4]
    if sum(board[0]) < 15:
        wg = wbg = 0.0
    if sum(board[1]) < 15:
        lg = lbg = 0.0
    wg = min(wg, win)
    lg = min(lg, 1.0 - win)
    wbg = min(wbg, wg)
    lbg = min(lbg, lg)
    wg, wbg, lg, lbg = (0.0 if p < 1e-4 else p for p in (wg, wbg, lg, lbg))
    return (win, wg, wbg, lg, lbg)


class ContactEvaluator:
    """gnubg 1.07's contact and crashed nets evaluated here (``nets`` from
    ``backgammon.gnubg_nets.read_binary``)."""

    def __init__(self, nets: dict[str, Net]) -> None:
        self.contact = _Layers.of(nets["contact contact250"])
        self.crashed = _Layers.of(nets["crashed"])

    def probabilities(self, board: Board, *, crashed: bool) -> Probs:
        """The side on roll's five cubeless probabilities at 0-ply."""
        if crashed:
            out = self.crashed.evaluate(crashed_inputs(board))
        else:
            out = self.contact.evaluate(contact_inputs(board))
        return _sanity(board, out)
