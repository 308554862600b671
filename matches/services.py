"""Services for matches: the bracket's matches, result entry, corrections,
walkovers, resets and game-record submissions.

Sides: ``player1`` (the upper slot) is White (``W``) and ``player2`` Black
(``B``) for scoring. A game record's ``White``/``Black`` tags name the players
when present and are matched to the match's players by name (case and outer
spaces ignored); without them the record's White is ``player1``.

Concurrency: every change to a match first locks its row (``select_for_update``)
and re-reads its games, so of two referees entering the same game one succeeds
and the other gets a ``ConflictError`` with the current state. The partial
unique constraints on ``Game`` (one active game per number) and ``GameResult``
(one confirmed version per game) stop a second result even where row locks do
nothing (SQLite). ``_lock`` first bumps the tournament's version (``tournament_touch``,
what the live pages' ETag comes from), so no change to a match can leave the pages
answering "not modified"; the services that change records without locking the match
(submission, the verifier's claim and release) touch it themselves. A correction names
the version it corrects and is refused (``ConflictError``, with the current result) when
that is no longer the confirmed one, so a second referee's correction never silently
replaces the first's.

Decisions where the docs are silent:
- A referee's entry is confirmed at once (a referee is the authority at the
  table); a second check comes from game records, which mark games verified.
  Organisers may do everything referees may in their own tournaments. Where the
  players report their results (``matches.reports``), a player's report becomes a
  game only when the opponent confirms it, through ``_game_add`` like any entry; a
  referee's entry, walkover, reset or deciding correction settles the open reports it
  makes moot (``_reports_settle``).
- A correction re-derives the starters of the later games (S5: the loser of the
  previous game starts), since those were derived from the corrected winner.
- A correction or reset is refused while the match fed by this one (next round,
  or the third-place match) has a game, a walkover or a result: an organiser
  resets that match first. Resets void games (they stay in the database, with
  their versions, marked ``voided_at``) and are audited.
- A record from a player for a match with no results is verified but does not
  enter results (only a referee's record does); a record that covers fewer
  games than were entered verifies those games.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from engine.messages import Msg
from engine.record import MAX_RECORD_BYTES
from engine.types import Outcome, OutcomeKind, Pattern, Side
from matches.engine_text import render, verdict, verdict_text
from matches.errors import (
    ConflictError,
    DomainError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionRequiredError,
    ValidationError,
)
from matches.models import (
    FINISHED_STATES,
    OPEN_REPORT_STATES,
    RECORD_DONE_STATES,
    EventKind,
    Game,
    GameRecordSubmission,
    GameReport,
    GameResult,
    Match,
    MatchEvent,
    MatchState,
    RecordState,
    ReportState,
    ResultSource,
)
from matches.selectors import game_version
from tournaments.lengths import match_length_problem
from tournaments.models import Entry, Player, Round, Tournament, TournamentStatus
from tournaments.permissions import User, is_match_player, is_organiser, is_referee
from tournaments.services import tournament_touch, tournaments_touch

log = logging.getLogger(__name__)

# "At most 1 MB": the engine's own limit (1,000,000 bytes of UTF-8), so a record that is
# accepted here is never refused by the engine for its size.
RECORD_MAX_BYTES = MAX_RECORD_BYTES
RECORD_MAX_ATTEMPTS = 3


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


# --- helpers ------------------------------------------------------------------------


def _user_label(user: Any) -> str:
    if user is None:
        return _("someone")
    return str(user.get_username()) if hasattr(user, "get_username") else str(user)


def _lock(match: Match) -> Match:
    """The match row, locked for the rest of the transaction, freshly read; the
    tournament's version is bumped first (its row locked before the match's, the one
    lock order of every writer: ``tournaments_touch``)."""
    tournament_touch(tournament_id=match.tournament_id)
    return Match.objects.select_for_update().get(pk=match.pk)


def _touch_record(sub: GameRecordSubmission) -> None:
    """A record's state shows on its match's page: bump the tournament's version."""
    tournaments_touch(tournaments=Tournament.objects.filter(matches__pk=sub.match_id))


def _active_games(match: Match) -> list[Game]:
    return list(match.games.filter(voided_at__isnull=True).order_by("number"))


def _event(match: Match, kind: str, by: Any, **data: Any) -> MatchEvent:
    user = by if by is not None and getattr(by, "is_authenticated", False) else None
    return MatchEvent.objects.create(match=match, kind=kind, by=user, data=data)


def _outcome(
    winner: Side | str, outcome: OutcomeKind | str, pattern: Pattern | str | None, munk: bool
) -> Outcome:
    try:
        return Outcome(
            Side(winner),
            OutcomeKind(outcome),
            Pattern(pattern) if pattern else None,
            bool(munk),
        )
    except ValueError as err:
        raise ValidationError(_("Not a possible result: %(error)s.") % {"error": err}) from None


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "starter": game.starter or None,
        "winner": game.winner,
        "outcome": game.outcome,
        "pattern": game.pattern or None,
        "munk": game.munk,
        "verified": game.verified,
    }


def match_snapshot(match: Match, games: Sequence[Game] | None = None) -> dict[str, Any]:
    """The match's current state as JSON, sent with conflicts so clients can show it."""
    games = _active_games(match) if games is None else games
    return {
        "id": match.pk,
        "state": match.state,
        "player1": match.player1_id,
        "player2": match.player2_id,
        "winner": match.winner_id,
        "points": [match.points1, match.points2],
        "tiebreak": [match.tiebreak1, match.tiebreak2],
        "decided_after_game": match.decided_after_game,
        "games": [game_to_dict(g) for g in games],
    }


def _score(match: Match, outcomes: Sequence[Outcome]) -> Any:
    """scoring's ``MatchState`` for these outcomes; a breach becomes a ``ValidationError``."""
    from engine.errors import MatchError
    from scoring.match import match_state

    tournament = match.tournament
    try:
        return match_state(
            length=match.length,
            scale=tournament.scale,
            policy=tournament.resignation_policy,
            outcomes=list(outcomes),
        )
    except MatchError as err:
        # The engine's message in the reader's language, its rule number kept.
        text = render(err.msg)
        message = (
            _("Game %(n)s: %(message)s") % {"n": err.game, "message": text} if err.game else text
        )
        raise ValidationError(message, code="match_rules") from None


def _apply_score(match: Match, state: Any, games: int) -> None:
    """Copy scoring's state into the match's cached fields (winner is set by callers)."""
    match.points1 = state.points[Side.WHITE]
    match.points2 = state.points[Side.BLACK]
    match.tiebreak1 = state.tiebreak[Side.WHITE]
    match.tiebreak2 = state.tiebreak[Side.BLACK]
    if state.winner is not None:
        match.state = MatchState.DECIDED
        match.winner = match.player_for(state.winner)
        match.decided_after_game = state.decided_after_game
        match.decided_early = bool(state.decided_early)
    else:
        match.state = MatchState.PLAYING if games else MatchState.READY
        match.winner = None
        match.decided_after_game = None
        match.decided_early = False


# --- the bracket's matches ------------------------------------------------------------


def bracket_matches_create(
    *,
    tournament: Tournament,
    rounds: Sequence[Round],
    first_round: Sequence[tuple[Player | None, Player | None]],
    third_place: bool,
    by: User,
) -> list[Match]:
    """Create every match of a drawn bracket and settle the first-round byes.

    Called by ``tournament_bracket_generate`` inside its transaction. Byes are
    decided at once and their players put into round 2 before the rows are
    written, so the whole bracket is a few queries whatever its size. Every round's
    length is checked again (S1, at most ``MAX_MATCH_LENGTH``: ``tournaments.lengths``),
    so no caller can create a match whose pages cost more than the bound allows.
    """
    for rnd in rounds:
        problem = match_length_problem(rnd.match_length)
        if problem is not None:
            raise ValidationError(problem, code="match_length")
    by_round: dict[int, list[Match]] = {}
    for rnd in rounds:
        count = len(first_round) >> (rnd.number - 1)
        by_round[rnd.number] = [
            Match(tournament=tournament, round=rnd, slot=slot, length=rnd.match_length)
            for slot in range(count)
        ]
    byes: list[Match] = []
    for slot, (upper, lower) in enumerate(first_round):
        match = by_round[1][slot]
        match.player1, match.player2 = upper, lower
        if upper is None or lower is None:
            # Byes are only ever the lower line (bracket.first_round), given to top seeds.
            match.player1 = upper or lower
            match.player2 = None
            match.state = MatchState.BYE
            match.winner = match.player1
            byes.append(match)
            if len(rounds) > 1:
                target = by_round[2][slot // 2]
                if slot % 2 == 0:
                    target.player1 = match.player1
                else:
                    target.player2 = match.player1
        else:
            match.state = MatchState.READY
    if len(rounds) > 1:
        for target in by_round[2]:
            if target.player1 is not None and target.player2 is not None:
                target.state = MatchState.READY
    matches = [m for number in sorted(by_round) for m in by_round[number]]
    if third_place:
        final = rounds[-1]
        matches.append(
            Match(
                tournament=tournament,
                round=final,
                slot=0,
                is_third_place=True,
                length=final.match_length,
            )
        )
    Match.objects.bulk_create(matches)
    user = by if getattr(by, "is_authenticated", False) else None
    MatchEvent.objects.bulk_create(
        [
            MatchEvent(match=m, kind=EventKind.BYE, by=user, data={"player": m.player1_id})
            for m in byes
        ]
    )
    return matches


def _rounds_in(tournament_id: int) -> int:
    return Round.objects.filter(tournament_id=tournament_id).count()


def _downstream(match: Match) -> list[tuple[Match, bool, str]]:
    """The matches this one feeds, locked: (match, upper slot?, "winner"/"loser")."""
    if match.is_third_place:
        return []
    rounds = _rounds_in(match.tournament_id)
    number = match.round.number
    found: list[tuple[Match, bool, str]] = []
    if number < rounds:
        nxt = (
            Match.objects.select_for_update()
            .filter(
                tournament_id=match.tournament_id,
                round__number=number + 1,
                slot=match.slot // 2,
                is_third_place=False,
            )
            .first()
        )
        if nxt is not None:
            found.append((nxt, match.slot % 2 == 0, "winner"))
    if number == rounds - 1:
        third = (
            Match.objects.select_for_update()
            .filter(tournament_id=match.tournament_id, is_third_place=True)
            .first()
        )
        if third is not None:
            found.append((third, match.slot % 2 == 0, "loser"))
    return found


def _has_started(match: Match) -> bool:
    if match.state in FINISHED_STATES:
        return True
    return match.games.filter(voided_at__isnull=True).exists()


def _refuse_if_downstream_started(match: Match, what: str) -> list[tuple[Match, bool, str]]:
    """``what``: the refused action, translated by the caller."""
    downstream = _downstream(match)
    for target, _upper, _role in downstream:
        if _has_started(target):
            raise ConflictError(
                _(
                    # Translators: %(what)s is "Correcting game 3" or "Resetting this match";
                    # %(round)s the round's name, %(third)s " third place" or nothing.
                    "%(what)s is refused: the match it feeds (#%(id)s, %(round)s%(third)s) has "
                    "started. An organiser must reset match #%(id)s first."
                )
                % {
                    "what": what,
                    "id": target.pk,
                    "round": target.round.name,
                    "third": _(" third place") if target.is_third_place else "",
                },
                code="downstream_started",
                blocking_match=target.pk,
            )
    return downstream


def _place(target: Match, player: Player | None, upper: bool, by: User) -> None:
    if upper:
        target.player1 = player
    else:
        target.player2 = player
    if target.player1_id is not None and target.player2_id is not None:
        if target.state == MatchState.WAITING:
            target.state = MatchState.READY
    elif target.state == MatchState.READY:
        target.state = MatchState.WAITING
    target.save()
    if player is None:
        return
    _event(target, EventKind.ADVANCED, by, player=player.pk)
    if target.state == MatchState.READY:
        # A player who withdrew while waiting for this opponent gives a walkover now.
        withdrawn = set(
            Entry.objects.filter(
                tournament_id=target.tournament_id,
                player_id__in=[target.player1_id, target.player2_id],
                withdrawn_at__isnull=False,
            ).values_list("player_id", flat=True)
        )
        if len(withdrawn) == 1:
            (absent,) = withdrawn
            winner = target.player2 if absent == target.player1_id else target.player1
            assert winner is not None
            _walkover(target, winner, by, "the opponent withdrew")


def _advance(match: Match, by: User) -> None:
    """Put the winner (and a semifinal's loser) into the matches this one feeds."""
    for target, upper, role in _downstream(match):
        player = match.winner if role == "winner" else match.loser
        if player is not None:
            _place(target, player, upper, by)
    _tournament_finish_check(match.tournament_id)


def _unadvance(match: Match, by: User) -> None:
    for target, upper, _role in _downstream(match):
        _place(target, None, upper, by)
    Tournament.objects.filter(pk=match.tournament_id, status=TournamentStatus.FINISHED).update(
        status=TournamentStatus.RUNNING
    )


def _tournament_finish_check(tournament_id: int) -> None:
    rounds = _rounds_in(tournament_id)
    last = Match.objects.filter(tournament_id=tournament_id, round__number=rounds)
    if last.exists() and not last.exclude(state__in=FINISHED_STATES).exists():
        Tournament.objects.filter(pk=tournament_id).update(status=TournamentStatus.FINISHED)


def _walkover(match: Match, winner: Player, by: User, reason: str) -> None:
    match.winner = winner
    match.state = MatchState.WALKOVER
    match.walkover = True
    match.decided_after_game = None
    match.decided_early = False
    match.save()
    _event(match, EventKind.WALKOVER, by, winner=winner.pk, reason=reason)
    _reports_settle(match, by)
    _advance(match, by)


def _reports_settle(match: Match, by: User, *, number: int | None = None) -> None:
    """The players' open reports of a locked match (of game ``number``, or all of them)
    are settled by what was just done without them (a game entered by a referee or from
    a record, a correction that decided the match, a walkover, a reset): closed as
    overridden, each audited (``matches.reports``)."""
    reports = GameReport.objects.filter(match=match, state__in=OPEN_REPORT_STATES)
    if number is not None:
        reports = reports.filter(number=number)
    user = by if getattr(by, "is_authenticated", False) else None
    for report in reports:
        report.state = ReportState.OVERRIDDEN
        report.closed_by = user
        report.closed_at = timezone.now()
        report.save(update_fields=["state", "closed_by", "closed_at"])
        _event(match, EventKind.REPORT_OVERRIDDEN, by, report=report.pk, game=report.number)


# --- result entry -----------------------------------------------------------------


def _require_referee(by: User, match: Match) -> None:
    if not is_referee(by, match.tournament):
        raise PermissionDeniedError(
            _("Only the referees and organisers of this tournament may enter results.")
        )


def _next_game_check(
    match: Match, games: Sequence[Game], *, number: int, starter: Side | None
) -> Side | None:
    """May game ``number`` be added to the locked ``match`` (whose active ``games`` are
    given) now? Returns its starter (S5 for game 2 on), else raises: ``ConflictError``
    when it exists or the match is over, ``ValidationError`` when it is not the next
    one or names the wrong starter. Used by every way a game comes in (entry, record,
    a player's report)."""
    if match.state == MatchState.WAITING:
        raise ValidationError(
            _("The players of this match are not known yet; finish the earlier matches first.")
        )
    # A game that exists is that game's conflict (who entered it, and what), decided
    # match or not; a later game of a decided match is refused because the match is over.
    expected = len(games) + 1
    if number < expected:
        existing = games[number - 1]
        first = existing.results.filter(confirmed=True).select_related("entered_by").first()
        who = _user_label(first.entered_by if first else None)
        raise ConflictError(
            _(
                # Translators: %(result)s is the record's result, e.g. "Black jan" (not translated).
                "Game %(n)s was entered already by %(who)s: %(result)s. Reload the match; to "
                "change that result, correct the game instead."
            )
            % {"n": number, "who": who, "result": existing.outcome_value().text()},
            code="game_exists",
            match=match_snapshot(match, games),
        )
    if match.state in FINISHED_STATES:
        facts = {"winner": match.winner, "n": match.decided_after_game}
        if match.state == MatchState.WALKOVER:
            text = _(
                "The match is already decided by walkover (winner: %(winner)s); no more games "
                "can be entered."
            )
        elif match.state == MatchState.BYE:
            text = _(
                "The match is already decided as a bye (winner: %(winner)s); no more games can "
                "be entered."
            )
        elif match.decided_after_game:
            text = _(
                "The match was decided after game %(n)s (winner: %(winner)s); no more games "
                "are entered."
            )
        else:
            text = _(
                "The match is already decided (winner: %(winner)s); no more games can be entered."
            )
        raise ConflictError(
            text % facts,
            code="match_decided",
            match=match_snapshot(match, games),
        )
    if number > expected:
        raise ValidationError(
            _("Enter game %(n)s first; games are entered in order.") % {"n": expected}
        )
    if number > 1:
        # S5 / R2: every later game is started by the loser of the previous game.
        expected_starter = Side(games[-1].winner).other
        if starter is not None and starter != expected_starter:
            raise ValidationError(
                _(
                    "Game %(n)s is started by the loser of game %(previous)s, %(player)s "
                    "(R2, scoring.md S5)."
                )
                % {
                    "n": number,
                    "previous": number - 1,
                    "player": match.player_for(expected_starter),
                }
            )
        starter = expected_starter
    return starter


def _game_add(
    match: Match,
    *,
    number: int,
    outcome: Outcome,
    starter: Side | None,
    by: User,
    source: str = ResultSource.REFEREE,
    submission: GameRecordSubmission | None = None,
    note: str = "",
    report: GameReport | None = None,
) -> Game:
    """Add game ``number`` to a locked match and recompute it (S1–S5).

    ``report``: the players' report this game comes from, confirmed by ``by`` (the
    opponent); the result is then the reporter's, confirmed by ``by``. Any other open
    report of this game is settled by it (``_reports_settle``)."""
    games = _active_games(match)
    starter = _next_game_check(match, games, number=number, starter=starter)
    state = _score(match, [g.outcome_value() for g in games] + [outcome])
    entered_by = report.reported_by if report is not None else by
    try:
        with transaction.atomic():
            game = Game.objects.create(
                match=match,
                number=number,
                starter=starter.value if starter else "",
                winner=outcome.winner.value,
                outcome=outcome.kind.value,
                pattern=outcome.pattern.value if outcome.pattern else "",
                munk=outcome.munk,
                source=source,
                verified=submission is not None,
                verified_by=submission,
            )
            GameResult.objects.create(
                game=game,
                version=1,
                winner=game.winner,
                outcome=game.outcome,
                pattern=game.pattern,
                munk=game.munk,
                source=source,
                submission=submission,
                confirmed=True,
                entered_by=entered_by if getattr(entered_by, "is_authenticated", False) else None,
                confirmed_by=by if report is not None else None,
                report=report,
                note=note,
            )
    except IntegrityError:
        # Only reachable where the row lock does not serialise writers.
        raise ConflictError(
            _("Game %(n)s was entered by someone else at the same moment; reload the match.")
            % {"n": number},
            code="game_exists",
            match=match_snapshot(match),
        ) from None
    extra = {"report": report.pk} if report is not None else {}
    _event(
        match,
        EventKind.RESULT_ENTERED,
        by,
        game=number,
        result=outcome.text(),
        source=source,
        **extra,
    )
    _reports_settle(match, by, number=number)
    _apply_score(match, state, len(games) + 1)
    match.save()
    if match.state == MatchState.DECIDED:
        _event(
            match,
            EventKind.MATCH_DECIDED,
            by,
            winner=match.winner_id,
            after_game=match.decided_after_game,
        )
        _advance(match, by)
    return game


def game_result_enter(
    *,
    match: Match,
    number: int,
    winner: Side | str,
    outcome: OutcomeKind | str,
    by: User,
    pattern: Pattern | str | None = None,
    munk: bool = False,
    starter: Side | str | None = None,
    note: str = "",
) -> Game:
    """A referee enters game ``number`` of ``match`` (winner as a side: W = player1).

    The match is recomputed by scoring; when it is decided (S4) or complete, the
    winner advances at once. ``ConflictError`` if game ``number`` exists already
    or the match is over; ``ValidationError`` for an impossible result or a breach
    of the match rules (e.g. a resignation over the cap, S1).
    """
    _require_referee(by, match)
    result = _outcome(winner, outcome, pattern, munk)
    first_starter = Side(starter) if starter else None
    with transaction.atomic():
        locked = _lock(match)
        return _game_add(
            locked, number=number, outcome=result, starter=first_starter, by=by, note=note
        )


def _stale_version(match: Match, game: Game, current: int) -> ConflictError:
    """The conflict for a correction of a version that is no longer the confirmed one."""
    confirmed = game.results.filter(confirmed=True).select_related("entered_by").first()
    who = _user_label(confirmed.entered_by if confirmed else None)
    return ConflictError(
        _(
            # Translators: %(result)s is the game's result, e.g. "Black jan" (not translated).
            "Game %(n)s was changed by %(who)s since you loaded it: it is now %(result)s "
            "(version %(current)s). Check the current result; to change it, correct it again."
        )
        % {
            "n": game.number,
            "who": who,
            "result": game.outcome_value().text(),
            "current": current,
        },
        code="stale_version",
        game={**game_to_dict(game), "version": current},
        match=match_snapshot(match),
    )


def game_result_correct(
    *,
    game: Game,
    winner: Side | str,
    outcome: OutcomeKind | str,
    by: User,
    expected_version: int | None,
    pattern: Pattern | str | None = None,
    munk: bool = False,
    note: str = "",
) -> Game:
    """Replace a game's confirmed result by a new version and recompute the match.

    No lost update: a correction names the version it corrects (``expected_version``,
    the number of the confirmed ``GameResult`` the referee saw; ``game_version``). It
    is compared under the match's row lock, so of two referees correcting the same
    version at the same moment one succeeds and the other gets a ``ConflictError``
    (code ``stale_version``) with the game's current result and version.
    ``expected_version=None`` (the caller named no version) is refused with
    ``PreconditionRequiredError`` after the permission check: a correction that does
    not say what it corrects could silently replace someone else's.
    """
    _require_referee(by, game.match)
    if expected_version is None:
        raise PreconditionRequiredError(
            _(
                "A correction must name the version of the result it corrects: send the "
                "game's ETag (from GET) in an If-Match header, or its version in 'version'."
            )
        )
    result = _outcome(winner, outcome, pattern, munk)
    with transaction.atomic():
        match = _lock(game.match)
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.voided_at is not None:
            raise NotFoundError(_("That game was voided by a reset; enter the game again instead."))
        # Read under the lock: a correction committed meanwhile is seen here.
        current = game_version(game=game)
        if current != expected_version:
            raise _stale_version(match, game, current)
        if match.state in (MatchState.WALKOVER, MatchState.BYE):
            raise ConflictError(
                _(
                    "The match ended by walkover; an organiser must reset it before its games "
                    "can be corrected."
                ),
                code="match_walkover",
            )
        before = game.outcome_value()
        if before == result:
            raise ValidationError(_("Game %(n)s already has this result.") % {"n": game.number})
        was_decided = match.state == MatchState.DECIDED
        old_winner = match.winner_id
        if was_decided:
            _refuse_if_downstream_started(match, _("Correcting game %(n)s") % {"n": game.number})
        games = _active_games(match)
        outcomes = [result if g.pk == game.pk else g.outcome_value() for g in games]
        state = _score(match, outcomes)
        GameResult.objects.filter(game=game, confirmed=True).update(confirmed=False)
        version = (game.results.aggregate(v=Max("version"))["v"] or 0) + 1
        GameResult.objects.create(
            game=game,
            version=version,
            winner=result.winner.value,
            outcome=result.kind.value,
            pattern=result.pattern.value if result.pattern else "",
            munk=result.munk,
            source=ResultSource.REFEREE,
            confirmed=True,
            entered_by=by if getattr(by, "is_authenticated", False) else None,
            note=note,
        )
        game.winner = result.winner.value
        game.outcome = result.kind.value
        game.pattern = result.pattern.value if result.pattern else ""
        game.munk = result.munk
        game.verified = False
        game.verified_by = None
        game.save()
        # S5: later games are started by the loser of the game before.
        for previous, later in zip(outcomes, games[1:], strict=False):
            starter = previous.winner.other.value
            if later.starter != starter:
                later.starter = starter
                later.save(update_fields=["starter"])
        _event(
            match,
            EventKind.RESULT_CORRECTED,
            by,
            game=game.number,
            before=before.text(),
            after=result.text(),
            version=version,
            note=note,
        )
        _apply_score(match, state, len(games))
        match.save()
        if match.state == MatchState.DECIDED:
            _reports_settle(match, by)  # a report of a game after the decision is moot
        if was_decided and match.winner_id != old_winner:
            _unadvance(match, by)
        if match.state == MatchState.DECIDED and (not was_decided or match.winner_id != old_winner):
            _event(
                match,
                EventKind.MATCH_DECIDED,
                by,
                winner=match.winner_id,
                after_game=match.decided_after_game,
            )
            _advance(match, by)
    return game


def match_walkover(*, match: Match, winner: Player, by: User, reason: str = "") -> Match:
    """S6: the match ends without (further) play; ``winner`` advances."""
    _require_referee(by, match)
    with transaction.atomic():
        match = _lock(match)
        if match.state in FINISHED_STATES:
            raise ConflictError(
                _("The match is already decided; an organiser may reset it first."),
                code="match_decided",
                match=match_snapshot(match),
            )
        if match.player1_id is None or match.player2_id is None:
            raise ValidationError(_("Both players must be known before a walkover is given."))
        if winner.pk not in (match.player1_id, match.player2_id):
            raise ValidationError(_("%(player)s does not play in this match.") % {"player": winner})
        _walkover(match, winner, by, reason)
    return match


def match_withdrawal_apply(*, entry: Entry, by: User, reason: str = "") -> Match | None:
    """After the draw: the withdrawn player's next match becomes a walkover (S6)."""
    player = entry.player
    pending = (
        Match.objects.select_for_update()
        .filter(tournament_id=entry.tournament_id)
        .exclude(state__in=FINISHED_STATES)
        .filter(Q(player1=player) | Q(player2=player))
        .first()
    )
    if pending is None:
        raise ValidationError(
            _("%(name)s has no match left to play in this tournament; nothing to withdraw from.")
            % {"name": player.name}
        )
    _event(pending, EventKind.WITHDRAWAL, by, player=player.pk, reason=reason)
    if pending.player1_id is not None and pending.player2_id is not None:
        winner = pending.player2 if pending.player1_id == player.pk else pending.player1
        assert winner is not None
        _walkover(pending, winner, by, reason or f"{player.name} withdrew")
    return pending


def match_reset(*, match: Match, by: User, reason: str) -> Match:
    """Organisers only: void a match's games and result so it can be replayed or corrected.

    The player it sent on is taken out of the next match (which must not have
    started: reset that one first). Everything is kept and audited.
    """
    if not is_organiser(by, match.tournament):
        raise PermissionDeniedError(_("Only an organiser of this tournament may reset a match."))
    if not reason.strip():
        raise ValidationError(_("Say why the match is reset; the reason is kept in the audit log."))
    with transaction.atomic():
        match = _lock(match)
        if match.state == MatchState.BYE:
            raise ValidationError(_("A bye cannot be reset; it has no games."))
        was_finished = match.state in FINISHED_STATES
        if was_finished:
            _refuse_if_downstream_started(match, _("Resetting this match"))
        games = _active_games(match)
        snapshot = match_snapshot(match, games)
        now = timezone.now()
        Game.objects.filter(pk__in=[g.pk for g in games]).update(voided_at=now)
        _reports_settle(match, by)
        if was_finished:
            _unadvance(match, by)
        match.winner = None
        match.walkover = False
        match.decided_after_game = None
        match.decided_early = False
        match.points1 = match.points2 = match.tiebreak1 = match.tiebreak2 = 0
        match.flag = ""
        both = match.player1_id is not None and match.player2_id is not None
        match.state = MatchState.READY if both else MatchState.WAITING
        match.save()
        _event(match, EventKind.RESET, by, reason=reason, before=snapshot)
    return match


def match_flag_clear(*, match: Match, by: User, note: str = "") -> Match:
    """A referee has checked a flagged match (record vs results) and clears the flag."""
    _require_referee(by, match)
    with transaction.atomic():
        match = _lock(match)
        if not match.flag:
            raise ConflictError(_("The match is not flagged."), code="not_flagged")
        _event(match, EventKind.FLAG_CLEARED, by, cleared=match.flag, note=note)
        match.flag = ""
        match.save(update_fields=["flag", "updated_at"])
    return match


# --- game records -------------------------------------------------------------------


class GameReportLike(Protocol):
    number: int
    starter: Any
    outcome: Outcome | None


class ReplayErrorLike(Protocol):
    kind: str
    game: int | None
    line: int | None
    message: str


class ReplayReportLike(Protocol):
    """What ``engine.replay.replay_text`` returns (only the parts used here)."""

    valid: bool
    error: Any
    rules: str
    tags: dict[str, str]
    games: Any
    match: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]: ...


Replay = Callable[[str], Any]


def _real_replay(text: str, *, match: Match) -> Any:
    """The engine's replay, with this match's length, scale and resignation policy as
    the match scorer (so games after the decision or resignations over the cap are
    reported by the engine as ``match`` errors)."""
    from engine.replay import replay_text
    from scoring.match import match_state
    from scoring.report import max_games

    tournament = match.tournament

    def scorer(
        *, tags: Any, rules: str, outcomes: Sequence[Outcome], games_in_record: int
    ) -> dict[str, Any] | None:
        state = match_state(
            length=match.length,
            scale=tournament.scale,
            policy=tournament.resignation_policy,
            outcomes=list(outcomes),
        )
        return dict(state.to_report())

    # S1: games past the most this match can take are a ``match`` error, found while
    # reading, so a record padded with them costs nothing to refuse
    limit = max_games(length=match.length, policy=tournament.resignation_policy)
    return replay_text(text, match_scorer=scorer, max_games=limit)


# Control characters a record may not hold: every C0 control but tab, line feed and
# carriage return (so form feed and vertical tab too), and DEL. A record is plain text
# (game-record.md); these come from binary files, word processors or broken copying,
# and NUL cannot be stored in PostgreSQL text at all. C1 controls (U+0080–U+009F) are
# ordinary characters to the database and are left to the engine's parser.
RECORD_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The C0 controls' names (ECMA-48), U+0000 to U+001F, for the message.
_CONTROL_NAMES = (  # noqa: SIM905 (one string reads better than 32 items)
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI "
    "DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split()


def _refuse_control_characters(text: str) -> None:
    """``ValidationError`` naming the line and column of the first control character
    (lines counted as the engine counts them: ``\\n`` ends a line; columns in characters)."""
    found = RECORD_CONTROL_CHARACTERS.search(text)
    if found is None:
        return
    at = found.start()
    code = ord(text[at])
    name = "DEL" if code == 0x7F else _CONTROL_NAMES[code]
    raise ValidationError(
        _(
            "The record holds the control character %(char)s at line %(line)s, column "
            "%(column)s. A record is plain text: besides printable characters only tabs and "
            "line breaks may appear. Remove it (or save the record as plain text) and retry."
        )
        % {
            "line": text.count("\n", 0, at) + 1,
            "column": at - (text.rfind("\n", 0, at) + 1) + 1,
            "char": f"U+{code:04X} ({name})",
        },
        code="control_character",
    )


def game_record_submit(*, match: Match, text: str | bytes, by: User) -> GameRecordSubmission:
    """Store a record as submitted; verification is enqueued when the transaction commits.

    Refused before anything is stored (``ValidationError``, so a 400 or a form error on
    every entry point and on every database): over 1 MB, not UTF-8 (bytes that do not
    decode, or text with lone surrogates, which JSON can carry), control characters
    (``RECORD_CONTROL_CHARACTERS``, named with their line and column), empty.
    """
    if not (is_referee(by, match.tournament) or is_match_player(by, match)):
        raise PermissionDeniedError(
            _("Only the players of this match and the tournament's referees may submit its record.")
        )
    try:
        raw = text if isinstance(text, bytes) else text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(
            _("The record is not UTF-8 text; save it as UTF-8 and retry.")
        ) from None
    if len(raw) > RECORD_MAX_BYTES:
        raise ValidationError(
            _(
                "The record is %(size)s bytes; the limit is 1 MB (%(limit)s bytes). "
                "Submit one match per file."
            )
            % {
                "size": number_format(len(raw), force_grouping=True),
                "limit": number_format(RECORD_MAX_BYTES, force_grouping=True),
            }
        )
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(
            _("The record is not UTF-8 text; save it as UTF-8 and retry.")
        ) from None
    _refuse_control_characters(decoded)
    if not decoded.strip():
        raise ValidationError(_("The record is empty."))
    if match.player1_id is None or match.player2_id is None:
        raise ValidationError(_("The players of this match are not known yet."))
    with transaction.atomic():
        tournament_touch(tournament_id=match.tournament_id)
        submission = GameRecordSubmission.objects.create(
            match=match, submitted_by=by, text=decoded, state=RecordState.PENDING
        )
        _event(match, EventKind.RECORD_SUBMITTED, by, submission=submission.pk)
        pk = submission.pk
        transaction.on_commit(lambda: _after_submit(pk))
    return submission


def _after_submit(pk: int) -> None:
    """Enqueue the new record; when the broker is back, also the ones it left behind.

    The sweep sends nothing for a record whose message is still live, so a burst of
    submissions leaves one message per record in the broker, not one per submission.
    """
    if game_record_enqueue(submission_id=pk):
        game_records_requeue(exclude=pk)


# --- record verification: leases and messages ----------------------------------------
#
# A record has at most one live broker message. ``message_until`` marks it: set when a
# message is sent (it expires then: ``GAME_RECORD_MESSAGE_TTL``), moved when an attempt
# claims the record (the claimed message can still come back from the broker until the
# redelivery window has passed, should the worker die), cleared when an attempt gives the
# record back. An attempt's ``lease_until`` is renewed by a thread of its worker while it
# runs, and never past its start plus the hard time limit: a verifying record whose lease
# ran out belongs to a dead attempt and is taken over at once by whichever message comes.


def _lease_seconds() -> float:
    return _setting("GAME_RECORD_LEASE_SECONDS", 15)


def _hard_limit() -> timedelta:
    return timedelta(seconds=_setting("CELERY_TASK_TIME_LIMIT", 150))


def _redelivery_window() -> timedelta:
    """How long after a worker took a message the broker may still hand it back (the
    whole worker died without acknowledging it): Redis's visibility timeout, plus the time
    a live worker may take to notice (``config/settings/base.py``), plus a margin."""
    options: dict[str, Any] = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    seconds = float(options.get("visibility_timeout", 3600)) + float(
        options.get("unacked_restore_interval", 10)
    ) * float(options.get("unacked_restore_throttle", 10))
    return timedelta(seconds=seconds + 10)


def _needs_message(now: datetime) -> Q:
    """Records that may be sent a message at ``now``: not done, no live attempt (pending,
    or verifying with its lease run out) and no live message of their own."""
    no_message = Q(message_until__isnull=True) | Q(message_until__lte=now)
    lease_out = Q(lease_until__isnull=True) | Q(lease_until__lte=now)
    return no_message & (
        Q(state=RecordState.PENDING) | (Q(state=RecordState.VERIFYING) & lease_out)
    )


def _send(pk: int, now: datetime) -> bool | None:
    """Send the record's message unless it needs none: True sent; None a message of its
    is live (or it is done, or an attempt holds it); False the broker is down."""
    from kombu.exceptions import OperationalError

    from matches.tasks import verify_game_record

    until = now + timedelta(seconds=_setting("GAME_RECORD_MESSAGE_TTL", 900))
    # Take the slot with one conditional UPDATE before sending, so that two sweeps at the
    # same moment (beat and a submission) do not both send.
    taken = (
        GameRecordSubmission.objects.filter(_needs_message(now), pk=pk)
        .update(message_until=until)
    )  # fmt: skip
    if not taken:
        return None
    try:
        # The message expires with its slot: a worker that receives it later discards it,
        # so a message the sweep replaced is never a second live one. It carries no time
        # limits (Celery would copy the sender's): the worker applies its own settings.
        verify_game_record.apply_async(
            args=[pk], expires=until, time_limit=None, soft_time_limit=None
        )
    except (OperationalError, OSError) as err:
        GameRecordSubmission.objects.filter(pk=pk, message_until=until).update(message_until=None)
        log.warning("game record %s stays pending: broker unavailable (%s)", pk, err)
        return False
    return True


def game_record_enqueue(*, submission_id: int) -> bool:
    """Hand the verification to Celery, unless a message for the record is live already
    (a record has at most one; an attempt holding it counts as one). False if the broker
    is down: the record stays as it is, for the sweep (``game_records_requeue``)."""
    return _send(submission_id, timezone.now()) is not False


def game_records_requeue(*, now: datetime | None = None, exclude: int | None = None) -> list[int]:
    """Send a message for each record left without a live one; returns their ids.

    That is: pending records whose message never reached the broker (it was down) or
    expired unread, and verifying records whose attempt died (lease run out) and whose
    message can no longer come back from the broker (lost with it). A record submitted
    within ``GAME_RECORD_PENDING_GRACE`` is left to its own on-commit enqueue. Runs after
    every submission and from Celery beat every minute, the safety net; a worker's death is
    handled without it (the broker hands the message back, see ``game_record_verify``).
    Stops at the first refusal of the broker.
    """
    now = now or timezone.now()
    grace = timedelta(seconds=_setting("GAME_RECORD_PENDING_GRACE", 30))
    left = GameRecordSubmission.objects.filter(_needs_message(now)).exclude(
        state=RecordState.PENDING, submitted_at__gt=now - grace
    )
    if exclude is not None:
        left = left.exclude(pk=exclude)
    sent: list[int] = []
    for pk in left.order_by("pk").values_list("pk", flat=True):
        outcome = _send(pk, now)
        if outcome is False:
            break
        if outcome:
            sent.append(pk)
    return sent


@dataclass(frozen=True)
class _Held:
    """A record another attempt holds: its number and lease, as last seen."""

    attempts: int
    lease_until: datetime


def _claim(submission_id: int) -> tuple[GameRecordSubmission, int] | _Held | None:
    """Phase 1: count the attempt in its own transaction and take the lease; ``_Held``
    while another attempt's lease is live; None when there is nothing to do."""
    with transaction.atomic():
        try:
            sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        except GameRecordSubmission.DoesNotExist:
            return None
        now = timezone.now()
        if sub.state in RECORD_DONE_STATES:
            return None
        if (
            sub.state == RecordState.VERIFYING
            and sub.lease_until is not None
            and sub.lease_until > now
        ):
            return _Held(sub.attempts, sub.lease_until)
        if sub.attempts >= RECORD_MAX_ATTEMPTS:
            sub.state = RecordState.FAILED
            sub.finished_at = now
            sub.lease_until = None
            sub.message = (
                f"Verification stopped after {sub.attempts} attempts: the verifier crashed or "
                "ran out of time each time. An administrator has to look at this record."
            )
            _touch_record(sub)
            sub.save()
            return None
        sub.attempts += 1
        sub.state = RecordState.VERIFYING
        sub.started_at = now
        sub.lease_until = now + min(timedelta(seconds=_lease_seconds()), _hard_limit())
        sub.message_until = now + _redelivery_window()
        _touch_record(sub)
        sub.save()
        return sub, sub.attempts


def _claim_or_wait(submission_id: int) -> tuple[GameRecordSubmission, int] | None:
    """Claim the record; while another attempt holds a live lease, watch it.

    A message for a verifying record is either a copy (the sweep, a redelivery after the
    visibility timeout) while a live attempt runs, or the message of an attempt whose
    worker just died, handed back at once (``reject_on_worker_lost``) while the dead
    attempt's lease has not run out yet. Watch the lease: renewed (or the record taken by
    another attempt) means alive, and this message is dropped (should that attempt die,
    its own message comes back); run out means dead, and the record is taken over. The
    wait is at most one lease (``GAME_RECORD_LEASE_SECONDS``).
    """
    seen: _Held | None = None
    while True:
        claimed = _claim(submission_id)
        if not isinstance(claimed, _Held):
            return claimed
        if seen is not None and claimed != seen:
            return None
        seen = claimed
        left = (claimed.lease_until - timezone.now()).total_seconds()
        time.sleep(min(max(left, 0.0) + 0.05, 1.0))


class _Heartbeat:
    """Renews a verifying attempt's lease from a thread while the attempt runs (every
    third of ``GAME_RECORD_LEASE_SECONDS``), so that a live attempt is never taken for
    dead however long its replay takes, and a dead one (its process killed, the thread
    with it) is known within one lease. Never past ``cap``, the attempt's start plus the
    hard time limit: no live attempt runs longer."""

    def __init__(self, *, submission_id: int, attempt: int, cap: datetime) -> None:
        self.submission_id = submission_id
        self.attempt = attempt
        self.cap = cap
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> _Heartbeat:
        lease = _lease_seconds()
        if lease > 0:
            self._thread = threading.Thread(
                target=self._run, args=(lease,), name="record-lease", daemon=True
            )
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            # A renewal blocked on a lock must not hold the verdict up; a late one changes
            # nothing (it only touches this attempt while it is verifying).
            self._thread.join(timeout=5)

    def _run(self, lease: float) -> None:
        from django.db import connections

        try:
            while not self._stop.wait(lease / 3):
                until = min(timezone.now() + timedelta(seconds=lease), self.cap)
                GameRecordSubmission.objects.filter(
                    pk=self.submission_id, attempts=self.attempt, state=RecordState.VERIFYING
                ).update(lease_until=until)
                if until >= self.cap:
                    return
        except Exception:
            log.exception("could not renew the lease of game record %s", self.submission_id)
        finally:
            connections.close_all()  # this thread's own connection


def game_record_release(
    *, submission_id: int, attempt: int, reason: Msg
) -> GameRecordSubmission | None:
    """An attempt ended without a verdict (out of time): pending again, and a new message
    is sent when this commits; or failed, after the last attempt. The stored message is
    written here, once it is known which of the two it is. None if the attempt no longer
    holds the record."""
    with transaction.atomic():
        sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.state != RecordState.VERIFYING or sub.attempts != attempt:
            return None
        sub.lease_until = None
        if sub.attempts >= RECORD_MAX_ATTEMPTS:
            sub.state = RecordState.FAILED
            sub.finished_at = timezone.now()
            sentence = (
                verdict("verdict.stopped_each", reason=reason, count=sub.attempts)
                if sub.attempts > 1
                else verdict("verdict.stopped", reason=reason)
            )
        else:
            sub.state = RecordState.PENDING
            sentence = verdict(
                "verdict.retry",
                reason=reason,
                attempt=sub.attempts,
                attempts=RECORD_MAX_ATTEMPTS,
            )
        _stored_verdict(sub, sentence)
        if sub.state == RecordState.PENDING:
            # This attempt's message is acknowledged when the task returns: the record
            # gets a new one now rather than waiting for the sweep.
            sub.message_until = None
            transaction.on_commit(lambda: game_record_enqueue(submission_id=submission_id))
        _touch_record(sub)
        sub.save()
    return sub


def _english(sentence: Msg) -> str:
    """The stored message is English, like the engine's (pages render the codes)."""
    with translation.override("en"):
        return verdict_text([sentence])


def _stored_verdict(sub: GameRecordSubmission, sentence: Msg) -> None:
    """A record that ended an attempt without a verdict: the English message, and its
    code in the report so pages and the API show it in the reader's language."""
    sub.message = _english(sentence)
    sub.report = {"verdict": [sentence.to_dict()]}


def game_record_verify(
    *, submission_id: int, replay: Replay | None = None
) -> GameRecordSubmission | None:
    """Verify a submitted record with the engine and apply the verdict, exactly once.

    Idempotent: a record already done is left alone; a record a live attempt is verifying
    is left to it, one whose attempt died is taken over within one lease
    (``_claim_or_wait``); the verdict is applied only by the attempt that claimed the
    record last. Out of time (the task's soft limit, ``CELERY_TASK_SOFT_TIME_LIMIT``) the
    record is released (``game_record_release``). Returns the submission (None when
    nothing was done).
    """
    from celery.exceptions import SoftTimeLimitExceeded

    claimed = _claim_or_wait(submission_id)
    if claimed is None:
        return None
    sub, attempt = claimed
    assert sub.started_at is not None
    try:
        with _Heartbeat(submission_id=sub.pk, attempt=attempt, cap=sub.started_at + _hard_limit()):
            delay = _setting("GAME_RECORD_VERIFY_DELAY", 0)
            if delay:  # test hook: lets a test or bench/ kill a worker mid-verification
                time.sleep(delay)
            if replay is None:
                match = sub.match
                report = _real_replay(sub.text, match=match)
            else:
                report = replay(sub.text)
    except SoftTimeLimitExceeded:
        # Out of time, not a crash (it is an ``Exception``: it must come first).
        soft = int(_setting("CELERY_TASK_SOFT_TIME_LIMIT", 120))
        return game_record_release(
            submission_id=sub.pk,
            attempt=attempt,
            reason=verdict("verdict.too_slow", seconds=soft),
        )
    except Exception as err:  # the engine promises not to raise; if it does, stop here
        log.exception("verifier crashed on game record %s", submission_id)
        crashed = verdict("verdict.crashed", error=type(err).__name__)
        with transaction.atomic():
            GameRecordSubmission.objects.filter(
                pk=sub.pk, attempts=attempt, state=RecordState.VERIFYING
            ).update(
                state=RecordState.FAILED,
                finished_at=timezone.now(),
                lease_until=None,
                message=_english(crashed),
                report={"verdict": [crashed.to_dict()]},
            )
            _touch_record(sub)  # after the record's row, as _claim and release lock them
        return GameRecordSubmission.objects.get(pk=sub.pk)
    with transaction.atomic():
        sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.state != RecordState.VERIFYING or sub.attempts != attempt:
            return None  # someone else finished or took over: apply nothing twice
        match = _lock(sub.match)
        # The verdict is stored (the record's message, the match's flag) and is English
        # like the engine's messages, whatever language the request that queued it used.
        with translation.override("en"):
            state, sentences = _record_apply(sub, match, report)
            message = verdict_text(sentences)
        sub.state = state
        sub.message = message
        sub.report = _stored_report(report, sentences)
        sub.finished_at = timezone.now()
        sub.lease_until = None
        sub.save()
    return sub


def record_sides(match: Match, tags: dict[str, str]) -> dict[Side, Side] | str:
    """Record side → match side, from the record's White/Black tags (see module doc), or
    a message when the tags name other players. Pages use it to show a record from the
    right player's seat."""
    white = (tags.get("White") or "").strip().casefold()
    black = (tags.get("Black") or "").strip().casefold()
    one = (match.player1.name if match.player1 else "").strip().casefold()
    two = (match.player2.name if match.player2 else "").strip().casefold()
    straight = {Side.WHITE: Side.WHITE, Side.BLACK: Side.BLACK}
    swapped = {Side.WHITE: Side.BLACK, Side.BLACK: Side.WHITE}
    if not white and not black:
        return straight
    if white in ("", one) and black in ("", two):
        return straight
    if white in ("", two) and black in ("", one):
        return swapped
    return (
        f"The record's players (White “{tags.get('White', '')}”, Black "
        f"“{tags.get('Black', '')}”) are not this match's players ({match.player1} and "
        f"{match.player2})."
    )


def _mapped(outcome: Outcome, sides: dict[Side, Side]) -> Outcome:
    return Outcome(sides[outcome.winner], outcome.kind, outcome.pattern, outcome.munk)


def _stored_report(report: Any, sentences: list[Msg]) -> Any:
    """The report as stored: as the CLI's ``--json`` writes it, plus the error's message
    code and parameters and the verdict's sentences (``matches.engine_text``), so pages
    and the API show both in their reader's language."""
    data = report.to_dict()
    if not isinstance(data, dict):
        return data
    own = getattr(getattr(report, "error", None), "msg", None)
    if isinstance(data.get("error"), dict) and isinstance(own, Msg):
        data["error"] = {**data["error"], **own.to_dict()}
    data["verdict"] = [s.to_dict() for s in sentences]
    return data


def _flag(match: Match, sub: GameRecordSubmission, sentence: Msg) -> tuple[str, list[Msg]]:
    message = verdict_text([sentence])
    match.flag = message
    match.save(update_fields=["flag", "updated_at"])
    _event(match, EventKind.RECORD_MISMATCH, None, submission=sub.pk, message=message)
    return RecordState.MISMATCH, [sentence]


def _invalid(err: Any) -> Msg:
    """The verdict on a record the engine rejected: its error, where it is."""
    if err is None:
        return verdict("verdict.not_valid")
    text = err.msg if isinstance(getattr(err, "msg", None), Msg) else Msg.plain(err.message)
    if err.game and err.line:
        return verdict("verdict.error_game_line", game=err.game, line=err.line, error=text)
    if err.game:
        return verdict("verdict.error_game", game=err.game, error=text)
    if err.line:
        return verdict("verdict.error_line", line=err.line, error=text)
    return verdict("verdict.error", error=text)


def _record_apply(sub: GameRecordSubmission, match: Match, report: Any) -> tuple[str, list[Msg]]:
    """Phase 3: compare the verified record with the match and act on it. Returns the
    record's state and its verdict as coded sentences (``matches.engine_text``)."""
    if not report.valid:
        return RecordState.INVALID, [_invalid(report.error)]
    tournament = match.tournament
    tags: dict[str, str] = dict(report.tags or {})
    if report.rules and report.rules != tournament.rules:
        return _flag(
            match,
            sub,
            verdict(
                "verdict.rules" if "Rules" in tags else "verdict.rules_no_tag",
                record=report.rules,
                rules=tournament.rules,
            ),
        )
    scale = (tags.get("Scale") or "").strip().lower()
    if scale and scale != tournament.scale:
        return _flag(match, sub, verdict("verdict.scale", scale=scale, ours=tournament.scale))
    length = (tags.get("Length") or "").strip()
    if length and length != str(match.length):
        return _flag(match, sub, verdict("verdict.length", record=length, length=match.length))
    sides = record_sides(match, tags)
    if isinstance(sides, str):
        return _flag(
            match,
            sub,
            verdict(
                "verdict.players",
                white=tags.get("White", ""),
                black=tags.get("Black", ""),
                one=str(match.player1),
                two=str(match.player2),
            ),
        )
    games = _active_games(match)
    record_games = list(report.games)
    for entered, played in zip(games, record_games, strict=False):
        if played.outcome is None:
            continue
        claimed = _mapped(played.outcome, sides)
        if claimed != entered.outcome_value():
            entered_outcome = entered.outcome_value()
            return _flag(
                match,
                sub,
                verdict(
                    "verdict.outcome",
                    game=entered.number,
                    claimed_player=str(match.player_for(claimed.winner)),
                    claimed_side=claimed.winner.word,
                    claimed=claimed.text().split(" ", 1)[1],
                    entered_player=str(match.player_for(entered_outcome.winner)),
                    entered_side=entered_outcome.winner.word,
                    entered=entered_outcome.text().split(" ", 1)[1],
                ),
            )
    common = games[: len(record_games)]
    Game.objects.filter(pk__in=[g.pk for g in common]).update(verified=True, verified_by=sub)
    if match.flag:
        # This record agrees with the results as they stand: an earlier flag is resolved.
        match.flag = ""
        match.save(update_fields=["flag", "updated_at"])
    extra = record_games[len(games) :]
    submitter = sub.submitted_by
    if extra and is_referee(submitter, tournament):
        for played in extra:
            if played.outcome is None:
                break
            starter = Side(played.starter) if played.starter else None
            try:
                _game_add(
                    match,
                    number=played.number,
                    outcome=_mapped(played.outcome, sides),
                    starter=sides[starter] if starter else None,
                    by=submitter,
                    source=ResultSource.RECORD,
                    submission=sub,
                    note=f"from game record #{sub.pk}",
                )
            except DomainError as err:
                return _flag(
                    match,
                    sub,
                    verdict("verdict.entry_refused", game=played.number, message=err.message),
                )
            match.refresh_from_db()
        _event(match, EventKind.RECORD_VERIFIED, None, submission=sub.pk, entered=len(extra))
        return RecordState.ENTERED, [
            verdict(
                "verdict.entered",
                agree=verdict("verdict.agree_short", count=len(common)),
                entered=verdict("verdict.were_entered", count=len(extra)),
            )
        ]
    _event(match, EventKind.RECORD_VERIFIED, None, submission=sub.pk, entered=0)
    sentences = [verdict("verdict.verified", agree=verdict("verdict.agree", count=len(common)))]
    if len(extra) == 1:
        sentences.append(verdict("verdict.extra_one", first=extra[0].number))
    elif extra:
        sentences.append(
            verdict("verdict.extra_many", first=extra[0].number, last=extra[-1].number)
        )
    return RecordState.VERIFIED, sentences
