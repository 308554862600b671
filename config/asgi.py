"""ASGI entry point: the push streams' own door for ``/push/`` (``push.front``: no Django
request handler, middleware or thread per stream), Django for everything else.

Production settings unless ``DJANGO_SETTINGS_MODULE`` says otherwise, as ``config/wsgi.py``.
"""

import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, cast

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_application = get_asgi_application()  # sets Django up: push.front imports models

from push.front import PREFIX, push_front  # noqa: E402

Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def application(scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "http" and scope["path"].startswith(PREFIX):
        await push_front(scope, receive, send)
    else:
        await django_application(cast(Any, scope), receive, cast(Any, send))
