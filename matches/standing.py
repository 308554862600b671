"""A match's standing from its games, through its tournament's game family (``games``):
the result as entered, the match scored by the family (bräde's S1–S5, backgammon's points
and Crawford rule, Kungabräde's best of n) and the standing copied into the match's cached
fields (points, tiebreak, Crawford game, state, winner), so that brackets and standings are
read without replaying the games. Nothing here asks which game it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ValidationError
from engine.messages import Msg
from engine.types import Side
from games.family import GameFamily
from games.registry import UnknownGameError, family_for
from games.results import MatchSettings, MatchStanding, ResultValue, ScoringError
from games.seats import seat_of, side_of
from matches.engine_text import render
from matches.models import Match, MatchState
from tournaments.models import Tournament

__all__ = [
    "family_of",
    "match_settings",
    "match_standing",
    "result_parse",
    "result_text",
    "standing_apply",
]


def family_of(tournament: Tournament) -> GameFamily:
    """The family of the tournament's game (``Tournament.game``)."""
    try:
        return family_for(tournament.game)
    except UnknownGameError as err:  # a game removed from the registry
        raise ValidationError(str(err), code="unknown_game") from None


def match_settings(match: Match) -> MatchSettings:
    """The match's settings as its family reads them (the length in the round's unit)."""
    tournament = match.tournament
    return MatchSettings(
        length=match.length,
        scale=tournament.scale,
        resignations=tournament.resignation_policy,
        crawford=True,  # tournaments play with the Crawford rule
    )


def _message(err: ScoringError) -> str:
    """The family's message; bräde's engine message in the reader's language, rule kept."""
    msg = getattr(err.cause, "msg", None)
    return render(msg) if isinstance(msg, Msg) else err.message


def result_parse(
    match: Match,
    *,
    winner: Side | str,
    outcome: str,
    pattern: str | None = None,
    munk: bool = False,
    cube: int | None = None,
    conceded: str | None = None,
    game_type: str | None = None,
) -> ResultValue:
    """A result as entered (winner as a side: W = player1), checked by the match's family
    alone (``ValidationError`` for one the game cannot have: an unknown outcome, a field
    that is not the game's)."""
    try:
        side = Side(winner)
    except ValueError:
        raise ValidationError(
            _("Not a possible result: %(error)s.")
            % {"error": _("the winner is W or B, not “%(winner)s”") % {"winner": winner}}
        ) from None
    result = ResultValue(
        winner=seat_of(side),
        outcome=str(outcome),
        pattern=pattern or "",
        munk=bool(munk),
        cube=1 if cube is None else cube,
        conceded=conceded or "",
        game_type=game_type or "",
    )
    family = family_of(match.tournament)
    try:
        family.match_scoring(match_settings(match)).standing([result])
    except ScoringError as err:
        if err.kind == "result" or err.game is None:
            raise ValidationError(
                _("Not a possible result: %(error)s.") % {"error": _message(err)}
            ) from None
        # A result that is possible but not as game 1 (a doubled Crawford game, …) is
        # the match rules' to judge, with the games before it.
    return result


def match_standing(match: Match, results: Sequence[ResultValue]) -> MatchStanding:
    """The family's standing after these results; a breach of the match rules (a game
    after the decision, a resignation over the cap, a double in the Crawford game) is a
    ``ValidationError`` naming the game."""
    family = family_of(match.tournament)
    try:
        return family.match_scoring(match_settings(match)).standing(list(results))
    except ScoringError as err:
        text = _message(err)
        if err.kind == "result":
            raise ValidationError(
                _("Not a possible result: %(error)s.") % {"error": text}
            ) from None
        # A message that names its game already ("game 3 is the Crawford game …") is not
        # prefixed with it a second time.
        msg = getattr(err.cause, "msg", None)
        names_game = isinstance(msg, Msg) and msg.params.get("game") == err.game
        message = (
            _("Game %(n)s: %(message)s") % {"n": err.game, "message": text}
            if err.game and not names_game
            else text
        )
        raise ValidationError(message, code="match_rules") from None


def standing_apply(match: Match, standing: MatchStanding, games: int) -> None:
    """Copy the standing into the match's cached fields."""
    match.points1, match.points2 = standing.score
    match.tiebreak1, match.tiebreak2 = standing.tiebreak or (0, 0)
    match.crawford_game = standing.crawford_game
    if standing.winner is not None:
        match.state = MatchState.DECIDED
        match.winner = match.player_for(side_of(standing.winner))
        match.decided_after_game = standing.decided_after_game
        match.decided_early = standing.decided_early
    else:
        match.state = MatchState.PLAYING if games else MatchState.READY
        match.winner = None
        match.decided_after_game = None
        match.decided_early = False


def result_text(match: Match, result: ResultValue | Any) -> str:
    """A result in the game's words (``White jan``, ``player 2 gammon, cube 2``), for
    messages: a ``ResultValue`` or anything with ``result_value()`` (a game, a report)."""
    value = result if isinstance(result, ResultValue) else result.result_value()
    return family_of(match.tournament).describe(value)


CONCEDED = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


def result_words(match: Match, result: ResultValue | Any) -> str:
    """A result for people, in the reader's language, as the match page writes it: the
    winner's name and how the game was won (``Anna Lindqvist vinner med gammon, kub 2``; the
    game's own Swedish words stay Swedish). Conflict messages use it; the audit trail
    keeps the game's words (``result_text``)."""
    value = result if isinstance(result, ResultValue) else result.result_value()
    family = family_of(match.tournament)
    winner = match.player_for(side_of(value.winner))
    try:
        term = family.vocabulary.outcome(value.outcome)
        how = _(term.name) if term.translate else term.name
    except KeyError:
        how = value.outcome
    if value.pattern:
        how += f" ({value.pattern.replace('_', ' ')})"
    if value.munk:
        how += " " + _("with munk")
    if value.conceded:
        how += f" ({_(CONCEDED.get(value.conceded, value.conceded))})"
    if value.game_type:
        kinds = {t.code: t for t in family.vocabulary.game_types}
        kind = kinds.get(value.game_type)
        how += ", " + ((_(kind.name) if kind.translate else kind.name) if kind else value.game_type)
    if "cube" in family.result_fields:
        how += ", " + _("cube %(n)s") % {"n": value.cube}
    return _("%(side)s wins by %(how)s") % {"side": winner.name if winner else "?", "how": how}
