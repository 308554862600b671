from django.apps import AppConfig


class ScoresheetsConfig(AppConfig):
    """The digital scoresheet: games recorded move by move at the table."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoresheets"
