from django.apps import AppConfig


class TeamsConfig(AppConfig):
    """A club's teams in a season and their rosters: the first part of team matches and
    leagues. Above ``clubs`` (a team belongs to a season; its boards follow the club's
    ratings) and ``tournaments`` (its players); no app below imports it
    (``tests/test_layers.py``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "teams"
