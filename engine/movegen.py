"""Move generation (rules.md R4–R12, R15): every distinct legal play of a roll.

The generator works on two plain lists in the mover's numbering (fast, no objects in the
hot loop): ``m`` = the mover's counts (0 bar, 1–24, 25 borne off) and ``o`` = the
opponent's counts on the same points (0 = the opponent's bar, 25 = its borne-off count).

It searches depth-first over the dice in every order (gnubg's ``GenerateMovesSub`` idea),
doubles as four steps; positions reached twice at the same depth of a double are searched
once (a transposition table: in bräde the order of a double's steps matters — no bands on
2–11, blasting rights re-checked after every step — so gnubg's "non-increasing source"
short cut would lose plays). It keeps the plays reaching the maximum R8 demands and drops
a play only when another gives the same result: the same boards, the same points hit
(the ``*`` of the record), the same end of the game (jan or sprängjan by the step that
ends it, R10; hemspel, R11; a vasa pattern, R12) and, for a play after which the game
goes on, the same R14 "ever" flags of both sides (updated after every step, as the
replay does: a band made and left within the roll counts). Blasting then hitting (jan)
and hitting then blasting (sprängjan) may reach the same boards; both are kept. The
flags are followed only while one of them is still unset.

Plays that end the game in the middle of a roll (R10 jan/sprängjan, R11 hemspel, R12
vasa pattern) stop at the step that ends it. rules.md R8 ("a step that ends the game"):
the maximum of R8 is taken over the whole tree as if the game went on after such a step;
a play that ends the game is legal without reaching it, except under ``talisman`` R10
where the steps up to the jan must be the start of a play that reaches it. A play that
does not end the game must reach the maximum.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.play import Play, Step
from engine.position import Position
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Pattern, Side, to_other_numbering

__all__ = [
    "BLAST",
    "HIT",
    "R14_ALL",
    "R14_BAND",
    "R14_JANBLOTTA",
    "R14_OPP_JANBLOTTA",
    "REDUCED",
    "Board",
    "SearchResult",
    "TerminalKind",
    "exceeds",
    "janblotta_excess",
    "legal_plays",
    "opp_janblotta",
    "r14_flags",
    "search",
    "start_of_turn",
]

# Step flags (a step's check result when legal, >= 0).
HIT = 1
BLAST = 2
REDUCED = 4

# Step errors (< 0); engine.verify turns them into messages.
E_NO_CHECKER = -1
E_BAR = -2  # R6: checkers on the bar must enter first
E_OWN_BAND = -3  # R5.3
E_ENTRY_OWN = -4  # R6: no entry onto own checkers
E_BLOCKED = -5  # R5.1: opponent band, not blastable
E_NOT_ALL_HOME = -6  # R7: bear-off only with everything on 19–24
E_NOT_REARMOST = -7  # R7: an overshooting die bears off only the rearmost checker
E_VASA_REARMOST = -8  # R7 vasa: every bear-off only from the rearmost point
E_RUN = -9  # R5 board: more than five consecutive bands
E_BLAST_14 = -10  # R9(c)

# Terminal kinds: a step that ends the game.
T_JAN = 1
T_SPRANGJAN = 2
T_HEMSPEL = 3
T_PATTERN = 4

TerminalKind = int

# R14 "ever" flags a search follows (:func:`search`'s ``r14``), as bits above the hit mask
# (bits 1–24 mark the points where the play hit or blasted): the mover has had a band on
# 13–24, the mover has had the janblotta out, the opponent has had it out.
R14_BAND = 1 << 25
R14_JANBLOTTA = 1 << 26
R14_OPP_JANBLOTTA = 1 << 27
R14_ALL = R14_BAND | R14_JANBLOTTA | R14_OPP_JANBLOTTA
_HITS = R14_BAND - 1

# The mover's point q is the opponent's point _OPP[q] (R1); index 0 is the bar.
_OPP: tuple[int, ...] = (0, *(to_other_numbering(q) for q in range(1, 25)))
# Mover points in the opponent's numbering order 1..24 (R5 board: runs in the opponent's path).
_SEQ_INDEX: tuple[int, ...] = (0, *((q + 11) if q <= 12 else (q - 13) for q in range(1, 25)))
_SEQ: tuple[int, ...] = (*range(13, 25), *range(1, 13))

# R12 patterns on the mover's points 19–24.
PATTERNS: dict[tuple[int, ...], Pattern] = {
    (0, 3, 3, 3, 3, 3): Pattern.ENKELT_KRONSPEL,
    (0, 0, 0, 5, 5, 5): Pattern.DUBBELT_KRONSPEL,
    (0, 0, 0, 3, 5, 7): Pattern.TRAPPSPEL,
    (0, 0, 0, 0, 0, 15): Pattern.UPPSPEL,
}

# Overshoot modes as ints for the hot loop.
_OV_REARMOST = 0
_OV_ANY = 1
_OV_REARMOST_ONLY = 2


@dataclass(frozen=True, slots=True)
class Board:
    """Rule parameters of one search, flattened for the hot loop."""

    overshoot: int
    blockade: bool
    entry_easy: bool
    run_limit: int
    own_stack: bool
    opp_stack: bool
    pips: bool
    r10_prefix: bool
    immediate_pattern: bool

    @classmethod
    def of(cls, rules: RuleSet, own_stack: bool, opp_stack: bool) -> Board:
        key = (rules, own_stack, opp_stack)
        board = _BOARDS.get(key)
        if board is None:
            board = cls._build(rules, own_stack, opp_stack)
            if len(_BOARDS) < 256:
                _BOARDS[key] = board
        return board

    @classmethod
    def _build(cls, rules: RuleSet, own_stack: bool, opp_stack: bool) -> Board:
        ov = {"rearmost": _OV_REARMOST, "any": _OV_ANY, "rearmost_only": _OV_REARMOST_ONLY}
        return cls(
            overshoot=ov[rules.overshoot_mode],
            blockade=rules.blockade_blasting,
            entry_easy=rules.entry_blast_mode == "more_than_free",
            run_limit=rules.band_run_limit or 0,
            own_stack=own_stack,
            opp_stack=opp_stack,
            pips=rules.r8_mode == "pips",
            r10_prefix=rules.r10_mode == "r8_prefix",
            immediate_pattern=rules.r12_mode == "immediate",
        )


_BOARDS: dict[tuple[RuleSet, bool, bool], Board] = {}


def view(position: Position) -> tuple[list[int], list[int], bool, bool]:
    """The mover's lists ``m`` and ``o`` (see module doc) and both R15 stack flags."""
    if position.to_move is Side.WHITE:
        own, opp = position.white, position.black
        own_state, opp_state = position.white_state, position.black_state
    else:
        own, opp = position.black, position.white
        own_state, opp_state = position.black_state, position.white_state
    m = [*own, CHECKERS_PER_SIDE - sum(own)]
    # the opponent's points in the mover's numbering: mover's 1–12 are its 13–24 (R1)
    o = [opp[0], *opp[13:25], *opp[1:13], CHECKERS_PER_SIDE - sum(opp)]
    own_stack = own_state.stack_on_7 and own[7] > 1
    opp_stack = opp_state.stack_on_7 and opp[7] > 1
    return m, o, own_stack, opp_stack


def unview(m: list[int], o: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Back from the mover's lists to both sides' own boards (``own``, ``other``)."""
    own = tuple(m[:25])
    other = [0] * 25
    other[0] = o[0]
    for q in range(1, 25):
        other[_OPP[q]] = o[q]
    return own, tuple(other)


def opp_is_jan(o: list[int]) -> bool:
    """R10 for the opponent, seen from the mover: its Q1 is the mover's 13–18."""
    occ = 0
    for x in (13, 14, 15, 16, 17, 18):
        if o[x]:
            occ += 1
    return o[0] > 6 - occ


def r14_flags(position: Position) -> int:
    """The R14 "ever" flags of ``position`` (mover's band and janblotta, the opponent's
    janblotta) as the bits :func:`search` follows."""
    mover = position.state(position.to_move)
    other = position.state(position.to_move.other)
    return (
        (R14_BAND if mover.ever_band_13_24 else 0)
        | (R14_JANBLOTTA if mover.ever_janblotta else 0)
        | (R14_OPP_JANBLOTTA if other.ever_janblotta else 0)
    )


def janblotta_excess(m: list[int], stack: bool) -> int:
    """R14 janblotta of the mover: bar + blots on 7–24 (a double-six stack on 7 counted
    whole, R15) − the open points of Q1; the janblotta is out when this is above 0."""
    exposed = m[0] + m[7:25].count(1)
    if stack and m[7] > 1:
        exposed += m[7]
    return exposed - m[1:7].count(0)


def opp_janblotta(o: list[int], stack: bool) -> bool:
    """R14 janblotta of the opponent, read from the mover's list ``o``: its 1–6 are the
    mover's 13–18, its 7–24 the mover's 19–24 and 1–12 (R1); a stack on its 7 (the
    mover's 19) counts whole (R15)."""
    exposed = o[0] + o[19:25].count(1) + o[1:13].count(1)
    if stack and o[19] > 1:
        exposed += o[19]
    return exposed > o[13:19].count(0)


def pattern_of(m: list[int]) -> Pattern | None:
    """R12: the pattern the mover's checkers form (all 15 on the board), if any."""
    if m[25]:
        return None
    return PATTERNS.get(tuple(m[19:25])) if sum(m[19:25]) == CHECKERS_PER_SIDE else None


def _opp_run(o: list[int], q: int, opp_stack: bool) -> int:
    """R9(a): length of the run of opponent bands through q (mover's 1–24, no wrap)."""
    n = 1
    x = q - 1
    while x >= 1 and o[x] >= 2 and not (opp_stack and x == 19):
        n += 1
        x -= 1
    x = q + 1
    while x <= 24 and o[x] >= 2 and not (opp_stack and x == 19):
        n += 1
        x += 1
    return n


def _own_run(m: list[int], q: int, own_stack: bool) -> int:
    """R5 board: the run of the mover's bands through q (counted as a band whatever
    ``m[q]`` holds: the step landing there makes one), consecutive in the opponent's
    numbering (mover's 13..24 then 1..12); the R15 stack is not a band."""
    i = _SEQ_INDEX[q]
    n = 1
    j = i - 1
    while j >= 0:
        x = _SEQ[j]
        if m[x] < 2 or (own_stack and x == 7):
            break
        n += 1
        j -= 1
    j = i + 1
    while j <= 23:
        x = _SEQ[j]
        if m[x] < 2 or (own_stack and x == 7):
            break
        n += 1
        j += 1
    return n


def longest_band_run(points: tuple[int, ...] | list[int], stack_on_7: bool = False) -> int:
    """R5 board: the longest run of a side's bands, consecutive in the opponent's numbering
    (the side's 13..24 then 1..12); ``points`` in the side's own numbering (0 bar, 1–24);
    the R15 stack on 7 is not a band."""
    longest = run = 0
    for x in _SEQ:
        if points[x] >= 2 and not (stack_on_7 and x == 7):
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    return longest


def check_step(m: list[int], o: list[int], p: int, d: int, b: Board) -> int:
    """Whether one step from ``p`` with die ``d`` is legal: flags (>= 0) or an error (< 0)."""
    if not m[p]:
        return E_NO_CHECKER
    if p:
        if m[0]:
            return E_BAR  # R6
        q = p + d
    else:
        q = d
    if q >= 25:
        # R7 bearing off
        for x in range(19):
            if m[x]:
                return E_NOT_ALL_HOME
        ov = b.overshoot
        if q == 25:
            if ov == _OV_REARMOST_ONLY:
                for x in range(19, p):
                    if m[x]:
                        return E_VASA_REARMOST
            return 0
        if ov == _OV_ANY:
            return REDUCED
        for x in range(19, p):
            if m[x]:
                return E_VASA_REARMOST if ov == _OV_REARMOST_ONLY else E_NOT_REARMOST
        return REDUCED
    own = m[q]
    if own:
        if not p:
            return E_ENTRY_OWN  # R6
        if q <= 11:
            return E_OWN_BAND  # R5.3
    flags = 0
    oq = o[q]
    if oq:
        if oq == 1 or (b.opp_stack and q == 19):
            flags = HIT  # R5.2 (R15: the stack is hit as a whole)
        elif m[25] == 14:
            return E_BLAST_14  # R9(c)
        elif b.blockade and _opp_run(o, q, b.opp_stack) >= 6:
            flags = BLAST  # R9(a)
        elif not p:
            # R9(b) entry blasting
            free = 0
            for x in (1, 2, 3, 4, 5, 6):
                if not m[x] and o[x] <= 1:
                    free += 1
            if (m[0] > free) if b.entry_easy else (free == 0):
                flags = BLAST
            else:
                return E_BLOCKED
        else:
            return E_BLOCKED
    if own == 1 and b.run_limit and o[25] < 14:
        # R5 board: the limit is judged on the board after the step, so the checker has
        # left ``p`` first (a band broken there no longer counts in the run).
        m[p] -= 1
        run = _own_run(m, q, b.own_stack)
        m[p] += 1
        if run > b.run_limit:
            return E_RUN
    return flags


def apply_step(m: list[int], o: list[int], p: int, d: int, flags: int) -> tuple[int, int]:
    """Apply a checked step in place; returns (destination, checkers captured)."""
    q = p + d
    m[p] -= 1
    if q >= 25:
        m[25] += 1
        return 25, 0
    m[q] += 1
    if flags & 3:
        c = o[q]
        o[q] = 0
        o[0] += c
        return q, c
    return q, 0


@dataclass(slots=True)
class SearchResult:
    """What :func:`search` found. Paths are tuples of encoded steps (see :func:`encode`)."""

    best: int  # the R8 maximum over the whole tree (as if the game went on)
    # (board, hits and R14 flags) -> (value, path)
    candidates: dict[tuple[bytes, int], tuple[int, tuple[int, ...]]]
    # (board, hits, terminal kind) -> (path, kind, best value of a play through it)
    terminals: dict[tuple[bytes, int, int], tuple[tuple[int, ...], int, int]]

    def legal_paths(self, b: Board) -> list[tuple[tuple[int, ...], int]]:
        """(path, terminal kind or 0) of every legal play, one per distinct result
        (module doc)."""
        out: list[tuple[tuple[int, ...], int]] = []
        best = self.best
        for path, kind, sub in self.terminals.values():
            if kind in (T_JAN, T_SPRANGJAN) and b.r10_prefix and sub != best:
                continue  # R10 talisman
            out.append((path, kind))
        for value, path in self.candidates.values():
            if value == best:
                out.append((path, 0))
        return out


def encode(p: int, q: int, d: int, flags: int) -> int:
    return (((p * 26 + q) * 8 + d) << 3) | flags


# Every Step met so far, by its code (codes are below 2**16): one Step object per distinct
# step, shared by move generation and the replay (engine.game reads it before decoding).
STEP_TABLE: list[Step | None] = [None] * (1 << 16)


def decode(code: int) -> Step:
    step = STEP_TABLE[code]
    if step is None:
        flags = code & 7
        rest = code >> 3
        d = rest % 8
        rest //= 8
        q = rest % 26
        p = rest // 26
        step = Step(p, q, d, bool(flags & HIT), bool(flags & BLAST))
        STEP_TABLE[code] = step
    return step


def search(
    m: list[int],
    o: list[int],
    dice: tuple[int, ...],
    b: Board,
    rem: tuple[int, ...] | None = None,
    r14: int = R14_ALL,
) -> SearchResult:
    """Depth-first search over every order of the dice (module doc). ``m``/``o`` are
    restored on return. ``rem``: the dice still to play, if not the whole roll (higher
    first); values then count from zero. ``r14``: the R14 flags already set before the
    play (:func:`r14_flags`); plays are told apart by the flags still unset (the default,
    all set, follows none: enough for the R8 maximum)."""
    candidates: dict[tuple[bytes, int], tuple[int, tuple[int, ...]]] = {}
    terminals: dict[tuple[bytes, int, int], tuple[tuple[int, ...], int, int]] = {}
    double = len(dice) == 2 and dice[0] == dice[1]
    if rem is not None:
        rem0 = tuple(sorted(rem, reverse=True))
    elif double:
        rem0 = (dice[0],) * 4
    else:
        rem0 = tuple(sorted(dice, reverse=True))
    memo: dict[tuple[bytes, int, int, int], int] = {}
    pips = b.pips
    immediate_pattern = b.immediate_pattern
    r10_prefix = b.r10_prefix
    board_points = range(1, 25)
    # R14, as engine.game.apply_play (after every step): the mover's band is made where a
    # step lands (``band_scan``: a set-up position that has one already, scan instead);
    # its janblotta is followed as a running count (``jd``, changed only at a step's two
    # ends; recounted with a double-six stack, R15); the opponent's board changes only by
    # a capture, so its flag is read after the first step (as before the play) and after
    # every capture.
    band_scan = not r14 & R14_BAND and max(m[13:25]) >= 2
    own_stack = b.own_stack
    opp_stack = b.opp_stack
    jd0 = janblotta_excess(m, own_stack) if not r14 & R14_JANBLOTTA else 0
    opp_out0 = not r14 & R14_OPP_JANBLOTTA and opp_janblotta(o, opp_stack)

    def rec(
        rem: tuple[int, ...], path: tuple[int, ...], value: int, hm: int, term: bool, jd: int
    ) -> int:
        # ``hm``: the points hit so far (bits 1–24) and the R14 flags (R14_*); ``jd``: the
        # mover's janblotta_excess while its flag is unset
        best = -1
        last = 0
        for i in range(len(rem)):
            d = rem[i]
            if d == last:
                continue
            last = d
            nrem = rem[:i] + rem[i + 1 :]
            sources: tuple[int, ...] | range = (0,) if m[0] else board_points
            for p in sources:
                if not m[p]:
                    continue
                f = check_step(m, o, p, d, b)
                if f < 0:
                    continue
                # apply (inline apply_step)
                q = p + d
                m[p] -= 1
                c = 0
                if q >= 25:
                    q = 25
                    m[25] += 1
                    gain = 25 - p
                else:
                    m[q] += 1
                    gain = d
                    if f & 3:
                        c = o[q]
                        o[q] = 0
                        o[0] += c
                nhm = hm | (1 << q) if c else hm
                code = (((p * 26 + q) * 8 + d) << 3) | f
                npath = (*path, code)
                nvalue = value + gain if pips else value + 32 + d
                kind = 0
                njd = jd
                if not term:
                    if c and opp_is_jan(o):
                        kind = T_SPRANGJAN if f & BLAST else T_JAN  # R10
                    elif q == 25 and m[25] == CHECKERS_PER_SIDE:
                        kind = T_HEMSPEL  # R11
                    elif immediate_pattern and q >= 19 and q < 25 and pattern_of(m) is not None:
                        kind = T_PATTERN  # R12 vasa
                    elif nhm < R14_ALL:  # some R14 flag still unset (they are the top bits)
                        if not nhm & R14_BAND and (
                            (q <= 24 and q >= 13 and m[q] >= 2)
                            or (band_scan and max(m[13:25]) >= 2)
                        ):
                            nhm |= R14_BAND
                        if not nhm & R14_JANBLOTTA:
                            if own_stack:
                                njd = janblotta_excess(m, True)
                            else:
                                if not p:
                                    njd -= 1  # one checker fewer on the bar
                                elif p <= 6:
                                    if not m[p]:
                                        njd -= 1  # a Q1 point opened
                                else:
                                    x = m[p]
                                    njd += 1 if x == 1 else -1 if x == 0 else 0  # blot left or gone
                                if q <= 6:
                                    if m[q] == 1:
                                        njd += 1  # a Q1 point taken
                                elif q <= 24:
                                    x = m[q]
                                    njd += 1 if x == 1 else -1 if x == 2 else 0  # blot made/covered
                            if njd > 0:
                                nhm |= R14_JANBLOTTA
                        if not nhm & R14_OPP_JANBLOTTA and (
                            opp_janblotta(o, opp_stack) if c else (opp_out0 and not path)
                        ):
                            nhm |= R14_OPP_JANBLOTTA
                if nrem:
                    if double:
                        # 0/1: the game goes on / is over; 2–5: this step ends it (kind + 1)
                        key = (bytes(m), nhm, kind + 1 if kind else int(term), len(nrem))
                        sub = memo.get(key, -2)
                        if sub == -2:
                            sub = rec(nrem, npath, nvalue, nhm, term or kind != 0, njd)
                            memo[key] = sub
                    else:
                        sub = rec(nrem, npath, nvalue, nhm, term or kind != 0, njd)
                else:
                    sub = nvalue
                if kind:
                    # one play per (board, hits, kind): the first found; under talisman
                    # R10 a jan's steps must start a play reaching the maximum, so there
                    # the one with the best continuation
                    tkey = (bytes(m), nhm & _HITS, kind)
                    old = terminals.get(tkey)
                    if old is None or (r10_prefix and kind <= T_SPRANGJAN and sub > old[2]):
                        terminals[tkey] = (npath, kind, sub)
                elif not nrem:
                    k2 = (bytes(m), nhm)
                    if not term:
                        old2 = candidates.get(k2)
                        if old2 is None or old2[0] < nvalue:
                            candidates[k2] = (nvalue, npath)
                if sub > best:
                    best = sub
                # undo
                m[p] += 1
                if q == 25:
                    m[25] -= 1
                else:
                    m[q] -= 1
                    if c:
                        o[q] = c
                        o[0] -= c
        if best < 0:
            # no step possible: a leaf (the rest of the roll is forfeited)
            if not term:
                k3 = (bytes(m), hm)
                old3 = candidates.get(k3)
                if old3 is None or old3[0] < value:
                    candidates[k3] = (value, path)
            return value
        return best

    best = rec(rem0, (), 0, r14, False, jd0)
    return SearchResult(best, candidates, terminals)


def exceeds(m: list[int], o: list[int], dice: tuple[int, ...], b: Board, value: int) -> bool:
    """R8: whether the roll can be played to a value above ``value`` — the same answer as
    ``search(m, o, dice, b).best > value``, without collecting plays.

    The tree is that of :func:`search` (as if the game went on after a step that ends it);
    a branch stops as soon as the dice left cannot add enough, and the search as soon as
    one sequence of steps gets above ``value``. ``m``/``o`` are restored on return.
    """
    double = len(dice) == 2 and dice[0] == dice[1]
    rem0 = (dice[0],) * 4 if double else tuple(sorted(dice, reverse=True))
    pips = b.pips
    seen: set[tuple[bytes, int, int, int]] = set()  # doubles: states that cannot exceed
    board_points = range(1, 25)

    def rec(rem: tuple[int, ...], need: int, hm: int) -> bool:
        """Whether steps of ``rem`` gain more than ``need`` (positions already applied)."""
        # each die adds at most its face (pips; a reduced bear-off less), or 32 + face
        if (sum(rem) if pips else 32 * len(rem) + sum(rem)) <= need:
            return False
        last = 0
        for i in range(len(rem)):
            d = rem[i]
            if d == last:
                continue
            last = d
            nrem = rem[:i] + rem[i + 1 :]
            sources: tuple[int, ...] | range = (0,) if m[0] else board_points
            for p in sources:
                if not m[p]:
                    continue
                f = check_step(m, o, p, d, b)
                if f < 0:
                    continue
                q = p + d
                m[p] -= 1
                c = 0
                if q >= 25:
                    q = 25
                    m[25] += 1
                    gain = 25 - p if pips else 32 + d
                else:
                    m[q] += 1
                    gain = d if pips else 32 + d
                    if f & 3:
                        c = o[q]
                        o[q] = 0
                        o[0] += c
                found = gain > need
                if not found and nrem:
                    nhm = hm | (1 << q) if c else hm
                    if double:
                        key = (bytes(m), nhm, len(nrem), need - gain)
                        if key not in seen:
                            found = rec(nrem, need - gain, nhm)
                            if not found:
                                seen.add(key)
                    else:
                        found = rec(nrem, need - gain, nhm)
                m[p] += 1
                if q == 25:
                    m[25] -= 1
                else:
                    m[q] -= 1
                    if c:
                        o[q] = c
                        o[0] -= c
                if found:
                    return True
        return False

    return value < 0 or rec(rem0, value, 0)  # playing nothing is worth 0


def can_step(m: list[int], o: list[int], dice: tuple[int, ...], b: Board) -> bool:
    """R8 for a play of nothing: whether any one step of the roll is legal — the answer of
    ``exceeds(m, o, dice, b, 0)`` (every step adds to the value), without its search."""
    sources: tuple[int, ...] | list[int] = (0,) if m[0] else [p for p in range(1, 25) if m[p]]
    for d in set(dice):
        for p in sources:
            if check_step(m, o, p, d, b) >= 0:
                return True
    return False


def start_of_turn(position: Position, dice: tuple[int, ...], rules: RuleSet) -> Position:
    """Effects at the start of a turn, before any step: R15 — if the mover's first roll is
    6-6, the opponent's double-six stack still on its point 7 returns to its point 1."""
    if not rules.double_six or tuple(dice) != (6, 6):
        return position
    mover = position.to_move
    other = mover.other
    ostate = position.state(other)
    if not position.state(mover).first_roll_pending or not ostate.stack_on_7:
        return position
    opp = list(position.points(other))
    opp[1] += opp[7]
    opp[7] = 0
    new = position.with_boards(other, tuple(opp), position.points(mover))
    from dataclasses import replace

    return new.with_state(other, replace(ostate, stack_on_7=False))


def stack_play_available(position: Position, dice: tuple[int, ...], rules: RuleSet) -> bool:
    """R15: the double-six stack ``1/7(6)`` may be played instead of the roll."""
    if not rules.double_six or tuple(dice) != (6, 6):
        return False
    mover = position.to_move
    if not position.state(mover).first_roll_pending:
        return False
    own = position.points(mover)
    if own[0] or own[1] < 6 or own[7]:
        return False
    opp_on_7 = position.points(mover.other)[_OPP[7]]
    return opp_on_7 <= 1  # an opponent band on 7 blocks it (R5.1)


def stack_play(position: Position) -> Play:
    """The R15 stack move: six steps 1/7 (the first hits an opponent blot on 7)."""
    opp_on_7 = position.points(position.to_move.other)[_OPP[7]]
    first = Step(1, 7, 6, hit=opp_on_7 == 1)
    return Play((first, *(Step(1, 7, 6) for _ in range(5))))


def check_dice(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Validate a roll (R3): two dice or one die, each 1–6; higher die first."""
    try:
        return ROLLS[tuple(dice)]
    except (KeyError, TypeError):
        raise ValueError(f"a roll is one or two dice of 1–6, not {dice!r}") from None


# Every roll (R3) in any die order -> higher die first.
ROLLS: dict[tuple[int, ...], tuple[int, ...]] = {
    **{(d,): (d,) for d in range(1, 7)},
    **{(a, b): (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)},
}


def legal_plays(position: Position, dice: tuple[int, ...], rules: RuleSet) -> list[Play]:
    """Every legal play for ``position.to_move``, one per distinct result (module doc:
    the boards after it, the points hit, how it ends the game, the R14 flags after it).

    ``dice`` is ``(a, b)`` or ``(d,)`` for a single-die roll (R13 is the caller's business:
    this function does not ask whether a single die may be rolled). A play that ends the
    game mid-roll (R10, R11, R12 vasa) stops there. ``[Play(())]`` when nothing can be
    played. Under board + double-six the R15 stack ``1/7(6)`` is included when available.
    """
    dice = check_dice(dice)
    position = start_of_turn(position, dice, rules)
    m, o, own_stack, opp_stack = view(position)
    b = Board.of(rules, own_stack, opp_stack)
    result = search(m, o, dice, b, r14=r14_flags(position))
    plays = [Play(tuple([decode(c) for c in path])) for path, _ in result.legal_paths(b)]
    if stack_play_available(position, dice, rules):
        plays.append(stack_play(position))
    return plays
