"""Sentences people can read about a match: the standing, why it is decided, and what
each player needs to win from here (docs/scoring.md S3, S4).

Pure: imports nothing from Django and chooses no words. Each sentence is a coded
:class:`engine.messages.Msg` of ``scoring.explain_messages`` (smaller messages inside:
counts, lists, names), worded at the edge in the reader's language through gettext
(``matches.explain_text``). Names default to White/Black (Vit/Svart).

Cost: linear in the games left. The example of what a player needs (``_fewest_wins``) is
not found by enumerating multisets of game wins (quartic in the games left: 2.5 s at 100
games left, about 29 s at 200) but by a search over states (games still to win, weakest
way still allowed, points and skiljepoäng so far) whose "can this state still win?" has
a closed form, so each state on the way is visited once. ``tests/scoring/
test_explain_cost.py`` counts the calls; ``bench/explain_bench.py`` prints the times.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.messages import Msg, Param
from engine.types import Outcome, OutcomeKind, Side
from scoring.explain_messages import msg
from scoring.match import SIDES, MatchState, ahead
from scoring.scales import Scale, format_tiebreak, score_game

# The players when the caller names none: White and Black in the reader's language.
DEFAULT_NAMES: dict[Side, Param] = {
    Side.WHITE: msg("explain.white"),
    Side.BLACK: msg("explain.black"),
}

# The ways to win a completed game without sprängjan, weakest first (for examples).
_EXAMPLE_WINS = (
    Outcome(Side.WHITE, OutcomeKind.HEMSPEL),
    Outcome(Side.WHITE, OutcomeKind.HEMSPEL, munk=True),
    Outcome(Side.WHITE, OutcomeKind.JAN),
)


def _word(outcome: Outcome) -> Msg:
    if outcome.munk:
        return msg("explain.win.munk")
    return msg(f"explain.win.{outcome.kind.value}")


def _tiebreak_word(scale: Scale) -> str:
    """The scale's name for its tiebreak (S2), the same in every language."""
    if scale is Scale.NY1:
        return "plus-minus"
    return "skiljepoäng"


def _remaining(r: int) -> Msg:
    """``the last game`` / ``the remaining r games``."""
    return msg("explain.last_game") if r == 1 else msg("explain.the_remaining", count=r)


def _all_remaining(r: int) -> Msg:
    if r == 1:
        return msg("explain.last_game")
    if r == 2:
        return msg("explain.both_remaining")
    return msg("explain.all_remaining", count=r)


def _join(words: list[Msg]) -> Msg:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) == 1:
        return words[0]
    head = words[0]
    for word in words[1:-1]:
        head = msg("explain.list_comma", first=head, last=word)
    return msg("explain.list_and", first=head, last=words[-1])


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


def _standing(state: MatchState, names: Mapping[Side, Param]) -> Msg:
    w, b = Side.WHITE, Side.BLACK
    best = msg("explain.best_of", count=state.length, scale=state.scale.label())
    played = state.games_played
    if played == 0:
        return msg("explain.not_started", best=best)
    points: dict[str, Param] = {
        "white": names[w],
        "white_points": state.points_text(w),
        "black": names[b],
        "black_points": state.points_text(b),
    }
    if state.scale is Scale.WW:
        score = msg(
            "explain.score_skiljepoang",
            **points,
            white_tiebreak=state.tiebreak[w],
            black_tiebreak=state.tiebreak[b],
        )
    else:
        score = msg("explain.score", **points)
    return msg(
        "explain.standing",
        best=best,
        played=msg("explain.games", count=played),
        completed=state.completed,
        score=score,
        left=msg("explain.games", count=state.remaining),
    )


def _tb_lead(scale: Scale, leader: Param, lead: int, trail: int) -> Msg:
    """``A leads 2–1 on skiljepoäng`` / ``A leads +1 against ±0 on plus-minus``."""
    pair: Param
    if scale is Scale.NY1:
        pair = msg(
            "explain.against",
            lead=format_tiebreak(scale, lead),
            trail=format_tiebreak(scale, trail),
        )
    else:
        pair = f"{lead}–{trail}"
    return msg("explain.leads_on", leader=leader, pair=pair, tiebreak=_tiebreak_word(scale))


def _why_decided(state: MatchState, names: Mapping[Side, Param]) -> list[Msg]:
    winner = state.winner
    assert winner is not None
    loser = winner.other
    win, lose = names[winner], names[loser]
    scale = state.scale
    if not state.decided_early:  # S3: all n completed games played
        pw, pl = state.points[winner], state.points[loser]
        if pw != pl:
            return [
                msg(
                    "explain.won_on_points",
                    winner=win,
                    winner_points=state.points_text(winner),
                    loser_points=state.points_text(loser),
                )
            ]
        lead = _tb_lead(scale, win, state.tiebreak[winner], state.tiebreak[loser])
        return [
            msg(
                "explain.won_on_tiebreak",
                winner=win,
                winner_points=pw,
                loser_points=pl,
                length=state.length,
                lead=lead,
            )
        ]

    # S4: decided early.
    r = state.remaining
    game = state.decided_after_game
    assert game is not None  # a won match was decided after some game
    head = msg("explain.decided", winner=win, game=game)
    # Could the loser still win with sprängjan in every remaining game?
    spr = Outcome(loser, OutcomeKind.SPRANGJAN)
    if ahead(scale, *_apply(scale, state.points, state.tiebreak, spr, r)) is not loser:
        every = msg("explain.last_game") if r == 1 else msg("explain.each_remaining", count=r)
        return [head, msg("explain.cannot_win", loser=lose, games=every)]
    jan = Outcome(loser, OutcomeKind.JAN)
    points, tiebreak = _apply(scale, state.points, state.tiebreak, jan, r)
    where = msg("explain.in_last_game") if r == 1 else msg("explain.in_each_remaining", count=r)
    if points[loser] == points[winner]:
        why = msg(
            "explain.sprangjan_level",
            loser=lose,
            where=where,
            loser_points=points[loser],
            winner_points=points[winner],
            lead=_tb_lead(scale, win, tiebreak[winner], tiebreak[loser]),
        )
    else:
        why = msg(
            "explain.sprangjan_behind",
            loser=lose,
            where=where,
            points=msg("explain.points", count=points[loser]),
            winner_genitive=msg("explain.genitive", name=win),
            winner_points=points[winner],
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


def _example(state: MatchState, side: Side, names: Mapping[Side, Param]) -> Msg | None:
    """The fewest game wins (weakest first, no sprängjan) that let ``side`` win, if the
    opponent wins the other remaining games with plain hemspel."""
    r = state.remaining
    wins = _fewest_wins(state, side)
    if wins is None:
        return None
    k = len(wins)
    me, them = names[side], names[side.other]
    if k == 0:
        return msg("explain.safe", player=me, opponent=them, games=_all_remaining(r))
    rest: Param = msg("explain.others_by_hemspel", opponent=them, count=r - k) if k < r else ""
    if r == 1:
        what = msg("explain.last_game")
    elif k == r:
        what = _all_remaining(r)
    else:
        what = msg("explain.some_remaining", wins=k, count=r)
    return msg(
        "explain.example",
        player=me,
        games=what,
        wins=_join([_word(o) for o in wins]),
        rest=rest,
    )


def _needs(state: MatchState, side: Side, names: Mapping[Side, Param]) -> Msg:
    """The exact condition for ``side`` to win from here, on net points (S3)."""
    other = side.other
    me, them = names[side], names[other]
    scale = state.scale
    deficit = state.points[other] - state.points[side]  # D: side wins iff net gain > D, or
    tb_deficit = state.tiebreak[other] - state.tiebreak[side]  # == D and tiebreak gain > T
    games = _remaining(state.remaining)
    m = -deficit  # side's lead when deficit < 0
    main: Msg
    if deficit > 0:
        main = msg(
            "explain.behind",
            player=me,
            points=msg("explain.points", count=deficit),
            opponent=them,
            need=deficit + 1,
            games=games,
        )
    elif deficit == 0:
        main = msg("explain.level", player=me, opponent=them, games=games)
    elif m == 1:
        main = msg("explain.lead_one", player=me, opponent=them, games=games)
    else:
        main = msg(
            "explain.lead",
            player=me,
            points=msg("explain.points", count=m),
            opponent=them,
            lead=m,
            games=games,
        )
    if not scale.has_tiebreak:
        return msg("explain.sentence", text=main)
    need = tb_deficit + 1  # net tiebreak gain side needs when the points end level
    word = _tiebreak_word(scale)
    if need > 0:
        cond = msg("explain.gains", player=me, need=need, tiebreak=word, opponent=them)
    else:
        cond = msg("explain.keeps", opponent=them, limit=-need + 1, tiebreak=word, player=me)
    if deficit < 0:
        return msg("explain.or_exactly_ahead", main=main, lead=m, condition=cond)
    if deficit == 0:
        return msg("explain.or_level", main=main, condition=cond)
    return msg("explain.or_exactly_behind", main=main, deficit=deficit, condition=cond)


def explain(state: MatchState, *, names: Mapping[Side, Param] | None = None) -> list[Msg]:
    """Sentences about ``state`` as coded messages (``scoring.explain_messages``): the
    standing; if over, who won and why (S3/S4); if open, what each player needs to win
    from here. The edge words them in the reader's language (``matches.explain_text``)."""
    names = dict(names) if names is not None else DEFAULT_NAMES
    lines = [_standing(state, names)]
    if state.winner is not None:
        return lines + _why_decided(state, names)
    for side in SIDES:
        lines.append(_needs(state, side, names))
        example = _example(state, side, names)
        if example is not None:
            lines.append(example)
    return lines
