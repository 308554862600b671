from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Ratings per game, club seasons, exports and archives: what a club keeps
    beyond one tournament. The pure calculations are the ``ratings`` package."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"

    def ready(self) -> None:
        # Ratings follow every change to a match; matches reaches this app only
        # through its port (matches.match_changes), never by importing clubs.
        from clubs.rating_services import ratings_sync_on_commit
        from matches.match_changes import match_watcher_register

        match_watcher_register(ratings_sync_on_commit)
        # Only public tournaments' matches are rated: a tournament turning public or
        # private reaches this app through tournaments' port, never by importing clubs.
        from clubs.rating_services import tournament_visibility_changed
        from tournaments.tournament_changes import visibility_watcher_register

        visibility_watcher_register(tournament_visibility_changed)
