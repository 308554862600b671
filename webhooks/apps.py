from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Webhooks: an organiser's URLs that hear of a tournament's results as they happen.

    The app sits above ``matches`` and ``tournaments`` as ``clubs`` does: neither imports
    it; it hears of changes through their ports (``matches.match_changes``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"

    def ready(self) -> None:
        from matches.match_changes import match_watcher_register, news_watcher_register
        from webhooks import tasks  # noqa: F401  (registers the tasks the services send by name)
        from webhooks.events import match_changing_watch, news_watch

        match_watcher_register(match_changing_watch)
        news_watcher_register(news_watch)
