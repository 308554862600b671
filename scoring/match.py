"""The state of a match from its outcomes so far (docs/scoring.md S1, S3, S4, S5).

A match is played over an odd number n of *completed* games; a game won by *uppgivet*
(resignation) is not completed and lengthens the match by one (S1). After every game the
match is decided for the leader as soon as the player behind could not win even by winning
every remaining completed game with *jan* (S4); no more games may then be recorded.

Decisions where the docs are silent:

- A resigned game's points and tiebreak count like any other game's (S2 lists them), and the
  early-decision check runs after it too (S4: "after every game").
- S4 ignores future resignations. The player behind cannot gain by resigning (it gives the
  leader points); the leader could hand points over by resigning, but once the match is
  decided no further game (so no resignation) may be recorded.
- ``resignations[side]`` counts the games *side* resigned (i.e. lost by uppgivet); the
  ``capped`` policy allows at most n per player (S1).

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from engine.errors import MatchError
from engine.messages import msg
from engine.types import Outcome, OutcomeKind, Side
from scoring.scales import (
    MINUS,
    PLUS,
    TABLE,
    GameScore,
    Row,
    Scale,
    format_points,
    score_game,
)

SIDES = (Side.WHITE, Side.BLACK)

# S4: the best outcome short of sprängjan, which the player behind is assumed to win
# every remaining completed game with.
BEST_WITHOUT_SPRANGJAN = OutcomeKind.JAN


class ResignationPolicy(StrEnum):
    """S1: how many games a player may resign in one match."""

    CAPPED = "capped"  # helmfrid (default): at most n resignations per player
    FORBIDDEN = "forbidden"  # talisman's alternative: no resignations at all

    @classmethod
    def parse(cls, text: str | ResignationPolicy) -> ResignationPolicy:
        """Read ``capped``/``forbidden`` (any case); ``MatchError`` for anything else."""
        if isinstance(text, ResignationPolicy):
            return text
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise MatchError(msg("match.policy", text=repr(text))) from None


# S1 names no longest match; the sources' examples are best of 3, 5 and 7 and their
# longest first-to-7 illustration needs 13 games. Bräde Arena accepts up to best of 25:
# far beyond any club match, and small enough that every request on a match is cheap.
# Forms, the API, the admin, the draw and the models all take the bound from here.
MAX_MATCH_LENGTH = 25


def check_length(length: object) -> int:
    """S1: the number of completed games must be an odd whole number from 1 to
    ``MAX_MATCH_LENGTH`` (the upper bound is this site's decision, see above)."""
    if isinstance(length, bool) or not isinstance(length, int):
        raise MatchError(msg("match.length_whole", text=repr(length)))
    if length < 1 or length % 2 == 0:
        raise MatchError(msg("match.length_odd", length=length))
    if length > MAX_MATCH_LENGTH:
        raise MatchError(msg("match.length_max", limit=MAX_MATCH_LENGTH, length=length))
    return length


def is_valid_length(length: int) -> bool:
    """S1: whether ``length`` is an odd number of games from 1 to ``MAX_MATCH_LENGTH``."""
    return 1 <= length <= MAX_MATCH_LENGTH and length % 2 == 1


def ahead(scale: Scale, points: Mapping[Side, int], tiebreak: Mapping[Side, int]) -> Side | None:
    """S3: who is ahead: more points; if level, the better tiebreak (``ww``/``ny1``).

    None when level on everything (which S2 says cannot happen at the end of a match).
    """
    w, b = points[Side.WHITE], points[Side.BLACK]
    if w != b:
        return Side.WHITE if w > b else Side.BLACK
    if scale.has_tiebreak:
        tw, tb = tiebreak[Side.WHITE], tiebreak[Side.BLACK]
        if tw != tb:
            return Side.WHITE if tw > tb else Side.BLACK
    return None


@lru_cache(maxsize=8)
def _jan(scale: Scale, side: Side) -> GameScore:
    return score_game(scale, Outcome(side, BEST_WITHOUT_SPRANGJAN))


def best_case(
    scale: Scale,
    side: Side,
    points: Mapping[Side, int],
    tiebreak: Mapping[Side, int],
    remaining: int,
) -> tuple[dict[Side, int], dict[Side, int]]:
    """S4: points and tiebreaks if ``side`` wins all ``remaining`` games with jan."""
    jan = _jan(scale, side)
    new_points = dict(points)
    new_tiebreak = dict(tiebreak)
    new_points[side] += remaining * jan.points
    new_tiebreak[side] += remaining * jan.tiebreak_winner
    new_tiebreak[side.other] += remaining * jan.tiebreak_loser
    return new_points, new_tiebreak


def can_still_win(
    scale: Scale,
    side: Side,
    points: Mapping[Side, int],
    tiebreak: Mapping[Side, int],
    remaining: int,
) -> bool:
    """S4: could ``side`` win by winning every remaining completed game with jan?"""
    final_points, final_tiebreak = best_case(scale, side, points, tiebreak, remaining)
    return ahead(scale, final_points, final_tiebreak) is side


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after the outcomes recorded so far.

    ``decided_after_game`` is a 1-based index into ``outcomes`` (resigned games count);
    ``next_starter`` is the loser of the last game (S5), None before game 1 (tek decides)
    and once the match is over. ``plus``/``minus`` count the Ny 1 marks of each player's
    wins (they are kept under every scale; only ``ny1`` shows them).
    """

    length: int
    scale: Scale
    policy: ResignationPolicy
    outcomes: tuple[Outcome, ...]
    points: dict[Side, int]
    tiebreak: dict[Side, int]
    plus: dict[Side, int]
    minus: dict[Side, int]
    completed: int
    remaining: int
    resignations: dict[Side, int]
    next_starter: Side | None
    winner: Side | None
    decided_after_game: int | None
    decided_early: bool

    @classmethod
    def start(
        cls,
        *,
        length: int,
        scale: Scale | str = Scale.WW,
        policy: ResignationPolicy | str = ResignationPolicy.CAPPED,
    ) -> MatchState:
        """A match before its first game."""
        zero = {Side.WHITE: 0, Side.BLACK: 0}
        return cls(
            length=check_length(length),
            scale=Scale.parse(scale),
            policy=ResignationPolicy.parse(policy),
            outcomes=(),
            points=dict(zero),
            tiebreak=dict(zero),
            plus=dict(zero),
            minus=dict(zero),
            completed=0,
            remaining=length,
            resignations=dict(zero),
            next_starter=None,
            winner=None,
            decided_after_game=None,
            decided_early=False,
        )

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def games_played(self) -> int:
        """All games so far, resigned ones included."""
        return len(self.outcomes)

    @property
    def leader(self) -> Side | None:
        """Who is ahead now on points, then tiebreak (None when level)."""
        return ahead(self.scale, self.points, self.tiebreak)

    def points_text(self, side: Side) -> str:
        """``side``'s points as the scale writes them (``5++−`` under Ny 1)."""
        return format_points(self.scale, self.points[side], self.plus[side], self.minus[side])

    def check_open(self) -> None:
        """S4: raise ``MatchError`` if the match is over, so no further game may be played."""
        if self.winner is not None:
            game = self.games_played + 1
            raise MatchError(
                msg(
                    "match.decided",
                    decided=self.decided_after_game or 0,
                    side=self.winner.word,
                    game=game,
                ),
                game=game,
            )

    def check_resignation(self, side: Side) -> None:
        """S1: raise ``MatchError`` if ``side`` may not resign the next game of this match."""
        game = self.games_played + 1
        if self.policy is ResignationPolicy.FORBIDDEN:
            raise MatchError(
                msg("match.no_resign", side=side.word, game=game),
                game=game,
            )
        if self.resignations[side] >= self.length:
            raise MatchError(
                msg(
                    "match.resign_cap",
                    count=self.length,
                    length=self.length,
                    side=side.word,
                    resigned=self.resignations[side],
                    game=game,
                ),
                game=game,
            )

    def after(self, outcome: Outcome) -> MatchState:
        """The state after one more game; ``MatchError`` (with ``game``) for S1/S4 breaches."""
        self.check_open()
        game = self.games_played + 1
        resignations = dict(self.resignations)
        completed = self.completed
        if outcome.kind is OutcomeKind.UPPGIVET:  # S1: not completed; capped or forbidden
            self.check_resignation(outcome.winner.other)
            resignations[outcome.winner.other] += 1
        else:
            completed += 1
        score = score_game(self.scale, outcome)
        winner_side, loser_side = outcome.winner, outcome.winner.other
        points = dict(self.points)
        tiebreak = dict(self.tiebreak)
        plus = dict(self.plus)
        minus = dict(self.minus)
        points[winner_side] += score.points
        tiebreak[winner_side] += score.tiebreak_winner
        tiebreak[loser_side] += score.tiebreak_loser
        mark = TABLE[Row.of(outcome)].ny1_mark  # kept under every scale for display
        if mark == PLUS:
            plus[winner_side] += 1
        elif mark == MINUS:
            minus[winner_side] += 1
        remaining = self.length - completed

        winner: Side | None = None
        leader = ahead(self.scale, points, tiebreak)
        if remaining == 0:  # S3
            if leader is None:  # S2 says this cannot happen; tests/scoring proves it
                raise AssertionError(f"S2 violated: match level on points and tiebreak: {points}")
            winner = leader
        elif leader is not None and not can_still_win(
            self.scale, leader.other, points, tiebreak, remaining
        ):  # S4: the player behind cannot win even with jan in every remaining game
            winner = leader
        return MatchState(
            length=self.length,
            scale=self.scale,
            policy=self.policy,
            outcomes=(*self.outcomes, outcome),
            points=points,
            tiebreak=tiebreak,
            plus=plus,
            minus=minus,
            completed=completed,
            remaining=remaining,
            resignations=resignations,
            next_starter=None if winner is not None else loser_side,  # S5
            winner=winner,
            decided_after_game=game if winner is not None else None,
            decided_early=winner is not None and remaining > 0,
        )

    def to_report(self) -> dict[str, object]:
        """The ``match`` object of the replay report (game-record.md)."""
        return {
            "length": self.length,
            "scale": self.scale.value,
            "points": {side.value: self.points[side] for side in SIDES},
            "tiebreak": {side.value: self.tiebreak[side] for side in SIDES},
            "winner": self.winner.value if self.winner is not None else None,
            "decided_after_game": self.decided_after_game,
        }


def match_state(
    *,
    length: int,
    scale: Scale | str = Scale.WW,
    policy: ResignationPolicy | str = ResignationPolicy.CAPPED,
    outcomes: Sequence[Outcome] = (),
) -> MatchState:
    """S1–S5: the state of a match after ``outcomes`` (all games, resigned ones included).

    Raises ``MatchError`` (kind ``match``) for an even or non-positive length or one over
    ``MAX_MATCH_LENGTH``, an unknown scale or policy, and, with ``game`` set to the 1-based
    game number, for a resignation over the cap or when forbidden, and for a game recorded
    after the match was decided.
    """
    state = MatchState.start(length=length, scale=scale, policy=policy)
    for outcome in outcomes:
        state = state.after(outcome)
    return state
