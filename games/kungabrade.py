"""Kungabräde behind the seam: results only (seed 004, "Kungabräde").

The seed's rules are incomplete, so the site keeps results and no replay: no record
formats, no replay, no board. A game has a winner, a game type and how it was won:

- game types (seed 004 §1.2–1.4, "the most common are Slagfält, Erövring or Maktkamp";
  §1.5: others exist): ``slagfalt`` Slagfält, ``erovring`` Erövring, ``maktkamp``
  Maktkamp, ``other``;
- how it was won: ``castle`` — the opponent's castle taken, a piece placed on the king's
  crown (§1.1, every game type); ``destroyed`` — every piece of the opponent destroyed
  (§1.2–1.4); ``driven_back`` — every piece of the opponent driven back over its own
  defence line (§1.2, Slagfält only; allowed for ``other``, whose rules the players set).

A match is the best of an odd number of games (1 to 25, as bräde's): decided as soon as a
player has won more than half of them; a game after that is an error. Player 0 is the
first player, player 1 the second.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.messages import Msg
from games.explain_messages import msg
from games.family import BoardDrawing, RecordFormat, Replayer, Term, Vocabulary
from games.registry import register
from games.results import (
    MatchSettings,
    MatchStanding,
    ResultValue,
    ScoredGame,
    ScoringError,
)

__all__ = ["KUNGABRADE_FAMILY", "MAX_MATCH_GAMES", "KungabradeFamily", "check_result"]

MAX_MATCH_GAMES = 25

CASTLE = "castle"
DESTROYED = "destroyed"
DRIVEN_BACK = "driven_back"
SLAGFALT = "slagfalt"
EROVRING = "erovring"
MAKTKAMP = "maktkamp"
OTHER = "other"

VOCABULARY = Vocabulary(
    outcomes=(
        Term(CASTLE, "castle taken"),
        Term(DESTROYED, "every piece destroyed"),
        Term(DRIVEN_BACK, "driven back over the defence line"),
    ),
    game_types=(
        Term(SLAGFALT, "Slagfält", translate=False),
        Term(EROVRING, "Erövring", translate=False),
        Term(MAKTKAMP, "Maktkamp", translate=False),
        Term(OTHER, "other"),
    ),
)


def check_result(result: ResultValue, number: int | None = None) -> None:
    """:class:`ScoringError` (kind ``result``) for a result Kungabräde cannot have."""
    if result.pattern or result.munk or result.cube != 1 or result.conceded:
        raise ScoringError(
            "a Kungabräde game has no pattern, munk, cube or conceded level", game=number
        )
    if result.winner not in (0, 1):
        raise ScoringError(f"the winner is player 0 or 1, not {result.winner!r}", game=number)
    if result.outcome not in VOCABULARY.outcome_codes:
        codes = ", ".join(VOCABULARY.outcome_codes)
        raise ScoringError(f"no Kungabräde outcome {result.outcome!r}; known: {codes}", game=number)
    types = tuple(term.code for term in VOCABULARY.game_types)
    if result.game_type not in types:
        raise ScoringError(
            f"a Kungabräde game has a game type ({', '.join(types)}), not {result.game_type!r}",
            game=number,
        )
    if result.outcome == DRIVEN_BACK and result.game_type in (EROVRING, MAKTKAMP):
        raise ScoringError(
            "driving the opponent back over the defence line wins only Slagfält "
            "(Kungabräde's rules, 1.2 Slagfält); Erövring and Maktkamp are won by the castle "
            "or by destroying every piece (1.3 Erövring, 1.4 Maktkamp)",
            game=number,
        )


class KungabradeScoring:
    """Best of ``settings.length`` games (odd, 1–25)."""

    def __init__(self, settings: MatchSettings) -> None:
        length = settings.length
        if isinstance(length, bool) or not isinstance(length, int):
            raise ScoringError(f"the match length must be a whole number, not {length!r}")
        if not 1 <= length <= MAX_MATCH_GAMES or length % 2 == 0:
            raise ScoringError(
                f"a Kungabräde match is the best of an odd number of games from 1 to "
                f"{MAX_MATCH_GAMES}, not {length}",
                kind="match",
            )
        self._settings = settings

    @property
    def settings(self) -> MatchSettings:
        return self._settings

    def standing(self, results: Sequence[ResultValue]) -> MatchStanding:
        length = self._settings.length
        needed = length // 2 + 1
        wins = [0, 0]
        winner: int | None = None
        decided: int | None = None
        games: list[ScoredGame] = []
        for number, result in enumerate(results, start=1):
            check_result(result, number)
            if winner is not None:
                raise ScoringError(
                    f"game {number} after the match was decided: player {winner + 1} won "
                    f"{needed} of the best of {length} by game {decided}",
                    kind="match",
                    game=number,
                )
            wins[result.winner] += 1
            games.append(ScoredGame(number, result.winner, 1))
            if wins[result.winner] == needed:
                winner, decided = result.winner, number
        return MatchStanding(
            length=length,
            length_unit="games",
            score=(wins[0], wins[1]),
            winner=winner,
            decided_after_game=decided,
            games=tuple(games),
        )


class KungabradeFamily:
    """The ``kungabrade`` family (see the module docstring): results only."""

    key = "kungabrade"
    name = "Kungabräde"
    vocabulary = VOCABULARY
    records: tuple[RecordFormat[Any], ...] = ()

    @property
    def replay(self) -> Replayer | None:
        return None

    @property
    def board(self) -> BoardDrawing[Any] | None:
        return None

    def detect(self, text: str) -> float:
        return 0.0  # no records to recognise

    def match_scoring(self, settings: MatchSettings) -> KungabradeScoring:
        return KungabradeScoring(settings)

    length_unit = "games"
    loser_starts = False  # the seed says nothing about who starts; not recorded
    options: tuple[str, ...] = ()
    result_fields = ("game_type",)
    tiebreak_scales: tuple[str, ...] = ()

    def cube_limit(self, settings: MatchSettings, score: tuple[int, int]) -> None:
        return None  # no cube

    def record_format(self, text: str) -> RecordFormat[Any] | None:
        return None  # results only

    def describe(self, result: ResultValue) -> str:
        """``player 1 castle (slagfalt)``: winner, how it was won, the game type."""
        return f"player {result.winner + 1} {result.outcome} ({result.game_type})"

    def explain(
        self,
        settings: MatchSettings,
        results: Sequence[ResultValue],
        *,
        names: tuple[str, str],
    ) -> tuple[Msg, ...]:
        """The games won, and who won the match or how many wins each still needs."""
        standing = self.match_scoring(settings).standing(results)
        length = standing.length
        needed = length // 2 + 1
        one, two = standing.score
        lines = [
            msg(
                "kb.explain.score",
                one=names[0],
                one_wins=one,
                two=names[1],
                two_wins=two,
                length=length,
            )
        ]
        if standing.winner is not None:
            lines.append(msg("kb.explain.won", winner=names[standing.winner], needed=needed))
            return tuple(lines)
        for player in (0, 1):
            left = needed - standing.score[player]
            lines.append(msg("kb.explain.needs", player=names[player], count=left))
        return tuple(lines)


KUNGABRADE_FAMILY = KungabradeFamily()
register(KUNGABRADE_FAMILY)
