"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app.

The Celery app is imported here so that ``@shared_task`` in the apps binds to it.
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
