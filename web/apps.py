from django.apps import AppConfig


class WebConfig(AppConfig):
    """Server-rendered pages over the tournaments/matches services."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
