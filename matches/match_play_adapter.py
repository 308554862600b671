"""The matches app's side of ``tournaments.match_play_port``: what tournament services ask of
matches, registered at start-up (``matches.apps``)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import ngettext

from core.errors import ValidationError
from core.reasons import Reason
from matches.group_standings import group_tables, open_table_matches
from matches.match_changes import NEWS_MATCHES_DRAWN, news_tell
from matches.match_creation import matches_create
from matches.models import OPEN_REPORT_STATES, Game, GameReport, Match
from matches.stage_handlers import handler_for
from matches.walkovers import match_withdrawal_apply
from tournaments.match_plans import PlannedMatch
from tournaments.models import Entry, Player, ResultsBy, Round, Tournament

__all__ = ["MATCH_PLAY", "Matches"]


class Matches:
    """``tournaments.match_play_port.MatchPlay``, implemented by this app's services."""

    def matches_create(
        self, *, tournament: Tournament, plan: Sequence[PlannedMatch], by: Any
    ) -> None:
        matches_create(tournament=tournament, plan=plan, by=by)
        news_tell(kind=NEWS_MATCHES_DRAWN, tournament_id=tournament.pk)

    def group_orders(self, *, tournament: Tournament) -> tuple[list[list[Player]], int, int]:
        handler = handler_for(tournament)
        orders = handler.orders(tournament) if handler.orders is not None else []
        return (
            orders,
            open_table_matches(tournament=tournament),
            handler.rounds_to_play(tournament),
        )

    def group_results(
        self, *, tournament: Tournament
    ) -> tuple[tuple[str, ...], dict[int, tuple[int, list[Decimal | None]]]]:
        tables = group_tables(tournament=tournament)
        chain = tables[0].chain if tables else ("match_points",)
        return chain, {
            line.player.pk: (line.played, list(line.values))
            for table in tables
            for line in table.lines
        }

    def withdrawal_apply(self, *, entry: Entry, by: Any, reason: Reason) -> None:
        match_withdrawal_apply(entry=entry, by=by, reason=reason)

    def round_started(self, *, round: Round) -> bool:
        return Game.objects.filter(match__round=round, voided_at__isnull=True).exists()

    def round_length_apply(self, *, round: Round, length: int) -> None:
        Match.objects.filter(round=round).update(length=length, length_unit=round.length_unit)

    def results_by_check(self, *, tournament: Tournament, results_by: str) -> None:
        """A tournament stops letting its players report only once no report is open, so
        no report is left that nobody may answer (``matches.reports``)."""
        if results_by == ResultsBy.PLAYERS:
            return
        count = GameReport.objects.filter(
            match__tournament=tournament, state__in=OPEN_REPORT_STATES
        ).count()
        if count:
            raise ValidationError(
                ngettext(
                    "%(count)s game reported by a player is waiting for an answer; the "
                    "referees decide it (enter the game, or close the report) before the "
                    "referees take over the results.",
                    "%(count)s games reported by players are waiting for an answer; the "
                    "referees decide them (enter the games, or close the reports) before the "
                    "referees take over the results.",
                    count,
                )
                % {"count": count},
                code="reports_open",
            )


MATCH_PLAY = Matches()
