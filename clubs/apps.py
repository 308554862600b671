from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Ratings per game, club seasons, exports and archives (issue 15): what a club keeps
    beyond one tournament. The pure calculations are the ``ratings`` package."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"
