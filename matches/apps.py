from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        from matches import tasks  # noqa: F401  (registers the tasks sent by name)
        from matches.match_play_adapter import MATCH_PLAY
        from tournaments.match_play_port import match_play_register

        # Tournament services reach matches through this port (tournaments.match_play_port).
        match_play_register(MATCH_PLAY)
