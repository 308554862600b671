from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        # Tournament services reach matches through this port (tournaments.matchplay).
        from matches.matchplay import MATCH_PLAY
        from tournaments.matchplay import match_play_register

        match_play_register(MATCH_PLAY)
