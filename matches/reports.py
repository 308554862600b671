"""Players report their own results: services.

In a tournament whose results come from the players (``Tournament.results_by`` is
``players``), either player of a match reports a game (``game_report_submit``); the
other player confirms it (``game_report_confirm``) or disputes it
(``game_report_dispute``). A report counts for nothing until it is confirmed: only then
is the game added, through the same path as a referee's entry (``matches.results.locked_game_add``),
so scoring, the decision, advancement, versions and the audit trail are the same; its
result (source ``players``) names the reporter (``entered_by``), the confirmer
(``confirmed_by``) and the report.

The second person is enforced here and in the database, never only on a page: the
confirmer must be the *opponent*, the player on the other side of the match, signed in
as the user linked to that player; the reporter cannot confirm their own report, nor
can a referee or anyone else (``GameReport``'s ``report_answered_by_the_opponent`` and
``report_answered_by_another_user``, ``GameResult``'s ``players_result_has_report`` and
``players_result_confirmed_by_another``).

A dispute goes to the referees and organisers, who decide by entering the game
themselves (``matches.results.game_result_enter``: the report is then settled, state
``overridden``) or by closing the report (``game_report_withdraw``). They can always
enter or correct results in this mode too; a referee's entry, a walkover, a reset, or a
correction that decides the match settles the open reports it makes moot.

Decisions where the issue is silent:
- One open (pending or disputed) report per game, and only for the next game to be
  played: the one a referee would enter next (``one_open_report_per_game``).
- A report is checked when it is made as a referee's entry would be (the next game, the
  starter, the match rules: e.g. a resignation over the cap, S1), so the opponent is
  never asked to confirm what could not be entered.
- The reporter may withdraw a report while it is open (also a disputed one: the players
  found the mistake themselves), and report the game again.
- A tournament leaves the players mode only with no report open
  (``tournaments.tournament_setup.tournament_update``), so no report is left without anyone
  who may answer it.
- Only game 1's report names a starter (the tek, R2); later games are started by the
  loser of the game before (S5), as for a referee's entry.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_referee, player_of, signed_in
from engine.types import Side
from games.results import ResultValue
from matches.common import active_games, event_add, lock_match, match_snapshot
from matches.models import (
    OPEN_REPORT_STATES,
    EventKind,
    Game,
    GameRecordSubmission,
    GameReport,
    Match,
    RecordState,
    ReportState,
    ResultSource,
    result_columns,
)
from matches.result_values import result_wire
from matches.results import locked_game_add, next_game_check
from matches.standing import match_standing, result_check, result_text, result_words
from tournaments.models import Player, PrivateLink, ResultsBy

NOTE_MAX = 500


def report_to_dict(report: GameReport) -> dict[str, Any]:
    """A report as JSON, sent with conflicts so clients can show it."""
    return {
        "id": report.pk,
        "number": report.number,
        **result_wire(report.result_value()),
        "starter": report.starter or None,
        "state": report.state,
        "reporter": report.reporter_id,
    }


def _note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationError(
            _("A note holds at most %(n)s characters.") % {"n": NOTE_MAX}, code="note_too_long"
        )
    return note


def _player_side(
    by: User, match: Match, link: PrivateLink | None = None
) -> tuple[Player, Side] | None:
    """The player ``by`` is in ``match`` and their side, or None. With ``link`` (a
    player's private link, ``tournaments.private_links``) the link's player instead, in
    the link's tournament only."""
    if link is not None:
        if link.revoked_at is not None or link.tournament_id != match.tournament_id:
            return None
        player = link.player
        side = match.side_of(player)
        return None if side is None else (player, side)
    player = player_of(by)
    if player is None:
        return None
    side = match.side_of(player)
    return None if side is None else (player, side)


def _require_players_mode(match: Match) -> None:
    if match.tournament.results_by != ResultsBy.PLAYERS:
        raise PermissionDeniedError(
            _(
                "In this tournament the referees enter the results; players do not report "
                "them. Ask a referee."
            ),
            code="results_by_referees",
        )


def _locked_report(report: GameReport) -> tuple[Match, GameReport]:
    """The report's match locked (``common.lock_match``), then the report, freshly read."""
    match = lock_match(report.match)
    return match, GameReport.objects.select_for_update().get(pk=report.pk)


def _refuse_closed(report: GameReport) -> None:
    """``ConflictError`` unless the report is still open."""
    if report.is_open:
        return
    texts = {
        ReportState.CONFIRMED: _("Game %(n)s's report was confirmed already; it is the result."),
        ReportState.WITHDRAWN: _("Game %(n)s's report was withdrawn by its reporter."),
        ReportState.OVERRIDDEN: _(
            "Game %(n)s's report was settled by a referee or organiser; see the match."
        ),
    }
    raise ConflictError(
        texts[ReportState(report.state)] % {"n": report.number},
        code="report_closed",
        report=report_to_dict(report),
    )


def _opponent(
    report: GameReport, match: Match, by: User, action: str, link: PrivateLink | None = None
) -> tuple[Player, Side]:
    """The answering player: the reporter's opponent, signed in as that player's user
    (or holding that player's private link).

    ``action`` is the refused action, in the reader's language ("confirm", "dispute").
    """
    found = _player_side(by, match, link)
    reporter_user = report.reported_by_id is not None and report.reported_by_id == getattr(
        by, "pk", None
    )
    if reporter_user or (found is not None and found[1] == Side(report.reporter_side)):
        raise PermissionDeniedError(
            _(
                "You reported game %(n)s yourself; your opponent, %(player)s, must %(action)s "
                "it (a second person confirms every result)."
            )
            % {
                "n": report.number,
                "player": match.player_for(Side(report.reporter_side).other),
                "action": action,
            },
            code="own_report",
        )
    if found is None:
        raise PermissionDeniedError(
            _(
                "Only %(player)s, the opponent of the player who reported game %(n)s, may "
                "%(action)s it. Referees and organisers decide by entering the game."
            )
            % {
                "n": report.number,
                "player": match.player_for(Side(report.reporter_side).other),
                "action": action,
            },
            code="not_the_opponent",
        )
    return found


def game_report_submit(
    *,
    match: Match,
    number: int,
    result: ResultValue,
    by: User,
    starter: Side | str | None = None,
    note: str = "",
    site_note: str = "",
    link: PrivateLink | None = None,
) -> GameReport:
    """A player of ``match`` reports game ``number`` (the winner a seat: 0 is player1), for
    the opponent to confirm. Nothing counts until then. ``link``: the player acts
    through their private link (``by`` is then None), named in the audit row. ``note``
    is the player's words, ``site_note`` what the site notes itself (a ``SiteNote`` code:
    the digital scoresheet's); the confirmed result keeps both.

    ``PermissionDeniedError`` unless the tournament's players report (``results_by``) and
    ``by`` plays in the match; ``ConflictError`` when the game exists, the match is over
    or the game already has an open report (code ``report_open``, with that report);
    ``ValidationError`` for an impossible result, a game out of order, a wrong starter or
    a breach of the match rules (S1), as for a referee's entry.
    """
    _require_players_mode(match)
    found = _player_side(by, match, link)
    if found is None:
        raise PermissionDeniedError(
            _("Only the players of this match may report its games."), code="not_a_player"
        )
    player, side = found
    result_check(match, result)
    first = Side(starter) if starter else None
    note = _note(note)
    with transaction.atomic():
        locked = lock_match(match)
        games = active_games(locked)
        first = next_game_check(locked, games, number=number, starter=first, by=by)
        match_standing(locked, [g.result_value() for g in games] + [result])  # S1 and the rest
        existing = (
            GameReport.objects.filter(match=locked, number=number, state__in=OPEN_REPORT_STATES)
            .select_related("reporter")
            .first()
        )
        if existing is not None:
            raise _open_conflict(locked, existing)
        try:
            with transaction.atomic():
                report = GameReport.objects.create(
                    match=locked,
                    number=number,
                    # The tek is game 1's; later starters follow from the games (S5).
                    starter=first.value if first is not None and number == 1 else "",
                    **result_columns(result),
                    note=note,
                    site_note=site_note,
                    reported_by=signed_in(by),
                    reporter=player,
                    reporter_side=side.value,
                )
        except IntegrityError:
            # Only reachable where the row lock does not serialise writers (SQLite).
            raise ConflictError(
                _("Game %(n)s was reported by someone else at the same moment; reload the match.")
                % {"n": number},
                code="report_open",
                match=match_snapshot(locked),
            ) from None
        event_add(
            locked,
            EventKind.REPORT_SUBMITTED,
            by,
            report=report.pk,
            game=number,
            result=result_text(locked, result),
            player=player.pk,
            **_via(link),
        )
    return report


def _via(link: PrivateLink | None) -> dict[str, Any]:
    """The audit row's note of a private link used (``tournaments.private_links``)."""
    return {} if link is None else {"private_link": link.pk}


def _open_conflict(match: Match, existing: GameReport) -> ConflictError:
    return ConflictError(
        _(
            # Translators: %(result)s is the result, e.g. "Anna wins by jan".
            "Game %(n)s is reported already by %(who)s (%(result)s), waiting for an answer. "
            "Reload the match: confirm or dispute that report, or withdraw it if it is yours."
        )
        % {
            "n": existing.number,
            "who": existing.reporter.name,
            "result": result_words(match, existing),
        },
        code="report_open",
        report=report_to_dict(existing),
        match=match_snapshot(match),
    )


def game_report_confirm(*, report: GameReport, by: User, link: PrivateLink | None = None) -> Game:
    """The opponent confirms a pending report: it becomes game ``report.number``'s result
    (source ``players``; version 1), the match is scored, and a decided match sends its
    winner on, exactly as after a referee's entry.

    ``PermissionDeniedError`` for the reporter (code ``own_report``) and for anyone but
    the opponent (code ``not_the_opponent``: also referees, who enter the game instead);
    ``ConflictError`` when the report is no longer pending (code ``report_closed``, or
    ``report_disputed``: the referees decide it) or the game can no longer be added.
    """
    _require_players_mode(report.match)
    with transaction.atomic():
        match, report = _locked_report(report)
        player, side = _opponent(report, match, by, pgettext("a report", "confirm"), link)
        _refuse_closed(report)
        if report.state == ReportState.DISPUTED:
            raise ConflictError(
                _("Game %(n)s's report is disputed: the referees and organisers decide it now.")
                % {"n": report.number},
                code="report_disputed",
                report=report_to_dict(report),
            )
        now = timezone.now()
        report.state = ReportState.CONFIRMED
        report.answered_by = signed_in(by)
        report.answerer = player
        report.answerer_side = side.value
        report.answered_at = now
        report.save()
        event_add(
            match,
            EventKind.REPORT_CONFIRMED,
            by,
            report=report.pk,
            game=report.number,
            **_via(link),
        )
        return locked_game_add(
            match,
            number=report.number,
            result=report.result_value(),
            starter=Side(report.starter) if report.starter else None,
            by=by,
            source=ResultSource.PLAYERS,
            submission=_evidence(report),
            note=report.note,
            site_note=report.site_note,
            report=report,
        )


def _evidence(report: GameReport) -> GameRecordSubmission | None:
    """The record a report was recorded with (the digital scoresheet), unless the record
    was rejected: the confirmed game is verified by it, as a game entered from a record."""
    sub = report.submission
    if sub is None or sub.state in (RecordState.INVALID, RecordState.MISMATCH):
        return None
    return sub


def game_report_dispute(
    *, report: GameReport, by: User, note: str = "", link: PrivateLink | None = None
) -> GameReport:
    """The opponent disputes a pending report: it goes to the referees and organisers,
    who decide (by entering the game, or closing the report). ``note`` says why."""
    _require_players_mode(report.match)
    note = _note(note)
    with transaction.atomic():
        match, report = _locked_report(report)
        player, side = _opponent(report, match, by, pgettext("a report", "dispute"), link)
        _refuse_closed(report)
        if report.state == ReportState.DISPUTED:
            raise ConflictError(
                _("Game %(n)s's report is disputed already; the referees decide it.")
                % {"n": report.number},
                code="report_disputed",
                report=report_to_dict(report),
            )
        report.state = ReportState.DISPUTED
        report.answered_by = signed_in(by)
        report.answerer = player
        report.answerer_side = side.value
        report.answered_at = timezone.now()
        report.dispute_note = note
        report.save()
        event_add(
            match,
            EventKind.REPORT_DISPUTED,
            by,
            report=report.pk,
            game=report.number,
            note=note,
            **_via(link),
        )
    return report


def game_report_withdraw(
    *, report: GameReport, by: User, note: str = "", link: PrivateLink | None = None
) -> GameReport:
    """Close an open report without a result: its reporter withdraws it (state
    ``withdrawn``), or a referee or organiser closes it (state ``overridden``, e.g. a
    disputed game that is to be played again)."""
    note = _note(note)
    with transaction.atomic():
        match, report = _locked_report(report)
        own = report.reported_by_id is not None and report.reported_by_id == getattr(by, "pk", None)
        if link is not None:
            mine = _player_side(by, match, link)
            own = mine is not None and mine[1] == Side(report.reporter_side)
        staff = is_referee(by, match.tournament)
        if not (own or staff):
            raise PermissionDeniedError(
                _(
                    "Only the player who reported game %(n)s, the referees and the organisers "
                    "may withdraw its report."
                )
                % {"n": report.number},
                code="not_the_reporter",
            )
        _refuse_closed(report)
        report.state = ReportState.WITHDRAWN if own else ReportState.OVERRIDDEN
        report.closed_by = signed_in(by)
        report.closed_at = timezone.now()
        report.close_note = note
        report.save()
        kind = EventKind.REPORT_WITHDRAWN if own else EventKind.REPORT_OVERRIDDEN
        event_add(match, kind, by, report=report.pk, game=report.number, note=note, **_via(link))
    return report
