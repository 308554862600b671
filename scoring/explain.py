"""Sentences people can read about a match: the standing, why it is decided, and what
each player needs to win from here (docs/scoring.md S3, S4), in Swedish or English.

Pure: imports nothing from Django. Names default to White/Black (Vit/Svart).

Cost: linear in the games left. The example of what a player needs (``_fewest_wins``) is
not found by enumerating multisets of game wins (quartic in the games left: 2.5 s at 100
games left, about 29 s at 200) but by a search over states (games still to win, weakest
way still allowed, points and skiljepoäng so far) whose "can this state still win?" has
a closed form, so each state on the way is visited once. ``tests/scoring/
test_explain_cost.py`` counts the calls; ``bench/explain_bench.py`` prints the times.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.types import Outcome, OutcomeKind, Side
from scoring.match import SIDES, MatchState, ahead
from scoring.scales import Scale, format_tiebreak, score_game

LANGS = ("sv", "en")
DEFAULT_NAMES = {
    "sv": {Side.WHITE: "Vit", Side.BLACK: "Svart"},
    "en": {Side.WHITE: "White", Side.BLACK: "Black"},
}

# The ways to win a completed game without sprängjan, weakest first (for examples).
_EXAMPLE_WINS = (
    Outcome(Side.WHITE, OutcomeKind.HEMSPEL),
    Outcome(Side.WHITE, OutcomeKind.HEMSPEL, munk=True),
    Outcome(Side.WHITE, OutcomeKind.JAN),
)
_WIN_WORDS = {
    "sv": {"hemspel": "hemspel", "munk": "hemspel med munk", "jan": "jan"},
    "en": {"hemspel": "hemspel", "munk": "hemspel with munk", "jan": "jan"},
}


def _word(outcome: Outcome) -> str:
    if outcome.munk:
        return "munk"
    return outcome.kind.value


def _genitive(name: str, lang: str) -> str:
    if lang == "en":
        return f"{name}'" if name.endswith("s") else f"{name}'s"
    if len(name) == 1 or name.isupper():
        return f"{name}:s"  # abbreviations: A:s, SM:s
    return name if name[-1:].lower() in ("s", "x", "z") else f"{name}s"


def _games(n: int, lang: str) -> str:
    if lang == "en":
        return f"{n} game" if n == 1 else f"{n} games"
    return f"{n} parti" if n == 1 else f"{n} partier"


def _completed(n: int, lang: str) -> str:
    if lang == "en":
        return f"{n} completed game" if n == 1 else f"{n} completed games"
    return f"{n} slutfört parti" if n == 1 else f"{n} slutförda partier"


def _all_remaining(r: int, lang: str) -> str:
    if lang == "en":
        return {1: "the last game", 2: "both remaining games"}.get(r, f"all {r} remaining games")
    return {1: "sista partiet", 2: "båda återstående partierna"}.get(
        r, f"alla {r} återstående partierna"
    )


def _points(n: int, lang: str) -> str:
    if lang == "en":
        return f"{n} point" if n == 1 else f"{n} points"
    return f"{n} poäng"


def _tiebreak_word(scale: Scale, lang: str) -> str:
    if scale is Scale.NY1:
        return "plus-minus"
    return "skiljepoäng"


def _join(words: list[str], lang: str) -> str:
    if len(words) <= 1:
        return "".join(words)
    last = " and " if lang == "en" else " och "
    return ", ".join(words[:-1]) + last + words[-1]


def _apply(
    scale: Scale,
    points: Mapping[Side, int],
    tiebreak: Mapping[Side, int],
    outcome: Outcome,
    times: int = 1,
) -> tuple[dict[Side, int], dict[Side, int]]:
    """Points and tiebreaks after ``times`` more games that each end as ``outcome``."""
    new_points, new_tiebreak = dict(points), dict(tiebreak)
    score = score_game(scale, outcome)
    for side in SIDES:
        new_points[side] += times * score.points_for(side)
        new_tiebreak[side] += times * score.tiebreak_for(side)
    return new_points, new_tiebreak


def _as(side: Side, outcome: Outcome) -> Outcome:
    return Outcome(side, outcome.kind, outcome.pattern, outcome.munk)


def _standing(state: MatchState, names: Mapping[Side, str], lang: str) -> str:
    w, b = Side.WHITE, Side.BLACK
    pts = f"{names[w]} {state.points_text(w)}, {names[b]} {state.points_text(b)}"
    tb = ""
    if state.scale is Scale.WW:
        tb = f"; skiljepoäng {state.tiebreak[w]}–{state.tiebreak[b]}"
    played = state.games_played
    if lang == "en":
        head = f"Best of {_completed(state.length, lang)} ({state.scale.label()})"
        if played == 0:
            return f"{head}: no game played yet."
        return (
            f"{head}, after {_games(played, lang)} ({state.completed} completed): "
            f"{pts}{tb}; {_games(state.remaining, lang)} left."
        )
    head = f"Bäst av {_completed(state.length, lang)} ({state.scale.label()})"
    if played == 0:
        return f"{head}: inget parti spelat än."
    return (
        f"{head}, efter {_games(played, lang)} ({state.completed} slutförda): "
        f"{pts}{tb}; {_games(state.remaining, lang)} kvar."
    )


def _tb_lead(scale: Scale, leader: str, lead: int, trail: int, lang: str) -> str:
    """``A leads 2–1 on skiljepoäng`` / ``A leder med 2–1 på skiljepoäng``."""
    word = _tiebreak_word(scale, lang)
    if scale is Scale.NY1:
        pair_en = f"{format_tiebreak(scale, lead)} against {format_tiebreak(scale, trail)}"
        pair_sv = f"{format_tiebreak(scale, lead)} mot {format_tiebreak(scale, trail)}"
    else:
        pair_en = pair_sv = f"{lead}–{trail}"
    if lang == "en":
        return f"{leader} leads {pair_en} on {word}"
    return f"{leader} leder med {pair_sv} på {word}"


def _why_decided(state: MatchState, names: Mapping[Side, str], lang: str) -> list[str]:
    winner = state.winner
    assert winner is not None
    loser = winner.other
    win, lose = names[winner], names[loser]
    scale = state.scale
    if not state.decided_early:  # S3: all n completed games played
        pw, pl = state.points[winner], state.points[loser]
        if pw != pl:
            if lang == "en":
                return [
                    f"{win} wins the match {state.points_text(winner)} to "
                    f"{state.points_text(loser)}."
                ]
            return [
                f"{win} vinner matchen med {state.points_text(winner)} mot "
                f"{state.points_text(loser)}."
            ]
        lead = _tb_lead(scale, win, state.tiebreak[winner], state.tiebreak[loser], lang)
        if lang == "en":
            return [
                f"Level at {pw}–{pl} on points after all {state.length} completed games; "
                f"{lead}, so {win} wins the match."
            ]
        return [
            f"Lika, {pw}–{pl} i poäng, efter alla {state.length} slutförda partier; "
            f"{lead}, så {win} vinner matchen."
        ]

    # S4: decided early.
    r = state.remaining
    game = state.decided_after_game
    if lang == "en":
        head = f"{win} has won the match: it was decided after game {game}."
    else:
        head = f"{win} har vunnit matchen: den avgjordes efter parti {game}."
    # Could the loser still win with sprängjan in every remaining game?
    spr = Outcome(loser, OutcomeKind.SPRANGJAN)
    if ahead(scale, *_apply(scale, state.points, state.tiebreak, spr, r)) is not loser:
        if lang == "en":
            return [
                head,
                f"{lose} cannot win any more, not even with sprängjan in "
                f"{'the last game' if r == 1 else f'each of the {r} remaining games'}.",
            ]
        every = "sista partiet" if r == 1 else f"vart och ett av de {r} återstående partierna"
        return [head, f"{lose} kan inte längre vinna, inte ens med sprängjan i {every}."]
    jan = Outcome(loser, OutcomeKind.JAN)
    points, tiebreak = _apply(scale, state.points, state.tiebreak, jan, r)
    if lang == "en":
        where = "in the last game" if r == 1 else f"in each of the {r} remaining games"
        if points[loser] == points[winner]:
            lead = _tb_lead(scale, win, tiebreak[winner], tiebreak[loser], lang)
            why = (
                f"{lose} needs a sprängjan: even a jan {where} gives "
                f"{points[loser]}–{points[winner]}, and {lead}."
            )
        else:
            why = (
                f"{lose} needs a sprängjan: even a jan {where} gives {lose} only "
                f"{_points(points[loser], lang)} against {_genitive(win, lang)} "
                f"{points[winner]}."
            )
        return [head, why]
    where = "i sista partiet" if r == 1 else f"i vart och ett av de {r} återstående partierna"
    if points[loser] == points[winner]:
        lead = _tb_lead(scale, win, tiebreak[winner], tiebreak[loser], lang)
        why = (
            f"{lose} behöver en sprängjan: även jan {where} ger bara "
            f"{points[loser]}–{points[winner]}, och {lead}."
        )
    else:
        why = (
            f"{lose} behöver en sprängjan: även jan {where} ger {lose} bara "
            f"{_points(points[loser], lang)} mot {_genitive(win, lang)} {points[winner]}."
        )
    return [head, why]


def _fewest_wins(state: MatchState, side: Side) -> list[Outcome] | None:
    """The fewest game wins (no sprängjan) that let ``side`` win the match if the opponent
    wins the other remaining games with plain hemspel; strongest first, as the example
    names them. None if no such wins exist.

    Among the ways to win k games, the one chosen is the first multiset of
    ``_EXAMPLE_WINS`` in ``itertools.combinations_with_replacement`` order (the most
    hemspel, then the most munk), the order the explanations have always used.

    A search over states (games still to win, weakest way still allowed, points and
    tiebreaks so far) instead of enumerating the multisets: a state can still lead to a
    match win exactly when winning every game left with the *strongest* way allowed does
    (points, then tiebreak, add up, and S3 compares them in that order, so no mix does
    better), which is one ``ahead`` check. So the smallest k is found in r + 1 checks, and
    the chosen multiset, game by game (the weakest way from which a win is still
    reachable), in at most 3k more: linear in the games left r, where the enumeration was
    quartic.
    """
    scale, r = state.scale, state.remaining
    other = side.other
    ways = [_as(side, o) for o in _EXAMPLE_WINS]  # weakest first
    hemspel = Outcome(other, OutcomeKind.HEMSPEL)

    def gain(outcome: Outcome) -> tuple[int, int]:
        score = score_game(scale, outcome)
        return (
            score.points_for(side) - score.points_for(other),
            score.tiebreak_for(side) - score.tiebreak_for(other),
        )

    # strongest[i]: the way among ways[i:] gaining most points, then most tiebreak.
    strongest = [max(ways[i:], key=gain) for i in range(len(ways))]

    def can_win(
        points: Mapping[Side, int],
        tiebreak: Mapping[Side, int],
        weakest: int,
        wins: int,
        losses: int,
    ) -> bool:
        """Could ``side`` still win the match by winning ``wins`` more games, each by one
        of ``ways[weakest:]``, when the opponent wins ``losses`` games with hemspel?"""
        final = _apply(scale, points, tiebreak, strongest[weakest], wins)
        return ahead(scale, *_apply(scale, *final, hemspel, losses)) is side

    for k in range(r + 1):
        if not can_win(state.points, state.tiebreak, 0, k, r - k):
            continue
        points, tiebreak = dict(state.points), dict(state.tiebreak)
        chosen: list[Outcome] = []
        weakest = 0
        for left in range(k - 1, -1, -1):  # games still to choose after this one
            for i in range(weakest, len(ways)):
                after = _apply(scale, points, tiebreak, ways[i])
                if can_win(*after, i, left, r - k):
                    chosen.append(ways[i])
                    points, tiebreak = after
                    weakest = i
                    break
            else:  # pragma: no cover - can_win held for the state before this game
                raise AssertionError("no way to win this game, though the state could win")
        return chosen[::-1]
    return None


def _example(state: MatchState, side: Side, names: Mapping[Side, str], lang: str) -> str | None:
    """The fewest game wins (weakest first, no sprängjan) that let ``side`` win, if the
    opponent wins the other remaining games with plain hemspel."""
    r = state.remaining
    other = side.other
    wins = _fewest_wins(state, side)
    if wins is None:
        return None
    k = len(wins)
    me, them = names[side], names[other]
    words = _join([_WIN_WORDS[lang][_word(o)] for o in wins], lang)
    if lang == "en":
        if k == 0:
            return f"{me} wins even if {them} wins {_all_remaining(r, lang)} with hemspel."
        rest = (
            f", with {them} winning the other{'s' if r - k > 1 else ''} by hemspel" if k < r else ""
        )
        what = (
            "the last game"
            if r == 1
            else (_all_remaining(r, lang) if k == r else f"{k} of the {r} remaining games")
        )
        return f"For example {me} wins by winning {what} ({words}){rest}."
    if k == 0:
        return f"{me} vinner även om {them} vinner {_all_remaining(r, lang)} med hemspel."
    rest = (
        f", om {them} vinner {'det andra' if r - k == 1 else 'de andra'} med hemspel"
        if k < r
        else ""
    )
    what = (
        "sista partiet"
        if r == 1
        else (_all_remaining(r, lang) if k == r else f"{k} av de {r} återstående")
    )
    return f"{me} vinner till exempel genom att vinna {what} ({words}){rest}."


def _needs(state: MatchState, side: Side, names: Mapping[Side, str], lang: str) -> str:
    """The exact condition for ``side`` to win from here, on net points (S3)."""
    other = side.other
    me, them = names[side], names[other]
    scale = state.scale
    r = state.remaining
    deficit = state.points[other] - state.points[side]  # D: side wins iff net gain > D, or
    tb_deficit = state.tiebreak[other] - state.tiebreak[side]  # == D and tiebreak gain > T
    word = _tiebreak_word(scale, lang)
    rem_en = "the last game" if r == 1 else f"the remaining {r} games"
    rem_sv = "sista partiet" if r == 1 else f"de {r} återstående partierna"
    m = -deficit  # side's lead when deficit < 0
    if lang == "en":
        if deficit > 0:
            main = (
                f"{me} is {_points(deficit, lang)} behind and must outscore {them} by at "
                f"least {deficit + 1} over {rem_en}"
            )
        elif deficit == 0:
            main = f"Level on points: {me} must outscore {them} over {rem_en}"
        elif m == 1:
            main = f"{me} leads by 1 point and wins if {them} does not outscore {me} over {rem_en}"
        else:
            main = (
                f"{me} leads by {_points(m, lang)} and wins if {them} outscores {me} by "
                f"less than {m} over {rem_en}"
            )
    elif deficit > 0:
        main = (
            f"{me} ligger {_points(deficit, lang)} efter och måste ta minst "
            f"{deficit + 1} poäng mer än {them} i {rem_sv}"
        )
    elif deficit == 0:
        main = f"Lika i poäng: {me} måste ta fler poäng än {them} i {rem_sv}"
    elif m == 1:
        main = f"{me} leder med 1 poäng och vinner om {them} inte tar fler poäng än {me} i {rem_sv}"
    else:
        main = (
            f"{me} leder med {_points(m, lang)} och vinner om {them} tar färre än {m} "
            f"poäng mer än {me} i {rem_sv}"
        )
    if not scale.has_tiebreak:
        return main + "."
    need = tb_deficit + 1  # net tiebreak gain side needs when the points end level
    if lang == "en":
        if need > 0:
            cond = f"{me} gains at least {need} more {word} than {them}"
        else:
            cond = f"{them} does not gain {-need + 1} or more {word} on {me}"
        if deficit < 0:
            return f"{main}, or by exactly {m} if {cond}."
        if deficit == 0:
            return f"{main}, or score the same, which is enough if {cond}."
        return f"{main}, or by exactly {deficit}, which is enough if {cond}."
    if need > 0:
        cond = f"{me} tar minst {need} {word} mer än {them}"
    else:
        cond = f"{them} inte tar {-need + 1} {word} eller mer än {me}"
    if deficit < 0:
        return f"{main}, eller exakt {m} mer om {cond}."
    if deficit == 0:
        return f"{main}, eller lika många, vilket räcker om {cond}."
    return f"{main}, eller exakt {deficit} mer, vilket räcker om {cond}."


def explain(
    state: MatchState, *, lang: str = "sv", names: Mapping[Side, str] | None = None
) -> list[str]:
    """Human sentences about ``state``: the standing; if over, who won and why (S3/S4);
    if open, what each player needs to win from here. ``lang`` is ``sv`` or ``en``."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (expected sv or en)")
    names = dict(names) if names is not None else DEFAULT_NAMES[lang]
    lines = [_standing(state, names, lang)]
    if state.winner is not None:
        return lines + _why_decided(state, names, lang)
    for side in SIDES:
        lines.append(_needs(state, side, names, lang))
        example = _example(state, side, names, lang)
        if example is not None:
            lines.append(example)
    return lines
