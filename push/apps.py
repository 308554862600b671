from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Push"

    def ready(self) -> None:
        from push.publish import PUBLISHER
        from tournaments.page_versions import pages_watch

        pages_watch(watcher=PUBLISHER)
