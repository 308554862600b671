from django.apps import AppConfig


class TeamsConfig(AppConfig):
    """A club's teams in a season and their rosters, and the team matches they play (a
    league in divisions, a team Swiss). Above ``clubs`` (a team belongs to a season; its
    boards follow the club's ratings), ``tournaments`` and ``matches`` (a team match's
    boards are matches); no app below imports it (``tests/test_layers.py``): it
    registers its stage's rows and its watcher of board matches when Django starts."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "teams"

    def ready(self) -> None:
        from matches.match_changes import match_watcher_register
        from teams.stage_rows import team_rows_register
        from teams.team_scores import team_board_follow

        team_rows_register()
        match_watcher_register(team_board_follow)
