from django.apps import AppConfig


class ScoresheetsConfig(AppConfig):
    """The digital scoresheet: games recorded move by move at the table."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoresheets"

    def ready(self) -> None:
        # A reset match can be recorded again: matches tells this app through its port.
        from matches.match_changes import games_removed_register, match_watcher_register
        from scoresheets.services import live_board_follow, live_games_remove

        games_removed_register(live_games_remove)
        # A change of the match that is not a turn (a confirmation, a correction, a
        # reset) moves its live board's version, so its followers see it.
        match_watcher_register(live_board_follow)
