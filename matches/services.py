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
nothing (SQLite).

Decisions where the docs are silent:
- A referee's entry is confirmed at once (a referee is the authority at the
  table); a second check comes from game records, which mark games verified.
  Organisers may do everything referees may in their own tournaments.
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
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from engine.record import MAX_RECORD_BYTES
from engine.types import Outcome, OutcomeKind, Pattern, Side
from matches.errors import (
    ConflictError,
    DomainError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
)
from matches.models import (
    FINISHED_STATES,
    RECORD_DONE_STATES,
    EventKind,
    Game,
    GameRecordSubmission,
    GameResult,
    Match,
    MatchEvent,
    MatchState,
    RecordState,
    ResultSource,
)
from tournaments.models import Entry, Player, Round, Tournament, TournamentStatus
from tournaments.permissions import User, is_match_player, is_organiser, is_referee

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
    """The match row, locked for the rest of the transaction, freshly read."""
    return Match.objects.select_for_update().get(pk=match.pk)


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
        # The engine's message stays as the engine words it (it cites the rules).
        message = (
            _("Game %(n)s: %(message)s") % {"n": err.game, "message": err.message}
            if err.game
            else err.message
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
    written, so the whole bracket is a few queries whatever its size.
    """
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
    _advance(match, by)


# --- result entry -----------------------------------------------------------------


def _require_referee(by: User, match: Match) -> None:
    if not is_referee(by, match.tournament):
        raise PermissionDeniedError(
            _("Only the referees and organisers of this tournament may enter results.")
        )


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
) -> Game:
    """Add game ``number`` to a locked match and recompute it (S1–S5)."""
    if match.state == MatchState.WAITING:
        raise ValidationError(
            _("The players of this match are not known yet; finish the earlier matches first.")
        )
    games = _active_games(match)
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
                "The match is already decided after game %(n)s (winner: %(winner)s); no more "
                "games can be entered."
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
    state = _score(match, [g.outcome_value() for g in games] + [outcome])
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
                entered_by=by if getattr(by, "is_authenticated", False) else None,
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
    _event(match, EventKind.RESULT_ENTERED, by, game=number, result=outcome.text(), source=source)
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


def game_result_correct(
    *,
    game: Game,
    winner: Side | str,
    outcome: OutcomeKind | str,
    by: User,
    pattern: Pattern | str | None = None,
    munk: bool = False,
    note: str = "",
) -> Game:
    """Replace a game's confirmed result by a new version and recompute the match."""
    _require_referee(by, game.match)
    result = _outcome(winner, outcome, pattern, munk)
    with transaction.atomic():
        match = _lock(game.match)
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.voided_at is not None:
            raise NotFoundError(_("That game was voided by a reset; enter the game again instead."))
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

    return replay_text(text, match_scorer=scorer)


def game_record_submit(*, match: Match, text: str | bytes, by: User) -> GameRecordSubmission:
    """Store a record as submitted; verification is enqueued when the transaction commits."""
    if not (is_referee(by, match.tournament) or is_match_player(by, match)):
        raise PermissionDeniedError(
            _("Only the players of this match and the tournament's referees may submit its record.")
        )
    raw = text if isinstance(text, bytes) else text.encode("utf-8")
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
    if not decoded.strip():
        raise ValidationError(_("The record is empty."))
    if match.player1_id is None or match.player2_id is None:
        raise ValidationError(_("The players of this match are not known yet."))
    with transaction.atomic():
        submission = GameRecordSubmission.objects.create(
            match=match, submitted_by=by, text=decoded, state=RecordState.PENDING
        )
        _event(match, EventKind.RECORD_SUBMITTED, by, submission=submission.pk)
        pk = submission.pk
        transaction.on_commit(lambda: _after_submit(pk))
    return submission


def _after_submit(pk: int) -> None:
    """Enqueue the new record; when the broker is back, also the ones it left pending."""
    if game_record_enqueue(submission_id=pk):
        game_records_requeue(exclude=pk)


def game_record_enqueue(*, submission_id: int) -> bool:
    """Hand the verification to Celery; False (record stays pending) if the broker is down."""
    from kombu.exceptions import OperationalError

    from matches.tasks import verify_game_record

    try:
        verify_game_record.delay(submission_id)
    except (OperationalError, OSError) as err:
        log.warning("game record %s stays pending: broker unavailable (%s)", submission_id, err)
        return False
    return True


def game_records_requeue(*, now: Any = None, exclude: int | None = None) -> list[int]:
    """Enqueue records left behind: pending ones (broker was down) and stale verifying ones
    (a worker died). Run periodically (Celery beat) or by hand."""
    now = now or timezone.now()
    pending_grace = timedelta(seconds=_setting("GAME_RECORD_PENDING_GRACE", 30))
    stale = timedelta(seconds=_setting("GAME_RECORD_STALE_SECONDS", 300))
    left = GameRecordSubmission.objects.filter(
        Q(state=RecordState.PENDING, submitted_at__lte=now - pending_grace)
        | Q(state=RecordState.VERIFYING, started_at__lte=now - stale)
    )
    if exclude is not None:
        left = left.exclude(pk=exclude)
    ids = list(left.values_list("pk", flat=True))
    return [pk for pk in ids if game_record_enqueue(submission_id=pk)]


def _claim(submission_id: int) -> tuple[GameRecordSubmission, int] | None:
    """Phase 1: count the attempt in its own transaction; None when there is nothing to do."""
    stale = timedelta(seconds=_setting("GAME_RECORD_STALE_SECONDS", 300))
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
            and sub.started_at is not None
            and sub.started_at > now - stale
        ):
            return None  # another worker is on it
        if sub.attempts >= RECORD_MAX_ATTEMPTS:
            sub.state = RecordState.FAILED
            sub.finished_at = now
            sub.message = (
                f"Verification stopped after {sub.attempts} attempts: the verifier crashed or "
                "ran out of time each time. An administrator has to look at this record."
            )
            sub.save()
            return None
        sub.attempts += 1
        sub.state = RecordState.VERIFYING
        sub.started_at = now
        sub.save()
        return sub, sub.attempts


def game_record_release(*, submission_id: int, attempt: int, message: str) -> None:
    """A verification attempt ended without a verdict (time limit): pending again, or failed."""
    with transaction.atomic():
        sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.state != RecordState.VERIFYING or sub.attempts != attempt:
            return
        sub.message = message
        if sub.attempts >= RECORD_MAX_ATTEMPTS:
            sub.state = RecordState.FAILED
            sub.finished_at = timezone.now()
        else:
            sub.state = RecordState.PENDING
        sub.save()


def game_record_verify(
    *, submission_id: int, replay: Replay | None = None
) -> GameRecordSubmission | None:
    """Verify a submitted record with the engine and apply the verdict, exactly once.

    Idempotent: a record already done is left alone; a record another worker is
    verifying is left to it; the verdict is applied only by the attempt that
    claimed the record last. Returns the submission (None when nothing was done).
    """
    claimed = _claim(submission_id)
    if claimed is None:
        return None
    sub, attempt = claimed
    delay = _setting("GAME_RECORD_VERIFY_DELAY", 0)
    if delay:  # test hook: lets the worker-kill test stop a worker mid-verification
        import time

        time.sleep(delay)
    from celery.exceptions import SoftTimeLimitExceeded

    try:
        if replay is None:
            match = sub.match
            report = _real_replay(sub.text, match=match)
        else:
            report = replay(sub.text)
    except SoftTimeLimitExceeded:
        # Out of time, not a crash: the task releases the record (pending again, or failed
        # after the last attempt). It is an ``Exception``, so it must not reach the next line.
        raise
    except Exception as err:  # the engine promises not to raise; if it does, stop here
        log.exception("verifier crashed on game record %s", submission_id)
        with transaction.atomic():
            GameRecordSubmission.objects.filter(pk=sub.pk, attempts=attempt).update(
                state=RecordState.FAILED,
                finished_at=timezone.now(),
                message=f"The verifier crashed ({type(err).__name__}); an administrator "
                "has to look at this record.",
            )
        return GameRecordSubmission.objects.get(pk=sub.pk)
    with transaction.atomic():
        sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.state != RecordState.VERIFYING or sub.attempts != attempt:
            return None  # someone else finished or took over: apply nothing twice
        match = _lock(sub.match)
        # The verdict is stored (the record's message, the match's flag) and is English
        # like the engine's messages, whatever language the request that queued it used.
        with translation.override("en"):
            state, message = _record_apply(sub, match, report)
        sub.state = state
        sub.message = message
        sub.report = report.to_dict()
        sub.finished_at = timezone.now()
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


def _flag(match: Match, sub: GameRecordSubmission, message: str) -> tuple[str, str]:
    match.flag = message
    match.save(update_fields=["flag", "updated_at"])
    _event(match, EventKind.RECORD_MISMATCH, None, submission=sub.pk, message=message)
    return RecordState.MISMATCH, message


def _record_apply(sub: GameRecordSubmission, match: Match, report: Any) -> tuple[str, str]:
    """Phase 3: compare the verified record with the match and act on it."""
    if not report.valid:
        err = report.error
        where = ", ".join(
            part
            for part in (
                f"game {err.game}" if err is not None and err.game else "",
                f"line {err.line}" if err is not None and err.line else "",
            )
            if part
        )
        text = err.message if err is not None else "the record is not valid"
        return RecordState.INVALID, f"{where}: {text}" if where else text
    tournament = match.tournament
    tags: dict[str, str] = dict(report.tags or {})
    if report.rules and report.rules != tournament.rules:
        hint = "" if "Rules" in tags else " (the record has no Rules tag)"
        return _flag(
            match,
            sub,
            f"The record was checked under the {report.rules} rules{hint}, but this "
            f'tournament plays {tournament.rules}. Add [Rules "{tournament.rules}"] '
            "and submit again.",
        )
    scale = (tags.get("Scale") or "").strip().lower()
    if scale and scale != tournament.scale:
        return _flag(
            match, sub, f"The record's scale is {scale}; this tournament uses {tournament.scale}."
        )
    length = (tags.get("Length") or "").strip()
    if length and length != str(match.length):
        return _flag(
            match,
            sub,
            f"The record's match length is {length}; this match is played over "
            f"{match.length} games.",
        )
    sides = record_sides(match, tags)
    if isinstance(sides, str):
        return _flag(match, sub, sides)
    games = _active_games(match)
    record_games = list(report.games)
    for entered, played in zip(games, record_games, strict=False):
        if played.outcome is None:
            continue
        claimed = _mapped(played.outcome, sides)
        if claimed != entered.outcome_value():
            return _flag(
                match,
                sub,
                f"Game {entered.number}: the record gives “{_named(match, claimed)}”, but the "
                f"entered result is “{_named(match, entered.outcome_value())}”. A referee should "
                "check the game and correct whichever is wrong.",
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
                return _flag(match, sub, f"Game {played.number}: {err.message}")
            match.refresh_from_db()
        _event(match, EventKind.RECORD_VERIFIED, None, submission=sub.pk, entered=len(extra))
        return RecordState.ENTERED, (
            f"Verified; {len(common)} game(s) agree and {len(extra)} game(s) were entered "
            "from the record."
        )
    _event(match, EventKind.RECORD_VERIFIED, None, submission=sub.pk, entered=0)
    message = f"Verified; {len(common)} game(s) agree with the entered results."
    if extra:
        message += (
            f" Games {extra[0].number}–{extra[-1].number} are in the record but not entered; "
            "a referee enters them (or submits this record)."
        )
    return RecordState.VERIFIED, message


def _named(match: Match, outcome: Outcome) -> str:
    player = match.player_for(outcome.winner)
    return f"{player} ({outcome.winner.word}) {outcome.text().split(' ', 1)[1]}"
