from django.apps import AppConfig


class ScoresheetsConfig(AppConfig):
    """The digital scoresheet: games recorded move by move at the table."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoresheets"

    def ready(self) -> None:
        # A reset match can be recorded again: matches tells this app through its port.
        from matches.match_changes import games_removed_register
        from scoresheets.services import live_games_remove

        games_removed_register(live_games_remove)
