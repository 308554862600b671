from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Notifications: what waits for a person (their match is ready, a report to confirm,
    a dispute, a rejected record), on their home and by e-mail.

    The app sits above ``matches`` and ``tournaments`` as ``webhooks`` does: neither
    imports it; it hears of changes through their ports (``matches.match_changes``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from matches.match_changes import match_watcher_register, news_watcher_register
        from notifications import tasks  # noqa: F401  (registers the tasks sent by name)
        from notifications.events import match_changing_watch, news_watch

        match_watcher_register(match_changing_watch)
        news_watcher_register(news_watch)
