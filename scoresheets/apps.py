from django.apps import AppConfig

# The live board's API path, answered from the cache for the crowd while it has not
# changed (``core.kept_responses``; ``scoresheets.urls`` under ``/api/``).
LIVE_BOARD_PATH = r"/api/matches/(\d+)/live/"


class ScoresheetsConfig(AppConfig):
    """The digital scoresheet: games recorded move by move at the table."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoresheets"

    def ready(self) -> None:
        # A reset match can be recorded again: matches tells this app through its port.
        from core.kept_responses import kept_path_register
        from matches.match_changes import games_removed_register, match_watcher_register
        from scoresheets.services import live_board_follow, live_boards_forget, live_games_remove
        from scoresheets.stamps import public_key
        from tournaments.tournament_changes import visibility_watcher_register

        games_removed_register(live_games_remove)
        # A change of the match that is not a turn (a confirmation, a correction, a
        # reset) moves its live board's version, so its followers see it.
        match_watcher_register(live_board_follow)
        # A tournament made private: its boards are no longer answered from the cache.
        visibility_watcher_register(live_boards_forget)
        # The crowd polling a board everyone may see is answered before Django while
        # the board's public validator names the answer kept (``scoresheets.stamps``).
        kept_path_register(LIVE_BOARD_PATH, lambda found: public_key(int(found[1])))
