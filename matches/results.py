"""Results: a game entered (by a referee, from a verified record or from a confirmed
player's report: ``locked_game_add``), a game corrected, a match reset.

Sides: ``player1`` (the upper slot) is White (``W``) and ``player2`` Black (``B``) for
scoring.

Concurrency: every change locks the match first (``common.lock_match``). The partial
unique constraints on ``Game`` (one active game per number) and ``GameResult`` (one
confirmed version per game) stop a second result even where row locks do nothing
(SQLite). A correction names the version it corrects and is refused (``ConflictError``,
with the current result) when that is no longer the confirmed one, so a second referee's
correction never silently replaces the first's.

Decisions where the docs are silent:
- A referee's entry is confirmed at once (a referee is the authority at the table); a
  second check comes from game records, which mark games verified. Organisers may do
  everything referees may in their own tournaments. Where the players report their
  results (``matches.reports``), a player's report becomes a game only when the opponent
  confirms it, through ``locked_game_add`` like any entry; a referee's entry, walkover, reset or
  deciding correction settles the open reports it makes moot (``common.reports_settle``).
- A correction re-derives the starters of the later games (S5: the loser of the previous
  game starts), since those were derived from the corrected winner.
- A correction or reset is refused while the match fed by this one has started
  (``progression.refuse_if_downstream_started``). Resets void games (they stay in the
  database, with their versions, marked ``voided_at``) and are audited.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import (
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionRequiredError,
    ValidationError,
)
from core.permissions import (
    User,
    is_match_player,
    is_match_referee,
    is_organiser,
    is_referee,
    signed_in,
)
from core.reasons import Reason, reason_data
from engine.types import Side
from games.results import ResultValue
from games.seats import letter_of, other
from matches.common import (
    active_games,
    event_add,
    game_to_dict,
    lock_match,
    match_snapshot,
    referee_require,
    reports_settle,
    user_label,
)
from matches.match_changes import games_removed
from matches.models import (
    FINISHED_STATES,
    EventKind,
    Game,
    GameRecordSubmission,
    GameReport,
    GameResult,
    Match,
    MatchState,
    RecordState,
    ResultSource,
    SiteNote,
    result_columns,
)
from matches.progression import advance, refuse_if_downstream_started, unadvance
from matches.selectors import game_version
from matches.standing import (
    family_of,
    match_standing,
    result_check,
    result_text,
    result_words,
    standing_apply,
)
from tournaments.models import ResultsBy

__all__ = [
    "game_result_correct",
    "game_result_enter",
    "game_result_record",
    "locked_game_add",
    "match_reset",
    "next_game_check",
]


def next_game_check(
    match: Match, games: Sequence[Game], *, number: int, starter: Side | None, by: User
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
        first = existing.results.filter(confirmed=True).select_related("entered_by__player").first()
        # Who entered it: their user name to the staff, else their display name (core.names).
        who = user_label(first.entered_by if first else None, full=is_referee(by, match.tournament))
        raise ConflictError(
            _(
                # Translators: %(result)s is the result, e.g. "Anna wins by jan".
                "Game %(n)s was entered already by %(who)s: %(result)s. Reload the match; to "
                "change that result, correct the game instead."
            )
            % {"n": number, "who": who, "result": result_words(match, existing)},
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
    if not family_of(match.tournament).loser_starts:
        return None  # who starts is not recorded (backgammon's opening roll, Kungabräde)
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


def locked_game_add(
    match: Match,
    *,
    number: int,
    result: ResultValue,
    starter: Side | None,
    by: User,
    source: str = ResultSource.REFEREE,
    submission: GameRecordSubmission | None = None,
    note: str = "",
    site_note: str = "",
    report: GameReport | None = None,
) -> Game:
    """Add game ``number`` to a locked match and recompute it with its game's scoring
    (bräde's S1–S5, backgammon's points and Crawford rule, Kungabräde's best of n).

    ``note`` is a person's words; ``site_note`` what the site notes itself (a ``SiteNote``
    code, worded when read: ``matches.site_words``).

    ``report``: the players' report this game comes from, confirmed by ``by`` (the
    opponent); the result is then the reporter's, confirmed by ``by``. Any other open
    report of this game is settled by it (``_reports_settle``)."""
    games = active_games(match)
    starter = next_game_check(match, games, number=number, starter=starter, by=by)
    state = match_standing(match, [g.result_value() for g in games] + [result])
    fields = result_columns(result)
    entered_by = report.reported_by if report is not None else by
    try:
        with transaction.atomic():
            game = Game.objects.create(
                match=match,
                number=number,
                starter=starter.value if starter else "",
                **fields,
                source=source,
                verified=submission is not None,
                verified_by=submission,
            )
            GameResult.objects.create(
                game=game,
                version=1,
                **fields,
                source=source,
                submission=submission,
                confirmed=True,
                entered_by=signed_in(entered_by),
                confirmed_by=signed_in(by) if report is not None else None,
                report=report,
                note=note,
                site_note=site_note,
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
    event_add(
        match,
        EventKind.RESULT_ENTERED,
        by,
        game=number,
        result=result_text(match, result),
        source=source,
        **extra,
    )
    reports_settle(match, by, number=number)
    standing_apply(match, state, len(games) + 1)
    match.save()
    if match.state == MatchState.DECIDED:
        event_add(
            match,
            EventKind.MATCH_DECIDED,
            by,
            winner=match.winner_id,
            after_game=match.decided_after_game,
        )
        advance(match=match, by=by)
    return game


def game_result_enter(
    *,
    match: Match,
    number: int,
    result: ResultValue,
    by: User,
    starter: Side | str | None = None,
    note: str = "",
) -> Game:
    """A referee enters game ``number`` of ``match`` (the result's winner a seat: 0 is
    player1).

    The result's fields are the game's own (bräde: ``pattern``, ``munk``; backgammon:
    ``cube``, ``conceded``; Kungabräde: ``game_type``); its family refuses the others.
    The match is recomputed by its game's scoring; when it is decided (S4, a player
    reaching the length) the winner advances at once. ``ConflictError`` if game
    ``number`` exists already or the match is over; ``ValidationError`` for an impossible
    result or a breach of the match rules (a resignation over the cap, S1; a double in
    the Crawford game).
    """
    referee_require(by, match)
    result_check(match, result)
    first_starter = Side(starter) if starter else None
    with transaction.atomic():
        locked = lock_match(match)
        return locked_game_add(
            locked, number=number, result=result, starter=first_starter, by=by, note=note
        )


def game_result_record(
    *,
    match: Match,
    number: int,
    result: ResultValue,
    starter: Side | None,
    by: User,
    submission: GameRecordSubmission,
) -> Game:
    """Game ``number`` of ``match``, recorded move by move on the scoresheet, entered from
    its record (``submission``, stored already verified: ``records.game_record_checked``),
    under the match's lock, which this service takes itself. Allowed to a referee of the
    tournament, and to a player of the match where the referees enter the results (the
    scoresheet checked every turn, so the record is the referee's evidence); a tournament
    whose players report their results takes a recorded game as a report instead
    (``matches.reports``). The game is verified by its record, as an entry from an
    uploaded record is."""
    tournament = match.tournament
    allowed = is_match_referee(by, match) or (
        tournament.results_by == ResultsBy.REFEREES and is_match_player(by, match)
    )
    if not allowed:
        raise PermissionDeniedError(
            _("Only the tournament's referees may enter this game's result."),
            code="not_a_referee",
        )
    if submission.match_id != match.pk or submission.state != RecordState.ENTERED:
        raise ValidationError(
            _("The record given is not this match's verified record."), code="record_mismatch"
        )
    result_check(match, result)
    with transaction.atomic():
        locked = lock_match(match)
        return locked_game_add(
            locked,
            number=number,
            result=result,
            starter=starter,
            by=by,
            source=ResultSource.RECORD,
            submission=submission,
            site_note=SiteNote.RECORDED_LIVE,
        )


def _stale_version(match: Match, game: Game, current: int) -> ConflictError:
    """The conflict for a correction of a version that is no longer the confirmed one."""
    confirmed = game.results.filter(confirmed=True).select_related("entered_by").first()
    who = user_label(confirmed.entered_by if confirmed else None, full=True)  # referees only
    return ConflictError(
        _(
            # Translators: %(result)s is the result, e.g. "Anna wins by jan".
            "Game %(n)s was changed by %(who)s since you loaded it: it is now %(result)s "
            "(version %(current)s). Check the current result; to change it, correct it again."
        )
        % {
            "n": game.number,
            "who": who,
            "result": result_words(match, game),
            "current": current,
        },
        code="stale_version",
        game={**game_to_dict(game), "version": current},
        match=match_snapshot(match),
    )


def game_result_correct(
    *,
    game: Game,
    result: ResultValue,
    by: User,
    expected_version: int | None,
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
    referee_require(by, game.match)
    if expected_version is None:
        raise PreconditionRequiredError(
            _(
                "A correction must name the version of the result it corrects: send the "
                "game's ETag (from GET) in an If-Match header, or its version in 'version'."
            )
        )
    result_check(game.match, result)
    with transaction.atomic():
        match = lock_match(game.match)
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
        before = game.result_value()
        if before == result:
            raise ValidationError(_("Game %(n)s already has this result.") % {"n": game.number})
        was_decided = match.state == MatchState.DECIDED
        old_winner = match.winner_id
        if was_decided:
            refuse_if_downstream_started(match, _("Correcting game %(n)s") % {"n": game.number})
        games = active_games(match)
        results = [result if g.pk == game.pk else g.result_value() for g in games]
        state = match_standing(match, results)
        fields = result_columns(result)
        GameResult.objects.filter(game=game, confirmed=True).update(confirmed=False)
        version = (game.results.aggregate(v=Max("version"))["v"] or 0) + 1
        GameResult.objects.create(
            game=game,
            version=version,
            **fields,
            source=ResultSource.REFEREE,
            confirmed=True,
            entered_by=signed_in(by),
            note=note,
        )
        game.result_store(result)
        game.verified = False
        game.verified_by = None
        game.save()
        # S5: later games are started by the loser of the game before.
        if family_of(match.tournament).loser_starts:
            for previous, later in zip(results, games[1:], strict=False):
                starter = letter_of(other(previous.winner))
                if later.starter != starter:
                    later.starter = starter
                    later.save(update_fields=["starter"])
        event_add(
            match,
            EventKind.RESULT_CORRECTED,
            by,
            game=game.number,
            before=result_text(match, before),
            after=result_text(match, result),
            version=version,
            note=note,
        )
        standing_apply(match, state, len(games))
        match.save()
        if match.state == MatchState.DECIDED:
            reports_settle(match, by)  # a report of a game after the decision is moot
        if was_decided and match.winner_id != old_winner:
            unadvance(match=match, by=by)
        if match.state == MatchState.DECIDED and (not was_decided or match.winner_id != old_winner):
            event_add(
                match,
                EventKind.MATCH_DECIDED,
                by,
                winner=match.winner_id,
                after_game=match.decided_after_game,
            )
            advance(match=match, by=by)
    return game


def match_reset(*, match: Match, by: User, reason: Reason) -> Match:
    """Organisers only: void a match's games and result so it can be replayed or corrected.

    The player it sent on is taken out of the next match (which must not have
    started: reset that one first). Everything is kept and audited.
    """
    if not is_organiser(by, match.tournament):
        raise PermissionDeniedError(_("Only an organiser of this tournament may reset a match."))
    if not reason.strip():
        raise ValidationError(_("Say why the match is reset; the reason is kept in the audit log."))
    with transaction.atomic():
        match = lock_match(match)
        if match.state == MatchState.BYE:
            raise ValidationError(_("A bye cannot be reset; it has no games."))
        was_finished = match.state in FINISHED_STATES
        if was_finished:
            refuse_if_downstream_started(match, _("Resetting this match"))
        games = active_games(match)
        snapshot = match_snapshot(match, games)
        now = timezone.now()
        Game.objects.filter(pk__in=[g.pk for g in games]).update(voided_at=now)
        games_removed(match_id=match.pk)  # e.g. the scoresheet's recordings of them
        reports_settle(match, by)
        if was_finished:
            unadvance(match=match, by=by)
        match.winner = None
        match.walkover = False
        match.decided_after_game = None
        match.decided_early = False
        match.crawford_game = None
        match.points1 = match.points2 = match.tiebreak1 = match.tiebreak2 = 0
        match.flag = ""
        both = match.player1_id is not None and match.player2_id is not None
        match.state = MatchState.READY if both else MatchState.WAITING
        match.save()
        event_add(match, EventKind.RESET, by, **reason_data(reason), before=snapshot)
    return match
