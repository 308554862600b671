"""``python manage.py team_scores``: repair the team matches' stored scores.

- ``team_scores rebuild [--tournament N]``: read every team match's boards again (one
  tournament's with ``--tournament``) and store the score where the stored one differs
  (``teams.team_scores.team_scores_rebuild``), then say how many changed. A stored score
  goes stale only when a board's refresh never ran (a worker stopped between the commit
  and its callback); after correct refreshes: "stale scores stored anew: 0".
- ``team_scores rebuild --check``: change nothing; exit non-zero when any score is stale
  (for a cron job or a deploy check).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from teams.team_scores import team_scores_rebuild
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Recompute the team matches' stored scores from their boards, or check them."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        rebuild = sub.add_parser(
            "rebuild", help="recompute every team match's stored score from its boards"
        )
        rebuild.add_argument("--tournament", type=int, help="one tournament's id (default: all)")
        rebuild.add_argument(
            "--check",
            action="store_true",
            help="change nothing; exit non-zero when any stored score is stale",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament_id = options["tournament"]
        if tournament_id is not None and not Tournament.objects.filter(pk=tournament_id).exists():
            raise CommandError(f"no tournament {tournament_id}")
        summary = team_scores_rebuild(tournament_id=tournament_id, check=options["check"])
        if summary.written:
            self.stdout.write(
                f"team matches: {summary.team_matches}, stale scores stored anew: {summary.stale}"
            )
            return
        self.stdout.write(f"team matches: {summary.team_matches}, stale scores: {summary.stale}")
        if summary.stale:
            raise CommandError(
                f"{summary.stale} of {summary.team_matches} team-match scores differ from their "
                "boards; run `manage.py team_scores rebuild`"
            )
