"""Legal plays for a roll (seed 002, "Flyt af brikker", "At slå en brik", "Udtagning af brikker").

The rules, as numbered in the seed's list of moving rules:

1. checkers move forward only, to lower-numbered points (own numbering);
2. a checker may land only on an open point: empty, own, or one opposing checker (a blot,
   which is then hit and put on the bar — "At slå en brik");
3. the two dice are separate moves, by one checker or two;
4. one checker using both dice must touch down on an open point in between;
5. doubles are played four times;
6. both dice must be used if possible; if only one can be, it must be; if either one but not
   both can be, the higher one. If none can be played the turn passes.

Further: checkers on the bar must be entered before any other checker moves; bearing off only
when all 15 (those not yet borne off) are in the home board; a die larger than the highest
occupied point bears off from that highest point ("Udtagning af brikker"). Bearing off is never
forced when another move is possible (the seed's 61 example in diagram 4).

Plays are generated like gnubg's ``GenerateMoves``: every way of using the most dice (and, for
one die, the most pips, i.e. the higher die), collapsed to **distinct resulting positions**
(the same checkers on the same points with the same opposing checkers hit).
Three generators, each checked against gnubg (tests/backgammon/test_gnubg_oracle.py):
non-doubles with nobody on the bar and bearing off out of reach (the common case) pair the
single steps; doubles choose how many checkers step off each point; the rest (the bar,
bearing off) search the steps in both dice orders.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# raw_new, raw_set_me, raw_set_opp: trusted_position's parts, inlined at each doubles leaf
from backgammon.position import (
    BAR,
    OFF,
    Position,
    raw_new,
    raw_set_me,
    raw_set_opp,
    trusted_position,
)

__all__ = ["Play", "Step", "legal_plays", "legal_results", "roll_is_valid"]

_Key = tuple[tuple[int, ...], int]
_RawStep = tuple[int, int, bool]


@dataclass(frozen=True, slots=True)
class Step:
    """One die's move: ``src`` 25 = bar, ``dst`` 0 = off; ``hit`` when a blot was hit."""

    src: int
    dst: int
    hit: bool = False

    def text(self) -> str:
        src = "bar" if self.src == BAR else str(self.src)
        dst = "off" if self.dst == OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


class Play:
    """One legal play: the position it leaves (mover still on roll; :meth:`Position.swapped`
    passes the turn) and, built when first asked for, one order of steps that reaches it."""

    __slots__ = ("_raw", "_start", "dice", "result")

    def __init__(
        self,
        start: Position,
        dice: tuple[int, int],
        raw: tuple[_RawStep, ...] | None,
        result: Position,
    ) -> None:
        self._start = start
        self.dice = dice
        self._raw = raw
        self.result = result

    @property
    def steps(self) -> tuple[Step, ...]:
        raw = self._raw
        if raw is None:
            raw = self._raw = _double_steps(self._start, self.result, self.dice[0])
        return tuple(Step(*s) for s in raw)

    def text(self) -> str:
        """The steps in ``.mat`` notation (``8/5 6/5``, ``bar/22*``, ``6/off``)."""
        return " ".join(step.text() for step in self.steps)

    def __repr__(self) -> str:
        return f"Play({self.text()!r} -> {self.result.position_id()})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.result == self.result

    def __hash__(self) -> int:
        return hash(self.result)


def _double_steps(start: Position, result: Position, d: int) -> tuple[_RawStep, ...]:
    """The steps of a doubles play, from the bar down: how many checkers left each point
    follows from the counts before and after (the checkers that arrived from ``p + d``)."""
    before, after = start.me, result.me
    hit_points = {25 - q for q in range(1, 25) if result.opp[q] < start.opp[q]}
    steps: list[_RawStep] = []
    arrived = [0] * 26
    for p in range(BAR, 0, -1):
        moved = before[p] + arrived[p] - after[p]
        if moved <= 0:
            continue
        dst = p - d if p > d else OFF
        arrived[dst] += moved
        for _ in range(moved):
            hit = dst in hit_points
            hit_points.discard(dst)
            steps.append((p, dst, hit))
    return tuple(steps)


def roll_is_valid(d1: int, d2: int) -> bool:
    return 1 <= d1 <= 6 and 1 <= d2 <= 6


def _search(
    me: list[int],
    oppm: list[int],
    dice: tuple[int, ...],
    out: dict[_Key, tuple[_RawStep, ...]],
    best: list[int],
) -> None:
    """Depth-first search over the steps of one dice order; fills ``out`` with the plays
    that use the most dice (then the most pips), keyed by resulting position."""
    n = len(dice)
    outside0 = sum(me[7:26])

    def rec(depth: int, steps: tuple[_RawStep, ...], mask: int, outside: int, used: int) -> None:
        found = False
        if depth < n:
            d = dice[depth]
            if me[BAR]:
                srcs: Iterable[int] = (BAR,)
            else:
                srcs = [p for p in range(24, 0, -1) if me[p]]
            for src in srcs:
                dst = src - d
                if dst > 0:
                    o = oppm[dst]
                    if o > 1:
                        continue
                    found = True
                    me[src] -= 1
                    me[dst] += 1
                    nout = outside - 1 if src > 6 >= dst else outside
                    if o:
                        oppm[dst] = 0
                        rec(
                            depth + 1,
                            (*steps, (src, dst, True)),
                            mask | 1 << dst,
                            nout,
                            used + d,
                        )
                        oppm[dst] = 1
                    else:
                        rec(depth + 1, (*steps, (src, dst, False)), mask, nout, used + d)
                    me[src] += 1
                    me[dst] -= 1
                else:
                    if outside or (dst < 0 and any(me[src + 1 : 7])):
                        continue
                    found = True
                    me[src] -= 1
                    me[OFF] += 1
                    rec(
                        depth + 1,
                        (*steps, (src, OFF, False)),
                        mask,
                        outside,
                        used + d,
                    )
                    me[src] += 1
                    me[OFF] -= 1
        if not found:
            score = depth * 32 + used
            if score > best[0]:
                best[0] = score
                out.clear()
            if score == best[0]:
                key = (tuple(me), mask)
                if key not in out:
                    out[key] = steps

    rec(0, (), 0, outside0, 0)


def _two_dice_fast(
    me: tuple[int, ...], oppm: list[int], d1: int, d2: int
) -> dict[object, tuple[_RawStep, ...]]:
    """Non-doubles with no checker on the bar and at least two outside the home board, so
    nothing can be borne off this turn: every play is a pair of single steps that are each
    legal from the start (two checkers; steps never close a point) or one checker moving on
    from where its first step landed. Keyed by net change and hits, so no board is copied
    until the distinct plays are known."""
    occupied = [p for p in range(24, 0, -1) if me[p]]
    s1 = [(p, p - d1) for p in occupied if p > d1 and oppm[p - d1] < 2]
    s2 = [(p, p - d2) for p in occupied if p > d2 and oppm[p - d2] < 2]
    out: dict[object, tuple[_RawStep, ...]] = {}
    for s, t in s1:
        hit_t = oppm[t] == 1
        bit_t = 1 << t if hit_t else 0
        single = me[s] == 1
        for u, v in s2:
            if u == s and single:
                continue
            hit_v = oppm[v] == 1
            mask = bit_t | (1 << v if hit_v else 0)
            if t == u:
                key: object = (s, v, mask)
            elif v == s:
                key = (u, t, mask)
            elif s > u:
                key = (s, u, t, v, mask) if t > v else (s, u, v, t, mask)
            else:
                key = (u, s, t, v, mask) if t > v else (u, s, v, t, mask)
            if key not in out:
                out[key] = ((s, t, hit_t), (u, v, hit_v))
        t2 = t - d2
        if t2 > 0 and oppm[t2] < 2:
            hit2 = oppm[t2] == 1
            key = (s, t2, bit_t | (1 << t2 if hit2 else 0))
            if key not in out:
                out[key] = ((s, t, hit_t), (t, t2, hit2))
    for s, t in s2:
        t2 = t - d1
        if t2 > 0 and oppm[t2] < 2:
            hit_t = oppm[t] == 1
            hit2 = oppm[t2] == 1
            key = (s, t2, (1 << t if hit_t else 0) | (1 << t2 if hit2 else 0))
            if key not in out:
                out[key] = ((s, t, hit_t), (t, t2, hit2))
    if out:
        return out
    # one die at most: the higher if it can be played (rule 6)
    hi, lo = (s1, s2) if d1 > d2 else (s2, s1)
    for s, t in hi or lo:
        out[(s, t, 1 << t if oppm[t] == 1 else 0)] = ((s, t, oppm[t] == 1),)
    if not out:
        out[()] = ()
    return out


# the bits of the points below p (bit 0, OFF, included so that "none left" reads as point 0)
_BELOW = [(1 << p) - 1 for p in range(27)]


def _doubles(pos: Position, d: int) -> list[Position]:
    """The positions doubles of ``d`` can leave, as a choice of how many checkers step off
    each point, taken from the bar down to point 1: a checker that lands on a lower point
    can step on from there when that point's turn comes. Two different choices never give
    the same board (a difference would have to run along a whole chain p, p+d, p+2d… and
    vanish at its ends), so no duplicates arise; the hits follow from the choice.

    Pruned with an upper bound: ``cap[q]`` is how many steps one checker on ``q`` could
    make over open points (bearing off counted as possible unless the checkers outside the
    home board rule it out for the whole turn); ``rem`` the sum of that over
    the checkers still to be decided. A branch that cannot use as many dice as a play
    already found is cut.

    Made for speed (doubles were the slowest roll; results unchanged, checked
    against gnubg by tests/backgammon/test_gnubg_oracle.py): the walk down the points is a
    loop inside one call, and only a choice that moves checkers recurses. ``occ`` is a bit
    set of the points whose checkers could move (arrivals added, never cleared: only points
    below the current one are asked about, and those only gain checkers), so the next one
    is a ``bit_length``; ``outside`` counts the checkers on 7–25, which forbid bearing off;
    the opponent's side is carried along as a tuple, replaced only on a hit, so each
    result is built at its leaf with no second pass."""
    cur = list(pos.me)
    opp0 = pos.opp
    # Bearing off needs every checker home first: when those outside need four steps or
    # more between them, no die is left to bear off with, and ``cap`` counts it as none.
    # (My point t is the opponent's point 25 - t: ``opp0[25 - t]``.)
    need = 0
    for q in range(BAR, 6, -1):
        if cur[q]:
            need += cur[q] * ((q - 7) // d + 1)
            if need >= 4:
                break
    off_cap = 1 if need < 4 else 0
    cap = [0] * 26
    occ0 = 1
    rem0 = 0
    for q in range(1, 26):
        t = q - d
        cq = cap[q] = off_cap if t <= 0 else (0 if opp0[25 - t] > 1 else 1 + cap[t])
        c = cur[q]
        if c and (cq or q == BAR):
            occ0 |= 1 << q
            rem0 += c * cq
    results: list[Position] = []
    append = results.append
    below = _BELOW
    new = raw_new
    set_me = raw_set_me
    set_opp = raw_set_opp
    best = 0

    def keep(used: int, opp: tuple[int, ...]) -> None:
        nonlocal best
        if used > best:
            best = used
            results.clear()
        r = new(Position)
        set_me(r, tuple(cur))
        set_opp(r, opp)
        append(r)

    def last(p: int, used: int, opp: tuple[int, ...], occ: int, outside: int) -> None:
        """The last die: one leaf per checker on ``p`` or below that can take it, in the
        order ``rec`` would find them; none, and the position stands as it is."""
        nonlocal best
        u = used + 1
        moved = False
        while p:
            dst = p - d
            if dst > 0:
                nopp = opp
                if opp[25 - dst]:
                    o2 = list(opp)
                    o2[25 - dst] = 0
                    o2[BAR] += 1
                    nopp = tuple(o2)
            elif outside or (dst < 0 and any(cur[p + 1 : 7])):
                p = (occ & below[p]).bit_length() - 1
                continue
            else:
                dst = OFF
                nopp = opp
            if not moved:
                moved = True
                if u > best:
                    best = u
                    results.clear()
            cur[p] -= 1
            cur[dst] += 1
            r = new(Position)
            set_me(r, tuple(cur))
            set_opp(r, nopp)
            append(r)
            cur[p] += 1
            cur[dst] -= 1
            p = (occ & below[p]).bit_length() - 1
        if not moved and used >= best:
            keep(used, opp)

    def rec(p: int, left: int, opp: tuple[int, ...], rem: int, occ: int, outside: int) -> None:
        while True:
            used = 4 - left
            if p == 0 or rem == 0:
                if used >= best:
                    keep(used, opp)
                return
            if used + (rem if rem < left else left) < best:
                return
            if left == 1 and p != BAR:
                last(p, used, opp, occ, outside)
                return
            avail = cur[p]
            dst = p - d
            cp = cap[p]
            if dst > 0:
                if not cp:  # only the bar gets here blocked: nothing else may move
                    if used >= best:
                        keep(used, opp)
                    return
                nopp = opp
                if opp[25 - dst]:  # a blot there (two or more would block): hit it
                    o2 = list(opp)
                    o2[25 - dst] = 0
                    o2[BAR] += 1
                    nopp = tuple(o2)
                nocc = occ | (1 << dst) if cap[dst] else occ
            else:
                if outside or (dst < 0 and any(cur[p + 1 : 7])):
                    rem -= avail * cp
                    p = (occ & below[p]).bit_length() - 1
                    continue
                dst = OFF
                nopp = opp
                nocc = occ
            most = avail if avail < left else left
            leaves_home = p > 6 >= dst
            nxt = (nocc & below[p]).bit_length() - 1
            j = most
            while j:
                cur[p] -= j
                cur[dst] += j
                # the bar is emptied first, as far as the dice go
                if j == left or (p == BAR and avail > j):
                    if used + j >= best:
                        keep(used + j, nopp)
                else:
                    rec(
                        nxt,
                        left - j,
                        nopp,
                        rem - (avail - j) * cp - j,
                        nocc,
                        outside - j if leaves_home else outside,
                    )
                cur[p] += j
                cur[dst] -= j
                if p == BAR:
                    return
                j -= 1
            rem -= avail * cp
            p = (occ & below[p]).bit_length() - 1

    rec(
        (occ0 & _BELOW[BAR + 1]).bit_length() - 1,
        4,
        opp0,
        rem0,
        occ0,
        sum(cur[7:26]),
    )
    return results


def _generate(
    pos: Position, d1: int, d2: int
) -> list[tuple[tuple[int, ...], int, tuple[_RawStep, ...]]]:
    """``(board of the mover after the play, bit mask of the points hit, steps)`` per
    distinct resulting position, for a roll that is not doubles (:func:`_doubles`)."""
    me = pos.me
    oppm = [0, *pos.opp[24:0:-1], 0]
    if not me[BAR] and sum(me[7:25]) >= 2:
        found: list[tuple[tuple[int, ...], int, tuple[_RawStep, ...]]] = []
        for steps in _two_dice_fast(me, oppm, d1, d2).values():
            cur = list(me)
            mask = 0
            for s, t, hit in steps:
                cur[s] -= 1
                cur[t] += 1
                if hit:
                    mask |= 1 << t
            found.append((tuple(cur), mask, steps))
        return found
    out: dict[_Key, tuple[_RawStep, ...]] = {}
    best = [-1]
    _search(list(me), oppm, (d1, d2), out, best)
    _search(list(me), oppm, (d2, d1), out, best)
    return [(board, mask, steps) for (board, mask), steps in out.items()]


def _result(pos: Position, me: tuple[int, ...], mask: int) -> Position:
    if not mask:
        return trusted_position(me, pos.opp)
    opp = list(pos.opp)
    p = 1
    while mask >> p:
        if mask >> p & 1:
            opp[25 - p] -= 1
            opp[BAR] += 1
        p += 1
    return trusted_position(me, tuple(opp))


def legal_results(pos: Position, d1: int, d2: int) -> list[Position]:
    """The distinct positions a legal play of ``d1``-``d2`` can leave (the mover still on
    roll). When no die can be played, the one position is ``pos`` itself."""
    if not roll_is_valid(d1, d2):
        raise ValueError(f"not a roll: {d1}{d2}")
    if d1 == d2:
        return _doubles(pos, d1)
    return [_result(pos, me, mask) for me, mask, _ in _generate(pos, d1, d2)]


def legal_plays(pos: Position, d1: int, d2: int) -> list[Play]:
    """One :class:`Play` per distinct resulting position; ``steps`` is one way to get there.
    When no die can be played, the one play has no steps."""
    if not roll_is_valid(d1, d2):
        raise ValueError(f"not a roll: {d1}{d2}")
    dice = (d1, d2)
    if d1 == d2:  # the steps are worked out when asked for (Play.steps)
        return [Play(pos, dice, None, result) for result in _doubles(pos, d1)]
    return [
        Play(pos, dice, steps, _result(pos, me, mask)) for me, mask, steps in _generate(pos, d1, d2)
    ]
