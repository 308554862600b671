"""Verifying a submitted play (rules.md R3–R12) without generating every legal play.

The submitted steps are applied one by one, each checked on its own (R4–R7, R9, R5
board). The die of a step follows from its distance; a bear-off that travels less than
any die left is matched to whichever die makes the play legal (every candidate is tried).
Only when the play leaves part of the roll unused (a die forfeited or reduced) does the
verifier search the tree (:func:`engine.movegen.search`) for whether more was possible
(R8), and under ``talisman`` whether a jan reached mid-roll begins a play reaching it (R10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import IllegalPlayError
from engine.messages import Msg, Param, msg
from engine.movegen import (
    BLAST,
    E_BAR,
    E_BLAST_14,
    E_BLOCKED,
    E_ENTRY_OWN,
    E_NO_CHECKER,
    E_NOT_ALL_HOME,
    E_NOT_REARMOST,
    E_OWN_BAND,
    E_RUN,
    E_VASA_REARMOST,
    REDUCED,
    T_HEMSPEL,
    T_JAN,
    T_PATTERN,
    T_SPRANGJAN,
    Board,
    SearchResult,
    check_step,
    decode,
    opp_is_jan,
    pattern_of,
    search,
)
from engine.play import Play, Step, point_text
from engine.rules import RuleSet
from engine.types import CHECKERS_PER_SIDE, Side

__all__ = ["Verified", "dice_text", "verify_steps"]


@dataclass(frozen=True, slots=True)
class Verified:
    """A submitted play, checked: its resolved steps and where (if) it ended the game."""

    play: Play
    terminal: int  # 0, or the movegen T_* kind of the step that ended the game
    value: int  # R8 value of the play


def dice_text(dice: tuple[int, ...]) -> str:
    return "-".join(str(d) for d in dice)


def _step_error(
    code: int, side: Side, m: list[int], o: list[int], p: int, q: int, d: int, rules: RuleSet
) -> Msg:
    who = side.word
    other = side.other.word
    where = f"{point_text(p)}/{point_text(min(q, 25))}"
    if code == E_NO_CHECKER:
        if p == 0:
            return msg("step.no_checker_bar", side=who, where=where)
        return msg("step.no_checker", side=who, point=p, where=where)
    if code == E_BAR:
        return msg("step.bar_first", side=who, count=m[0], where=where)
    if code == E_OWN_BAND:
        return msg("step.own_band", side=who, point=q)
    if code == E_ENTRY_OWN:
        return msg("step.entry_own", side=who, point=q)
    if code == E_BLOCKED:
        return msg("step.blocked", side=who, point=q, where=where, other=other)
    if code == E_BLAST_14:
        return msg("step.blast_14", side=who, point=q, where=where, other=other)
    if code == E_NOT_ALL_HOME:
        return msg("step.not_all_home", side=who, where=where)
    rear = next((x for x in range(19, 25) if m[x]), 25)
    if code == E_NOT_REARMOST:
        return msg("step.not_rearmost", die=d, side=who, point=p, rear=rear)
    if code == E_VASA_REARMOST:
        return msg("step.vasa_rearmost", rules=rules.name, side=who, rear=rear, point=p)
    if code == E_RUN:
        return msg("step.run", rules=rules.name, side=who, other=other, where=where)
    return msg("step.illegal", where=where)  # pragma: no cover - every code is handled above


def _value_text(value: int, pips: bool) -> Msg:
    if pips:
        return msg("value.points", count=value)
    n, faces = divmod(value, 32)
    return msg("value.dice", count=n, sum=faces)


def verify_steps(
    *,
    side: Side,
    m: list[int],
    o: list[int],
    dice: tuple[int, ...],
    pairs: Sequence[tuple[int, int]],
    b: Board,
    rules: RuleSet,
) -> Verified:
    """Check ``pairs`` (``(src, dst)``, mover's numbering, 0 bar, 25 off) as the play of
    ``dice`` from ``m``/``o`` (restored on return). Raises :class:`IllegalPlayError`."""
    double = len(dice) == 2 and dice[0] == dice[1]
    roll: tuple[int, ...] = (dice[0],) * 4 if double else tuple(sorted(dice, reverse=True))
    resolved = _straight(m, o, roll, pairs, b)
    if resolved is not None:
        return _checked(
            side=side, m=m, o=o, dice=dice, roll=roll, resolved=resolved, b=b, rules=rules
        )
    for src, dst in pairs:
        if not (0 <= src <= 24 and 1 <= dst <= 25 and dst > src):
            raise IllegalPlayError(
                msg("step.backwards", side=side.word, where=f"{point_text(src)}/{point_text(dst)}")
            )
    if len(pairs) > len(roll):
        raise IllegalPlayError(
            msg(
                "step.too_many",
                side=side.word,
                steps=len(pairs),
                dice=dice_text(dice),
                count=len(roll),
            )
        )

    resolved = _resolve(side=side, m=m, o=o, dice=dice, roll=roll, pairs=pairs, b=b, rules=rules)
    return _checked(side=side, m=m, o=o, dice=dice, roll=roll, resolved=resolved, b=b, rules=rules)


def _checked(
    *,
    side: Side,
    m: list[int],
    o: list[int],
    dice: tuple[int, ...],
    roll: tuple[int, ...],
    resolved: tuple[tuple[int, ...], int, int, int],
    b: Board,
    rules: RuleSet,
) -> Verified:
    """R8 (and R10 under talisman) for a play whose steps are each legal: ``resolved`` is
    (codes, value, terminal kind, reduced bear-offs) from ``m``/``o``."""
    pips = b.pips
    codes, value, term, reduced = resolved
    play = Play(tuple(decode(c) for c in codes))

    complete = len(codes) == len(roll) and (reduced == 0 or not pips)
    if term in (T_HEMSPEL, T_PATTERN) or (term in (T_JAN, T_SPRANGJAN) and not b.r10_prefix):
        return Verified(play, term, value)  # R10/R11/R12: ends the game, R8 does not apply
    if complete:
        return Verified(play, term, value)
    # Part of the roll unused: was more possible (R8)?
    result = search(m, o, dice, b)
    best = result.best
    if term:
        # R10 talisman: the steps up to the jan must start a play that reaches the maximum.
        mm, oo = m[:], o[:]
        for s in play.steps:
            _apply(mm, oo, s)
        used = list(roll)
        for s in play.steps:
            used.remove(s.die)
        more = search(mm, oo, dice, b, rem=tuple(used)).best if used else 0
        if value + more == best:
            return Verified(play, term, value)
        example = _example(result, m, o, roll, b)
        raise IllegalPlayError(
            msg(
                "play.r10",
                rules=rules.name,
                side=side.word,
                best=_value_text(best, pips),
                dice=dice_text(dice),
                example=example,
            )
        )
    if value == best:
        return Verified(play, term, value)
    example = _example(result, m, o, roll, b)
    raise IllegalPlayError(
        msg(
            "play.r8",
            side=side.word,
            best=_value_text(best, pips),
            dice=dice_text(dice),
            value=_value_text(value, pips),
            example=example,
        )
    )


def _resolve(
    *,
    side: Side,
    m: list[int],
    o: list[int],
    dice: tuple[int, ...],
    roll: tuple[int, ...],
    pairs: Sequence[tuple[int, int]],
    b: Board,
    rules: RuleSet,
) -> tuple[tuple[int, ...], int, int, int]:
    """Resolve the dice of ``pairs`` in every possible way (a bear-off that travels less
    than a die may use more than one); the best resolution as (codes, value, terminal
    kind, reduced bear-offs), or :class:`IllegalPlayError` naming the step that fails
    last. ``m``/``o`` are restored."""
    pips = b.pips
    # Depth-first over the die choices (only reduced bear-offs have more than one).
    successes: list[tuple[tuple[int, ...], int, int, int]] = []  # (codes, value, term, reduced)
    errors: list[tuple[int, Msg]] = []

    def rec(i: int, rem: tuple[int, ...], codes: tuple[int, ...], value: int, red: int) -> None:
        if i == len(pairs):
            successes.append((codes, value, 0, red))
            return
        src, dst = pairs[i]
        dist = dst - src
        cands: list[int] = []
        if dist in rem:
            cands.append(dist)
        if dst == 25:
            for d in sorted(set(rem)):
                if d > dist:
                    cands.append(d)
        if not cands:
            where = f"{point_text(src)}/{point_text(dst)}"
            errors.append(
                (
                    i,
                    msg(
                        "step.no_die",
                        dice=dice_text(dice),
                        side=side.word,
                        where=where,
                        left=dice_text(rem),
                    )
                    if rem
                    else msg("step.no_die_left", dice=dice_text(dice), side=side.word, where=where),
                )
            )
            return
        for d in cands:
            f = _check(src, d)
            if f < 0:
                errors.append((i, _step_error(f, side, m, o, src, src + d, d, rules)))
                continue
            q = src + d
            m[src] -= 1
            c = 0
            if q >= 25:
                q = 25
                m[25] += 1
            else:
                m[q] += 1
                if f & 3:
                    c = o[q]
                    o[q] = 0
                    o[0] += c
            idx = rem.index(d)
            nrem = rem[:idx] + rem[idx + 1 :]
            code = (((src * 26 + q) * 8 + d) << 3) | f
            gain = (q - src) if pips else 32 + d
            kind = 0
            if c and opp_is_jan(o):
                kind = T_SPRANGJAN if f & BLAST else T_JAN
            elif q == 25 and m[25] == CHECKERS_PER_SIDE:
                kind = T_HEMSPEL
            elif b.immediate_pattern and 19 <= q < 25 and pattern_of(m) is not None:
                kind = T_PATTERN
            nred = red + (1 if f & REDUCED else 0)
            if kind:
                if i + 1 < len(pairs):
                    what = {T_JAN: "jan", T_SPRANGJAN: "sprängjan", T_HEMSPEL: "hemspel"}.get(
                        kind, "vackert spel"
                    )
                    rule = {T_JAN: "R10", T_SPRANGJAN: "R10", T_HEMSPEL: "R11"}.get(kind, "R12")
                    errors.append(
                        (
                            i + 1,
                            msg(
                                "step.after_end",
                                rule=rule,
                                what=what,
                                side=side.word,
                                where=f"{point_text(src)}/{point_text(q)}",
                            ),
                        )
                    )
                else:
                    successes.append(((*codes, code), value + gain, kind, nred))
            else:
                rec(i + 1, nrem, (*codes, code), value + gain, nred)
            m[src] += 1
            if q == 25:
                m[25] -= 1
            else:
                m[q] -= 1
                if c:
                    o[q] = c
                    o[0] -= c

    def _check(p: int, d: int) -> int:
        return check_step(m, o, p, d, b)

    rec(0, roll, (), 0, 0)
    if not successes:
        errors.sort(key=lambda e: -e[0])
        raise IllegalPlayError(errors[0][1])
    # Prefer a resolution that ends the game where the play ends, then the best R8 value.
    successes.sort(key=lambda s: (s[2] != 0, s[1]), reverse=True)
    return successes[0]


def _straight(
    m: list[int], o: list[int], roll: tuple[int, ...], pairs: Sequence[tuple[int, int]], b: Board
) -> tuple[tuple[int, ...], int, int, int] | None:
    """The common case of :func:`verify_steps` without its search over die choices: every
    step has exactly one die it can use, every step is legal, and only the last step may
    end the game. Returns what ``rec`` would find — (codes, value, terminal kind, reduced
    bear-offs) — or None (then ``rec`` resolves the play and names any error). ``m``/``o``
    are restored either way."""
    rem = list(roll)
    undo: list[tuple[int, int, int]] = []  # (src, dst, captured)
    codes: list[int] = []
    value = 0
    kind = 0
    reduced = 0
    pips = b.pips
    last = len(pairs) - 1
    ok = True
    for i, (src, dst) in enumerate(pairs):
        if not 0 <= src < dst <= 25:
            ok = False  # not a forward step: the full check names it
            break
        dist = dst - src
        if dst == 25:
            over = [d for d in rem if d > dist]
            if dist in rem:
                if over:
                    ok = False  # exact or reduced: rec tries both
                    break
                d = dist
            elif over and min(over) == max(over):
                d = over[0]
            else:
                ok = False
                break
        elif dist in rem:
            d = dist
        else:
            ok = False
            break
        f = check_step(m, o, src, d, b)
        if f < 0:
            ok = False
            break
        rem.remove(d)
        m[src] -= 1
        m[dst] += 1
        c = 0
        if dst < 25 and f & 3:
            c = o[dst]
            o[dst] = 0
            o[0] += c
        undo.append((src, dst, c))
        codes.append((((src * 26 + dst) * 8 + d) << 3) | f)
        value += dist if pips else 32 + d
        if f & REDUCED:
            reduced += 1
        if c and opp_is_jan(o):
            kind = T_SPRANGJAN if f & BLAST else T_JAN
        elif dst == 25 and m[25] == CHECKERS_PER_SIDE:
            kind = T_HEMSPEL
        elif b.immediate_pattern and 19 <= dst < 25 and pattern_of(m) is not None:
            kind = T_PATTERN
        if kind and i != last:
            ok = False
            break
    for src, dst, c in reversed(undo):
        m[src] += 1
        m[dst] -= 1
        if c:
            o[dst] = c
            o[0] -= c
    if not ok:
        return None
    return tuple(codes), value, kind, reduced


def _example(
    result: SearchResult, m: list[int], o: list[int], roll: tuple[int, ...], b: Board
) -> Param:
    """An example for an R8 refusal that uses the dice the refusal names (``result.best``):
    a legal play reaching the maximum after which the game goes on, if there is one.
    Otherwise the maximum is reached only past a step that ends the game, counted as if
    the game went on (rules.md R8): the whole sequence of steps, naming the play that ends
    it (``play.example_past_end``). ``m``/``o`` are the position before the play."""
    best = result.best
    for value, path in result.candidates.values():
        if value == best:
            return Play(tuple(decode(c) for c in path)).text()
    found = _past_end(m, o, roll, b, best)
    if found is None:  # pragma: no cover - the search found a sequence worth ``best``
        return "-"
    codes, end = found
    return msg(
        "play.example_past_end",
        play=Play(tuple(decode(c) for c in codes)).text(),
        end=Play(tuple(decode(c) for c in codes[: end + 1])).text(),
    )


def _past_end(
    m: list[int], o: list[int], roll: tuple[int, ...], b: Board, best: int
) -> tuple[tuple[int, ...], int] | None:
    """A sequence of legal steps of ``roll`` worth ``best`` (R8) that passes a step ending
    the game (R10–R12), played on as :func:`engine.movegen.search` counts it: (its codes,
    the index of the first step that ends the game), or None. ``m``/``o`` are restored."""
    pips = b.pips

    def rec(
        rem: tuple[int, ...], codes: tuple[int, ...], value: int, end: int
    ) -> tuple[tuple[int, ...], int] | None:
        if value == best:
            return (codes, end) if end >= 0 else None  # every step adds to the value
        for d in sorted(set(rem), reverse=True):
            i = rem.index(d)
            nrem = rem[:i] + rem[i + 1 :]
            for p in range(25):
                if not m[p]:
                    continue
                f = check_step(m, o, p, d, b)
                if f < 0:
                    continue
                q = min(p + d, 25)
                m[p] -= 1
                m[q] += 1
                c = 0
                if q < 25 and f & 3:
                    c = o[q]
                    o[q] = 0
                    o[0] += c
                nend = end
                if end < 0 and (
                    (c and opp_is_jan(o))
                    or (q == 25 and m[25] == CHECKERS_PER_SIDE)
                    or (b.immediate_pattern and 19 <= q < 25 and pattern_of(m) is not None)
                ):
                    nend = len(codes)  # R10, R11, R12 vasa
                code = (((p * 26 + q) * 8 + d) << 3) | f
                gain = (q - p) if pips else 32 + d
                found = rec(nrem, (*codes, code), value + gain, nend)
                m[p] += 1
                m[q] -= 1
                if c:
                    o[q] = c
                    o[0] -= c
                if found is not None:
                    return found
        return None

    return rec(roll, (), 0, -1)


def _apply(m: list[int], o: list[int], s: Step) -> None:
    """Apply a resolved step to the mover's lists (no checks)."""
    m[s.src] -= 1
    m[s.dst] += 1
    if s.hit or s.blast:
        o[0] += o[s.dst]
        o[s.dst] = 0
