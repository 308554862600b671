"""``python manage.py ratings``: rebuild the ratings, show the list, set starting ratings.

- ``ratings rebuild [--game brade]``: recompute the game's ratings (every rated game when
  no ``--game``) from all its rated matches, in every kept formula
  (``clubs.rating_services.ratings_rebuild``) and say how many rows differed. After
  correct incremental updates nothing differs: "0 history rows written".
- ``ratings list [--game brade] [--formula fibs] [--limit N]``: the rating list, one
  player a line (rank, rating, experience, matches, name), tab-separated.
- ``ratings starts --from-player-rating [--game brade]``: copy the organisers'
  ``Player.rating`` into starting ratings (experience 0) for the players who have a
  rating there and no start yet in the game, then rebuild. Run once, on purpose, when a
  club brings its ratings from elsewhere (``clubs.rating_services``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import PlayerRating, RatingStart
from clubs.rating_services import RebuildSummary, rating_starts_set, ratings_rebuild
from ratings.formulas import DEFAULT_FORMULA, formula_keys
from ratings.ledger import RATED_GAMES
from tournaments.models import Player


class Command(BaseCommand):
    help = "Rebuild the ratings per game, print the rating list, or import starting ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        rebuild = sub.add_parser("rebuild", help="recompute the ratings from all rated matches")
        rebuild.add_argument("--game", choices=RATED_GAMES, help="one game (default: all)")
        listing = sub.add_parser("list", help="print the rating list")
        listing.add_argument("--game", choices=RATED_GAMES, default="brade")
        listing.add_argument("--formula", choices=formula_keys(), default=DEFAULT_FORMULA)
        listing.add_argument("--limit", type=int, default=0, help="at most N players")
        starts = sub.add_parser("starts", help="starting ratings from Player.rating")
        starts.add_argument("--game", choices=RATED_GAMES, default="brade")
        starts.add_argument(
            "--from-player-rating",
            action="store_true",
            required=True,
            help="copy Player.rating into starting ratings where a player has none",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "rebuild":
            games = [options["game"]] if options["game"] else list(RATED_GAMES)
            for game in games:
                self._report(ratings_rebuild(game=game))
        elif action == "list":
            rows = PlayerRating.objects.filter(
                game=options["game"], formula=options["formula"]
            ).select_related("player")
            rows = rows.order_by("-rating", "player__name", "player_id")
            if options["limit"]:
                rows = rows[: options["limit"]]
            for rank, row in enumerate(rows, start=1):
                self.stdout.write(
                    f"{rank}\t{row.rating}\t{row.experience}\t{row.matches}\t{row.player.name}"
                )
        else:
            self._starts(options["game"])

    def _report(self, summary: RebuildSummary) -> None:
        self.stdout.write(
            f"{summary.game}: {summary.matches} rated matches, {summary.players} players; "
            f"{summary.entries_written} history rows written, {summary.entries_removed} "
            f"removed, {summary.ratings_written} ratings written"
        )

    def _starts(self, game: str) -> None:
        staff = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
        if staff is None:
            raise CommandError("no superuser to record as the one who set the starts")
        have = RatingStart.objects.filter(game=game).values("player_id")
        players = Player.objects.filter(rating__isnull=False).exclude(pk__in=have)
        starts: dict[int, tuple[Any, int] | None] = {
            pk: (rating, 0) for pk, rating in players.values_list("pk", "rating")
        }
        self.stdout.write(f"{game}: {len(starts)} starting ratings from Player.rating")
        self._report(
            rating_starts_set(game=game, starts=starts, by=staff, note="from Player.rating")
        )
